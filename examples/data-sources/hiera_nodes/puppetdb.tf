terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

provider "hiera" {
  config = "${path.module}/hiera.yaml"
  puppetdb {
    url = "http://localhost:8080" # PuppetDB's plain port on its own host; https with certificates elsewhere
  }
}

data "hiera_nodes" "web" {
  puppetdb {
    query = "inventory[certname, facts] { facts.role = \"web\" }"
  }
  keys = ["packages"]
}

output "packages" {
  value = { for name, node in data.hiera_nodes.web.values : name => try(node["packages"], []) }
}
