# Quickstart: one web node's view of the Hiera data beside this file.
terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

provider "hiera" {
  config = "${path.module}/hiera.yaml"
  # The node's facts as Facter 4 prints them (`facter -j > facts/web01.json` on the node). A role of
  # our own goes over them.
  facts_file = "${path.module}/facts/web01.json"
  facts      = { role = "web" }
  scope = {
    environment = "production"
    # The node's certname, as its certificate names it: facter -j prints none (without it, the
    # networking.fqdn fact names the node, with a warning that says so).
    trusted = { certname = "web01.example.com" }
  }
}

# Interpolation: facts, the top-scope role and the environment from scope.
data "hiera_lookup" "motd" {
  key = "motd"
}

# lookup_options in common.yaml make this a deep merge of the node, role and common levels.
data "hiera_lookup" "users" {
  key = "accounts::users"
}

# Every level's packages, without duplicates.
data "hiera_array" "packages" {
  key = "packages"
}

# The vhosts of every level, merged, as an object to for_each over.
data "hiera_hash" "vhosts" {
  key = "nginx::vhosts"
}

resource "terraform_data" "vhost" {
  for_each = data.hiera_hash.vhosts.value

  input = {
    listen  = each.value.port
    docroot = each.value.docroot
    tls     = try(each.value.tls, false)
  }
}

# A key no level has: the default comes back, typed, with found = false.
data "hiera_lookup" "ntp" {
  key           = "ntp::servers"
  default_value = ["0.pool.ntp.org", "1.pool.ntp.org"]
}

output "motd" {
  value = data.hiera_lookup.motd.value
}

output "users" {
  value = data.hiera_lookup.users.value
}

output "users_json" {
  value = data.hiera_lookup.users.json
}

output "alice_next_uid" {
  value = data.hiera_lookup.users.value.alice.uid + 1
}

output "packages" {
  value = data.hiera_array.packages.value
}

output "vhosts" {
  value = { for name, v in terraform_data.vhost : name => v.output }
}

output "ntp" {
  value = { servers = data.hiera_lookup.ntp.value, found = data.hiera_lookup.ntp.found }
}
