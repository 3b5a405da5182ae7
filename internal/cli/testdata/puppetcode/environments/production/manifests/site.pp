node default {
  $extra = lookup('profile::base::extra')
  include ntp
}
