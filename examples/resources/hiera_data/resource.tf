terraform {
  required_version = ">= 1.11.0" # secret_values_wo: write-only arguments
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
    random = {
      source = "hashicorp/random"
    }
  }
}

provider "hiera" {
  config = "${path.module}/hiera.yaml"
}

# A password Terraform generates and never stores (ephemeral: not in plan or state).
ephemeral "random_password" "db" {
  length = 24
}

# What Puppet needs from Terraform, in the node's own data file (created when missing; every other
# key and comment a person wrote there is kept).
resource "hiera_data" "db01" {
  path   = "${path.module}/data/nodes/db01.example.com.yaml"
  config = "${path.module}/hiera.yaml" # the file must be one a level of this hierarchy reads
  values = {
    "profile::db::listen"          = "10.0.2.15"
    "profile::db::max_connections" = 200
    "profile::db::replicas"        = ["10.0.2.16", "10.0.2.17"]
    "profile::db::tuning"          = { shared_buffers = "2GB", work_mem = "64MB" }
  }
  # Written as ENC[PKCS7,...] for the eyaml public key; Puppet decrypts it with the private key.
  secret_values_wo         = { "profile::db::password" = ephemeral.random_password.db.result }
  secret_values_wo_version = 1 # change it to write the secrets again
  eyaml_public_key         = file("${path.module}/keys/public_key.pkcs7.pem")
}
