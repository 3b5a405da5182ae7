class profile::base (
  Boolean $verbose,
  String $motd = 'welcome',
) {
  notify { $motd: }
}
