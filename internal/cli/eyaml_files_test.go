package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// editorScript writes an $EDITOR that records the mode and path of the file it is given in
// dir/editor.log, then runs body (a shell script on "$1").
func editorScript(t *testing.T, dir, body string) {
	t.Helper()
	script := filepath.Join(dir, "editor.sh")
	must(t, os.WriteFile(script, []byte("#!/bin/sh\nstat -c '%a %n' \"$1\" > "+filepath.Join(dir, "editor.log")+"\n"+body+"\n"), 0o755))
	t.Setenv("EDITOR", script)
}

// encryptedFile writes data/common.eyaml: a comment, a string value, a block value, plain text.
func encryptedFile(t *testing.T, dir string) (path, text string) {
	t.Helper()
	_, one, _ := eyamlRun(t, dir, "", "encrypt", "-o", "string", "-l", "one", "-s", "first secret")
	_, two, _ := eyamlRun(t, dir, "", "encrypt", "-o", "block", "-l", "two", "-s", "second secret")
	text = "---\n# secrets\n" + one + two + "plain: text\n"
	path = filepath.Join(dir, "data", "common.eyaml")
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(text), 0o640))
	return path, text
}

var tokenRe = regexp.MustCompile(`ENC\[[^\]]*\]`)

func TestEyamlEdit(t *testing.T) {
	dir := eyamlDir(t)
	path, before := encryptedFile(t, dir)
	editorScript(t, dir, `sed -i 's/\[second secret\]/[changed secret]/; s/^plain: text$/plain: text\nadded: DEC::PKCS7[new secret]!/' "$1"`)
	rc, out, errOut := eyamlRun(t, dir, "", "edit", path)
	if rc != 0 || out != "" || errOut != "" {
		t.Fatalf("edit: exit %d, %q, %q", rc, out, errOut)
	}
	log, err := os.ReadFile(filepath.Join(dir, "editor.log"))
	must(t, err)
	mode, tmp, _ := strings.Cut(strings.TrimSpace(string(log)), " ")
	if _, err := os.Stat(tmp); mode != "600" || !os.IsNotExist(err) {
		t.Errorf("the plaintext file had mode %s and after the edit: %v; want 600 and removed", mode, err)
	}
	after, err := os.ReadFile(path)
	must(t, err)
	oldTokens, newTokens := tokenRe.FindAllString(before, -1), tokenRe.FindAllString(string(after), -1)
	if len(newTokens) != 3 || newTokens[0] != oldTokens[0] || newTokens[1] == oldTokens[1] {
		t.Errorf("the unchanged value must keep its ciphertext, the changed one get a new one:\n%s", after)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's 0640", fi.Mode().Perm())
	}
	if strings.Contains(string(after), "secret]") || strings.Contains(string(after), "DEC") {
		t.Errorf("plaintext written to the file:\n%s", after)
	}
	_, got, _ := eyamlRun(t, dir, "", "decrypt", "-f", path)
	want := "---\n# secrets\none: first secret\ntwo: changed secret\nplain: text\nadded: new secret\n"
	if got != want {
		t.Errorf("decrypted after the edit:\n%s\nwant\n%s", got, want)
	}
}

// Every way edit fails leaves the file as it was, says why, and shows no plaintext.
func TestEyamlEditErrors(t *testing.T) {
	dir := eyamlDir(t)
	path, before := encryptedFile(t, dir)
	for _, tc := range []struct {
		name, editor string
		args         []string
		setup        func()
		want         string
		editorRuns   bool
	}{
		{"changed on disk during the edit", `sed -i 's/second secret/x/' "$1"; echo 'other: 1' >> ` + path, nil, nil, "changed on disk during the edit", true},
		{"the editor fails", `sed -i 's/second secret/x/' "$1"; exit 3`, nil, nil, "failed (exit status 3); nothing written", true},
		{"a copied DEC(n)", `sed -i 's/^plain: text$/copy: DEC(1)::PKCS7[first secret]!/' "$1"`, nil, nil, "DEC(1) appears twice", true},
		{"a DEC(n) of no value", `sed -i 's/^plain: text$/copy: DEC(99)::PKCS7[x]!/' "$1"`, nil, nil, "DEC(99) is not a value of the file", true},
		{"blank", `: > "$1"`, nil, nil, "the edited text is blank", true},
		{"a wrong private key", `true`, []string{"--pkcs7-private-key", "other/private.pem", "--pkcs7-public-key", "other/public.pem"}, nil,
			"line 3: the value was encrypted for another key (private key other/private.pem)", false},
		{"read-only", `true`, nil, func() { must(t, os.Chmod(path, 0o444)) }, "common.eyaml is read-only (mode 0444)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			must(t, os.WriteFile(path, []byte(before), 0o640))
			must(t, os.Chmod(path, 0o640))
			_ = os.Remove(filepath.Join(dir, "editor.log"))
			if tc.setup != nil {
				tc.setup()
			}
			editorScript(t, dir, tc.editor)
			rc, _, errOut := eyamlRun(t, dir, "", append(append([]string{"edit"}, tc.args...), path)...)
			if rc != 1 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, %q; want 1 and %q", rc, errOut, tc.want)
			}
			if strings.Contains(errOut, "secret") {
				t.Errorf("plaintext in the message: %q", errOut)
			}
			after, _ := os.ReadFile(path)
			if tc.name != "changed on disk during the edit" && string(after) != before {
				t.Errorf("the file changed:\n%s", after)
			}
			if strings.Contains(string(after), "x") && !strings.Contains(before, "x") {
				t.Errorf("the edit was written:\n%s", after)
			}
			if _, err := os.Stat(filepath.Join(dir, "editor.log")); (err == nil) != tc.editorRuns {
				t.Errorf("the editor ran: %v, want %v", err == nil, tc.editorRuns)
			}
			leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
			if len(leftovers) > 0 {
				t.Errorf("files left beside the data: %v", leftovers)
			}
		})
	}
	editorScript(t, dir, "true")
	must(t, os.Chmod(path, 0o640))
	if rc, _, errOut := eyamlRun(t, dir, "", "edit", path); rc != 0 || !strings.Contains(errOut, "no changes") {
		t.Errorf("an edit that changes nothing: exit %d, %q", rc, errOut)
	}
}

// A tree re-keyed: every value decrypts with the new key to what it was, every other byte is
// kept, a file another key encrypted and a read-only file are reported and left alone.
func TestEyamlRecrypt(t *testing.T) {
	dir := eyamlDir(t)
	common, _ := encryptedFile(t, dir)
	_, token, _ := eyamlRun(t, dir, "", "encrypt", "-o", "string", "-s", "node secret")
	_, block, _ := eyamlRun(t, dir, "", "encrypt", "-o", "block", "-s", "stripped secret")
	_, foreign, _ := eyamlRun(t, dir, "", "encrypt", "-o", "string", "-s", "foreign", "--pkcs7-public-key", "other/public.pem")
	files := map[string]string{
		"data/nodes/web.yaml": "list:\n  - " + token + "  - 'quoted'\nstripped: >-\n" + block + "\n",
		"data/plain.yaml":     "a: 1\n",
		"data/bad.eyaml":      "x: " + foreign,
		"data/ro.eyaml":       "y: " + token,
		"data/notes.txt":      "z: " + token,
	}
	for rel, text := range files {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644))
	}
	must(t, os.Chmod(filepath.Join(dir, "data/ro.eyaml"), 0o444))
	eyamlRun(t, dir, "", "createkeys", "--pkcs7-private-key", "new/private.pem", "--pkcs7-public-key", "new/public.pem")
	snapshot := func() map[string]string {
		m := map[string]string{}
		for _, rel := range []string{"data/common.eyaml", "data/nodes/web.yaml", "data/plain.yaml", "data/bad.eyaml", "data/ro.eyaml", "data/notes.txt"} {
			b, err := os.ReadFile(filepath.Join(dir, rel))
			must(t, err)
			m[rel] = string(b)
		}
		return m
	}
	before := snapshot()
	_, plainBefore, _ := eyamlRun(t, dir, "", "decrypt", "-f", common)

	rc, out, errOut := eyamlRun(t, dir, "", "recrypt", "--dry-run", "--to-public-key", "new/public.pem", "data")
	if rc != 1 || out != "data/common.eyaml: 2 values\ndata/nodes/web.yaml: 2 values\n" || !strings.Contains(errOut, "would re-encrypt 4 values in 2 files") {
		t.Errorf("dry run: exit %d, %q, %q", rc, out, errOut)
	}
	if after := snapshot(); !mapsEqual(after, before) {
		t.Error("the dry run wrote")
	}

	rc, _, errOut = eyamlRun(t, dir, "", "recrypt", "--to-public-key", "new/public.pem", "data")
	for _, want := range []string{"data/bad.eyaml: line 1: the value was encrypted for another key", "data/ro.eyaml is read-only", "re-encrypted 4 values in 2 files", "2 files failed"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
	if rc != 1 || strings.Contains(errOut, "secret") || strings.Contains(errOut, "foreign") {
		t.Errorf("exit %d, %q", rc, errOut)
	}
	after := snapshot()
	for rel, text := range before {
		changed := rel == "data/common.eyaml" || rel == "data/nodes/web.yaml"
		if (after[rel] != text) != changed {
			t.Errorf("%s changed: %v, want %v", rel, after[rel] != text, changed)
		}
		if tokenRe.ReplaceAllString(after[rel], "ENC") != tokenRe.ReplaceAllString(text, "ENC") {
			t.Errorf("%s: bytes outside the values changed:\n%s\nwas\n%s", rel, after[rel], text)
		}
		if changed && len(strings.Split(after[rel], "\n")) != len(strings.Split(text, "\n")) {
			t.Errorf("%s: the values' layout changed:\n%s", rel, after[rel])
		}
	}
	newKeys := []string{"--pkcs7-private-key", "new/private.pem", "--pkcs7-public-key", "new/public.pem"}
	if _, got, _ := eyamlRun(t, dir, "", append([]string{"decrypt", "-f", common}, newKeys...)...); got != plainBefore {
		t.Errorf("with the new key: %q, want %q", got, plainBefore)
	}
	if rc, _, _ := eyamlRun(t, dir, "", "decrypt", "-f", common); rc != 1 {
		t.Error("the old key still decrypts the re-keyed file")
	}
	for i, want := range []string{"node secret", "stripped secret"} { // the gem's decrypt -f leaves a ">-" block alone
		token := strings.Join(strings.Fields(tokenRe.FindAllString(after["data/nodes/web.yaml"], -1)[i]), "")
		if _, got, _ := eyamlRun(t, dir, "", append([]string{"decrypt", "-s", token}, newKeys...)...); got != want+"\n" {
			t.Errorf("web.yaml's value %d with the new key: %q, want %q", i, got, want)
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A symbolic link under a directory is not followed (it may lead out of the tree); one named is,
// and the file it names is replaced, the link kept.
func TestEyamlRecryptSymbolicLinks(t *testing.T) {
	dir := eyamlDir(t)
	_, token, _ := eyamlRun(t, dir, "", "encrypt", "-o", "string", "-s", "linked")
	must(t, os.MkdirAll(filepath.Join(dir, "data"), 0o755))
	target := filepath.Join(dir, "outside.eyaml")
	must(t, os.WriteFile(target, []byte("a: "+token), 0o600))
	link := filepath.Join(dir, "data", "link.eyaml")
	must(t, os.Symlink(target, link))
	rc, _, errOut := eyamlRun(t, dir, "", "recrypt", "--to-public-key", "other/public.pem", "data")
	if before, _ := os.ReadFile(target); rc != 0 || string(before) != "a: "+token || !strings.Contains(errOut, "data/link.eyaml is a symbolic link: skipped") {
		t.Errorf("under a directory: exit %d, %q; the target changed: %v", rc, errOut, string(before) != "a: "+token)
	}
	rc, _, errOut = eyamlRun(t, dir, "", "recrypt", "--to-public-key", "other/public.pem", "data/link.eyaml")
	after, _ := os.ReadFile(target)
	fi, err := os.Lstat(link)
	if rc != 0 || string(after) == "a: "+token || err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("named: exit %d, %q; the target is re-keyed: %v; the link kept: %v", rc, errOut, string(after) != "a: "+token, err == nil && fi.Mode()&os.ModeSymlink != 0)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode %v, want 0600", st.Mode().Perm())
	}
}

// A terminal closed (SIGHUP) or a kill (SIGTERM) while the editor is open leaves no plaintext
// behind, as the gem's ensure removes its file: hieraform passes the signal to the editor and cleans
// up once it has gone. The edit runs in a child process of this test, which the signal would kill.
func TestEyamlEditSignalLeavesNoPlaintext(t *testing.T) {
	if os.Getenv("HIERAFORM_TEST_EDIT_SIGNAL") != "" {
		dir := eyamlDir(t)
		path, before := encryptedFile(t, dir)
		t.Setenv("HIERAFORM_TEST_PID", strconv.Itoa(os.Getpid()))
		editorScript(t, dir, `kill -$HIERAFORM_TEST_SIGNAL $HIERAFORM_TEST_PID; sleep 1`)
		rc, _, errOut := eyamlRun(t, dir, "", "edit", path)
		if after, _ := os.ReadFile(path); rc != 1 || !strings.Contains(errOut, "nothing written") || string(after) != before {
			t.Errorf("exit %d, %q; want 1, the editor failed, the file unchanged", rc, errOut)
		}
		return
	}
	for _, sig := range []string{"HUP", "TERM"} {
		t.Run(sig, func(t *testing.T) {
			tmp := t.TempDir()
			child := exec.Command(os.Args[0], "-test.run=^TestEyamlEditSignalLeavesNoPlaintext$")
			child.Env = append(os.Environ(), "HIERAFORM_TEST_EDIT_SIGNAL=1", "HIERAFORM_TEST_SIGNAL="+sig, "TMPDIR="+tmp)
			out, err := child.CombinedOutput()
			if err != nil {
				t.Errorf("the edit on SIG%s: %v\n%s", sig, err, out)
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "hieraform-eyaml-edit-*", "*")); len(left) > 0 {
				t.Errorf("plaintext left behind: %v", left)
			}
		})
	}
}

// A link to a file not there yet is kept: the file it names is created, as the gem's write does.
func TestEyamlEditDanglingLink(t *testing.T) {
	dir := eyamlDir(t)
	must(t, os.MkdirAll(filepath.Join(dir, "data"), 0o755))
	link := filepath.Join(dir, "data", "new.eyaml")
	must(t, os.Symlink("../target.eyaml", link))
	editorScript(t, dir, `printf '\nadded: DEC::PKCS7[new secret]!\n' >> "$1"`)
	if rc, _, errOut := eyamlRun(t, dir, "", "edit", link); rc != 0 {
		t.Fatalf("edit: exit %d, %q", rc, errOut)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if _, got, _ := eyamlRun(t, dir, "", "decrypt", "-f", filepath.Join(dir, "target.eyaml")); !strings.Contains(got, "added: new secret") {
		t.Errorf("the file the link names holds %q", got)
	}
}
