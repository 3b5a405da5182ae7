class profile::broken {
  $x = 'never closed
}
