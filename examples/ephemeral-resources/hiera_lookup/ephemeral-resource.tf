terraform {
  required_version = ">= 1.10.0"
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
    postgresql = {
      source = "cyrilgdn/postgresql"
    }
  }
}

provider "hiera" {
  config = "${path.module}/hiera.yaml"
  facts  = { fqdn = "web01.example.com" } # trusted.certname
}

# profile::db::password is ENC[PKCS7,...] in an eyaml level of hiera.yaml (lookup_key: eyaml_lookup_key).
ephemeral "hiera_lookup" "db_password" {
  key        = "profile::db::password"
  value_type = "String[16]"
}

# Ephemeral values can configure a provider: the password is decrypted at every run and never
# written to the plan or the state.
provider "postgresql" {
  host     = "db.example.com"
  username = "terraform"
  password = ephemeral.hiera_lookup.db_password.value
}
