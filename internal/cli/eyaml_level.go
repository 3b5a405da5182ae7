package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
)

// levelKeyPaths are the key files an eyaml level of a hiera.yaml names.
type levelKeyPaths struct{ private, public string }

// levelKeys reads the keys of --config's eyaml level (--level, or its only one); none without
// --config. Paths are taken from hiera.yaml's directory, as the engine takes them.
func (k eyamlKeys) levelKeys() (levelKeyPaths, error) {
	if k.config == "" {
		if k.level != "" {
			return levelKeyPaths{}, fmt.Errorf("--level needs --config, the hiera.yaml that names the level")
		}
		return levelKeyPaths{}, nil
	}
	path, err := filepath.Abs(k.config)
	if err != nil {
		return levelKeyPaths{}, err
	}
	data, err := boundedfile.Read(path, 1<<20)
	if err != nil {
		return levelKeyPaths{}, fmt.Errorf("cannot read %s: %w", k.config, err)
	}
	cfg, err := hieraconfig.Parse(path, data, hieraconfig.Global)
	if err != nil {
		return levelKeyPaths{}, err
	}
	var names []string
	var found *hieraconfig.Entry
	for _, e := range append(cfg.Entries, cfg.DefaultEntries...) {
		if e.Function == nil || !e.Function.Encrypted {
			continue
		}
		names = append(names, e.Name)
		if e.Name == k.level || (k.level == "" && found == nil) {
			found = e
		}
	}
	switch {
	case len(names) == 0:
		return levelKeyPaths{}, fmt.Errorf("%s has no eyaml level (lookup_key: eyaml_lookup_key)", k.config)
	case k.level != "" && (found == nil || found.Name != k.level):
		return levelKeyPaths{}, fmt.Errorf("%s has no eyaml level named %q (its eyaml levels: %s)", k.config, k.level, strings.Join(names, ", "))
	case k.level == "" && len(names) > 1:
		return levelKeyPaths{}, fmt.Errorf("%s has %d eyaml levels (%s): name one with --level", k.config, len(names), strings.Join(names, ", "))
	}
	var keys levelKeyPaths
	for _, opt := range []struct {
		name string
		out  *string
	}{{"pkcs7_private_key", &keys.private}, {"pkcs7_public_key", &keys.public}} {
		v, _ := found.Options.Get(opt.name)
		s, _ := v.(string)
		switch {
		case s == "":
			continue
		case strings.Contains(s, "%{"):
			return levelKeyPaths{}, fmt.Errorf("%s, level %q: %s %q interpolates a variable; give the key's file with a flag", k.config, found.Name, opt.name, s)
		case filepath.IsAbs(s):
			*opt.out = s
		default:
			*opt.out = filepath.Join(cfg.Dir, s)
		}
	}
	return keys, nil
}
