terraform {
  required_version = ">= 1.8.0"
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

locals {
  hiera_yaml = "${path.module}/hiera.yaml"
  node = {
    clientcert = "web01.example.com" # also %{trusted.certname}, as with puppet lookup
    role       = "web"
    os         = { family = "Debian" }
  }
}

# One lookup without a data source. The provider block's facts do not reach functions: pass them.
output "ntp_servers" {
  value = provider::hiera::lookup(local.hiera_yaml, "profile::ntp::servers", local.node)
}

# A missing key is an error; try() turns it into a default.
output "motd" {
  value = try(provider::hiera::lookup(local.hiera_yaml, "profile::motd", local.node), "Welcome")
}

# Other top-scope variables (trusted, server_facts, environment) go in an optional fourth argument.
output "db_port" {
  value = provider::hiera::lookup(local.hiera_yaml, "profile::db::port", { role = "db" }, { environment = "staging" })
}
