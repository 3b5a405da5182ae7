module github.com/hieraform/terraform-provider-hiera

go 1.25.8

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/hashicorp/terraform-plugin-framework v1.19.0 // indirect
	github.com/hashicorp/terraform-plugin-framework-validators v0.19.0 // indirect
	github.com/hashicorp/terraform-plugin-go v0.31.0 // indirect
	github.com/hashicorp/terraform-plugin-log v0.11.0 // indirect
	github.com/hashicorp/terraform-plugin-testing v1.16.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
