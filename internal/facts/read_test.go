package facts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// factsJSON is the facts as JSON, hash keys in the order read.
func factsJSON(t *testing.T, n *Node) string {
	t.Helper()
	js, err := datafile.MarshalJSON(n.Facts)
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

func TestReadForms(t *testing.T) {
	dir := t.TempDir()
	const want = `{"networking":{"zeta":1,"alpha":2},"os":{"family":"Debian"}}`
	for _, tc := range []struct {
		name, file, text, certname string
	}{
		{"facter -j", "a.json", `{"networking": {"zeta": 1, "alpha": 2}, "os": {"family": "Debian"}}`, ""},
		{"YAML", "b.yaml", "networking:\n  zeta: 1\n  alpha: 2\nos:\n  family: Debian\n", ""},
		{"puppet facts find, wrapped", "c.json",
			`{"name": "web01.example.com", "values": {"networking": {"zeta": 1, "alpha": 2}, "os": {"family": "Debian"}}, "timestamp": "2024-01-02T10:00:00Z"}`,
			"web01.example.com"},
		{"Puppet Server's YAML cache", "d.yaml", "--- !ruby/object:Puppet::Node::Facts\nname: web01.example.com\nvalues:\n  networking:\n" +
			"    zeta: 1\n    alpha: 2\n  os:\n    family: Debian\ntimestamp: 2024-01-02 10:00:00.123 +00:00\nexpiration: 2024-01-02 10:30:00.123 +00:00\n",
			"web01.example.com"},
		{"PuppetDB's list", "e.json", `[{"certname": "db01", "name": "networking", "value": {"zeta": 1, "alpha": 2}}, {"certname": "db01", "name": "os", "value": {"family": "Debian"}}]`, "db01"},
		{"no extension, JSON text", "f", `{"networking": {"zeta": 1, "alpha": 2}, "os": {"family": "Debian"}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := ReadFile(writeFile(t, dir, tc.file, tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if got := factsJSON(t, n); got != want {
				t.Errorf("facts %s, want %s (the file's order)", got, want)
			}
			if n.Name != tc.certname {
				t.Errorf("name %q, want %q", n.Name, tc.certname)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, file, text string
		want             []string
	}{
		{"bad YAML", "a.yaml", "os:\n  family: [Debian\n", []string{"a.yaml, line 2", "did not find expected"}},
		{"bad JSON", "b.json", "{\n  \"os\": ,\n}", []string{"b.json, line 2"}},
		{"not a hash", "c.yaml", "- a\n- b\n", []string{"c.yaml", "not a PuppetDB fact"}},
		{"a string", "d.yaml", "just text\n", []string{"d.yaml", "holds a string, not a hash of facts"}},
		{"empty", "e.yaml", "", []string{"e.yaml", "holds no facts"}},
		{"two nodes in one list", "f.json", `[{"certname": "a", "name": "x", "value": 1}, {"certname": "b", "name": "x", "value": 1}]`,
			[]string{"more than one node"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadFile(writeFile(t, dir, tc.file, tc.text))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
		})
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "no such file or directory") {
		t.Errorf("a missing path: %v", err)
	}
}

func TestScope(t *testing.T) {
	s := Scope(nil, "web01.example.com")
	trusted, _ := s.Vars.Get("trusted")
	js, _ := datafile.MarshalJSON(trusted)
	if want := `{"authenticated":"local","certname":"web01.example.com","extensions":{},"hostname":"web01","domain":"example.com","external":{}}`; string(js) != want {
		t.Errorf("trusted %s, want %s (puppet lookup's)", js, want)
	}
	if h, _ := s.Facts.Get("hostname"); h != "web01" {
		t.Errorf("hostname fact %v", h)
	}
}

// TestReadYAMLAsPuppet: a YAML facts file is read as Puppet reads one (Psych.safe_load permitting
// no class), within the bounds of a JSON facts file.
func TestReadYAMLAsPuppet(t *testing.T) {
	dir := t.TempDir()
	// 6 levels of 10 aliases each: 10^6 copies of a 100-byte string (100 MB) from 700 bytes of text,
	// 1.1 million values (under the 10 million a data file may have)
	var bomb strings.Builder
	bomb.WriteString("l0: &l0 \"" + strings.Repeat("x", 100) + "\"\n")
	for i := 1; i <= 6; i++ {
		bomb.WriteString("l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " [" + strings.Repeat("*l"+string(rune('0'+i-1))+", ", 9) + "*l" + string(rune('0'+i-1)) + "]\n")
	}
	deep := func(n int) string { return "deep: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n" }
	for _, tc := range []struct {
		name, text, want string
	}{
		{"symbol value", "os:\n  family: Debian\nrole: :web\n", "line 3, column 7: Tried to load unspecified class: Symbol"},
		{"symbol key", "role: web\n:sym: 1\n", "line 2, column 1: Tried to load unspecified class: Symbol"},
		{"symbol tag", "role: !ruby/symbol web\n", "line 1, column 7: Tried to load unspecified class: Symbol"},
		{"aliases expanding past the file limit", bomb.String(), "more than 16 MiB of text once its aliases are expanded"},
		{"nested as deep as JSON allows", deep(99), ""},
		{"nested deeper than JSON allows", deep(100), "arrays and hashes nest more than 100 levels deep"},
		{"binary", "role: !!binary d2Vi\n", ""},
		{"quoted colon", "role: \":web\"\n", ""},
		{"a few aliases", "a: &a {x: 1}\nb: *a\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := ReadFile(writeFile(t, dir, "f.yaml", tc.text))
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want %q", err, tc.want)
			case tc.want == "" && tc.name == "binary" && factsJSON(t, n) != `{"role":"web"}`:
				t.Errorf("facts %s", factsJSON(t, n))
			}
		})
	}
	// JSON's own limit, for comparison
	if _, err := ReadFile(writeFile(t, dir, "f.json", `{"deep": `+strings.Repeat("[", 100)+strings.Repeat("]", 100)+`}`)); err == nil || !strings.Contains(err.Error(), "nesting of 101 is too deep") {
		t.Errorf("JSON nested 101 levels: %v", err)
	}
}

// Facts holding the node's trusted data (a PuppetDB node's) leave $trusted to the engine, which
// takes that data as Puppet does; the name facts are still filled in.
func TestScopeStoredTrusted(t *testing.T) {
	stored := model.NewHash(3)
	stored.Set("authenticated", "remote")
	stored.Set("certname", "web01.example.com")
	stored.Set("extensions", model.NewHash(0))
	f := model.NewHash(1)
	f.Set("trusted", stored)
	s := Scope(f, "web01.example.com")
	if _, has := s.Vars.Get("trusted"); has {
		t.Errorf("$trusted set over the stored trusted data")
	}
	if h, _ := s.Facts.Get("hostname"); h != "web01" {
		t.Errorf("hostname fact %v", h)
	}
}

// A reader's message that quotes the file's text is cut as engine messages are.
func TestErrorCut(t *testing.T) {
	e := &Error{File: "f.yaml", Line: 1, Msg: "bad: " + strings.Repeat("x", 100000)}
	if got := e.Error(); len(got) > 2500 || !strings.Contains(got, "bytes left out") {
		t.Errorf("an error of %d bytes", len(got))
	}
}

// A node's certname: the name its file gives, else clientcert, else fqdn, else networking.fqdn in
// lower case (facter -j of Facter 4 prints no top-level fqdn), which CertnameNote says.
func TestCertname(t *testing.T) {
	for _, tc := range []struct {
		text, certname string
		note           bool
	}{
		{`{"name": "named.example.com", "values": {"clientcert": "cc.example.com"}}`, "named.example.com", false},
		{`{"clientcert": "cc.example.com", "fqdn": "fqdn.example.com"}`, "cc.example.com", false},
		{`{"fqdn": "fqdn.example.com", "networking": {"fqdn": "net.example.com"}}`, "fqdn.example.com", false},
		{`{"networking": {"fqdn": "Web01.Example.COM", "hostname": "Web01"}}`, "web01.example.com", true},
		{`{"networking": {"hostname": "web01"}}`, "", false},
		{`{"os": {"family": "Debian"}}`, "", false},
	} {
		n, err := Parse("node.json", []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		note := n.CertnameNote()
		if n.Certname() != tc.certname || (note != "") != tc.note || (tc.note && !strings.Contains(note, `"`+tc.certname+`", from the fact networking.fqdn`)) {
			t.Errorf("%s: certname %q, note %q; want %q (a note: %v)", tc.text, n.Certname(), note, tc.certname, tc.note)
		}
	}
}

// A file read as JSON says why, and that its text is YAML when it is (facter --yaml saved as .json).
func TestParseSaysJSON(t *testing.T) {
	for _, tc := range []struct{ file, text, want string }{
		{"web01.json", "os:\n  family: Debian\n", "facts file web01.json, line 1, column 1: read as JSON (its name ends in .json): "},
		{"web01.json", "{\"os\": \n", "read as JSON (its name ends in .json): "},
		{"web01.facts", "{os: [Debian\n", "read as JSON (its text starts with { or [): "},
	} {
		_, err := Parse(tc.file, []byte(tc.text))
		yaml := strings.Contains(tc.text, "family")
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "the text is YAML: name the file .yaml") != yaml {
			t.Errorf("%s %q: %v, want %q (YAML: %v)", tc.file, tc.text, err, tc.want, yaml)
		}
	}
}
