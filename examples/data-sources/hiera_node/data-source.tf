terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

# No config: hiera.yaml in the working directory.
provider "hiera" {}

locals {
  # The fleet: each node's facts, as facter reports them.
  nodes = {
    web01 = merge(yamldecode(file("${path.module}/facts/web01.yaml")), { role = "web" })
    db01  = { hostname = "db01", fqdn = "db01.example.com", role = "db", os = { family = "RedHat" } }
  }
}

# One data source per node: every key its hierarchy reaches, each answered as hiera_lookup answers it.
data "hiera_node" "fleet" {
  for_each = local.nodes
  facts    = each.value
  scope    = { trusted = { certname = each.value.fqdn } }
}

# Only some keys, by name: dotted keys dig as in hiera_lookup, keys no level has are in missing_keys.
# The facts straight from facter's file (its order kept), a role of our own over them.
data "hiera_node" "web01_keys" {
  facts_file = "${path.module}/facts/web01.yaml"
  facts      = { role = "web" }
  keys       = ["packages", "accounts::users.alice.shell", "no::such::key"]
}

# Only the keys that start with a prefix.
data "hiera_node" "web01_profile" {
  facts    = local.nodes.web01
  scope    = { trusted = { certname = "web01.example.com" } }
  prefixes = ["profile::"]
}

# Every node's packages, with their real types.
output "packages" {
  value = { for name, node in data.hiera_node.fleet : name => node.values.packages }
}

# Where does web01's value come from? The data files, most specific first.
output "packages_from" {
  value = [for s in data.hiera_node.fleet["web01"].sources["packages"] : "${s.level}: ${s.file}"]
}

# A node's whole data as one JSON document (terraform output -raw web01_hieradata > web01.json).
output "web01_hieradata" {
  value = data.hiera_node.fleet["web01"].json
}

output "missing" {
  value = data.hiera_node.web01_keys.missing_keys
}

output "profile_keys" {
  value = data.hiera_node.web01_profile.found_keys
}
