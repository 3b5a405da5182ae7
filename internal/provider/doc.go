// Package provider implements the hiera Terraform provider: Hiera lookups as data sources, an
// ephemeral resource for secrets, and merge and lookup functions. README.md beside this package
// says which file does what and where to make a change.
package provider
