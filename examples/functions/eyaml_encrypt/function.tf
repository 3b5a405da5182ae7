terraform {
  required_version = ">= 1.8.0"
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
    random = {
      source = "hashicorp/random"
    }
    local = {
      source = "hashicorp/local"
    }
  }
}

# A password Terraform generates, written into Hiera data encrypted for the eyaml public key.
# Puppet decrypts it with the private key, which Terraform never needs.
resource "random_password" "db" {
  length = 32
}

resource "local_file" "db_secrets" {
  filename = "${path.module}/data/secrets/db.eyaml"
  content = yamlencode({
    "profile::db::password" = provider::hiera::eyaml_encrypt(file("${path.module}/keys/public_key.pkcs7.pem"), random_password.db.result)
  })
}

# The same key and value give the same ENC value at every plan: no change is planned until one of
# them changes.
output "example" {
  value = provider::hiera::eyaml_encrypt(file("${path.module}/keys/public_key.pkcs7.pem"), "not a secret")
  # "ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIBHQIBADAFMAACAQEwDQYJ...]"
}
