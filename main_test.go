package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestVersionInjected builds the provider as goreleaser does, with the version in -ldflags, and
// asks the binary for it.
func TestVersionInjected(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the provider")
	}
	bin := filepath.Join(t.TempDir(), "terraform-provider-hiera")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=1.2.3", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-version").CombinedOutput()
	if got := strings.TrimSpace(string(out)); err != nil || got != "terraform-provider-hiera 1.2.3" {
		t.Errorf("-version printed %q (%v), want \"terraform-provider-hiera 1.2.3\"", got, err)
	}
}

func TestQuietUnlessLogged(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   map[string]string
		want  map[string]string
		quiet bool // Terraform shows no provider logs
	}{
		{"nothing set: both off", map[string]string{},
			map[string]string{"TF_LOG_SDK": "off", "TF_LOG_PROVIDER_HIERA": "off"}, true},
		{"TF_LOG set: Terraform shows the logs", map[string]string{"TF_LOG": "debug"},
			map[string]string{"TF_LOG_SDK": "", "TF_LOG_PROVIDER_HIERA": ""}, false},
		{"TF_LOG_PROVIDER set", map[string]string{"TF_LOG_PROVIDER": "trace"},
			map[string]string{"TF_LOG_SDK": "", "TF_LOG_PROVIDER_HIERA": ""}, false},
		{"the user's level wins", map[string]string{"TF_LOG_SDK": "warn"},
			map[string]string{"TF_LOG_SDK": "warn", "TF_LOG_PROVIDER_HIERA": "off"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range tc.env {
				env[k] = v
			}
			quiet := quietUnlessLogged(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
			if quiet != tc.quiet {
				t.Errorf("quiet = %v, want %v", quiet, tc.quiet)
			}
			for k, want := range tc.want {
				if env[k] != want {
					t.Errorf("%s = %q, want %q", k, env[k], want)
				}
			}
		})
	}
}

func TestOneCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(2)
	oneCore(func(string) string { return "2" })
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("with GOMAXPROCS set, the provider runs on %d cores, want the user's 2", got)
	}
	oneCore(func(string) string { return "" })
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("without GOMAXPROCS, the provider runs on %d cores, want 1", got)
	}
}
