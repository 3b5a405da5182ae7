package cli

import (
	"io"
	"os"
	"testing"
)

func TestZZProf(t *testing.T) {
	d := os.Getenv("FD_BENCH")
	if d == "" {
		t.Skip()
	}
	rc := Run([]string{"diff", "--config", d + "/a/hiera.yaml", "--config", d + "/b/hiera.yaml", "--facts", d + "/facts", "--render-as", "json"}, Env{Stdout: io.Discard, Stderr: os.Stderr})
	t.Log(rc)
}
