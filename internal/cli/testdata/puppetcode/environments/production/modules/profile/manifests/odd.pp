class profile::odd (
  Profile::Loop $looping = 1,
  Profile::Nope $unknown = 1,
) {}
