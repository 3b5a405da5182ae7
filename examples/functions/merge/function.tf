terraform {
  required_version = ">= 1.8.0"
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

locals {
  common = { packages = ["vim", "curl", "telnet"], users = { alice = { shell = "/bin/bash" } } }
  web    = { packages = ["nginx", "--telnet"], users = { alice = { groups = ["www-data"] } } }
}

# Hiera's deep merge with the options lookup_options would give it: "--telnet" knocks telnet out.
output "deep" {
  value = provider::hiera::merge({ strategy = "deep", knockout_prefix = "--", sort_merged_arrays = true }, local.common, local.web)
  # { packages = ["curl", "nginx", "vim"], users = { alice = { groups = ["www-data"], shell = "/bin/bash" } } }
}

# Top-level keys only: web's alice replaces common's whole.
output "hash" {
  value = provider::hiera::merge("hash", local.common, local.web)
}

# One list without duplicates. As Hiera lists the most specific level's values first, the last
# argument's values come first.
output "unique" {
  value = provider::hiera::merge("unique", ["vim", "curl"], "git", ["curl", "nginx"])
  # ["curl", "nginx", "git", "vim"]
}
