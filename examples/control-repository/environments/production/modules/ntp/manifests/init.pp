# The class the ntp module's data feeds through automatic parameter lookup (written for this
# example, modelled on puppetlabs-ntp, Apache-2.0): the key ntp::servers is the parameter $servers.
class ntp (
  Array[String[1], 1]                                                                $servers,
  Enum['running', 'stopped']                                                         $service_ensure,
  String[1]                                                                          $service_name,
  Struct[{ driftfile => String[1], minpoll => Ntp::Poll_interval, maxpoll => Ntp::Poll_interval }] $config,
) {
  service { $service_name:
    ensure => $service_ensure,
  }
}
