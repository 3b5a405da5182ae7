terraform {
  required_version = ">= 1.8.0"
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

locals {
  defaults = {
    instance = { type = "t3.small", disk_gb = 20, tags = { team = "platform" } }
    ports    = [22, 443]
  }
  prod = {
    instance = { type = "m6i.large", tags = { env = "prod" } }
    ports    = [8443]
  }
}

# Terraform's merge() is shallow: it would replace instance whole and lose disk_gb and the team tag.
output "settings" {
  value = provider::hiera::deep_merge(local.defaults, local.prod)
  # {
  #   instance = { disk_gb = 20, tags = { env = "prod", team = "platform" }, type = "m6i.large" }
  #   ports    = [22, 443, 8443]
  # }
}

# Any number of layers, later ones winning; a list of layers expands into arguments with "...".
output "layered" {
  value = provider::hiera::deep_merge([local.defaults, local.prod, { instance = { disk_gb = 50 } }]...)
}
