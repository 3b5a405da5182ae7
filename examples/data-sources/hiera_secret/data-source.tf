terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

# hiera.yaml (in the working directory) has an eyaml level, for example:
#
#   defaults:
#     datadir: data
#   hierarchy:
#     - name: "Secrets"
#       lookup_key: eyaml_lookup_key
#       path: "secrets/%{trusted.certname}.eyaml"
#       options:
#         pkcs7_private_key: keys/private_key.pkcs7.pem
#         pkcs7_public_key: keys/public_key.pkcs7.pem
#
# and data/secrets/web01.example.com.eyaml (the path is under the datadir; the key paths are
# relative to hiera.yaml's directory) holds "profile::db::password: ENC[PKCS7,MIIBiQYJ...]".
provider "hiera" {
  facts = { fqdn = "web01.example.com" } # trusted.certname
}

data "hiera_secret" "db_password" {
  key = "profile::db::password"
}

# The value is marked sensitive: Terraform hides it in plan output, and an output must say so.
# It is still stored in the state; the ephemeral resource hiera_lookup keeps it out.
output "db_password" {
  value     = data.hiera_secret.db_password.value
  sensitive = true
}
