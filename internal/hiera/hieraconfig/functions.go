package hieraconfig

import (
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Function is one Hiera data function ("backend") as hiera.yaml names it, with the rules Puppet
// applies to it before reading anything. Puppet's model is the same: a function name names a data
// provider of one kind (data_hash or lookup_key) with its own options. How its files are read is
// the engine's business (the core's backends.go), one reader per row below.
type Function struct {
	Name string
	Kind string // the hiera.yaml key that names it: data_hash or lookup_key

	// PathOnly: Puppet's signature is Struct[{path=>String[1]}], so any option in hiera.yaml is
	// an error (a version 3 backend's settings are not options in that sense).
	PathOnly bool
	// MissingPath is Puppet's error when the entry names no file (none, or only uri/uris).
	MissingPath string
	// Encrypted: values may hold eyaml ENC[...] tokens, decrypted after reading; a value
	// decryption changes is secret.
	Encrypted bool

	// V3Backend is the Hiera 3 backend name a version 3 hiera.yaml uses for this function, and
	// V3Extension the extension of its files unless the backend's :extension: names another.
	V3Backend, V3Extension string
	// Refusal, when set, is why the engine does not serve a function Puppet has: serving it
	// would run code or need a library the engine does not have.
	Refusal string
	// Custom marks a function of no row here: a module's or a site's own (wmflib::regex_data, a
	// Vault or Consul backend). hiera.yaml is valid with it, as Puppet loads a function only
	// when a lookup reaches its level; the engine decides then (the core's customlevels.go).
	Custom bool
}

// missingPathText is the end of Puppet's error for an entry without a file location.
const missingPathText = "one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this "

// Functions are the data functions, in the order their names are listed in messages.
var Functions = []*Function{
	{
		Name: "yaml_data", Kind: "data_hash", PathOnly: true,
		MissingPath: "'yaml_data' " + missingPathText + "data_hash function", V3Backend: "yaml", V3Extension: ".yaml",
	},
	{
		Name: "json_data", Kind: "data_hash", PathOnly: true,
		MissingPath: "'json_data' " + missingPathText + "data_hash function", V3Backend: "json", V3Extension: ".json",
	},
	{
		Name: "eyaml_lookup_key", Kind: "lookup_key", Encrypted: true,
		MissingPath: "'eyaml_lookup_key': " + missingPathText + "lookup_key function", V3Backend: "eyaml", V3Extension: ".eyaml",
	},
	{
		Name: "hocon_data", Kind: "data_hash", PathOnly: true,
		MissingPath: "'hocon_data' " + missingPathText + "data_hash function", V3Backend: "hocon", V3Extension: ".conf",
	},
}

// FunctionNamed is the table's row for a function name, or nil.
func FunctionNamed(name string) *Function {
	for _, f := range Functions {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// v3Function is the row a Hiera 3 backend name converts to, or nil.
func v3Function(backend string) *Function {
	for _, f := range Functions {
		if f.V3Backend == backend && f.Refusal == "" {
			return f
		}
	}
	return nil
}

// servedNames lists, as "a, b and c", the field name gives for each function the engine serves
// (skipping empty ones).
func servedNames(name func(*Function) string) string {
	var names []string
	for _, f := range Functions {
		if n := name(f); f.Refusal == "" && n != "" {
			names = append(names, n)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// CheckLocations applies the rules of an entry's function on its locations and options; Puppet
// checks them when it first calls the function, after resolving the locations. A uri is never
// read as a file.
func (c *Config) CheckLocations(e *Entry) error {
	f := e.Function
	if f.Custom { // its own signature, which only Puppet sees
		return nil
	}
	noPath := e.LocKind == "" || e.LocKind == "uri" || e.LocKind == "uris"
	if noPath || (f.PathOnly && e.Options.Len() > 0 && c.V3 == nil) {
		return &model.Error{Message: f.MissingPath, Level: e.Name, File: c.Path}
	}
	return nil
}
