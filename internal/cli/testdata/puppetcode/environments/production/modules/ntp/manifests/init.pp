# @summary A class written for check's test, modelled on puppetlabs-ntp (Apache-2.0).
class ntp (
  Array[String, 1, 2]                     $servers,
  Enum['running', 'stopped']              $service_ensure = 'running',
  Stdlib::Port                            $port = 123,
  Optional[Ntp::Key_id]                   $keys_controlkey = undef,
  Boolean                                 $burst = false,
) {
  $config = @("CONF")
    # servers: ${servers.join(' ')}
    port ${port}
    | CONF
  file { '/etc/ntp.conf': content => $config }
}
