package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// hieraform eyaml: the hiera-eyaml gem's encrypt, decrypt, edit, recrypt and createkeys in pure Go,
// with the gem's flags, output and exit codes (1 on any error).

const eyamlUsage = `Usage:
  hieraform eyaml <subcommand> [flags] [arguments]

Subcommands (the hiera-eyaml gem's, with its flags):
  encrypt     encrypt a string, a file or stdin into an ENC[PKCS7,...] value
  decrypt     decrypt ENC[PKCS7,...] values in a string, a file or stdin
  edit        edit an eyaml file in $EDITOR; only changed values are encrypted again
  recrypt     encrypt every value of data files again, for new keys with --to-public-key
  createkeys  make a key pair as eyaml createkeys does

Keys, the first given winning: --pkcs7-private-key and --pkcs7-public-key; the variables
HIERA_EYAML_PRIVATE_KEY_PATH, HIERA_EYAML_PUBLIC_KEY_PATH, HIERA_EYAML_PRIVATE_KEY and
HIERA_EYAML_PUBLIC_KEY (the keys' text), as the provider reads them; the options
pkcs7_private_key and pkcs7_public_key of an eyaml level of a hiera.yaml (--config, and --level
when it has several); the gem's defaults ./keys/private_key.pkcs7.pem and
./keys/public_key.pkcs7.pem.
Run "hieraform eyaml <subcommand> --help" for its flags.
`

var eyamlCommands = []command{
	{"encrypt", "", runEyamlEncrypt},
	{"decrypt", "", runEyamlDecrypt},
	{"edit", "", runEyamlEdit},
	{"recrypt", "", runEyamlRecrypt},
	{"createkeys", "", runEyamlCreatekeys},
}

func runEyaml(args []string, env Env) int {
	if len(args) == 0 {
		_, _ = fmt.Fprint(env.Stderr, eyamlUsage)
		return exitAnswer
	}
	if args[0] == "--help" || args[0] == "-h" || args[0] == "help" {
		_, _ = fmt.Fprint(env.Stdout, eyamlUsage)
		return exitOK
	}
	for _, c := range eyamlCommands {
		if c.name == args[0] {
			return c.run(args[1:], env)
		}
	}
	_, _ = fmt.Fprintf(env.Stderr, "hieraform eyaml: unknown subcommand %q\n\n%s", args[0], eyamlUsage)
	return exitAnswer
}

// The gem's default key files, relative to the working directory.
const (
	defaultPrivateKey = "./keys/private_key.pkcs7.pem"
	defaultPublicKey  = "./keys/public_key.pkcs7.pem"
)

// eyamlKeys are the key flags of the eyaml subcommands: the gem's flags name the key files, and the
// variables every hieraform command and the provider read give the rest (hiera.EyamlKeyArgs: one
// way to read keys everywhere); then a hiera.yaml level's options, then the gem's defaults.
type eyamlKeys struct {
	flags         hiera.EyamlKeyArgs // the files the flags name
	config, level string
	getenv        func(string) string
}

// pkcs7Flags name the gem's flags by the argument each gives (key text has none: HIERA_EYAML_*).
var pkcs7Flags = hiera.EyamlKeyArgs{PrivateKeyPath: "--pkcs7-private-key", PublicKeyPath: "--pkcs7-public-key"}

func (k *eyamlKeys) register(fs *flag.FlagSet, env Env) {
	k.getenv = env.getenv
	fs.StringVar(&k.flags.PrivateKeyPath, "pkcs7-private-key", "", "the private key `file` (default: "+hiera.EyamlKeyEnv.PrivateKeyPath+
		", or the key's text in "+hiera.EyamlKeyEnv.PrivateKeyPEM+", else the --config level's, else "+defaultPrivateKey+")")
	fs.StringVar(&k.flags.PublicKeyPath, "pkcs7-public-key", "", "the public key `file`, a certificate (default: "+hiera.EyamlKeyEnv.PublicKeyPath+
		", or its text in "+hiera.EyamlKeyEnv.PublicKeyPEM+", else the --config level's, else "+defaultPublicKey+")")
	fs.StringVar(&k.config, "config", "", "a `hiera.yaml` whose eyaml level names the keys (options pkcs7_private_key and pkcs7_public_key)")
	fs.StringVar(&k.level, "level", "", "the hierarchy level of --config whose keys to use, by `name` (default: its only eyaml level)")
	registerQuiet(fs)
}

// registerQuiet accepts the gem's -q and --quiet, which scripts pass: hieraform prints no progress.
func registerQuiet(fs *flag.FlagSet) {
	var quiet bool
	fs.BoolVar(&quiet, "q", false, "accepted for the gem's scripts: hieraform prints no progress")
	fs.BoolVar(&quiet, "quiet", false, "the same as -q")
}

// keySource is one key, as a file or as text from a variable; name says where it came from.
type keySource struct {
	path, text, name string
	explicit         bool // given by the user, not the gem's default
}

// source is a key given as a file (flag or variable) or as text (variable), else the --config
// level's file (levelPath picks it), else the gem's default file.
func (k eyamlKeys) source(path, text, textVar string, levelPath func(levelKeyPaths) string, fallback string) (keySource, error) {
	switch {
	case path != "":
		return keySource{path: path, name: path, explicit: true}, nil
	case text != "":
		return keySource{text: text, name: "$" + textVar, explicit: true}, nil
	}
	lk, err := k.levelKeys()
	if p := levelPath(lk); p != "" {
		return keySource{path: p, name: p, explicit: true}, err
	}
	return keySource{path: fallback, name: fallback}, err
}

func privateOf(lk levelKeyPaths) string { return lk.private }
func publicOf(lk levelKeyPaths) string  { return lk.public }

// read returns the key's PEM text; errors name the file or variable.
func (s keySource) read() ([]byte, error) {
	if s.path == "" {
		return []byte(s.text), nil
	}
	data, err := boundedfile.Read(s.path, 1<<20)
	if err != nil {
		return nil, fmt.Errorf("cannot read the key %s: %w", s.path, err)
	}
	return data, nil
}

// decryptor loads the private key and its certificate (which must match it) when one is given, or
// when both are the gem's default files and the certificate exists: a private key given alone
// decrypts alone, as the provider's.
func (k eyamlKeys) decryptor() (*eyaml.Decryptor, keySource, error) {
	args := k.flags.WithEnv(k.getenv)
	keys, err := args.Resolve(pkcs7Flags) // a key given twice, a public key's text alone, key text that is no key
	if err != nil {
		return nil, keySource{}, err
	}
	if keys.Key != nil {
		src := keySource{name: "$" + hiera.EyamlKeyEnv.PrivateKeyPEM, explicit: true}
		dec, hasCert := keys.Key.Decryptor()
		if hasCert || args.PublicKeyPath == "" {
			return dec, src, nil
		}
		dec, err = withCertificate(dec, keySource{path: args.PublicKeyPath, name: args.PublicKeyPath})
		return dec, src, err
	}
	src, err := k.source(args.PrivateKeyPath, "", "", privateOf, defaultPrivateKey)
	if err != nil {
		return nil, src, err
	}
	pem, err := src.read()
	if err != nil {
		return nil, src, err
	}
	dec, err := eyaml.NewDecryptor(pem)
	if err != nil {
		return nil, src, fmt.Errorf("private key %s: %s", src.name, eyaml.Detail(err))
	}
	pub, err := k.source(args.PublicKeyPath, "", "", publicOf, defaultPublicKey)
	if err != nil {
		return nil, src, err
	}
	if !pub.explicit {
		if _, err := os.Stat(pub.path); err != nil || src.explicit {
			return dec, src, nil //nolint:nilerr // no public key file: the private key alone decrypts
		}
	}
	dec, err = withCertificate(dec, pub)
	return dec, src, err
}

func withCertificate(dec *eyaml.Decryptor, pub keySource) (*eyaml.Decryptor, error) {
	cert, err := pub.read()
	if err != nil {
		return nil, err
	}
	if dec, err = dec.WithCertificate(cert); err != nil {
		return nil, fmt.Errorf("public key %s: %s", pub.name, eyaml.Detail(err))
	}
	return dec, nil
}

// publicSource is the public key to encrypt for.
func (k eyamlKeys) publicSource() (keySource, error) {
	args := k.flags.WithEnv(k.getenv)
	if args.PublicKeyPath != "" && args.PublicKeyPEM != "" {
		return keySource{}, fmt.Errorf("the eyaml public key is given both as text and as a path (%s; %s or %s): give one",
			hiera.EyamlKeyEnv.PublicKeyPEM, pkcs7Flags.PublicKeyPath, hiera.EyamlKeyEnv.PublicKeyPath)
	}
	return k.source(args.PublicKeyPath, args.PublicKeyPEM, hiera.EyamlKeyEnv.PublicKeyPEM, publicOf, defaultPublicKey)
}

// encryptor loads the public key.
func (k eyamlKeys) encryptor() (*eyaml.Encryptor, error) {
	src, err := k.publicSource()
	if err != nil {
		return nil, err
	}
	return loadEncryptor(src)
}

func loadEncryptor(src keySource) (*eyaml.Encryptor, error) {
	pem, err := src.read()
	if err != nil {
		return nil, err
	}
	enc, err := eyaml.NewEncryptor(pem)
	if err != nil {
		return nil, fmt.Errorf("public key %s: %s", src.name, eyaml.Detail(err))
	}
	return enc, nil
}

// decryptError is a decryption failure of input (a file, or what name says), naming the private
// key when the value was encrypted for another one.
func decryptError(input string, key keySource, err error) error {
	msg := input + ": " + eyaml.Detail(err)
	if eyaml.KindOf(err) == eyaml.KindWrongKey {
		msg += " (private key " + key.name + ")"
	}
	return errors.New(msg)
}

// inputFlags are the gem's sources of encrypt's and decrypt's input: exactly one is given.
type inputFlags struct {
	str, file, eyamlFile string
	stdin                bool
}

func (in *inputFlags) register(fs *flag.FlagSet, what string) {
	for _, name := range []string{"s", "string"} {
		fs.StringVar(&in.str, name, "", "the `text` to "+what)
	}
	for _, name := range []string{"f", "file"} {
		fs.StringVar(&in.file, name, "", "a `file` to "+what)
	}
	for _, name := range []string{"e", "eyaml"} {
		fs.StringVar(&in.eyamlFile, name, "", "an eyaml `file` to "+what+" in the edit form (DEC::PKCS7[...]!)")
	}
	fs.BoolVar(&in.stdin, "stdin", false, "read the input from standard input")
}

// read returns the input's text and its name for messages.
func (in inputFlags) read(env Env) (text, name string, err error) {
	var given []string
	for flagName, set := range map[string]bool{"-s": in.str != "", "-f": in.file != "", "-e": in.eyamlFile != "", "--stdin": in.stdin} {
		if set {
			given = append(given, flagName)
		}
	}
	switch {
	case len(given) == 0:
		return "", "", errors.New("you must specify a source: -s TEXT, -f FILE, -e FILE or --stdin")
	case len(given) > 1:
		return "", "", fmt.Errorf("give one source, not %d", len(given))
	case in.str != "":
		return in.str, "the string", nil
	case in.stdin:
		if env.Stdin == nil {
			return "", "", errors.New("no standard input")
		}
		b, err := io.ReadAll(io.LimitReader(env.Stdin, maxEyamlInput+1))
		if err == nil && len(b) > maxEyamlInput {
			err = fmt.Errorf("more than %d bytes", maxEyamlInput)
		}
		if err != nil {
			return "", "", fmt.Errorf("cannot read standard input: %w", err)
		}
		return string(b), "standard input", nil
	}
	path := in.file + in.eyamlFile
	b, err := boundedfile.Read(path, maxEyamlInput)
	if err != nil {
		return "", "", fmt.Errorf("cannot read %s: %w", path, err)
	}
	return string(b), path, nil
}

// maxEyamlInput bounds what encrypt and decrypt read: a data file is kilobytes.
const maxEyamlInput = 64 << 20

const encryptSynopsis = `eyaml encrypt (-s TEXT | -f FILE | --stdin | -e FILE) [-o string|block|examples] [-l LABEL] [flags]

Encrypts the input for the public key as eyaml encrypt does; the gem decrypts the result. -e
encrypts every DEC::PKCS7[...]! value of an eyaml file and prints the file.`

const encryptExample = `  hieraform eyaml encrypt -s 'hunter2' -o string
  hieraform eyaml encrypt -l 'profile::db::password' -o block --stdin < password.txt
  hieraform eyaml encrypt -f id_rsa --pkcs7-public-key keys/public_key.pkcs7.pem`

func runEyamlEncrypt(args []string, env Env) int {
	fs := newFlagSet("eyaml encrypt", encryptSynopsis, encryptExample, env)
	var keys eyamlKeys
	keys.register(fs, env)
	var in inputFlags
	in.register(fs, "encrypt")
	var output, label string
	for _, name := range []string{"o", "output"} {
		fs.StringVar(&output, name, "examples", "the output `format`: string, block or examples (both)")
	}
	for _, name := range []string{"l", "label"} {
		fs.StringVar(&label, name, "", "a `label` before the value (\"label: ENC[...]\"), a YAML key")
	}
	if _, rc, done := parseEyamlArgs(fs, args, env, 0, "no arguments: give the text with -s"); done {
		return rc
	}
	fail := env.failer("hieraform eyaml encrypt: ", exitAnswer)
	text, name, err := in.read(env)
	if err != nil {
		return fail(err)
	}
	enc, err := keys.encryptor()
	if err != nil {
		return fail(err)
	}
	var out string
	if in.eyamlFile != "" {
		if out, err = eyaml.EncryptForm(text, enc); err != nil {
			return fail(decryptError(name, keySource{}, err))
		}
	} else {
		token, err := enc.Encrypt([]byte(text))
		if err != nil {
			return fail(err)
		}
		out = eyaml.FormatToken(token, output, label)
	}
	return putsOut(env, out)
}

// parseEyamlArgs parses a subcommand's flags and at most maxArgs arguments (hint says what to give
// instead). done reports that the command is over, with exit code rc: --help printed, or an error.
func parseEyamlArgs(fs *flag.FlagSet, args []string, env Env, maxArgs int, hint string) (rest []string, rc int, done bool) {
	rest, err := parseArgs(fs, args)
	if errors.Is(err, errHelp) {
		return nil, exitOK, true
	}
	if err == nil && len(rest) > maxArgs {
		err = fmt.Errorf("%s takes %s (got %q)", strings.TrimPrefix(fs.Name(), "eyaml "), hint, rest[maxArgs])
	}
	if err != nil {
		return nil, env.failer("hieraform "+fs.Name()+": ", exitAnswer)(err), true
	}
	return rest, exitOK, false
}

// putsOut prints s as Ruby's puts does: a line break added unless s ends with one.
func putsOut(env Env, s string) int {
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	_, _ = io.WriteString(env.Stdout, s)
	return exitOK
}

const decryptSynopsis = `eyaml decrypt (-s TEXT | -f FILE | --stdin | -e FILE) [flags]

Decrypts every ENC[PKCS7,...] value of the input with the private key and prints the input with
each replaced by its plaintext, byte for byte as eyaml decrypt prints it; -e prints the edit form
(DEC::PKCS7[...]!). A value that cannot be decrypted fails the whole command, naming its line.`

const decryptExample = `  hieraform eyaml decrypt -f data/common.eyaml
  hieraform eyaml decrypt -s 'ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCC...]'
  HIERA_EYAML_PRIVATE_KEY_PATH=~/keys/private_key.pkcs7.pem hieraform eyaml decrypt --stdin < value.txt`

func runEyamlDecrypt(args []string, env Env) int {
	fs := newFlagSet("eyaml decrypt", decryptSynopsis, decryptExample, env)
	var keys eyamlKeys
	keys.register(fs, env)
	var in inputFlags
	in.register(fs, "decrypt")
	if _, rc, done := parseEyamlArgs(fs, args, env, 0, "no arguments: give the value with -s or a file with -f"); done {
		return rc
	}
	fail := env.failer("hieraform eyaml decrypt: ", exitAnswer)
	text, name, err := in.read(env)
	if err != nil {
		return fail(err)
	}
	dec, key, err := keys.decryptor()
	if err != nil {
		return fail(err)
	}
	var out string
	if in.eyamlFile != "" {
		out, err = dec.DecryptForm(text)
	} else {
		out, err = dec.DecryptFile(text)
	}
	if err != nil {
		return fail(decryptError(name, key, err))
	}
	return putsOut(env, out)
}

const createkeysSynopsis = `eyaml createkeys [--pkcs7-private-key FILE] [--pkcs7-public-key FILE] [flags]

Makes a key pair as eyaml createkeys does: an RSA private key (mode 0600) and a self-signed
certificate, valid 50 years, that the gem and Puppet use as the public key. An existing file is
never overwritten.`

const createkeysExample = `  hieraform eyaml createkeys
  hieraform eyaml createkeys --pkcs7-private-key ~/.eyaml/private_key.pkcs7.pem --pkcs7-public-key keys/public_key.pkcs7.pem`

func runEyamlCreatekeys(args []string, env Env) int {
	fs := newFlagSet("eyaml createkeys", createkeysSynopsis, createkeysExample, env)
	private := fs.String("pkcs7-private-key", defaultPrivateKey, "the private key `file` to write")
	public := fs.String("pkcs7-public-key", defaultPublicKey, "the public key `file` (a certificate) to write")
	var opts eyaml.KeyOptions
	fs.IntVar(&opts.Bits, "pkcs7-keysize", 2048, "the RSA key's size in `bits`")
	fs.StringVar(&opts.Subject, "pkcs7-subject", "/", "the certificate's `subject`, as OpenSSL writes it: /CN=name/O=org")
	registerQuiet(fs)
	if _, rc, done := parseEyamlArgs(fs, args, env, 0, "no arguments: name the files with --pkcs7-private-key and --pkcs7-public-key"); done {
		return rc
	}
	fail := env.failer("hieraform eyaml createkeys: ", exitAnswer)
	for _, p := range []string{*private, *public} {
		if _, err := os.Lstat(p); err == nil {
			return fail(fmt.Errorf("%s exists: hieraform never overwrites a key (move it away first)", p))
		}
	}
	privPEM, certPEM, err := eyaml.CreateKeys(opts)
	if err != nil {
		return fail(errors.New(eyaml.Detail(err)))
	}
	if err := writeNewFile(*private, privPEM, 0o600); err != nil {
		return fail(err)
	}
	if err := writeNewFile(*public, certPEM, 0o644); err != nil {
		_ = os.Remove(*private) // a private key without its certificate is no key pair
		return fail(err)
	}
	return exitOK
}

// writeNewFile creates path (and its directory) with mode, failing if it exists; a file it
// cannot finish writing is removed.
func writeNewFile(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cannot create the key directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("cannot create %s: %w", path, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}
