package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// sourceFlags are the flags that say where data and facts come from, as puppet lookup names them.
// diff takes each twice (its two sides); the other commands once.
type sourceFlags struct {
	config, environment, environmentDir, environmentpath, modulepath, facts, node stringList
	// ignoreFunctions name custom data functions whose levels hold no data, for every side
	ignoreFunctions stringList
	// eyamlPrivate and eyamlPublic are the key files of the flags, as the data paths: once for all
	// sides or once per side (a key rotation: the old key for the old side); getenv gives the rest
	// (EyamlKeyArgs.WithEnv).
	eyamlPrivate, eyamlPublic stringList
	getenv                    func(string) string
	pdb                       puppetdbFlags // the nodes' facts from PuppetDB, in place of --facts
}

// eyamlFlags name the flags of the eyaml keys, by the argument each gives (key text has no flag:
// it would show in the process list; HIERA_EYAML_PRIVATE_KEY gives it).
var eyamlFlags = hiera.EyamlKeyArgs{PrivateKeyPath: "--eyaml-private-key", PublicKeyPath: "--eyaml-public-key"}

func (s *sourceFlags) register(fs *flag.FlagSet, env Env) {
	s.registerData(fs, env)
	fs.Var(&s.facts, "facts", "the node's facts: a `file` as facter -j or puppet facts show write it (JSON or YAML)")
	fs.Var(&s.node, "node", "the node's certname, $trusted.certname (default: the facts file's name, clientcert or fqdn)")
}

// registerData registers the flags that say where the data comes from, without the node's (check
// takes many nodes: its own --facts, no --node).
func (s *sourceFlags) registerData(fs *flag.FlagSet, env Env) {
	s.getenv = env.getenv
	s.pdb.register(fs, env)
	fs.Var(&s.config, "hiera_config", "the same as --config: puppet lookup's name for it")
	fs.Var(&s.config, "config", "the global `hiera.yaml` (default: hiera.yaml here, unless --environment or --modulepath is given)")
	fs.Var(&s.environment, "environment", "the Puppet environment `NAME`: the directory NAME under --environmentpath, "+
		"or with --environment-dir only its name (%{environment})")
	fs.Var(&s.environmentDir, "environment-dir", "the Puppet environment's `directory` itself, as the provider's environment argument "+
		"(an r10k control repository: the repository); its name is --environment, else the directory's")
	fs.Var(&s.environmentpath, "environmentpath", "the `directory` holding the environments (default: environments)")
	fs.Var(&s.modulepath, "modulepath", "module `directories`, separated by ':' (default: the environment's environment.conf, else its modules/)")
	fs.Var(&s.ignoreFunctions, "ignore-function", "read the hierarchy levels of the custom data function `NAME` (one hieraform does not run, as "+
		"wmflib::regex_data) as holding no data, with a warning; may be given many times")
	fs.Var(&s.eyamlPrivate, "eyaml-private-key", "the eyaml private key `file`, in place of the one hiera.yaml names "+
		"(default: "+hiera.EyamlKeyEnv.PrivateKeyPath+", or the key's text in "+hiera.EyamlKeyEnv.PrivateKeyPEM+")")
	fs.Var(&s.eyamlPublic, "eyaml-public-key", "the eyaml public key `file` (default: "+hiera.EyamlKeyEnv.PublicKeyPath+
		", or its text in "+hiera.EyamlKeyEnv.PublicKeyPEM+"; optional: the private key decrypts alone)")
}

// setup is one side's sources: each flag's value ("" when not given), and the git revision whose
// tree the data paths lie in (--git-rev), if any.
type setup struct {
	config, environment, environmentpath, modulepath, facts, node string
	envDir                                                        string // --environment-dir: the environment's directory itself
	rev                                                           *revisionTree
	eyaml                                                         hiera.EyamlKeys
	pdb                                                           *puppetdbFlags // the node's facts from PuppetDB; nil: none
	ignoreFunctions                                               []string
}

// setDefaultPaths sets the data paths engine would take by default (hiera.yaml here, the
// environments directory), so that they can be mapped.
func (st *setup) setDefaultPaths() {
	if st.config == "" && st.environment == "" && st.envDir == "" && st.modulepath == "" {
		st.config = "hiera.yaml"
	}
	if st.environment != "" && st.environmentpath == "" && st.envDir == "" {
		st.environmentpath = "environments"
	}
}

// dataPaths are the paths the data is read from: hiera.yaml, the environment's directory, the
// module directories.
func (st *setup) dataPaths() []string {
	var paths []string
	for _, p := range append([]string{st.config, st.environmentDir()}, filepath.SplitList(st.modulepath)...) {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths
}

// environmentDir is the environment's directory, "" for none.
func (st *setup) environmentDir() string {
	if st.envDir != "" {
		return st.envDir
	}
	if st.environment == "" {
		return ""
	}
	return filepath.Join(st.environmentpath, st.environment)
}

// mapPaths replaces each data path p by to(p). The environment's directory is mapped (not the
// directory holding it, which may lie elsewhere): its name, the environment's, must stay.
func (st *setup) mapPaths(to func(string) (string, error)) error {
	var err error
	if st.config != "" {
		if st.config, err = to(st.config); err != nil {
			return err
		}
	}
	if st.envDir != "" { // its name is the directory's as given, not the one it is mapped to
		if st.environment == "" {
			st.environment = environmentDirName(st.envDir)
		}
		if st.envDir, err = to(st.envDir); err != nil {
			return err
		}
	} else if dir := st.environmentDir(); dir != "" {
		mapped, err := to(dir)
		if err != nil {
			return err
		}
		if filepath.Base(mapped) != st.environment {
			return fmt.Errorf("the environment directory %s is named %s in the repository: give --environment %s", dir, filepath.Base(mapped), filepath.Base(mapped))
		}
		st.environmentpath = filepath.Dir(mapped)
	}
	if st.modulepath != "" {
		dirs := filepath.SplitList(st.modulepath)
		for i := range dirs {
			if dirs[i], err = to(dirs[i]); err != nil {
				return err
			}
		}
		st.modulepath = strings.Join(dirs, string(filepath.ListSeparator))
	}
	return nil
}

// shown is a path or message about the setup's data as the user knows it (a revision's file as
// REV:path).
func (st setup) shown(s string) string { return st.rev.shown(s) }

// side is the setup of side i (0 or 1) of a comparison: a flag given twice gives each side its
// value, a flag given once applies to both. sides is how many sides the command has.
func (s *sourceFlags) side(i, sides int) (setup, error) {
	var st setup
	if err := s.pdb.check(); err != nil {
		return st, err
	}
	if s.pdb.given() {
		st.pdb = &s.pdb
	}
	var keys hiera.EyamlKeyArgs
	for _, f := range []struct {
		name string
		list stringList
		out  *string
	}{{"config", s.config, &st.config}, {"environment", s.environment, &st.environment}, {"environment-dir", s.environmentDir, &st.envDir},
		{"environmentpath", s.environmentpath, &st.environmentpath}, {"modulepath", s.modulepath, &st.modulepath},
		{"facts", s.facts, &st.facts}, {"node", s.node, &st.node},
		{"eyaml-private-key", s.eyamlPrivate, &keys.PrivateKeyPath}, {"eyaml-public-key", s.eyamlPublic, &keys.PublicKeyPath}} {
		switch n := len(f.list); {
		case n > sides:
			if sides == 1 {
				return st, fmt.Errorf("--%s is given %d times; give it once", f.name, n)
			}
			return st, fmt.Errorf("--%s is given %d times; give it once (both sides) or twice (one per side)", f.name, n)
		case n == 1:
			*f.out = f.list[0]
		case n == sides:
			*f.out = f.list[i]
		}
	}
	st.ignoreFunctions = s.ignoreFunctions
	var err error
	st.eyaml, err = keys.WithEnv(s.getenv).Resolve(eyamlFlags)
	return st, err
}

// environmentDirName is %{environment} of an environment given by its directory, as the engine
// names it: the directory's name (an absolute path's: "." is the working directory's).
func environmentDirName(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return filepath.Base(dir)
}

// environmentName is a valid environment name, as Puppet's Environment.valid_name? checks it.
var environmentName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// engine builds the engine of the setup's data, checking that an environment exists, as Puppet does.
func (st setup) engine() (*hiera.Engine, error) {
	var layers hiera.Layers
	switch {
	case st.envDir != "" && st.environmentpath != "":
		return nil, fmt.Errorf("--environment-dir names the environment's directory itself: give it or --environmentpath, not both")
	case st.environment == "" && st.environmentpath != "":
		return nil, fmt.Errorf("--environmentpath needs --environment NAME")
	}
	if st.envDir != "" {
		if fi, err := os.Stat(st.envDir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("--environment-dir %s is not a directory: give the environment's directory (an r10k control repository: the repository)", st.envDir)
		}
		if st.environment != "" && !environmentName.MatchString(st.environment) {
			return nil, fmt.Errorf("--environment %q is not a Puppet environment name (letters, digits and _)", st.environment)
		}
		layers.Environment, layers.EnvironmentName = st.envDir, st.environment
	} else if st.environment != "" {
		path := st.environmentpath
		if path == "" {
			path = "environments"
		}
		layers.Environment = filepath.Join(path, st.environment)
		// Puppet takes only a name of word characters (Environment.valid_name?): "../../etc" names
		// no environment, whatever directory it would reach
		if fi, err := os.Stat(layers.Environment); err != nil || !fi.IsDir() || !environmentName.MatchString(st.environment) {
			didYouMean := ""
			if near := hiera.NearestDirs(layers.Environment); len(near) > 0 {
				didYouMean = fmt.Sprintf(" Did you mean --environment %s?", filepath.Base(near[0]))
			}
			return nil, model.Errorf("Could not find a directory environment named '%s' anywhere in the path: %s. Does the directory exist?%s",
				st.environment, path, didYouMean)
		}
	}
	if st.modulepath != "" {
		layers.Modulepath = filepath.SplitList(st.modulepath)
	}
	layers.IgnoreFunctions = st.ignoreFunctions
	// A --config that does not exist is read as Puppet reads a missing global hiera.yaml (its
	// default configuration, with a warning); the default hiera.yaml nobody named must exist.
	config := st.config
	layers.DefaultConfig = config != ""
	if config == "" && layers.Environment == "" && layers.Modulepath == nil {
		config = "hiera.yaml"
		if _, err := os.Stat(config); err != nil {
			return nil, fmt.Errorf("hiera.yaml not found: no file at %s (give --config, or --environment)", config)
		}
	}
	return hiera.NewLayeredEngine(config, layers), nil
}

// describe names the setup's data in messages.
func (st setup) describe() string {
	var parts []string
	if st.rev != nil {
		parts = append(parts, "git revision "+st.rev.rev)
	}
	if st.config != "" {
		parts = append(parts, st.shown(st.config))
	}
	envName := st.environment
	if envName == "" && st.envDir != "" {
		envName = environmentDirName(st.envDir)
	}
	switch {
	case st.envDir != "" && st.rev == nil: // two checkouts differ there
		parts = append(parts, "environment "+envName+" ("+st.envDir+")")
	case st.envDir != "":
		parts = append(parts, "environment "+envName)
	case st.environment != "" && st.environmentpath != "" && st.rev == nil: // two checkouts differ there
		parts = append(parts, "environment "+filepath.Join(st.environmentpath, st.environment))
	case st.environment != "":
		parts = append(parts, "environment "+st.environment)
	}
	if st.modulepath != "" {
		parts = append(parts, "modulepath "+st.shown(st.modulepath))
	}
	if st.facts != "" {
		parts = append(parts, "facts "+st.facts)
	}
	if st.pdb.given() {
		parts = append(parts, "PuppetDB "+st.pdb.url)
	}
	if st.node != "" {
		parts = append(parts, "node "+st.node)
	}
	if len(parts) == 0 {
		return "hiera.yaml"
	}
	return strings.Join(parts, ", ")
}

// scope is the setup's node as a catalog compile sees it (the provider's hiera_node): the facts
// file (one node) or PuppetDB's node, and its certname, --node else the file's (Node.Certname).
// note, when not "", says the certname was taken from networking.fqdn.
func (st setup) scope() (scope hiera.Scope, note string, err error) {
	if st.pdb.given() {
		if st.facts != "" {
			return hiera.Scope{}, "", errors.New("--facts and --puppetdb both give the node's facts: give one")
		}
		n, err := st.pdb.node(st.node)
		if err != nil {
			return hiera.Scope{}, "", err
		}
		return facts.Scope(n.Facts, n.Name), "", nil
	}
	if st.facts == "" {
		return facts.Scope(nil, st.node), "", nil
	}
	n, err := facts.ReadFile(st.facts)
	if err != nil {
		return hiera.Scope{}, "", err
	}
	if st.node != "" {
		return facts.Scope(n.Facts, st.node), "", nil
	}
	return facts.Scope(n.Facts, n.Certname()), n.CertnameNote(), nil
}

// trustedInformationFacts are the facts puppet lookup takes the node's trusted information from
// (its TRUSTED_INFORMATION_FACTS): a facts file gives all of them or none.
var trustedInformationFacts = []string{"hostname", "domain", "fqdn", "clientcert"}

// lookupScope is the scope of `lookup --node NAME --facts FILE`: NAME is the node's trusted certname
// (the contract's `--node`), the file's facts are kept, and the name facts it lacks (hostname,
// domain, fqdn, clientcert) come from NAME, as they do for every command. puppet lookup 7.23 differs
// where the file names the node otherwise: it takes the node's trusted information from the file's
// name facts, never from --node, gives no certname when the file has none of them (Facter 4's
// facter -j) and refuses a file with only some; note says so. Without --node or --facts, scope.
func (st setup) lookupScope() (scope hiera.Scope, note string, err error) {
	if st.node == "" || st.facts == "" {
		return st.scope()
	}
	n, err := facts.ReadFile(st.facts)
	if err != nil {
		return hiera.Scope{}, "", err
	}
	var given []string
	for _, f := range trustedInformationFacts {
		if _, ok := n.Facts.Get(f); ok {
			given = append(given, f)
		}
	}
	clientcert, _ := n.Facts.Get("clientcert")
	switch {
	case len(given) == 0:
		note = fmt.Sprintf("The facts file %s has none of the facts %s: they are taken from --node %s. puppet lookup --node would give "+
			"the node no trusted.certname and no such facts (--node only names the node whose stored facts Puppet reads).",
			st.facts, strings.Join(trustedInformationFacts, ", "), st.node)
	case len(given) < len(trustedInformationFacts):
		note = fmt.Sprintf("The facts file %s has %s but not all of %s: the others are taken from --node %s. puppet lookup refuses such "+
			"a file (\"When overriding any of the %s facts ..., they must all be overridden\").", st.facts, strings.Join(given, ", "),
			strings.Join(trustedInformationFacts, ", "), st.node, strings.Join(trustedInformationFacts, ","))
	case clientcert != st.node:
		note = fmt.Sprintf("trusted.certname is --node %s, not the facts file's clientcert fact %q, which puppet lookup --node would take.",
			st.node, model.ToS(clientcert))
	}
	return facts.Scope(n.Facts, st.node), note, nil
}
