terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

# No config: hiera.yaml in the working directory.
provider "hiera" {
  # The node's facts as facter reports them (facter -j, or puppet facts show), and a role of our own.
  facts_file = "${path.module}/facts/web01.yaml"
  facts      = { role = "web" }
}

# As Puppet's hiera_hash(): the hashes of every level merged, top-level keys only.
data "hiera_hash" "vhosts" {
  key = "nginx::vhosts"
}

# The value is an object: for_each over it, and index nested values directly.
resource "terraform_data" "vhost" {
  for_each = data.hiera_hash.vhosts.value

  input = {
    name    = each.key
    port    = each.value.port
    docroot = each.value.docroot
    tls     = try(each.value.tls, false)
  }
}
