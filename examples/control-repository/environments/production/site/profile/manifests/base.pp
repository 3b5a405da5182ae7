# Every node's base profile: the packages and the message of the day its data gives.
class profile::base (
  Array[String[1]] $packages,
  String           $motd,
) {
  package { $packages:
    ensure => installed,
  }
  file { '/etc/motd':
    content => "${motd}\n",
  }
}
