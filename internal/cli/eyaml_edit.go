package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hieraform/terraform-provider-hiera/internal/atomicfile"
	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
)

const editSynopsis = `eyaml edit [--no-preamble] FILE

Opens FILE in $EDITOR with every ENC[PKCS7,...] value shown as DEC(n)::PKCS7[plaintext]!, as eyaml
edit does. On save, only the values whose plaintext changed, and new DEC::PKCS7[...]! values, are
encrypted; the others keep their ciphertext, so a review diff shows only what changed. The
plaintext is only ever in a private temporary file (mode 0600) that is removed. FILE is replaced
whole (a new file, then a rename), and not at all when it changed on disk during the edit, when it
is read-only or when the editor fails. A FILE that does not exist is created.`

const editExample = `  hieraform eyaml edit data/common.eyaml
  EDITOR='code --wait' hieraform eyaml edit --pkcs7-private-key ~/keys/private_key.pkcs7.pem data/nodes/db01.eyaml`

// editPreamble is the gem's (edit.rb), each line behind editPrefix; removed on save.
const editPreamble = `This is eyaml edit mode. This text (lines starting with # | at the top of
the file) will be removed when you save and exit.
 - To edit encrypted values, change the content of the DEC(<num>)::PKCS7[]!
   block.
   WARNING: DO NOT change the number in the parentheses.
 - To add a new encrypted value copy and paste a new block from the
   appropriate example below. Note that:
    * the text to encrypt goes in the square brackets
    * ensure you include the exclamation mark when you copy and paste
    * you must not include a number when adding a new block
   e.g. DEC::PKCS7[]!
`

const editPrefix = "# |"

func runEyamlEdit(args []string, env Env) int {
	fs := newFlagSet("eyaml edit", editSynopsis, editExample, env)
	var keys eyamlKeys
	keys.register(fs, env)
	noPreamble := fs.Bool("no-preamble", false, "leave out the explanation at the top of the edited text")
	rest, rc, done := parseEyamlArgs(fs, args, env, 1, "one file")
	if done {
		return rc
	}
	fail := env.failer("hieraform eyaml edit: ", exitAnswer)
	if len(rest) == 0 {
		return fail(errors.New("you must specify an eyaml file"))
	}
	path := rest[0]
	original, exists, err := readEditable(path)
	if err != nil {
		return fail(err)
	}
	dec, key, err := keys.decryptor()
	if err != nil {
		return fail(err)
	}
	enc, err := keys.encryptor()
	if err != nil {
		return fail(err)
	}
	text := original
	if !exists {
		text = "---"
	}
	edit, err := dec.NewEdit(text)
	if err != nil {
		return fail(decryptError(path, key, err))
	}
	shown := edit.Form
	if !*noPreamble {
		shown = editPrefix + " " + strings.ReplaceAll(strings.TrimSuffix(editPreamble, "\n"), "\n", "\n"+editPrefix+" ") + "\n" + shown
	}
	edited, err := editInEditor(shown, env)
	if err != nil {
		return fail(err)
	}
	edited = stripPreamble(edited)
	switch edited {
	case edit.Form:
		_, _ = fmt.Fprintf(env.Stderr, "hieraform eyaml edit: no changes; %s not written\n", path)
		return exitOK
	case "":
		return fail(fmt.Errorf("the edited text is blank; %s not written", path))
	}
	now, nowExists, err := readEditable(path)
	if err != nil {
		return fail(err)
	}
	if now != original || nowExists != exists {
		return fail(fmt.Errorf("%s changed on disk during the edit; nothing written (edit it again)", path))
	}
	out, _, err := edit.Apply(edited, enc)
	if err != nil {
		return fail(fmt.Errorf("the edited text: %s; %s not written", eyaml.Detail(err), path))
	}
	if err := replaceFile(path, []byte(out), exists); err != nil {
		return fail(err)
	}
	return exitOK
}

// readEditable reads a file to be replaced: it must be writable; a file that does not exist is
// empty.
func readEditable(path string) (text string, exists bool, err error) {
	if err := checkWritable(path); errors.Is(err, fs.ErrNotExist) {
		return "", false, checkWritableDir(filepath.Dir(path))
	} else if err != nil {
		return "", false, err
	}
	b, err := boundedfile.Read(path, maxEyamlInput)
	if err != nil {
		return "", true, fmt.Errorf("cannot read %s: %w", path, err)
	}
	return string(b), true, nil
}

// editInEditor writes text to a private temporary file, runs $EDITOR on it and returns what was
// saved. The file is overwritten and removed whatever happens.
func editInEditor(text string, env Env) (string, error) {
	editor, err := findEditor(env)
	if err != nil {
		return "", err
	}
	// A hangup (the terminal closed) or a kill while the editor is open would end hieraform before
	// its cleanup: the signal goes to the editor instead, and the plaintext is removed once it ends.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGHUP, syscall.SIGTERM, os.Interrupt)
	defer signal.Stop(signals)
	dir, err := os.MkdirTemp("", "hieraform-eyaml-edit-") // mode 0700: only its owner lists it
	if err != nil {
		return "", fmt.Errorf("cannot create a private temporary directory: %w", err)
	}
	file := filepath.Join(dir, "edit.eyaml")
	size := len(text)
	defer func() {
		if f, err := os.OpenFile(file, os.O_WRONLY, 0); err == nil { // best effort: no plaintext left in the blocks
			_, _ = f.Write(make([]byte, size))
			_ = f.Sync()
			_ = f.Close()
		}
		_ = os.RemoveAll(dir)
	}()
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		return "", fmt.Errorf("cannot write the temporary file: %w", err)
	}
	// As the gem: $EDITOR is a shell command (it may hold flags: "code --wait"); the file is its
	// last argument, passed as "$1" so that no path is parsed by the shell.
	cmd := exec.Command("/bin/sh", "-c", editor+` "$1"`, "sh", file)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, unescaped(env.Stdout), unescaped(env.Stderr) // the terminal itself
	if err := runForwarding(cmd, signals); err != nil {
		return "", fmt.Errorf("the editor %q failed (%v); nothing written", editor, err)
	}
	b, err := boundedfile.Read(file, maxEyamlInput)
	if err != nil {
		return "", fmt.Errorf("cannot read the edited text back (did the editor move it?): %w", err)
	}
	size = max(size, len(b))
	return string(b), nil
}

// runForwarding runs cmd, passing it the signals that arrive meanwhile (an interrupt from the
// terminal reached the editor already: the editor decides what it means).
func runForwarding(cmd *exec.Cmd, signals <-chan os.Signal) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case err := <-done:
			return err
		case sig := <-signals:
			if sig != os.Interrupt {
				_ = cmd.Process.Signal(sig)
			}
		}
	}
}

// unescaped is w without the escaping Run puts on a terminal: an editor draws on the terminal.
func unescaped(w io.Writer) io.Writer {
	if t, ok := w.(terminalWriter); ok {
		return t.w
	}
	return w
}

// findEditor is the gem's: $EDITOR, else the first of Debian's editors that exists.
func findEditor(env Env) (string, error) {
	if e := env.getenv("EDITOR"); e != "" {
		return e, nil
	}
	for _, e := range []string{"/usr/bin/sensible-editor", "/usr/bin/editor", "/usr/bin/vim", "/usr/bin/vi"} {
		if fi, err := os.Stat(e); err == nil && fi.Mode()&0o111 != 0 {
			return e, nil
		}
	}
	return "", errors.New("no editor found: set EDITOR")
}

// stripPreamble drops the lines at the top that start with the preamble's prefix, as the gem does.
func stripPreamble(text string) string {
	for strings.HasPrefix(text, editPrefix) {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return ""
		}
		text = text[i+1:]
	}
	return text
}

// checkWritable fails when path is read-only (its mode, whoever runs: root too) or its directory
// takes no new file (replaceFile writes one there).
func checkWritable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%s is read-only (mode %04o)", path, fi.Mode().Perm())
	}
	return checkWritableDir(filepath.Dir(path))
}

func checkWritableDir(dir string) error {
	f, err := os.CreateTemp(dir, ".hieraform-eyaml-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	_ = f.Close()
	return os.Remove(f.Name())
}

// replaceFile writes data to a new file beside path, with path's mode (0644 for a new file) and,
// run as root, its owner and group, and renames it over path (atomicfile.WriteFile): a reader sees
// the old file or the new one, never half of one. A symbolic link is followed, so the file it
// names is replaced (or created) and the link kept, as the gem does.
func replaceFile(path string, data []byte, exists bool) error {
	if target, err := os.Readlink(path); err == nil && !exists { // a link to no file: create the file it names
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	if exists {
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("cannot resolve %s: %w", path, err)
		}
		path = target
		if err := checkWritable(path); err != nil {
			return err
		}
	}
	return atomicfile.WriteFile(path, data, 0o644)
}
