package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// Env is what the command reads and writes besides its arguments.
type Env struct {
	Stdin          io.Reader // eyaml's --stdin; nil: none
	Stdout, Stderr io.Writer
	Version        string
	// Terminal and ErrTerminal say whether stdout and stderr are terminals (a table for people,
	// progress on stderr).
	Terminal, ErrTerminal bool
	// Getenv reads the environment (os.Getenv); nil reads none, as tests run.
	Getenv func(string) string
	// progress is stderr as given, for check's progress line (Run escapes Stderr on a terminal).
	progress io.Writer
}

// getenv is the environment variable name, "" when Getenv is nil.
func (env Env) getenv(name string) string {
	if env.Getenv == nil {
		return ""
	}
	return env.Getenv(name)
}

// Exit codes: lookup exits as puppet lookup does (1 for not found and for any error); diff as
// git diff (1: the sides differ) and check (1: problems found) keep 1 for their answer and exit
// 2 when they cannot run.
const (
	exitOK      = 0
	exitAnswer  = 1
	exitFailure = 2
)

type command struct {
	name, summary string
	run           func(args []string, env Env) int
}

var commands = []command{
	{"lookup", "look keys up as `puppet lookup` does", runLookup},
	{"node", "every key of a node, as the hiera_node data source", runNode},
	{"diff", "compare two nodes, environments or checkouts", runDiff},
	{"check", "find broken data files, interpolations and lookup_options", runCheck},
	{"unused", "find the data files, keys and values no node of a fleet uses", runUnused},
	{"eyaml", "encrypt, decrypt, edit and re-key eyaml values, as the eyaml gem", runEyaml},
}

const usage = `hieraform answers Hiera lookups as Puppet does, without Puppet.

Usage:
  hieraform <command> [flags] [arguments]

Commands:
%s
Run "hieraform <command> --help" for a command's flags and an example.
"hieraform --version" prints the version.
`

// Run runs the command line args (without the program name) and returns the exit code.
func Run(args []string, env Env) int {
	env.progress = env.Stderr
	if env.Terminal {
		env.Stdout = terminalWriter{env.Stdout}
	}
	if env.ErrTerminal {
		env.Stderr = terminalWriter{env.Stderr}
	}
	if len(args) == 0 {
		_, _ = fmt.Fprintf(env.Stderr, usage, commandList())
		return exitFailure
	}
	switch args[0] {
	case "--version", "-version", "version":
		_, _ = fmt.Fprintln(env.Stdout, "hieraform", env.Version)
		return exitOK
	case "--help", "-help", "-h", "help":
		_, _ = fmt.Fprintf(env.Stdout, usage, commandList())
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], env)
		}
	}
	_, _ = fmt.Fprintf(env.Stderr, "hieraform: unknown command %q\n\n"+usage, args[0], commandList())
	return exitFailure
}

func commandList() string {
	var b strings.Builder
	for _, c := range commands {
		_, _ = fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.summary)
	}
	return b.String()
}

// failer returns a command's way to fail: the error on stderr after prefix (and how to give eyaml
// keys when they were the problem), then exit code.
func (env Env) failer(prefix string, code int) func(error) int {
	return func(err error) int {
		_, _ = fmt.Fprintf(env.Stderr, "%s%s\n%s", prefix, err, eyamlKeyHint(err))
		return code
	}
}

// eyamlKeyHint says how to give eyaml keys, on a line of its own, when err is about them ("" for
// other errors).
func eyamlKeyHint(err error) string {
	if !errors.Is(err, hiera.ErrEyamlKey) {
		return ""
	}
	return "Where the keys are not where hiera.yaml says (a laptop, a CI runner), give them with " +
		eyamlFlags.PrivateKeyPath + " and " + eyamlFlags.PublicKeyPath + ", or the environment variables " +
		hiera.EyamlKeyEnv.PrivateKeyPath + " (a file) or " + hiera.EyamlKeyEnv.PrivateKeyPEM + " (the key's text).\n"
}

// errHelp is parseArgs' answer to --help: the help was printed, exit 0.
var errHelp = errors.New("help")

// parseArgs parses flags and positional arguments in any order, as puppet lookup takes them
// (`lookup KEY --node n`); "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) (positional []string, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				helps[fs.Name()]()
				return nil, errHelp
			}
			return nil, fmt.Errorf("%s (hieraform %s --help lists them)", goFlagName.ReplaceAllString(err.Error(), "$1--$2"), fs.Name())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// goFlagName is a flag of more than one letter as the flag package's errors name it ("flag
// provided but not defined: -colour"), to be named as it is typed ("--colour").
var goFlagName = regexp.MustCompile(`((?:defined|argument): |for (?:flag )?)-([A-Za-z0-9][-A-Za-z0-9_]+)`)

// newFlagSet is a command's flag set: errors and help on stderr and stdout, help with an example.
func newFlagSet(name, synopsis, example string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// A bad flag is returned and reported once by the command; the flag package would print it too.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	helps[name] = func() {
		_, _ = fmt.Fprintf(env.Stdout, "Usage: hieraform %s\n\nFlags:\n%s\nExample:\n%s\n", synopsis, flagHelp(fs), example)
	}
	return fs
}

// flagHelp lists fs's flags as the flag package's PrintDefaults does, each named as Puppet users
// type it: "--flag", and "-f" for a one-letter flag (the eyaml gem's -s, -f, -o, -l).
func flagHelp(fs *flag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		dashes := "--"
		if len(f.Name) == 1 {
			dashes = "-"
		}
		arg, usage := flag.UnquoteUsage(f)
		line := "  " + dashes + f.Name
		if arg != "" {
			line += " " + arg
		}
		b.WriteString(line + "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t"))
		if def := f.DefValue; def != "" && def != "false" && def != "0" {
			if g, ok := f.Value.(flag.Getter); ok {
				if _, isString := g.Get().(string); isString {
					def = strconv.Quote(def)
				}
			}
			b.WriteString(" (default " + def + ")")
		}
		b.WriteString("\n")
	})
	return b.String()
}

// helps print each command's --help (one command runs per process; tests run them one at a time).
var helps = map[string]func(){}

// IsTerminal reports whether f is a character device (a terminal, not a file or a pipe).
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// stringList is a flag that may be given many times, each value kept in order.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }
