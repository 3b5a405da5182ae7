package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The checker against the real hiera-eyaml gem (3.x, `eyaml` on PATH): what ours writes the gem
// reads, what the gem writes ours reads, and `decrypt -f` prints the gem's bytes. Without the gem
// the tests skip: apt-get install hiera-eyaml (or gem install hiera-eyaml) to run them.

func needGem(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("eyaml"); err != nil {
		t.Skip("eyaml (the hiera-eyaml gem) is not on PATH: apt-get install hiera-eyaml to check against it")
	}
}

// gem runs the real eyaml in dir with stdin and returns its stdout; it must succeed.
func gem(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("eyaml", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "EYAML_CONFIG=") // no user's config file
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("eyaml %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String()
}

// ours runs hieraform eyaml in dir with stdin; it must succeed.
func ours(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	rc := Run(append([]string{"eyaml"}, args...), Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: os.Getenv})
	if rc != 0 {
		t.Fatalf("hieraform eyaml %s: exit %d\n%s", strings.Join(args, " "), rc, errOut.String())
	}
	return out.String()
}

// keyDirs makes a key pair with the gem (gem/keys) and one with ours (ours/keys), both in the gem's
// default place so that neither command needs key flags.
func keyDirs(t *testing.T) (gemDir, ourDir string) {
	needGem(t)
	root := t.TempDir()
	gemDir, ourDir = filepath.Join(root, "gem"), filepath.Join(root, "ours")
	must(t, os.MkdirAll(gemDir, 0o755))
	must(t, os.MkdirAll(ourDir, 0o755))
	gem(t, gemDir, "", "createkeys", "-q")
	ours(t, ourDir, "", "createkeys")
	return gemDir, ourDir
}

// Secrets with what trips a format: line breaks, YAML and eyaml syntax, non-ASCII, a block's
// length, a trailing line break.
var gemSecrets = []string{
	"hunter2",
	"two\nlines\n",
	"a: b # not a comment ]! DEC::PKCS7[x]!",
	"héllo wörld ✓",
	strings.Repeat("0123456789", 20),
}

func TestEyamlGemReadsOurKeysAndValues(t *testing.T) {
	_, dir := keyDirs(t)
	fi, err := os.Stat(filepath.Join(dir, defaultPrivateKey))
	must(t, err)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("private key mode %v, want 0600", fi.Mode().Perm())
	}
	// The gem encrypts for our certificate and decrypts with our private key.
	token := gem(t, dir, "hunter2", "encrypt", "-o", "string", "--stdin")
	if got := gem(t, dir, "", "decrypt", "-s", strings.TrimSpace(token)); got != "hunter2\n" {
		t.Errorf("the gem with our keys: %q, want %q", got, "hunter2\n")
	}
	// Ours encrypts every secret in every form, one file of them all; the gem decrypts it.
	var file, want strings.Builder
	for i, secret := range gemSecrets {
		for _, tc := range []struct {
			args       []string
			wantPrefix string
		}{
			{[]string{"-o", "string"}, ""},
			{[]string{"-o", "block", "-l", "key"}, "key: >\n  "},
			{[]string{"-o", "string", "-l", "key"}, "key: "},
		} {
			if i == 0 {
				tc.args = append(tc.args, "-s", secret)
				file.WriteString(ours(t, dir, "", append([]string{"encrypt"}, tc.args...)...))
			} else {
				file.WriteString(ours(t, dir, secret, append([]string{"encrypt", "--stdin"}, tc.args...)...))
			}
			want.WriteString(tc.wantPrefix + "DEC::PKCS7[" + secret + "]!\n")
		}
	}
	path := filepath.Join(dir, "values.eyaml")
	must(t, os.WriteFile(path, []byte(file.String()), 0o644))
	if got := gem(t, dir, "", "decrypt", "-e", path); got != want.String() {
		t.Errorf("the gem's decrypt -e of ours:\n got %q\nwant %q", got, want.String())
	}
}

// A data file encrypted by the gem in every layout its decrypt -f treats apart: string and block
// values, one at the start of the file, plaintexts with line breaks after a key and alone, a ">-"
// block the gem's parser leaves alone, comments, every output of its encrypt -o. Ours decrypts it
// byte for byte as the gem.
func TestEyamlDecryptAsTheGem(t *testing.T) {
	dir, _ := keyDirs(t)
	var form strings.Builder
	form.WriteString("DEC::PKCS7[first]!\n---\n# ENC[...] values are secrets\nplain: text\n")
	for i, secret := range append(gemSecrets, "-----BEGIN-----\nabc\n\ndef\n-----END-----\n", "multi\r\nline") {
		fmt.Fprintf(&form, "s%d: DEC::PKCS7[%s]!\nb%d: >\n    DEC::PKCS7[%s]!\n", i, secret, i, secret)
	}
	form.WriteString("list:\n  - DEC::PKCS7[in a list]!\nquoted: \"DEC::PKCS7[quoted]!\"\nlast: DEC::PKCS7[end]!")
	path := filepath.Join(dir, "common.eyaml")
	must(t, os.WriteFile(path, []byte(form.String()), 0o644))
	encrypted := gem(t, dir, "", "encrypt", "-e", path)
	examples := gem(t, dir, "an example", "encrypt", "--stdin")
	stripped := "\nstripped: >-\n" + strings.TrimSuffix(gem(t, dir, "not the gem's", "encrypt", "-o", "block", "--stdin"), "\n")
	file := encrypted + examples + stripped
	must(t, os.WriteFile(path, []byte(file), 0o644))
	want := gem(t, dir, "", "decrypt", "-f", path)
	if got := ours(t, dir, "", "decrypt", "-f", path); got != want {
		t.Errorf("decrypt -f differs from the gem's:\n got %q\nwant %q", got, want)
	}
	if got := ours(t, dir, file, "decrypt", "--stdin"); got != want {
		t.Errorf("decrypt --stdin differs from the gem's decrypt -f:\n got %q\nwant %q", got, want)
	}
	if got, want := ours(t, dir, "", "decrypt", "-e", path), gem(t, dir, "", "decrypt", "-e", path); got != want {
		t.Errorf("decrypt -e differs from the gem's:\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(want, "s1: |\n  two\n  lines\n") || !strings.Contains(want, "string: an example") {
		t.Errorf("the file lost its values: %q", want)
	}
}

// encrypt -e: ours encrypts the DEC values of an edit-form file; the gem decrypts it back.
func TestEyamlEncryptFormAsTheGem(t *testing.T) {
	_, dir := keyDirs(t)
	form := "---\na: DEC::PKCS7[one]!\nb: >\n    DEC::PKCS7[two\nlines]!\nc: plain\n"
	path := filepath.Join(dir, "form.eyaml")
	must(t, os.WriteFile(path, []byte(form), 0o644))
	encrypted := ours(t, dir, "", "encrypt", "-e", path)
	if strings.Contains(encrypted, "DEC::") || strings.Contains(encrypted, "one") {
		t.Fatalf("encrypt -e left plaintext: %q", encrypted)
	}
	must(t, os.WriteFile(path, []byte(encrypted), 0o644))
	if got := gem(t, dir, "", "decrypt", "-e", path); got != form {
		t.Errorf("the gem reads back %q, want %q", got, form)
	}
}

// edit through $EDITOR: ours and the gem's edit of one file give the same file but for the
// ciphertext of the changed and added values; ours keeps the unchanged one's bytes.
func TestEyamlEditAsTheGem(t *testing.T) {
	dir, _ := keyDirs(t)
	form := "---\n# secrets\none: DEC::PKCS7[first secret]!\ntwo: >\n  DEC::PKCS7[second secret]!\nplain: text\n"
	path := filepath.Join(dir, "form.eyaml")
	must(t, os.WriteFile(path, []byte(form), 0o644))
	before := gem(t, dir, "", "encrypt", "-e", path)
	editorScript(t, dir, `sed -i 's/\[second secret\]/[changed secret]/; s/^plain: text$/plain: text\nadded: DEC::PKCS7[new secret]!/' "$1"`)
	ourFile, gemFile := filepath.Join(dir, "ours.eyaml"), filepath.Join(dir, "gems.eyaml")
	for _, p := range []string{ourFile, gemFile} {
		must(t, os.WriteFile(p, []byte(before), 0o644))
	}
	ours(t, dir, "", "edit", ourFile)
	gem(t, dir, "", "edit", gemFile)
	ourText, err := os.ReadFile(ourFile)
	must(t, err)
	gemText, err := os.ReadFile(gemFile)
	must(t, err)
	if tokenRe.ReplaceAllString(string(ourText), "ENC") != tokenRe.ReplaceAllString(string(gemText), "ENC") {
		t.Errorf("ours:\n%s\nthe gem's:\n%s", ourText, gemText)
	}
	if got, want := gem(t, dir, "", "decrypt", "-f", ourFile), gem(t, dir, "", "decrypt", "-f", gemFile); got != want {
		t.Errorf("the gem decrypts ours to %q, its own to %q", got, want)
	}
	if !strings.HasPrefix(string(ourText), before[:strings.Index(before, "two:")]) {
		t.Errorf("the unchanged value's ciphertext changed:\n%s", ourText)
	}
}

// recrypt to new keys: the gem decrypts the re-keyed file with the new keys to what it decrypted
// the old file to with the old ones.
func TestEyamlRecryptAsTheGem(t *testing.T) {
	dir, _ := keyDirs(t)
	form := "---\none: DEC::PKCS7[first secret]!\ntwo: >\n    DEC::PKCS7[second\nsecret]!\n# done\n"
	path := filepath.Join(dir, "common.eyaml")
	must(t, os.WriteFile(path, []byte(form), 0o644))
	must(t, os.WriteFile(path, []byte(gem(t, dir, "", "encrypt", "-e", path)), 0o644))
	want := gem(t, dir, "", "decrypt", "-f", path)
	gem(t, dir, "", "createkeys", "-q", "--pkcs7-private-key", "new/private.pem", "--pkcs7-public-key", "new/public.pem")
	ours(t, dir, "", "recrypt", "--to-public-key", "new/public.pem", path)
	if got := gem(t, dir, "", "decrypt", "-f", path, "--pkcs7-private-key", "new/private.pem", "--pkcs7-public-key", "new/public.pem"); got != want {
		t.Errorf("the gem with the new keys: %q, want %q", got, want)
	}
}
