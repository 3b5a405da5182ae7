class profile::web (
  Sensitive[String] $api_token,
) {}
