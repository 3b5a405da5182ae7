terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

# No config: hiera.yaml in the working directory.
provider "hiera" {
  facts = merge(yamldecode(file("${path.module}/facts/web01.yaml")), { role = "web" })
}

# As Puppet's hiera_array(): every level's values in one list, without duplicates,
# highest level first. A single value comes back as a one-element list.
data "hiera_array" "packages" {
  key = "packages"
}

output "packages" {
  value = data.hiera_array.packages.value
}
