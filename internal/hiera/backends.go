package hiera

import (
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// dataFunction is one Hiera data function ("backend") as this engine knows it. Config
// validation, location resolution, reading and lookup all consult this table, so adding a
// backend is one reader file plus one row below. Puppet's model is the same: a function name
// names a data provider of one kind (data_hash or lookup_key) with its own options and reader.
type dataFunction struct {
	name string
	kind string // the hiera.yaml key that names it: data_hash or lookup_key

	// read parses one data file. included lists the other files it read (HOCON includes), whose
	// versions the cache then watches too. Nil for a function the engine refuses (see refusal).
	read func(src dataSource) (v any, included []includedFile, err error)
	// textFree: what read returns, errors included, holds no part of src.text, whose buffer is
	// then reused for the next file (parseDataFile gives a *datafile.LazyYAML a copy of the text).
	textFree bool
	// nonHashWarns: a file that holds no hash reads as no data with a warning (Puppet's YAML
	// functions do this themselves); otherwise it is Puppet's data_hash type error.
	nonHashWarns bool
	// pathOnly: Puppet's signature is Struct[{path=>String[1]}], so any option in hiera.yaml is
	// an error (a version 3 backend's settings are not options in that sense).
	pathOnly bool
	// missingPath is Puppet's error when the entry names no file (none, or only uri/uris).
	missingPath string
	// decrypt runs on each value read (eyaml's ENC[...] tokens); a value it changes is secret.
	decrypt func(inv *invocation, e *entry, v any) (any, error)

	// v3Backend is the Hiera 3 backend name a version 3 hiera.yaml uses for this function, and
	// v3Extension the extension of its files unless the backend's :extension: names another.
	v3Backend, v3Extension string
	// refusal, when set, is why the engine does not serve a function Puppet has: serving it
	// would run code or need a library the engine does not have.
	refusal string
}

// missingPathText is the end of Puppet's error for an entry without a file location.
const missingPathText = "one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this "

// dataFunctions are the data functions, in the order their names are listed in messages.
var dataFunctions = []*dataFunction{
	{
		name: "yaml_data", kind: "data_hash", read: readYAMLData, textFree: true, nonHashWarns: true, pathOnly: true,
		missingPath: "'yaml_data' " + missingPathText + "data_hash function", v3Backend: "yaml", v3Extension: ".yaml",
	},
	{
		name: "json_data", kind: "data_hash", read: readJSONData, pathOnly: true,
		missingPath: "'json_data' " + missingPathText + "data_hash function", v3Backend: "json", v3Extension: ".json",
	},
	{
		name: "eyaml_lookup_key", kind: "lookup_key", read: readYAMLData, textFree: true, nonHashWarns: true,
		missingPath: "'eyaml_lookup_key': " + missingPathText + "lookup_key function", v3Backend: "eyaml", v3Extension: ".eyaml",
	},
	{
		name: "hocon_data", kind: "data_hash", read: readHOCONData, pathOnly: true,
		missingPath: "'hocon_data' " + missingPathText + "data_hash function", v3Backend: "hocon", v3Extension: ".conf",
	},
}

// eyaml's decryption is set here rather than in the table: it runs lookups (interpolation), which
// read module configurations, which consult the table, and Go refuses such an initialization cycle.
func init() { dataFunctionNamed("eyaml_lookup_key").decrypt = (*invocation).decryptValue }

// dataFunctionNamed is the table's row for a function name, or nil.
func dataFunctionNamed(name string) *dataFunction {
	for _, f := range dataFunctions {
		if f.name == name {
			return f
		}
	}
	return nil
}

// v3DataFunction is the row a Hiera 3 backend name converts to, or nil.
func v3DataFunction(backend string) *dataFunction {
	for _, f := range dataFunctions {
		if f.v3Backend == backend && f.read != nil {
			return f
		}
	}
	return nil
}

// servedNames lists, as "a, b and c", the field name gives for each function the engine serves
// (skipping empty ones).
func servedNames(name func(*dataFunction) string) string {
	var names []string
	for _, f := range dataFunctions {
		if n := name(f); f.read != nil && n != "" {
			names = append(names, n)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// dataSource is a data file's text, with what a reader may need besides it.
type dataSource struct {
	path      string
	text      []byte
	configDir string // the directory of the hiera.yaml of the layer reading the file
	share     *model.Sharing
}

// readYAMLData parses a yaml_data or eyaml_lookup_key file (Psych).
func readYAMLData(src dataSource) (any, []includedFile, error) {
	v, err := datafile.ReadYAML(src.text, src.share)
	return v, nil, err
}

// readJSONData parses a json_data file (Ruby's JSON.parse).
func readJSONData(src dataSource) (any, []includedFile, error) {
	v, err := datafile.ParseJSON(src.text)
	return v, nil, err
}

// checkLocations applies the function's rules on an entry's locations and options; Puppet checks
// them when it first calls the function, after resolving the locations.
// A uri is never read as a file.
func (f *dataFunction) checkLocations(e *entry, cfg *config) error {
	noPath := e.locKind == "" || e.locKind == "uri" || e.locKind == "uris"
	if noPath || (f.pathOnly && e.options.Len() > 0 && cfg.v3 == nil) {
		return &model.Error{Message: f.missingPath, Level: e.name, File: cfg.path}
	}
	return nil
}

// nonHashError is Puppet's error for a data_hash function whose file holds no hash.
func (f *dataFunction) nonHashError(path string, v any) error {
	return &model.Error{Message: fmt.Sprintf("Value returned from %s function '%s', when using location '%s', has wrong type, expects a Hash value, got %s", f.kind, f.name, path, model.TypeName(v)), File: path, ValueFree: true}
}
