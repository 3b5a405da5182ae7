# A class as Forge modules write them (modelled on puppetlabs-ntp, Apache-2.0), with the
# constructs a reader must step over.
class ntp (
  Array[Stdlib::Host] $servers = ['0.pool.ntp.org', "1.pool.ntp.org"],
  Variant[
    Boolean,           # a comment inside a type
    Enum['auto']
  ] $iburst = 'auto',
  $untyped,
  Optional[Stdlib::Port] $port = undef,
  Hash $options = { 'a' => [1, 2], 'b' => { 'c' => '}' } },
  String $banner = @("END"),
    Hello ${facts['networking']['fqdn']} }
    | END
  Integer $ratio = 10 / 2,
) inherits ntp::params {
  $pattern = /^(\d+)\/[a-z]+$/
  $half = $ratio / 2
  $quoted = "a ${servers.map |$s| { "<${s}>" }.join(',')} b \" c"
  /* a block comment
     class fake ( $nope ) { } */
  if $facts['os']['family'] =~ /RedHat/ {
    $keys = lookup('ntp::keys')
    $more = lookup({ 'name' => 'ntp::more', 'default_value' => [] })
    $both = lookup(['ntp::first', 'ntp::second'], Array, 'unique', [])
    $legacy = hiera_hash('ntp::legacy_hash')
    $dynamic = lookup("ntp::${name}")
  }
  class config (Boolean $enable) {
    $x = hiera('ntp::config_key', 'default')
  }
  class { 'ntp::service': }
  $c = Class['ntp::service']
  $two = @(ONE) + @(TWO)
    first
    ONE
    second
    TWO
  file { '/etc/ntp.conf': content => "${two}\n" }
}

define ntp::peer (String $address) {
  hiera_include('ntp::peer_classes')
}

type Ntp::Key_id = Integer[1, 65535]
type Ntp::Server = Variant[Stdlib::Host, Struct[{ host => Stdlib::Host, Optional[key] => Ntp::Key_id }]]
