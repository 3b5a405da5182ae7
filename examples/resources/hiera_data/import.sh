# The file's every root key: plain values as values, eyaml values as secret_keys.
terraform import hiera_data.db01 data/nodes/db01.example.com.yaml
