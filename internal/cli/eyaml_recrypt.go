package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
)

const recryptSynopsis = `eyaml recrypt [--to-public-key NEW] [--dry-run] PATH...

Encrypts every ENC[PKCS7,...] value of every data file (.eyaml, .yaml, .yml) under each PATH (a
file or a directory) again: decrypted with the current private key, encrypted for NEW (a
certificate from createkeys), or for the current public key without --to-public-key, as eyaml
recrypt does. Every other byte of each file is kept (comments, order, quoting, a block's layout).
A file is replaced whole (a new file, then a rename) or not at all: one with a value the key cannot
decrypt, or a read-only one, is reported and left as it is, and the others are still done. A
symbolic link under a directory is skipped (it may lead out of the tree); one named is followed.
Exits 1 when any file failed.`

const recryptExample = `  hieraform eyaml createkeys --pkcs7-private-key new/private_key.pkcs7.pem --pkcs7-public-key new/public_key.pkcs7.pem
  hieraform eyaml recrypt --dry-run --to-public-key new/public_key.pkcs7.pem data/
  hieraform eyaml recrypt --to-public-key new/public_key.pkcs7.pem data/ site/*/data/`

// dataFileExtensions are the files recrypt reads under a directory, as eyaml_lookup_key reads them.
var dataFileExtensions = map[string]bool{".eyaml": true, ".yaml": true, ".yml": true}

func runEyamlRecrypt(args []string, env Env) int {
	fs := newFlagSet("eyaml recrypt", recryptSynopsis, recryptExample, env)
	var keys eyamlKeys
	keys.register(fs, env)
	to := fs.String("to-public-key", "", "the new public key `file` (a certificate); default: the current public key")
	dryRun := fs.Bool("dry-run", false, "list the files and how many values each would have re-encrypted; write nothing")
	paths, rc, done := parseEyamlArgs(fs, args, env, 1<<30, "paths")
	if done {
		return rc
	}
	fail := env.failer("hieraform eyaml recrypt: ", exitAnswer)
	if len(paths) == 0 {
		return fail(errors.New("give the files or directories to re-encrypt"))
	}
	dec, key, err := keys.decryptor()
	if err != nil {
		return fail(err)
	}
	newKey := keySource{path: *to, name: *to, explicit: true}
	if *to == "" {
		if newKey, err = keys.publicSource(); err != nil {
			return fail(err)
		}
	}
	enc, err := loadEncryptor(newKey)
	if err != nil {
		return fail(err)
	}
	files, err := recryptFiles(paths, env)
	if err != nil {
		return fail(err)
	}
	var changedFiles, values, failed int
	for _, path := range files {
		n, err := recryptFile(path, dec, enc, *dryRun)
		switch {
		case err != nil:
			failed++
			if eyaml.KindOf(err) != eyaml.KindUnknown {
				err = decryptError(path, key, err)
			}
			_, _ = fmt.Fprintf(env.Stderr, "hieraform eyaml recrypt: %v; left as it is\n", err)
		case n > 0:
			changedFiles++
			values += n
			if *dryRun {
				_, _ = fmt.Fprintf(env.Stdout, "%s: %d values\n", path, n)
			}
		}
	}
	verb := "re-encrypted"
	if *dryRun {
		verb = "would re-encrypt"
	}
	_, _ = fmt.Fprintf(env.Stderr, "hieraform eyaml recrypt: %s %d values in %d files for %s", verb, values, changedFiles, newKey.name)
	if failed > 0 {
		_, _ = fmt.Fprintf(env.Stderr, "; %d files failed\n", failed)
		return exitAnswer
	}
	_, _ = fmt.Fprintln(env.Stderr)
	return exitOK
}

// recryptFiles lists the files named and the data files under the directories named, in order,
// each once. A symbolic link under a directory is not followed (a file named is).
func recryptFiles(paths []string, env Env) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, root := range paths {
		fi, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			add(root)
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && p != root && strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir // .git
			case d.Type()&fs.ModeSymlink != 0 && dataFileExtensions[filepath.Ext(p)]:
				_, _ = fmt.Fprintf(env.Stderr, "hieraform eyaml recrypt: %s is a symbolic link: skipped (name its target)\n", p)
			case d.Type().IsRegular() && dataFileExtensions[filepath.Ext(p)]:
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// recryptFile re-encrypts one file's values and replaces it (unless dryRun); n is how many.
func recryptFile(path string, dec *eyaml.Decryptor, enc *eyaml.Encryptor, dryRun bool) (n int, err error) {
	if err := checkWritable(path); err != nil {
		return 0, err
	}
	b, err := boundedfile.Read(path, maxEyamlInput)
	if err != nil {
		return 0, fmt.Errorf("cannot read %s: %w", path, err)
	}
	out, n, err := eyaml.Recrypt(string(b), dec, enc)
	if err != nil || n == 0 || dryRun {
		return n, err
	}
	return n, replaceFile(path, []byte(out), true)
}
