# A Puppet control repository read as `puppet lookup --environment production` reads it: the
# environment's hiera.yaml, its site module (profile) and a module that ships data (ntp), found
# through environment.conf's `modulepath = site:modules`.
terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

provider "hiera" {
  # No config: no global layer, as on a Puppet server whose global hiera.yaml is empty.
  environment = "${path.module}/environments/production"
  facts = {
    role = "web"
    os   = { family = "Debian" }
  }
  scope = {
    trusted = { certname = "web01.example.com" }
  }
}

# The environment's data wins over the module's default.
data "hiera_lookup" "ntp_servers" {
  key = "ntp::servers"
}

# Only the module has it: its default, from its own hierarchy (os/Debian.yaml).
data "hiera_lookup" "ntp_service" {
  key = "ntp::service_name"
}

# The module's lookup_options make this a deep merge of the environment's levels and the module's.
data "hiera_lookup" "ntp_config" {
  key     = "ntp::config"
  explain = true
}

# The site module's lookup_options: a unique merge of the node's packages and the profile's.
data "hiera_lookup" "packages" {
  key = "profile::base::packages"
}

# %{environment} is the environment directory's name.
data "hiera_lookup" "motd" {
  key = "profile::base::motd"
}

# The node's values against the Puppet code that reads them: each class parameter's declared type
# (modules/ntp/manifests/init.pp, site/profile/manifests/base.pp) checked as Puppet checks it when
# it compiles the class. The plan stops on a value of the wrong type, naming its file and line.
data "hiera_node" "web01" {
  check_params = true

  lifecycle {
    postcondition {
      condition     = length(self.param_problems) == 0
      error_message = join("\n", values(self.param_problems))
    }
  }
}

output "ntp_servers" {
  value = data.hiera_lookup.ntp_servers.value
}

output "ntp_service" {
  value = data.hiera_lookup.ntp_service.value
}

output "ntp_config" {
  value = data.hiera_lookup.ntp_config.value
}

output "packages" {
  value = data.hiera_lookup.packages.value
}

output "motd" {
  value = data.hiera_lookup.motd.value
}

# How each value was found, layer by layer, like `puppet lookup --explain`.
output "ntp_config_explained" {
  value = data.hiera_lookup.ntp_config.explanation
}
