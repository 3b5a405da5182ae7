package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// As a new user would: a control repository where a branch breaks a data file, adds a bad
// interpolation and lookup_options Puppet rejects in files no node given reaches, and changes a
// node; check finds each problem with file, line and level (a value of the wrong type too), diff
// shows the changed node's key with the file on each side.
func TestCheckFindsEachProblem(t *testing.T) {
	main, branch := siteDir(t), siteDir(t)
	factsDir := filepath.Join(branch, "facts")
	must(t, os.MkdirAll(factsDir, 0o755))
	must(t, os.WriteFile(filepath.Join(factsDir, "web01.json"), []byte(`{"clientcert": "web01.example.com", "os": {"family": "Debian"}}`), 0o644))
	db01Facts := filepath.Join(factsDir, "db01.yaml")
	must(t, os.WriteFile(db01Facts, []byte("clientcert: db01.example.com\n"), 0o644))
	types := filepath.Join(branch, "types.yaml")
	must(t, os.WriteFile(types, []byte("port: Integer[1, 65535]\ngreeting: String\nsecret: Sensitive[String]\nnot::anywhere: Integer\n"), 0o644))
	cfg := filepath.Join(branch, "hiera.yaml")
	args := []string{"check", "--config", cfg, "--facts", factsDir, "--types", types}
	if rc, out, errOut := run(t, args...); rc != 0 || !strings.Contains(out, "no problems: 3 data files and 2 nodes checked") {
		t.Fatalf("a sound repository: rc %d, %q %q", rc, out, errOut)
	}

	data := func(rel string) string { return filepath.Join(branch, "data", rel) }
	write := func(rel, text string) { must(t, os.WriteFile(data(rel), []byte(text), 0o644)) }
	write("nodes/web01.example.com.yaml", "port: 8080\nusers: [alice\n")
	write("nodes/old.example.com.yaml", "banner: \"%{alias('greeting')} and more\"\n")
	write("os/RedHat.yaml", "lookup_options:\n  ntp::servers:\n    merge: sideways\nmotd:\n  text: \"%{unknown_fn('x')}\"\n")
	write("nodes/db01.example.com.yaml", "# changed in this branch\nport: \"5432\"\n")
	must(t, os.WriteFile(types, []byte("port: Integer[1, 65535]\nsecret: Integer\n"), 0o644))

	rc, out, errOut := run(t, args...)
	if rc != 1 {
		t.Fatalf("rc %d, want 1 (stdout %q, stderr %q)", rc, out, errOut)
	}
	problems := []string{
		data("nodes/web01.example.com.yaml") + `:2: level "node": Unable to parse`,
		data("nodes/old.example.com.yaml") + `:1: level "node": 'alias' interpolation is only permitted if the expression is equal to the entire string (key banner)`,
		data("os/RedHat.yaml") + `:2: level "os": Unknown merge strategy: 'sideways'. In the lookup_options entry "ntp::servers": merge must be one of first, unique, hash, deep`,
		data("os/RedHat.yaml") + `:5: level "os": Unknown interpolation method 'unknown_fn' (key motd)`,
		data("nodes/db01.example.com.yaml") + `:2: level "node": Found value has wrong type, expects an Integer value, got String (key port, node ` + db01Facts + `). The types file's line 1 wants Integer[1, 65535]`,
		data("common.yaml") + `:7: level "common": Found value has wrong type, expects an Integer value, got Sensitive[String] (key secret, node `,
	}
	for _, want := range problems {
		if strings.Count(out, want) != 1 {
			t.Errorf("check does not report once %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, fmt.Sprintf("%d problems in %s (6 data files and 2 nodes checked)", len(problems), cfg)) {
		t.Errorf("the summary:\n%s", out)
	}
	if strings.Contains(out+errOut, "hunter2") {
		t.Errorf("a secret in the report:\n%s%s", out, errOut)
	}

	// without facts: every data file still, and the node with no facts (no db01 node, no port mismatch)
	rc, out, _ = run(t, "check", "--config", cfg, "--types", types)
	if rc != 1 || !strings.Contains(out, "5 problems") || !strings.Contains(out, "6 data files and the node with no facts checked") {
		t.Errorf("without facts: rc %d\n%s", rc, out)
	}
	for _, want := range append(problems[:4:4], problems[5]) {
		if !strings.Contains(out, strings.Split(want, " (node ")[0]) {
			t.Errorf("without facts, check does not report %q:\n%s", want, out)
		}
	}

	// the changed node, as diff shows it: the key with the file that gives each side its value
	// (relative to each side's hiera.yaml, which the header names)
	rc, out, errOut = run(t, "diff", "--config", filepath.Join(main, "hiera.yaml"), "--config", cfg, "--facts", db01Facts)
	if rc != 1 || !regexp.MustCompile(`changed  port  80 +data/common\.yaml +5432 +data/nodes/db01\.example\.com\.yaml`).MatchString(out) ||
		!strings.Contains(out, "1 keys differ") {
		t.Errorf("diff: rc %d\n%s%s", rc, out, errOut)
	}
}

// Every way check cannot run exits 2 and says why; a datadir it cannot read is a problem; a
// datadir that depends on a fact is a warning without --facts and walked with them.
func TestCheckErrors(t *testing.T) {
	dir := siteDir(t)
	cfg := filepath.Join(dir, "hiera.yaml")
	typesFile := func(text string) string {
		p := filepath.Join(t.TempDir(), "types.yaml")
		must(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"a missing types file", []string{"--types", filepath.Join(dir, "nope.yaml")}, "types file " + filepath.Join(dir, "nope.yaml") + ": "},
		{"a type that does not parse", []string{"--types", typesFile("port: Integer\ngreeting: String[1\n")}, `, line 2: key greeting: `},
		{"an unknown type", []string{"--types", typesFile("port: Intger\n")}, `, line 1: key port: Intger names no built-in Puppet type`},
		{"a type that is not a string", []string{"--types", typesFile("port: [Integer]\n")}, `, line 1: key port: the type must be a string`},
		{"a key given twice", []string{"--types", typesFile("port: Integer\nport: String\n")}, `, line 2: key port is given twice (first at line 1)`},
		{"types that are not a mapping", []string{"--types", typesFile("- port\n")}, `, line 1: must map lookup keys to Puppet types`},
		{"types that are not YAML", []string{"--types", typesFile("port: [\n")}, `types file `},
		{"a key that does not parse", []string{"--types", typesFile("port: Integer\na.b..c: Integer\n")}, `, line 2: key a.b..c: Syntax error in key: 'a.b..c'`},
		{"a second document", []string{"--types", typesFile("a: Integer\n---\nb: String\n")}, `, line 2: a second YAML document`},
		{"a second document that is not YAML", []string{"--types", typesFile("a: Integer\n---\nb: [\n")}, `types file `},
		{"--node", []string{"--node", "web01"}, "flag provided but not defined: --node"},
		{"an argument", []string{"port"}, "check takes no arguments"},
		{"missing facts", []string{"--facts", filepath.Join(dir, "nope")}, "nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, out, errOut := run(t, append([]string{"check", "--config", cfg}, tc.args...)...)
			if rc != 2 || !strings.Contains(errOut, tc.stderr) || out != "" {
				t.Errorf("rc %d, stdout %q, stderr %q; want 2 and %q", rc, out, errOut, tc.stderr)
			}
		})
	}

	// a datadir that is not a directory, one that cannot be read (a link to itself), one that
	// depends on a fact
	must(t, os.WriteFile(cfg, []byte("version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n"+
		"  - name: file\n    datadir: common.yaml\n    path: x.yaml\n  - name: loop\n    datadir: loop\n    path: x.yaml\n"+
		"  - name: per dc\n    datadir: \"dc/%{facts.dc}\"\n    path: dc.yaml\n  - name: common\n    path: common.yaml\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "common.yaml"), []byte("not a directory\n"), 0o644))
	must(t, os.Symlink("loop", filepath.Join(dir, "loop")))
	must(t, os.MkdirAll(filepath.Join(dir, "dc", "east"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "dc", "east", "dc.yaml"), []byte("ntp: \"%{lookup('a..b')}\"\n"), 0o644))
	rc, out, errOut := run(t, "check", "--config", cfg)
	for _, want := range []string{
		cfg + `:5: level "file": ` + filepath.Join(dir, "common.yaml") + ": the datadir is not a directory: Puppet finds no data there",
		cfg + `:8: level "loop": ` + filepath.Join(dir, "loop") + ": the datadir cannot be read (too many levels of symbolic links)",
		"2 problems",
	} {
		if rc != 1 || !strings.Contains(out, want) {
			t.Errorf("rc %d, want 1 and %q in:\n%s", rc, want, out)
		}
	}
	if want := `Warning: ` + cfg + `, level "per dc": the datadir "dc/%{facts.dc}" depends on the node; its files are not checked (give --facts to check them)`; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	east := filepath.Join(dir, "east.json")
	must(t, os.WriteFile(east, []byte(`{"dc": "east"}`), 0o644))
	rc, out, errOut = run(t, "check", "--config", cfg, "--facts", east)
	if want := filepath.Join(dir, "dc", "east", "dc.yaml") + `:1: level "per dc": Syntax error in key: 'a..b' (key ntp`; rc != 1 || !strings.Contains(out, want) || strings.Contains(errOut, "Warning") {
		t.Errorf("with a node in dc east: rc %d, want %q in:\n%s%s", rc, want, out, errOut)
	}
}

// Progress shows on a terminal (stderr), for many data files, and never in a pipe.
func TestCheckProgress(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "hiera.yaml"), []byte("version: 5\nhierarchy:\n  - name: nodes\n    glob: \"nodes/*.yaml\"\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, "data", "nodes"), 0o755))
	for i := range progressFrom {
		must(t, os.WriteFile(filepath.Join(dir, "data", "nodes", fmt.Sprintf("n%03d.yaml", i)), []byte("a: 1\n"), 0o644))
	}
	for _, terminal := range []bool{true, false} {
		var out, errOut bytes.Buffer
		rc := Run([]string{"check", "--config", filepath.Join(dir, "hiera.yaml")}, Env{Stdout: &out, Stderr: &errOut, ErrTerminal: terminal})
		shown := strings.Contains(errOut.String(), fmt.Sprintf("\rchecking data file %d/%d", progressFrom, progressFrom))
		if rc != 0 || shown != terminal || terminal && !strings.HasSuffix(errOut.String(), "\r\x1b[K") {
			t.Errorf("terminal %v: rc %d, progress %q, stdout %q", terminal, rc, errOut.String(), out.String())
		}
	}
}

// check's help lists the flags check takes (no --node: each node's certname is its facts file's),
// --facts as check takes it: files, directories, repeated.
func TestCheckHelp(t *testing.T) {
	rc, out, _ := run(t, "check", "--help")
	for _, want := range []string{"--types file", "--types types.yaml", "profile::web::port: Integer[1, 65535]", "a key no level gives the node is no problem",
		"--facts file the nodes to check: a facts file", "or a directory of them; repeat it for more", "--environmentpath directory"} {
		if rc != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "-node") || strings.Contains(out, "the node's facts") {
		t.Errorf("help lists lookup's --node or --facts:\n%s", out)
	}
}

// The summary counts in words: "1 data file and 1 node", "1 problem".
func TestCheckSummaryCounts(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hiera.yaml")
	must(t, os.WriteFile(cfg, []byte("version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, "data"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "data", "common.yaml"), []byte("port: 80\n"), 0o644))
	node := filepath.Join(dir, "web01.json")
	must(t, os.WriteFile(node, []byte(`{"clientcert": "web01.example.com"}`), 0o644))
	if rc, out, _ := run(t, "check", "--config", cfg, "--facts", node); rc != 0 || !strings.Contains(out, "no problems: 1 data file and 1 node checked") {
		t.Errorf("rc %d:\n%s", rc, out)
	}
	types := filepath.Join(dir, "types.yaml")
	must(t, os.WriteFile(types, []byte("port: String\n"), 0o644))
	if rc, out, _ := run(t, "check", "--config", cfg, "--facts", node, "--types", types); rc != 1 || !strings.Contains(out, "\n1 problem in "+cfg+" (1 data file and 1 node checked)") {
		t.Errorf("rc %d:\n%s", rc, out)
	}
	// a document marker before or after the mapping, or alone, is no second document
	for _, text := range []string{"---\nport: String\n", "port: String\n---\n", "port: String\n...\n"} {
		must(t, os.WriteFile(types, []byte(text), 0o644))
		if rc, out, errOut := run(t, "check", "--config", cfg, "--facts", node, "--types", types); rc != 1 || !strings.Contains(out, "1 problem in ") {
			t.Errorf("types %q: rc %d:\n%s%s", text, rc, out, errOut)
		}
	}
	must(t, os.WriteFile(types, []byte("---\n"), 0o644))
	if rc, out, errOut := run(t, "check", "--config", cfg, "--facts", node, "--types", types); rc != 0 {
		t.Errorf("types \"---\": rc %d:\n%s%s", rc, out, errOut)
	}
}

// check --types places each mismatch at the file and line of its value: a dotted key's part in the
// file of a merge that holds it (not the most specific file of the merge), an array's element at
// its own line; two keys on one line are two problems; Puppet's message of several lines is one.
func TestCheckTypesPlacesEachKey(t *testing.T) {
	repo := t.TempDir()
	must(t, os.CopyFS(repo, os.DirFS(filepath.Join("..", "..", "examples", "control-repository"))))
	web01 := filepath.Join(repo, "web01.json")
	must(t, os.WriteFile(web01, []byte(`{"clientcert":"web01.example.com","role":"web","os":{"family":"Debian"}}`), 0o644))
	types := filepath.Join(repo, "types.yaml")
	must(t, os.WriteFile(types, []byte("ntp::config.minpoll: String\nntp::servers.0: Integer\nntp::servers.1: Integer\n"+
		"ntp::servers: Array[Integer]\nntp::config.driftfile: Integer\nprofile::base::packages.1: Integer\n"), 0o644))
	rc, out, errOut := run(t, "check", "--environment", "production", "--environmentpath", filepath.Join(repo, "environments"),
		"--facts", web01, "--types", types)
	env := filepath.Join(repo, "environments", "production")
	data, module := filepath.Join(env, "data", "common.yaml"), filepath.Join(env, "modules", "ntp", "data", "common.yaml")
	wrong := `Found value has wrong type, `
	for _, want := range []string{
		data + `:8: level "Common data": ` + wrong + `expects a String value, got Integer (key ntp::config.minpoll, node ` + web01 + `). The types file's line 1 wants String; the value merges 3 files`,
		data + `:3: level "Common data": ` + wrong + `expects an Integer value, got String (key ntp::servers.0, node `,
		data + `:4: level "Common data": ` + wrong + `expects an Integer value, got String (key ntp::servers.1, node `,
		data + `:2: level "Common data": ` + wrong + `index 0 expects an Integer value, got String; ` + wrong + `index 1 expects an Integer value, got String (key ntp::servers, node `,
		module + `:10: level "common": ` + wrong + `expects an Integer value, got String (key ntp::config.driftfile, node `,
		// element 1 of the merged [htop, vim, curl]: placed at the array of the most specific file
		filepath.Join(env, "data", "nodes", "web01.example.com.yaml") + `:1: level "Per-node data": ` + wrong +
			`expects an Integer value, got String (key profile::base::packages.1, node ` + web01 + `). The types file's line 6 wants Integer; the value merges 2 files`,
		"6 problems in ",
	} {
		if rc != 1 || strings.Count(out, want) != 1 {
			t.Errorf("rc %d, want 1 and once %q in:\n%s%s", rc, want, out, errOut)
		}
	}
	if lines := strings.Count(out, "\n"); lines != 7 {
		t.Errorf("%d lines, want one per problem and the summary:\n%s", lines, out)
	}

	// two elements of a flow sequence: one line, two keys, two problems
	dir := siteDir(t)
	must(t, os.WriteFile(types, []byte("list.0: Integer\nlist.1: Integer\n"), 0o644))
	rc, out, _ = run(t, "check", "--config", filepath.Join(dir, "hiera.yaml"), "--types", types)
	for _, want := range []string{"common.yaml:3: level \"common\": " + wrong + "expects an Integer value, got String (key list.0", "(key list.1", "2 problems"} {
		if rc != 1 || !strings.Contains(out, want) {
			t.Errorf("rc %d, want 1 and %q in:\n%s", rc, want, out)
		}
	}

	// two keys of a HOCON file (no lines): two problems
	must(t, os.WriteFile(filepath.Join(dir, "hiera.yaml"), []byte("version: 5\nhierarchy:\n  - name: conf\n    data_hash: hocon_data\n    path: common.conf\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "data", "common.conf"), []byte("a = x\nb = y\n"), 0o644))
	must(t, os.WriteFile(types, []byte("a: Integer\nb: Integer\n"), 0o644))
	rc, out, _ = run(t, "check", "--config", filepath.Join(dir, "hiera.yaml"), "--types", types)
	for _, want := range []string{"common.conf: level \"conf\": " + wrong + "expects an Integer value, got String (key a", "(key b", "2 problems"} {
		if rc != 1 || !strings.Contains(out, want) {
			t.Errorf("HOCON: rc %d, want 1 and %q in:\n%s", rc, want, out)
		}
	}
}

// A problem of the setup that every key's lookup meets (an eyaml private key that cannot be read)
// is one problem, not one per secret key.
func TestCheckSetupProblemOnce(t *testing.T) {
	cfg, _ := serverKeysRepo(t)
	rc, out, errOut := run(t, "check", "--config", cfg)
	if rc != 1 || strings.Count(out, "cannot read the eyaml private key") != 1 || !strings.Contains(out, "1 problem in") {
		t.Errorf("rc %d, stdout:\n%s\nstderr: %s", rc, out, errOut)
	}
}

// check --facts DIR reads the directory as hiera_nodes and diff --facts do: a committed facts file
// linking to a file of the runner (a registry login) is refused, never read into a message.
func TestCheckFactsDirLinkOut(t *testing.T) {
	dir := siteDir(t)
	outside := filepath.Join(t.TempDir(), "login.json")
	must(t, os.WriteFile(outside, []byte(`{"clientcert": "x.example.com", "registry_login": "hunter2-credential"}`), 0o644))
	write := func(rel, text string) { must(t, os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644)) }
	write("data/common.yaml", "port: \"%{facts.registry_login}\"\n")
	write("types.yaml", "port: Integer\n")
	factsDir := filepath.Join(dir, "facts")
	must(t, os.MkdirAll(factsDir, 0o755))
	must(t, os.Symlink(outside, filepath.Join(factsDir, "x.json")))
	rc, out, errOut := run(t, "check", "--config", filepath.Join(dir, "hiera.yaml"), "--facts", factsDir, "--types", filepath.Join(dir, "types.yaml"))
	if rc != 2 || strings.Contains(out+errOut, "hunter2") || !strings.Contains(errOut, "x.json: a symlink leading out of the directory") {
		t.Errorf("rc %d, stdout %q, stderr %q; want 2, the link refused", rc, out, errOut)
	}
}
