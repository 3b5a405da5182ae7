# As Puppet's hiera_array(): every level's values in one list, without duplicates,
# highest level first. A single value comes back as a one-element list.
data "hiera_array" "packages" {
  key = "packages"
}

output "packages" {
  value = data.hiera_array.packages.value
}
