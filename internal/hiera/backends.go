package hiera

import (
	"fmt"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// dataReader is how the engine reads the files of one data function; the function's rules (its
// kind, options, Hiera 3 name, ...) are hieraconfig.Functions. Adding a backend is one reader file
// plus a row there and one here.
type dataReader struct {
	// read parses one data file. included lists the other files it read (HOCON includes), whose
	// versions the cache then watches too.
	read func(src dataSource) (v any, included []includedFile, err error)
	// textFree: what read returns, errors included, holds no part of src.text, whose buffer is
	// then reused for the next file (parseDataFile gives a *datafile.LazyYAML a copy of the text).
	textFree bool
	// nonHashWarns: a file that holds no hash reads as no data with a warning (Puppet's YAML
	// functions do this themselves); otherwise it is Puppet's data_hash type error.
	nonHashWarns bool
}

// dataReaders are the readers by function name, one for each function hieraconfig.Functions
// serves.
var dataReaders = map[string]*dataReader{
	"yaml_data":        {read: readYAMLData, textFree: true, nonHashWarns: true},
	"json_data":        {read: readJSONData},
	"eyaml_lookup_key": {read: readYAMLData, textFree: true, nonHashWarns: true},
	"hocon_data":       {read: readHOCONData},
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

// nonHashError is Puppet's error for a data_hash function whose file holds no hash.
func nonHashError(f *hieraconfig.Function, path string, v any) error {
	return &model.Error{Message: fmt.Sprintf("Value returned from %s function '%s', when using location '%s', has wrong type, expects a Hash value, got %s", f.Kind, f.Name, path, model.TypeName(v)), File: path, ValueFree: true}
}
