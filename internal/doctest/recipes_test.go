package doctest_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The command guide's recipes, run as written on a control repository of each layout: the
// commands of each ```sh block marked <!-- recipe: LAYOUT --> on a repository of that layout, and
// the hieraform commands of its CI jobs (```yaml blocks) on both: as written on the layout with
// environments inside the repository, and with the change each job's comment names for an r10k
// control repository (the repository is the environment). Each command runs from the
// repository's root, with bash, on a branch whose change `diff --git-rev origin/main --git-rev
// HEAD` shows; none may fail to run (exit 2) and each must read the environment production.
func TestCommandGuideRecipes(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the recipes read git revisions: git is not installed")
	}
	guide := filepath.Join(root, "docs", "guides", "hieraform-command.md")
	recipes, jobs := readRecipes(t, guide)
	for _, layout := range []string{"environments", "r10k"} {
		if len(recipes[layout]) == 0 {
			t.Errorf("%s: no <!-- recipe: %s --> block of commands", guide, layout)
		}
	}
	if len(jobs) < 3 {
		t.Errorf("%s: %d CI jobs running hieraform found, want the diff (GitHub, GitLab) and check jobs", guide, len(jobs))
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "hieraform"), "./cmd/hieraform")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/hieraform: %v\n%s", err, out)
	}
	for _, layout := range []string{"environments", "r10k"} {
		commands := recipes[layout]
		for _, job := range jobs {
			for _, c := range job.commands {
				c = strings.TrimSuffix(c, " || status=$?") // the job keeps the status for later steps: here it is the test's
				if layout == "r10k" {
					c = strings.ReplaceAll(c, "--environment production", r10kEnvironment)
				}
				commands = append(commands, c)
			}
		}
		t.Run(layout, func(t *testing.T) {
			repo := recipeRepository(t, layout)
			for _, c := range commands {
				cmd := exec.Command("bash", "-c", c)
				cmd.Dir = repo
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
					"GITHUB_BASE_REF=main", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				rc := 0
				if exit, ok := err.(*exec.ExitError); ok {
					rc = exit.ExitCode()
				} else if err != nil {
					t.Fatalf("%s: %v", c, err)
				}
				// lookup and node answer (0); check, diff and unused may find something (1)
				if rc > 1 || rc == 1 && regexp.MustCompile(`^hieraform (lookup|node) `).MatchString(c) || strings.Contains(stderr.String(), "Error") {
					t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", c, rc, out, stderr.String())
				}
			}
			// the diff read the environment production on both revisions, and found the branch's change
			if md, err := os.ReadFile(filepath.Join(repo, "hiera-diff.md")); err != nil || !bytes.Contains(md, []byte("environment production")) ||
				!bytes.Contains(md, []byte("ntp::servers")) {
				t.Errorf("hiera-diff.md (%v):\n%s", err, md)
			}
		})
	}
}

// r10kEnvironment is what a CI job's comment says to give for an r10k control repository in
// place of --environment production.
const r10kEnvironment = "--environment-dir . --environment production"

type ciJob struct {
	line     int
	commands []string
}

// readRecipes returns the commands of the guide's marked ```sh blocks by layout, and those of its
// ```yaml CI jobs; a job running hieraform that does not say what an r10k repository gives fails
// the test.
func readRecipes(t *testing.T, guide string) (map[string][]string, []ciJob) {
	t.Helper()
	data, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	marker := regexp.MustCompile(`^<!-- recipe: (\S+) -->$`)
	recipes := map[string][]string{}
	var jobs []ciJob
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	for i := 0; i < len(lines); i++ {
		if m := marker.FindStringSubmatch(lines[i]); m != nil && i+1 < len(lines) && lines[i+1] == "```sh" {
			var block []string
			for i += 2; i < len(lines) && lines[i] != "```"; i++ {
				block = append(block, lines[i])
			}
			recipes[m[1]] = append(recipes[m[1]], commandsOf(block)...)
			continue
		}
		if lines[i] == "```yaml" {
			start := i + 1
			var block []string
			for i++; i < len(lines) && lines[i] != "```"; i++ {
				block = append(block, lines[i])
			}
			commands := commandsOf(block)
			if len(commands) == 0 {
				continue
			}
			if !strings.Contains(strings.Join(block, "\n"), "# an r10k control repository: "+r10kEnvironment) {
				t.Errorf("%s:%d: a CI job running hieraform does not say what an r10k control repository gives (# an r10k control repository: %s)",
					guide, start, r10kEnvironment)
			}
			jobs = append(jobs, ciJob{line: start, commands: commands})
		}
	}
	return recipes, jobs
}

// hieraformLine is a line running hieraform: in a shell block, a YAML list item or a run: key.
var hieraformLine = regexp.MustCompile(`^(\s*)(?:- )?(?:run: )?(hieraform .*)$`)

// commandsOf is the hieraform commands of a block, each whole: a line ending in a backslash goes
// on, and so does a YAML plain scalar on the lines indented deeper than its item.
func commandsOf(block []string) []string {
	var commands []string
	for i := 0; i < len(block); i++ {
		m := hieraformLine.FindStringSubmatch(block[i])
		if m == nil {
			continue
		}
		indent, c := len(m[1]), m[2]
		item := strings.HasPrefix(block[i], strings.Repeat(" ", indent)+"- ")
		for i+1 < len(block) {
			next := block[i+1]
			scalarGoesOn := item && len(next)-len(strings.TrimLeft(next, " ")) > indent && !strings.HasPrefix(strings.TrimSpace(next), "- ")
			if !strings.HasSuffix(c, `\`) && !scalarGoesOn {
				break
			}
			c = strings.TrimSuffix(c, `\`) + " " + strings.TrimSpace(next)
			i++
		}
		commands = append(commands, c)
	}
	return commands
}

// recipeRepository is a control repository of the layout, a git repository on branch feature
// (one change to the web role's NTP servers) over main, which refs/remotes/origin/main names as
// a CI clone does: the environment production's hiera.yaml and data at environments/production/
// ("environments") or at the root ("r10k"); the nodes' facts in facts/, the types in types.yaml.
func recipeRepository(t *testing.T, layout string) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "checkout") // a CI checkout's name, not the environment's
	env := repo
	if layout == "environments" {
		env = filepath.Join(repo, "environments", "production")
	}
	files := map[string]string{
		filepath.Join(env, "hiera.yaml"): "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n" +
			"  - name: nodes\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: roles\n    path: \"roles/%{facts.role}.yaml\"\n" +
			"  - name: environment\n    path: \"%{environment}.yaml\"\n  - name: common\n    path: common.yaml\n",
		filepath.Join(env, "data", "common.yaml"):                    "ntp::servers: [0.pool.ntp.org]\nprofile::base::motd: \"welcome to %{environment}\"\n",
		filepath.Join(env, "data", "production.yaml"):                "profile::base::tier: production\n",
		filepath.Join(env, "data", "roles", "web.yaml"):              "ntp::servers: [1.pool.ntp.org]\n",
		filepath.Join(env, "data", "nodes", "db01.example.com.yaml"): "profile::base::tier: db\n",
		filepath.Join(repo, "facts", "web01.example.com.json"):       `{"clientcert": "web01.example.com", "role": "web"}`,
		filepath.Join(repo, "facts", "db01.example.com.json"):        `{"clientcert": "db01.example.com", "role": "db"}`,
		filepath.Join(repo, "types.yaml"):                            "ntp::servers: Array[String, 1]\nprofile::base::tier: Enum[production, db]\n",
	}
	for p, text := range files {
		writeFile(t, p, text)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "main")
	git("update-ref", "refs/remotes/origin/main", "HEAD")
	git("checkout", "-q", "-b", "feature")
	writeFile(t, filepath.Join(env, "data", "roles", "web.yaml"), "ntp::servers: [1.pool.ntp.org, 2.pool.ntp.org]\n")
	git("commit", "-q", "-a", "-m", "web: a second NTP server")
	return repo
}
