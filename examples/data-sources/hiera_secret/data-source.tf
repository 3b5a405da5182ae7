# hiera.yaml has an eyaml level, for example:
#
#   - name: "Secrets"
#     lookup_key: eyaml_lookup_key
#     path: "secrets/%{trusted.certname}.eyaml"
#     options:
#       pkcs7_private_key: keys/private_key.pkcs7.pem
#       pkcs7_public_key: keys/public_key.pkcs7.pem
#
# and secrets/web01.example.com.eyaml holds "profile::db::password: ENC[PKCS7,MIIBiQYJ...]".

data "hiera_secret" "db_password" {
  key = "profile::db::password"
}

# The value is marked sensitive: Terraform hides it in plan output, and an output must say so.
# It is still stored in the state; the ephemeral resource hiera_lookup keeps it out.
output "db_password" {
  value     = data.hiera_secret.db_password.value
  sensitive = true
}
