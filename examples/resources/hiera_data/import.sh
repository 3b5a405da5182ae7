# The file's every root key: plain values as values, eyaml values as secret_keys.
# The id is the file, spelled as the resource's path ("${path.module}/data/..." in the root module).
terraform import hiera_data.db01 ./data/nodes/db01.example.com.yaml
