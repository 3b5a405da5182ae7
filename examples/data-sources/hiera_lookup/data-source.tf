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

# As Puppet's lookup(): merged as lookup_options in the data say, else the first value found.
data "hiera_lookup" "ntp_servers" {
  key           = "profile::ntp::servers"
  default_value = ["pool.ntp.org"]
}

# A dotted key digs into the result; the value keeps its type (a number here).
data "hiera_lookup" "alice_uid" {
  key = "accounts::users.alice.uid"
}

# A merge block wins over lookup_options.
data "hiera_lookup" "users" {
  key = "accounts::users"

  merge {
    strategy        = "deep"
    knockout_prefix = "--"
  }
}

# Another node's view of the same data: facts merge over the provider's, key by key
# (a data source's own facts_file too: facts_file = "${path.module}/facts/db01.json").
data "hiera_lookup" "db_packages" {
  key   = "packages"
  facts = { role = "db" }
}

output "ntp_servers" {
  value = data.hiera_lookup.ntp_servers.value # a list, from the data or the default
}

output "next_uid" {
  value = data.hiera_lookup.alice_uid.value + 1
}

output "users_in_hiera_order" {
  value = data.hiera_lookup.users.json
}
