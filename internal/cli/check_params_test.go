package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// check against the Puppet code (testdata/puppetcode): every planted mistake once, at its file and
// line, in real Puppet 7.23's words (recorded from puppet apply --noop on each node); a manifest
// that cannot be read is a warning; nothing else is reported.
func TestCheckAgainstPuppetCode(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("testdata", "puppetcode"))
	must(t, err)
	env := filepath.Join(repo, "environments", "production")
	data := func(rel string) string { return filepath.Join(env, "data", rel) }
	manifest := func(rel string) string { return filepath.Join(env, "modules", rel) }
	web01, db01 := filepath.Join(repo, "facts", "web01.yaml"), filepath.Join(repo, "facts", "db01.yaml")
	args := []string{"check", "--environmentpath", filepath.Join(repo, "environments"), "--environment", "production", "--facts", filepath.Join(repo, "facts")}

	rc, out, errOut := run(t, args...)
	want := []string{
		data("common.yaml") + `:10: level "common": key ntp::sever names no parameter of a class of module ntp and no key its manifests look up. Did you mean ntp::servers?`,
		data("roles/db.yaml") + `:2: level "roles": Class[Ntp]: parameter 'keys_controlkey' expects a Ntp::Key_id = Integer[1, 65534] value, got Integer[70000, 70000] (key ntp::keys_controlkey, node ` + db01 + `). The parameter is declared at ` + manifest("ntp/manifests/init.pp") + `:6`,
		data("nodes/db01.yaml") + `:3: level "nodes": Class[Profile::Base]: parameter 'verbose' expects a Boolean value, got Undef (key profile::base::verbose, node ` + db01 + `)`,
		data("common.yaml") + `:19: level "common": Class[Profile::Web]: parameter 'api_token' expects a Sensitive[String] value, got String (key profile::web::api_token, 2 nodes: ` + db01 + `, ` + web01 + `)`, // a problem both nodes share names both
		manifest("profile/manifests/odd.pp") + `:2: Class[Profile::Odd]: parameter 'looping': Type alias 'Profile::Loop' cannot be resolved to a real type. The value of profile::odd::looping is not checked`,
		manifest("profile/manifests/odd.pp") + `:3: Class[Profile::Odd]: parameter 'unknown': Resource type not found: Profile::Nope. The value of profile::odd::unknown is not checked`,
		// three elements only once the roles' array is merged with common's (merge: unique)
		data("roles/web.yaml") + `:2: level "roles": Class[Ntp]: parameter 'servers' expects size to be between 1 and 2, got 3 (key ntp::servers, node ` + web01 + `). The parameter is declared at ` + manifest("ntp/manifests/init.pp") + `:3; the value merges 2 files`,
		// a string only once the fact is interpolated
		data("roles/web.yaml") + `:4: level "roles": Class[Ntp]: parameter 'port' expects a Stdlib::Port = Integer[0, 65535] value, got String (key ntp::port, node ` + web01 + `)`,
		data("roles/web.yaml") + `:5: level "roles": Class[Ntp]: parameter 'service_ensure' expects a match for Enum['running', 'stopped'], got 'runing' (key ntp::service_ensure, node ` + web01 + `)`,
	}
	for _, w := range want {
		if strings.Count(out, w) != 1 {
			t.Errorf("not reported once: %s\nin:\n%s", w, out)
		}
	}
	// ntp::extra_servers (read by the module's template) and profile::base::verbos (read by an
	// interpolation in common.yaml, near the parameter verbose) name no parameter and are no mistake:
	// neither is reported.
	note := data("common.yaml") + `:16: level "common": note: key profile::base::unused names no parameter of a class of module profile and no key its manifests look up`
	summary := "9 problems in environment " + env + " (4 data files, 2 nodes and 5 classes checked, 1 note)"
	if rc != 1 || strings.Count(out, note) != 1 || !strings.Contains(out, summary) || strings.Count(out, "\n") != len(want)+2 {
		t.Errorf("rc %d (want 1), want exactly the problems, the note and %q:\n%s", rc, summary, out)
	}
	broken := "Warning: " + manifest("profile/manifests/broken.pp") + ":2: a string is never closed (its ' is never matched) (a manifest that cannot be read: its classes are not checked)"
	if strings.Count(errOut, broken) != 1 {
		t.Errorf("the broken manifest: want once %q in stderr:\n%s", broken, errOut)
	}
	for _, secret := range []string{"short", "not-sensitive"} {
		if strings.Contains(out+errOut, secret) {
			t.Errorf("a Sensitive value (%s) in the report", secret)
		}
	}

	// --strict: the note is a problem
	rc, out, _ = run(t, append(args, "--strict")...)
	if strictLine := strings.Replace(note, "note: ", "", 1); rc != 1 || strings.Count(out, strictLine) != 1 || !strings.Contains(out, "10 problems in") {
		t.Errorf("--strict: rc %d, want the note as a problem:\n%s", rc, out)
	}
}
