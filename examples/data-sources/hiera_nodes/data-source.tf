terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

# No config: hiera.yaml in the working directory.
provider "hiera" {}

# The whole fleet in one data source: one node per file of a copy of the Puppet Server's facts
# cache (/opt/puppetlabs/server/data/puppetserver/yaml/facts), each named by its certname.
data "hiera_nodes" "fleet" {
  facts_dir = "${path.module}/facts-cache"
  keys      = ["packages", "profile::ntp::servers"]
}

# One instance per node, keyed by certname.
resource "terraform_data" "packages" {
  for_each = data.hiera_nodes.fleet.values
  input    = try(each.value["packages"], [])
}

# Nodes given by name, beside or instead of a directory; select keeps those whose names match.
data "hiera_nodes" "web" {
  facts_dir = "${path.module}/facts-cache"
  nodes = {
    "web02.example.com" = { hostname = "web02", role = "web", os = { family = "Debian" } }
  }
  select = ["web*"]
  facts  = { datacenter = "fra" } # every node gets these, below its own facts

  # Provenance and Hiera-ordered JSON for the few nodes selected; without these both are null.
  with_sources = true
  with_json    = true
}

output "nodes" {
  value = data.hiera_nodes.fleet.node_names
}

# Every web node's whole data as one JSON document each, in Hiera's order.
output "web_hieradata" {
  value = data.hiera_nodes.web.json
}

# Where each node's packages come from.
output "packages_from" {
  value = { for name, sources in data.hiera_nodes.web.sources : name => [for s in sources["packages"] : "${s.level}: ${s.file}"] }
}

# Keys that failed on a node (an eyaml value without its key on this machine), by node.
output "failed" {
  value = { for name, failed in data.hiera_nodes.web.failed_keys : name => keys(failed) if length(failed) > 0 }
}
