provider "hiera" {
  # The hiera.yaml to use; paths inside it (datadir) are relative to its own directory.
  config = "${path.module}/hiera.yaml"

  # The node's facts: %{facts.hostname}, and as top-scope variables %{hostname} / %{::hostname}.
  facts = {
    hostname = "web01"
    role     = "web"
    os       = { family = "Debian", release = { major = 12 } }
  }

  # Other top-scope variables the hierarchy uses.
  scope = {
    trusted     = { certname = "web01.example.com" }
    environment = "production"
  }
}
