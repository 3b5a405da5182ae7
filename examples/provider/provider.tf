provider "hiera" {
  # The hiera.yaml to use; paths inside it (datadir) are relative to its own directory.
  config = "${path.module}/hiera.yaml"

  # Or, or as well: a Puppet environment (its hiera.yaml, and the data its modules ship, found through
  # environment.conf's modulepath), as `puppet lookup --environment production` reads it.
  # environment = "${path.module}/environments/production"
  # modulepath  = ["${path.module}/site", "${path.module}/modules"] # overrides environment.conf's modulepath

  # The node's facts: %{facts.hostname}, and as top-scope variables %{hostname} / %{::hostname}.
  facts = {
    hostname = "web01"
    role     = "web"
    os       = { family = "Debian", release = { major = 12 } }
  }

  # Other top-scope variables the hierarchy uses.
  scope = {
    trusted     = { certname = "web01.example.com" }
    environment = "production"
  }
}
