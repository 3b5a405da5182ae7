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

  # The node's facts as Puppet has them: what `facter -j` (or `puppet facts show`, or
  # `facter --yaml --show-legacy`) prints on the node, saved beside the configuration, in the
  # file's order; facts of your own are merged over them. The hierarchy sees them as
  # %{facts.os.family}, and as top-scope variables %{role} / %{::role}; trusted.certname comes
  # from the clientcert or fqdn fact, else (Facter 4's facter -j) networking.fqdn, with a warning.
  facts_file = "${path.module}/facts/web01.yaml"
  facts      = { role = "web" }

  # A data source with a facts_file of its own answers for that file's node: its facts replace
  # these (web01's role does not leak into db01). true merges them over these instead.
  # facts_file_merge = true

  # Other top-scope variables the hierarchy uses.
  scope = {
    environment = "production"
  }
}
