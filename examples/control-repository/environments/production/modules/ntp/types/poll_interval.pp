# NTP's poll interval, as a power of two seconds.
type Ntp::Poll_interval = Integer[3, 17]
