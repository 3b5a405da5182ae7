package doctest_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/hieraform/terraform-provider-hiera/internal/puppetdb/puppetdbtest"
)

// noSkipEnv, when set, turns a skip for want of a CLI into a failure (scripts/test.sh sets it).
const noSkipEnv = "HIERAFORM_TEST_NO_SKIP"

// The newest feature an example uses: the ephemeral resource (OpenTofu's own version numbers).
var (
	leastTerraform = version.Must(version.NewVersion("1.10.0"))
	leastTofu      = version.Must(version.NewVersion("1.11.0"))
)

// example is one fenced HCL block of a Markdown file.
type example struct {
	file string // relative to the repository root
	line int    // of the opening fence
	text string
}

// TestExamplesRun plans every HCL example of README.md and docs/ in an empty directory, with the
// provider installed by scripts/install.sh into a mirror under a throwaway home directory: init
// must install it from there (no registry, no development override), write the lock file, and
// plan must succeed. A block that needs another provider (the ephemeral resource's postgresql)
// cannot be initialised offline: it is planned without that provider's blocks, which checks
// everything of ours in it, and its syntax is checked whole. A CLI configuration block (the
// Installing guide's) is used as the CLI configuration of a minimal plan, with /home/you read
// as the throwaway home.
func TestExamplesRun(t *testing.T) {
	cli := cliUnderTest(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	install(t, root, home)
	examples := readExamples(t, root)
	for _, ex := range examples {
		t.Run(fmt.Sprintf("%s:%d", ex.file, ex.line), func(t *testing.T) {
			t.Parallel()
			if cliConfig.MatchString(ex.text) { // HCL 1, which the CLI reads it with, allows quoted names
				planWithCLIConfig(t, cli, home, ex)
				return
			}
			if strings.Contains(ex.text, "puppetdb") {
				ex.text = withTestPuppetDB(t, ex.text)
			}
			if _, diags := hclsyntax.ParseConfig([]byte(ex.text), ex.file, hcl.Pos{Line: ex.line + 1, Column: 1}); diags.HasErrors() {
				t.Fatalf("not valid HCL: %s", diags.Error())
			}
			dir := siteCopy(t, root)
			config, dropped := withoutForeignProviders(t, ex.text)
			if len(dropped) > 0 {
				t.Logf("needs %s, which cannot be installed offline: planned without %s blocks",
					strings.Join(dropped, ", "), strings.Join(dropped, " and "))
			}
			writeFile(t, filepath.Join(dir, "main.tf"), config)
			env := cliEnv(home, filepath.Join(home, "empty.tfrc"))
			out := run(t, dir, env, cli, "init", "-input=false", "-no-color")
			if strings.Contains(out, "development overrides") {
				t.Errorf("init used a development override, not the installed mirror:\n%s", out)
			}
			lock, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
			if err != nil || !bytes.Contains(lock, []byte("/hieraform/hiera\"")) {
				t.Errorf("init wrote no lock file entry for hieraform/hiera (%v):\n%s", err, lock)
			}
			plan(t, dir, env, cli)
		})
	}
}

// TestExamplesFound guards TestExamplesRun against finding nothing: each page a user copies from
// has at least one HCL example.
func TestExamplesFound(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	for _, ex := range readExamples(t, root) {
		found[ex.file]++
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"README.md", "docs/index.md"}
	for _, p := range pages {
		rel, _ := filepath.Rel(root, p)
		if !strings.HasPrefix(rel, "docs/guides/") || rel == "docs/guides/installing.md" {
			want = append(want, filepath.ToSlash(rel))
		}
	}
	for _, f := range want {
		if found[f] == 0 {
			t.Errorf("%s: no HCL example found (```hcl or ```terraform)", f)
		}
	}
}

// cliUnderTest is the CLI the provider tests use: TF_ACC_TERRAFORM_PATH, else terraform on PATH.
func cliUnderTest(t *testing.T) string {
	t.Helper()
	cli := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if cli == "" {
		cli, _ = exec.LookPath("terraform")
	}
	skip := func(msg string) {
		if os.Getenv(noSkipEnv) != "" {
			t.Fatalf("%s (%s is set: every test must run)", msg, noSkipEnv)
		}
		t.Skip(msg)
	}
	if cli == "" {
		skip("the examples need terraform (TF_ACC_TERRAFORM_PATH or PATH) and none was found")
	}
	out, err := exec.Command(cli, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", cli, err)
	}
	m := regexp.MustCompile(`(?m)^(Terraform|OpenTofu) v(\S+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("%s version printed no version:\n%s", cli, out)
	}
	least := leastTerraform
	if string(m[1]) == "OpenTofu" {
		least = leastTofu
	}
	if v := version.Must(version.NewVersion(string(m[2]))); v.Core().LessThan(least) {
		skip(fmt.Sprintf("the examples use the ephemeral resource: needs %s %s or later; this run uses %s %s", m[1], least, m[1], v))
	}
	return cli
}

// install runs scripts/install.sh as `make install` does, into home's ~/.terraform.d/plugins, and
// puts a copy of the binary where the Installing guide's dev_overrides example expects it.
func install(t *testing.T, root, home string) {
	t.Helper()
	mirror := filepath.Join(home, ".terraform.d", "plugins")
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "install.sh"))
	cmd.Env = append(os.Environ(), "PLUGIN_DIR="+mirror, "BIN_DIR="+filepath.Join(home, "bin"), "TF_CLI_CONFIG_FILE=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/install.sh: %v\n%s", err, out)
	}
	// the command beside the provider, saying what it built and where it put it
	hieraform := filepath.Join(home, "bin", "hieraform")
	if version, err := exec.Command(hieraform, "--version").Output(); err != nil || !strings.HasPrefix(string(version), "hieraform ") ||
		!strings.Contains(string(out), "building terraform-provider-hiera and hieraform") || !strings.Contains(string(out), "installed "+hieraform) {
		t.Errorf("scripts/install.sh did not install hieraform (%v, %q):\n%s", err, version, out)
	}
	bins, _ := filepath.Glob(filepath.Join(mirror, "registry.terraform.io", "hieraform", "hiera", "*", "*", "terraform-provider-hiera_v*"))
	if len(bins) != 1 {
		t.Fatalf("scripts/install.sh installed %d binaries under registry.terraform.io, want 1: %v", len(bins), bins)
	}
	bin, err := os.ReadFile(bins[0])
	if err != nil {
		t.Fatal(err)
	}
	writeFileMode(t, filepath.Join(home, "terraform-provider-hiera", "bin", "terraform-provider-hiera"), bin, 0o755)
	writeFile(t, filepath.Join(home, "empty.tfrc"), "")
}

// fence opens or closes a Markdown code block, indented or not (inside a list item).
var fence = regexp.MustCompile("^(\\s*)```(\\S*)\\s*$")

// readExamples returns the ```hcl and ```terraform blocks of README.md and docs/**/*.md.
func readExamples(t *testing.T, root string) []example {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var examples []example
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cur *example
		var indent string
		sc := bufio.NewScanner(bytes.NewReader(data))
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			m := fence.FindStringSubmatch(line)
			switch {
			case cur == nil && m != nil && (m[2] == "hcl" || m[2] == "terraform" || m[2] == "tf"):
				cur, indent = &example{file: filepath.ToSlash(rel), line: n}, m[1]
			case cur != nil && m != nil && m[2] == "":
				examples = append(examples, *cur)
				cur = nil
			case cur != nil:
				cur.text += strings.TrimPrefix(line, indent) + "\n"
			}
		}
		if cur != nil {
			t.Errorf("%s:%d: code block never closed", rel, cur.line)
		}
	}
	return examples
}

// cliConfig matches a CLI configuration, which tells the CLI where to install providers from.
var cliConfig = regexp.MustCompile(`(?m)^provider_installation\s*\{`)

// withoutForeignProviders removes from an example the providers other than hieraform/hiera that
// required_providers declares: their required_providers entries, provider blocks, and resources,
// data sources and ephemeral resources of their types, and the top-level arguments of other blocks
// that read those. It returns the config and their names.
func withoutForeignProviders(t *testing.T, text string) (string, []string) {
	t.Helper()
	f, diags := hclwrite.ParseConfig([]byte(text), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var foreign []string
	for _, tb := range f.Body().Blocks() {
		if tb.Type() != "terraform" {
			continue
		}
		for _, rp := range tb.Body().Blocks() {
			if rp.Type() != "required_providers" {
				continue
			}
			for name, attr := range rp.Body().Attributes() {
				if !strings.Contains(string(attr.Expr().BuildTokens(nil).Bytes()), `"hieraform/hiera"`) {
					foreign = append(foreign, name)
					rp.Body().RemoveAttribute(name)
				}
			}
		}
	}
	var reads []string // how the rest of the configuration names the blocks removed: "ephemeral.random_password."
	for _, name := range foreign {
		for _, b := range f.Body().Blocks() {
			labels := b.Labels()
			switch {
			case b.Type() == "provider" && len(labels) == 1 && labels[0] == name:
				f.Body().RemoveBlock(b)
			case (b.Type() == "resource" || b.Type() == "data" || b.Type() == "ephemeral") && len(labels) == 2 && strings.HasPrefix(labels[0], name+"_"):
				f.Body().RemoveBlock(b)
				prefix := labels[0] + "." + labels[1] + "."
				if b.Type() != "resource" {
					prefix = b.Type() + "." + prefix
				}
				reads = append(reads, prefix)
			}
		}
	}
	// An argument of ours that reads a removed block (hiera_data's secret_values_wo taking an
	// ephemeral random_password) goes too: the rest of its block is still planned.
	for _, b := range f.Body().Blocks() {
		for name, attr := range b.Body().Attributes() {
			expr := string(attr.Expr().BuildTokens(nil).Bytes())
			for _, r := range reads {
				if strings.Contains(strings.ReplaceAll(expr, " ", ""), r) {
					b.Body().RemoveAttribute(name)
					break
				}
			}
		}
	}
	return string(f.Bytes()), foreign
}

// siteCopy is a new directory holding the Hiera data the examples read: testdata/site, the
// control repository of examples/control-repository, and the eyaml keys and a secret made by the
// real eyaml for the provider tests (internal/provider/testdata/eyaml, regen.sh).
func siteCopy(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, "testdata/site", dir)
	copyTree(t, filepath.Join(root, "examples", "control-repository", "environments"), filepath.Join(dir, "environments"))
	eyaml := filepath.Join(root, "internal", "provider", "testdata", "eyaml")
	copyTree(t, filepath.Join(eyaml, "keys"), filepath.Join(dir, "keys"))
	secrets, err := os.ReadFile(filepath.Join(eyaml, "data", "secrets.eyaml"))
	if err != nil {
		t.Fatal(err)
	}
	enc := regexp.MustCompile(`(?m)^db_password: (ENC\[PKCS7,[^\]]+\])$`).FindSubmatch(secrets)
	if enc == nil {
		t.Fatal("internal/provider/testdata/eyaml/data/secrets.eyaml has no db_password: ENC[PKCS7,...] line")
	}
	writeFile(t, filepath.Join(dir, "data", "secrets", "web01.example.com.eyaml"), "profile::db::password: "+string(enc[1])+"\n")
	return dir
}

// planWithCLIConfig plans a configuration that calls the provider, with ex as the CLI
// configuration: init first unless it holds dev_overrides (which need none, and with which init
// asks a registry for the provider).
func planWithCLIConfig(t *testing.T, cli, home string, ex example) {
	t.Helper()
	dir := t.TempDir()
	rc := filepath.Join(dir, "cli.tfrc")
	writeFile(t, rc, strings.ReplaceAll(ex.text, "/home/you", home))
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  required_providers {
    hiera = {
      source = "hieraform/hiera"
    }
  }
}

output "merged" {
  value = provider::hiera::deep_merge({ a = 1 }, { b = 2 })
}
`)
	env := cliEnv(home, rc)
	if !strings.Contains(ex.text, "dev_overrides") {
		run(t, dir, env, cli, "init", "-input=false", "-no-color")
	}
	plan(t, dir, env, cli)
}

// plan runs plan in dir and fails the test unless it succeeds (with or without changes).
func plan(t *testing.T, dir string, env []string, cli string) {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), cli, "plan", "-input=false", "-no-color", "-lock=false", "-detailed-exitcode")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok && exit.ExitCode() == 2 {
		return // success, with changes
	}
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
}

func run(t *testing.T, dir string, env []string, cli string, args ...string) string {
	t.Helper()
	cmd := exec.Command(cli, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// cliEnv runs the CLI with home as its home directory (so that it reads the installed mirror) and
// rc as its only CLI configuration, with no version check, and without the provider's environment
// variables (HIERA_*) that the user's shell may export.
func cliEnv(home, rc string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "HIERA_") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		data, err := os.ReadFile(p)
		if err == nil {
			writeFileMode(t, filepath.Join(to, rel), data, 0o644)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	writeFileMode(t, name, []byte(text), 0o644)
}

func writeFileMode(t *testing.T, name string, data []byte, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, mode); err != nil {
		t.Fatal(err)
	}
}

// withTestPuppetDB points an example's PuppetDB (the guide's http://localhost:8080, as on the
// PuppetDB host) at the test PuppetDB, which it gives the nodes the examples name; without one
// the example is skipped, saying how to run it.
func withTestPuppetDB(t *testing.T, text string) string {
	t.Helper()
	url := puppetdbtest.URL(t)
	for _, n := range []struct{ certname, role string }{{"web01.example.com", "web"}, {"db01.example.com", "db"}} {
		puppetdbtest.ReplaceFacts(t, url, n.certname, []byte(fmt.Sprintf(`{"clientcert": %q, "role": %q, "os": {"family": "Debian"}}`, n.certname, n.role)))
	}
	return strings.ReplaceAll(text, "http://localhost:8080", url)
}
