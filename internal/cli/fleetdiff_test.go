package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// As a reviewer's CI job runs it: the two commits of the control repository over every node of
// the facts directory; every changed (node, key) found, none extra, grouped by key and distinct
// change; the secret compared and never shown.
// The keys the change reaches are compared (changedKeys); every key of every node gives the same.
func TestFleetDiffControlRepo(t *testing.T) {
	r := newControlRepo(t)
	args := []string{"diff", "--git-rev", "main~1", "--git-rev", "main", "--environmentpath", r.envpath,
		"--environment", "production", "--facts", r.facts}
	outputs := map[bool]string{}
	for _, every := range []bool{false, true} {
		compareEveryKey = every
		_, outputs[every], _ = run(t, append(args, "--render-as", "json")...)
		compareEveryKey = false
	}
	if outputs[false] != outputs[true] {
		t.Errorf("the changed keys' diff:\n%s\nevery key's:\n%s", outputs[false], outputs[true])
	}
	rc, out, errOut := run(t, append(args, "--render-as", "json")...)
	if rc != 1 {
		t.Fatalf("rc %d, want 1 (changes); stderr %q\n%s", rc, errOut, out)
	}
	var d fleetDiffJSON
	must(t, json.Unmarshal([]byte(out), &d))
	if got := d.groups(t); !reflect.DeepEqual(got, controlRepoChanges) {
		for k, want := range controlRepoChanges {
			if !reflect.DeepEqual(got[k], want) {
				t.Errorf("%s: got %v, want %v", k, got[k], want)
			}
		}
		for k := range got {
			if controlRepoChanges[k] == nil {
				t.Errorf("%s changes, and must not: %v", k, got[k])
			}
		}
	}
	if want := "6 of 6 nodes change, 12 keys"; d.Summary != want || len(d.Failed) != 0 {
		t.Errorf("summary %q, want %q; failed %v", d.Summary, want, d.Failed)
	}
	for i := 1; i < len(d.Keys); i++ {
		if d.Keys[i-1].Key >= d.Keys[i].Key {
			t.Errorf("keys not sorted: %s before %s", d.Keys[i-1].Key, d.Keys[i].Key)
		}
	}
	for _, k := range d.Keys {
		if c := k.Changes; k.Key == "profile::packages" && (len(c) != 2 || c[0].Count != 4 || c[1].Count != 2) {
			t.Errorf("profile::packages: the change of most nodes first: %+v", k)
		}
	}

	rc, table, _ := run(t, args...)
	rc2, markdown, _ := run(t, append(args, "--render-as", "markdown")...)
	if rc != 1 || rc2 != 1 {
		t.Errorf("table rc %d, markdown rc %d, want 1", rc, rc2)
	}
	for _, w := range []string{"from: git revision main~1", "to:   git revision main", "6 of 6 nodes change, 12 keys",
		"\nprofile::web::port\n  80 -> 8080\n    2 nodes: web01.example.com, web02.example.com\n",
		"\nprofile::db::password\n  (secret changed)\n    2 nodes: db01.example.com, db02.example.com\n",
		"\nprofile::users.bob.groups\n  (absent) -> [\"www\"]\n"} {
		if !strings.Contains(table, w) {
			t.Errorf("the table does not show %q:\n%s", w, table)
		}
	}
	for _, w := range []string{"### Hiera: 6 of 6 nodes change, 12 keys\n", "| `profile::packages` | 2 | 6 |",
		"#### `profile::web::port`\n\n- `80` → `8080`: **2 nodes**: `web01.example.com`, `web02.example.com`\n",
		"- (secret changed): **2 nodes**: `db01.example.com`, `db02.example.com`"} {
		if !strings.Contains(markdown, w) {
			t.Errorf("the Markdown does not show %q:\n%s", w, markdown)
		}
	}
	for _, secret := range controlRepoSecrets {
		for name, text := range map[string]string{"json": out, "table": table, "markdown": markdown} {
			if strings.Contains(text, secret) {
				t.Errorf("the %s output shows a secret (%q)", name, secret)
			}
		}
	}
	rc, revealed, _ := run(t, append(args, "--reveal", "--render-as", "json")...)
	if rc != 1 || !strings.Contains(revealed, `{"key":"profile::db::password","secret":true,"changes":[{"old":"line one\nline two","new":"héllo wörld ✓ 🔑 日本語","count":2`) {
		t.Errorf("--reveal: rc %d, %s", rc, revealed)
	}

	// --keys and --prefix choose the keys; the same revision twice changes nothing.
	rc, out, _ = run(t, append(args, "--keys", "profile::web::port,ntp::servers", "--render-as", "json")...)
	if rc != 1 || !strings.HasPrefix(out, `{"summary":"4 of 6 nodes change, 2 keys"`) {
		t.Errorf("--keys: rc %d, %s", rc, out)
	}
	rc, out, _ = run(t, append(args, "--prefix", "profile::web::")...)
	if rc != 1 || !strings.Contains(out, "3 of 6 nodes change, 2 keys") {
		t.Errorf("--prefix: rc %d, %s", rc, out)
	}
	rc, out, _ = run(t, "diff", "--git-rev", "main", "--git-rev", "main", "--environmentpath", r.envpath, "--environment", "production", "--facts", r.facts)
	if rc != 0 || !strings.Contains(out, "0 of 6 nodes change, 0 keys") {
		t.Errorf("one revision twice: rc %d, %s", rc, out)
	}
}

// A node whose data cannot be read on one side is listed apart with why, and the diff says it is
// incomplete (exit 2); a key that fails alike on both sides is listed and changes nothing; a facts
// directory with a broken file stops the diff before anything is shown.
func TestFleetDiffFailures(t *testing.T) {
	r := newControlRepo(t)
	env := filepath.Join(r.dir, "environments", "production")
	must(t, os.WriteFile(filepath.Join(env, "data", "roles", "app.yaml"), []byte("profile::x: [unclosed\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(env, "data", "nodes", "web01.example.com.yaml"), []byte("profile::bad: \"%{nope('x')}\"\n"), 0o644))
	r.commit("third")
	args := []string{"diff", "--git-rev", "main~2", "--git-rev", "main", "--environmentpath", r.envpath, "--environment", "production", "--facts", r.facts}
	rc, out, errOut := run(t, append(args, "--render-as", "json")...)
	if rc != 2 {
		t.Fatalf("rc %d, want 2 (a node could not be read); stderr %q\n%s", rc, errOut, out)
	}
	var d fleetDiffJSON
	must(t, json.Unmarshal([]byte(out), &d))
	if len(d.Failed) != 2 || d.Failed[0].Node != "app01.example.com" || d.Failed[0].Side != "to" || d.Failed[0].Key != "" ||
		!strings.Contains(d.Failed[0].Reason, "main:environments/production/data/roles/app.yaml") ||
		d.Failed[1].Node != "web01.example.com" || d.Failed[1].Key != "profile::bad" || d.Failed[1].Side != "to" {
		t.Errorf("failed: %+v", d.Failed)
	}
	if !strings.HasSuffix(d.Summary, "nodes change, 12 keys; 1 node could not be read; 1 key lookup failed") {
		t.Errorf("summary %q", d.Summary)
	}
	if g := d.groups(t); g["profile::web::port"][`80 -> 8080`] == nil {
		t.Errorf("the other nodes' changes are still shown: %v", g)
	}
	rc, table, _ := run(t, args...)
	if rc != 2 || !strings.Contains(table, "The diff is incomplete") || !strings.Contains(table, "app01.example.com (to): ") {
		t.Errorf("table: rc %d\n%s", rc, table)
	}

	// A node and a key failing alike on both sides: no change, the diff complete. Comparing the
	// changed keys only, they are not read at all; comparing every key, they are listed.
	same := []string{"diff", "--git-rev", "main", "--git-rev", "main", "--environmentpath", r.envpath, "--environment", "production", "--facts", r.facts}
	if rc, out, _ := run(t, same...); rc != 0 || !strings.Contains(out, "0 of 6 nodes change, 0 keys") || strings.Contains(out, "fail") {
		t.Errorf("nothing changed: rc %d\n%s", rc, out)
	}
	compareEveryKey = true
	rc, out, _ = run(t, same...)
	compareEveryKey = false
	if rc != 0 || !strings.Contains(out, "These fail alike on both sides") || !strings.Contains(out, "web01.example.com key profile::bad (from and to)") ||
		!strings.Contains(out, "app01.example.com (from and to): Unable to parse") {
		t.Errorf("failing alike, every key compared: rc %d\n%s", rc, out)
	}

	// Two revisions that both fail alike: the same failures, each side's files named by its revision.
	f, err := os.OpenFile(filepath.Join(env, "data", "roles", "web.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString("profile::extra: 1\n")
	must(t, err)
	must(t, f.Close())
	r.commit("fourth")
	compareEveryKey = true
	rc, out, _ = run(t, "diff", "--git-rev", "main~1", "--git-rev", "main", "--environmentpath", r.envpath, "--environment", "production", "--facts", r.facts)
	compareEveryKey = false
	if rc != 1 || !strings.Contains(out, "These fail alike on both sides") || !strings.Contains(out, "web01.example.com key profile::bad (from)") {
		t.Errorf("failing alike in two revisions: rc %d\n%s", rc, out)
	}

	must(t, os.WriteFile(filepath.Join(r.facts, "broken.json"), []byte(`{"os": `), 0o644))
	rc, out, errOut = run(t, args...)
	if rc != 2 || out != "" || !strings.Contains(errOut, "broken.json") {
		t.Errorf("a broken facts file: rc %d, stdout %q, stderr %q", rc, out, errOut)
	}
	must(t, os.Remove(filepath.Join(r.facts, "broken.json")))
	if rc, _, errOut := run(t, append(args, "--facts", r.facts)...); rc != 2 || !strings.Contains(errOut, "give it once, for both sides") {
		t.Errorf("--facts DIR twice: rc %d, %q", rc, errOut)
	}
	web01 := filepath.Join(r.facts, "web01.example.com.json")
	for _, extra := range [][]string{{"--reveal"}, {"--render-as", "markdown"}} {
		one := []string{"diff", "--git-rev", "main~2", "--git-rev", "main", "--environmentpath", r.envpath, "--environment", "production", "--facts", web01}
		if rc, _, errOut := run(t, append(one, extra...)...); rc != 2 || !strings.Contains(errOut, "are for a fleet: give --facts DIR") {
			t.Errorf("%v for one node: rc %d, %q", extra, rc, errOut)
		}
	}
	if rc, _, errOut := run(t, append(args, "--render-as", "yaml")...); rc != 2 || !strings.Contains(errOut, "table, json or markdown") {
		t.Errorf("--render-as yaml: rc %d, %q", rc, errOut)
	}
}

// Text from data reaches a terminal with its control characters escaped, and Markdown with its
// own characters neutralised.
func TestFleetDiffEscapes(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644))
	}
	write("hiera.yaml", "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
	write("data/common.yaml", "\"k|\\e[2J\": \"a\\e]0;x\\a|`b\"\n")
	write("facts/n1.json", `{"clientcert": "n1"}`)
	write("b/hiera.yaml", "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
	write("b/data/common.yaml", "\"k|\\e[2J\": \"\\u202eevil\\n\"\n")
	args := []string{"diff", "--config", filepath.Join(dir, "hiera.yaml"), "--config", filepath.Join(dir, "b", "hiera.yaml"), "--facts", filepath.Join(dir, "facts")}
	rc, table, _ := run(t, args...)
	if rc != 1 || strings.ContainsAny(table, "\x1b\a\u202e") || !strings.Contains(table, `k|\x1b[2J`) || !strings.Contains(table, `a\x1b]0;x\x07|`+"`b -> \\u202eevil\\n") {
		t.Errorf("table: rc %d\n%q", rc, table)
	}
	_, md, _ := run(t, append(args, "--render-as", "markdown")...)
	// A pipe is escaped in the key table's cells only: elsewhere a code span shows "\|" as two characters.
	if strings.ContainsAny(md, "\x1b\a\u202e") || !strings.Contains(md, "- `` a\\x1b]0;x\\x07|`b `` → `\\u202eevil\\n`") ||
		!strings.Contains(md, "| `k\\|\\x1b[2J` | 1 | 1 |") || !strings.Contains(md, "#### `k|\\x1b[2J`\n") {
		t.Errorf("markdown:\n%s", md)
	}
}

// A change that reaches thousands of keys still makes a comment GitHub takes: the summary and key
// table first, long groups folded, counts past the limits.
func TestFleetMarkdownBounded(t *testing.T) {
	d := &fleetDiff{nodes: 2000, changed: 2000}
	for k := 0; k < 3000; k++ {
		g := &keyGroup{key: fmt.Sprintf("profile::k%04d", k)}
		for c := 0; c < 30; c++ {
			g.changes = append(g.changes, &changeGroup{valueChange: valueChange{key: g.key, old: strings.Repeat("o", 100), new: fmt.Sprint(c), hasOld: true, hasNew: true},
				nodes: []string{"a.example.com", "b.example.com"}})
		}
		d.keys = append(d.keys, g)
	}
	md := fleetMarkdown(d, false)
	if len(md) > 65536 {
		t.Errorf("%d characters, more than a comment holds", len(md))
	}
	for _, w := range []string{"### Hiera: 2000 of 2000 nodes change, 3000 keys\n", "| and 2950 more keys | | |",
		"<details><summary>27 more changes</summary>", "- and 10 more changes", "more keys are left out here"} {
		if !strings.Contains(md, w) {
			t.Errorf("the Markdown does not show %q", w)
		}
	}
	if strings.Count(md, "<details>") != strings.Count(md, "</details>") {
		t.Errorf("a <details> left open")
	}
}

// outsideCode is Markdown with its code spans taken out: what GitHub renders as text (mentions,
// issue references, links).
func outsideCode(md string) string {
	var out strings.Builder
	for i := 0; i < len(md); {
		if md[i] != '`' {
			out.WriteByte(md[i])
			i++
			continue
		}
		n := 0
		for i+n < len(md) && md[i+n] == '`' {
			n++
		}
		fence := strings.Repeat("`", n)
		end := i + n
		for {
			j := strings.Index(md[end:], fence)
			if j < 0 {
				out.WriteString(md[i:]) // no closing fence: text
				return out.String()
			}
			end += j
			if end+n < len(md) && md[end+n] == '`' { // a longer run closes nothing
				for end < len(md) && md[end] == '`' {
					end++
				}
				continue
			}
			break
		}
		i = end + n
	}
	return out.String()
}

// The failure lines of a pull-request comment hold their nodes, keys and reasons in code spans, as
// the rest of the comment does: data turns into no @mention, issue reference or link. Identical
// failures are one line with a count and the first nodes.
func TestFleetMarkdownFailuresInCode(t *testing.T) {
	d := &fleetDiff{nodes: 40, broken: true}
	for i := range 30 {
		node := fmt.Sprintf("@user%02d", i)
		for _, side := range sideNames {
			d.failed = append(d.failed, failure{node: node, side: side, key: "@org/team", reason: "Lookup of @org/team failed, see #1 and www.example.com"})
		}
	}
	d.failed = append(d.failed, failure{node: "#2", side: "to", reason: "www.example.org/x @someone"})
	md := fleetMarkdown(d, false)
	if text := outsideCode(md); regexp.MustCompile(`@|#\d|www\.`).MatchString(text) {
		t.Errorf("data outside code spans:\n%s", text)
	}
	for _, w := range []string{"- 30 nodes (`@user00`, `@user01`, ", " and 20 more) key `@org/team` (from and to): `Lookup of @org/team failed, see #1 and www.example.com`\n",
		"- `#2` (to): `www.example.org/x @someone`\n"} {
		if !strings.Contains(md, w) {
			t.Errorf("the Markdown does not show %q:\n%s", w, md)
		}
	}
	if n := strings.Count(md, "\n- "); n != 2 {
		t.Errorf("%d failure lines, want 2 (identical failures as one):\n%s", n, md)
	}
}

// A key longer than a comment: the key table counts against the budget, the comment stays within
// GitHub's 65,536 characters.
func TestFleetMarkdownLongKey(t *testing.T) {
	key := strings.Repeat("k", 70001)
	d := &fleetDiff{nodes: 1, changed: 1, keys: []*keyGroup{{key: key, changes: []*changeGroup{{valueChange: valueChange{key: key, old: 1, new: 2, hasOld: true, hasNew: true}, nodes: []string{"n1"}}}}}}
	md := fleetMarkdown(d, false)
	if n := utf8.RuneCountInString(md); n > 65536 {
		t.Errorf("%d characters, more than a comment holds", n)
	}
	if !strings.Contains(md, "| and 1 more keys | | |") || !strings.Contains(md, "1 more keys are left out here") {
		t.Errorf("the key is not counted:\n%.500s", md)
	}
}

// eyaml secrets in a pull request's diff, as a CI job without the private key and a key rotation
// review them: without the key, a secret whose ciphertext did not change did not change and one
// whose ciphertext changed says so, nothing fails; with the old key for the old revision and the
// new key for the new one (--eyaml-private-key twice), a rotation changes no secret.
func TestFleetDiffEyamlKeys(t *testing.T) {
	keys := eyamlDir(t) // keys/ (the old pair) and other/ (the new pair)
	encrypt := func(plaintext, pair string) string {
		public := map[string]string{"old": "keys/public_key.pkcs7.pem", "new": "other/public.pem"}[pair]
		rc, token, errOut := eyamlRun(t, keys, "", "encrypt", "-o", "string", "-s", plaintext, "--pkcs7-public-key", public)
		if rc != 0 {
			t.Fatalf("encrypt: %s", errOut)
		}
		return strings.TrimSpace(token)
	}
	repo := t.TempDir()
	// the keys where the Puppet server has them, not on the CI runner
	writeFile(t, filepath.Join(repo, "hiera.yaml"), "version: 5\nhierarchy:\n  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: common.eyaml\n"+
		"    options:\n      pkcs7_private_key: /nonexistent/eyaml/private_key.pkcs7.pem\n      pkcs7_public_key: /nonexistent/eyaml/public_key.pkcs7.pem\n")
	for i := range 3 {
		writeFile(t, filepath.Join(repo, "facts", fmt.Sprintf("web%02d.json", i)), fmt.Sprintf(`{"clientcert": "web%02d.example.com"}`, i))
	}
	// pin is converted to an Integer: its ciphertext cannot be, and without the key it fails on both
	// sides; whether it changed cannot be told then (only the keys whose text changed are looked up,
	// unless every key is compared)
	data := func(password, token, pin string) {
		writeFile(t, filepath.Join(repo, "data", "common.eyaml"), "lookup_options:\n  pin:\n    convert_to: Integer\n"+
			"db::password: "+password+"\napi::token: "+token+"\npin: "+pin+"\n")
	}
	same, pin := encrypt("unchanged secret", "old"), encrypt("1234", "old")
	data(same, encrypt("old secret", "old"), pin)
	commit := gitRepo(t, repo)
	data(same, encrypt("new secret", "old"), pin)
	commit("a secret changed")
	data(encrypt("unchanged secret", "new"), encrypt("new secret", "new"), encrypt("1234", "new"))
	commit("the keys rotated")
	args := []string{"diff", "--config", filepath.Join(repo, "hiera.yaml"), "--facts", filepath.Join(repo, "facts"), "--render-as", "markdown"}

	rc, md, errOut := run(t, append(args, "--git-rev", "main~2", "--git-rev", "main~1")...)
	if rc != 1 || !strings.Contains(md, "### Hiera: 3 of 3 nodes change, 1 key\n") || strings.Contains(md, "db::password") ||
		!strings.Contains(md, "- (secret changed, no key to compare): **3 nodes**") || strings.Contains(md, "could not be read") {
		t.Errorf("without the key: rc %d, stderr %q\n%s", rc, errOut, md)
	}
	compareEveryKey = true
	rc, md, errOut = run(t, append(args, "--git-rev", "main~2", "--git-rev", "main~1")...)
	compareEveryKey = false
	if rc != 2 || !strings.Contains(md, "- (secret changed, no key to compare): **3 nodes**") || strings.Contains(md, "db::password") ||
		!strings.Contains(md, "The diff is incomplete") || !strings.Contains(md, "key `pin` (from): `cannot read the eyaml private key /nonexistent/eyaml/private_key.pkcs7.pem") {
		t.Errorf("without the key, every key compared: rc %d, stderr %q\n%s", rc, errOut, md)
	}
	rc, js, _ := run(t, "diff", "--config", filepath.Join(repo, "hiera.yaml"), "--facts", filepath.Join(repo, "facts"), "--render-as", "json", "--git-rev", "main~2", "--git-rev", "main~1")
	if rc != 1 || !strings.Contains(js, `{"key":"api::token","secret":true,"changes":[{"ciphertext":true,"count":3`) {
		t.Errorf("without the key, JSON: rc %d\n%s", rc, js)
	}

	rotation := append(args, "--git-rev", "main~1", "--git-rev", "main",
		"--eyaml-private-key", filepath.Join(keys, "keys", "private_key.pkcs7.pem"), "--eyaml-private-key", filepath.Join(keys, "other", "private.pem"))
	if rc, md, errOut := run(t, rotation...); rc != 0 || !strings.Contains(md, "### Hiera: 0 of 3 nodes change, 0 keys\n") {
		t.Errorf("a key rotation with the old and the new key: rc %d, stderr %q\n%s", rc, errOut, md)
	}
	// A secret that did change is still found by its plaintext across the rotation.
	rc, md, errOut = run(t, append(args, "--git-rev", "main~2", "--git-rev", "main",
		"--eyaml-private-key", filepath.Join(keys, "keys", "private_key.pkcs7.pem"), "--eyaml-private-key", filepath.Join(keys, "other", "private.pem"))...)
	if rc != 1 || !strings.Contains(md, "#### `api::token`\n\n- (secret changed): **3 nodes**") || strings.Contains(md, "db::password") {
		t.Errorf("a change across the rotation: rc %d, stderr %q\n%s", rc, errOut, md)
	}
	// A key given that cannot be read is an error, never a comparison of ciphertexts.
	if rc, md, _ := run(t, append(args, "--git-rev", "main~2", "--git-rev", "main~1", "--eyaml-private-key", filepath.Join(keys, "nope.pem"))...); rc != 2 ||
		!strings.Contains(md, "cannot read the eyaml private key "+filepath.Join(keys, "nope.pem")) {
		t.Errorf("an unreadable key given: rc %d\n%s", rc, md)
	}
	if rc, _, errOut := run(t, "lookup", "--config", filepath.Join(repo, "hiera.yaml"), "--eyaml-private-key", "a", "--eyaml-private-key", "b", "db::password"); rc != 1 ||
		!strings.Contains(errOut, "--eyaml-private-key is given 2 times; give it once") {
		t.Errorf("a key twice to one side: rc %d, %q", rc, errOut)
	}
}
