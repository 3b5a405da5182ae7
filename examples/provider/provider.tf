terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

provider "hiera" {
  # The hiera.yaml to use; paths inside it (datadir) are relative to its own directory.
  config = "${path.module}/hiera.yaml"

  # Or, or as well: a Puppet environment (its hiera.yaml, and the data its modules ship, found through
  # environment.conf's modulepath), as `puppet lookup --environment production` reads it.
  # environment = "${path.module}/environments/production"
  # modulepath  = ["${path.module}/site", "${path.module}/modules"] # overrides environment.conf's modulepath

  # The node's facts as Puppet has them: what `facter --yaml --show-legacy` (or
  # `puppet facts show --render-as yaml`) prints on the node, saved beside the configuration,
  # plus a fact of your own. The hierarchy sees them as %{facts.os.family}, and as top-scope
  # variables %{role} / %{::role}; trusted.certname comes from the fqdn fact.
  facts = merge(yamldecode(file("${path.module}/facts/web01.yaml")), { role = "web" })

  # Other top-scope variables the hierarchy uses.
  scope = {
    environment = "production"
  }
}
