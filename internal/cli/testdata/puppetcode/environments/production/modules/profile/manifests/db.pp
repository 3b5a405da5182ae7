class profile::db (
  Sensitive[String[8]] $password,
) {}
