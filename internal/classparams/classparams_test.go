package classparams

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Check is safe for concurrent use (hiera_nodes reads nodes at once): the same findings from
// eight goroutines as from one, on the command's fixture (its planted mistakes).
func TestCheckConcurrent(t *testing.T) {
	env, err := filepath.Abs(filepath.Join("..", "cli", "testdata", "puppetcode", "environments", "production"))
	if err != nil {
		t.Fatal(err)
	}
	engine := hiera.NewLayeredEngine("", hiera.Layers{Environment: env})
	code, warnings := Read(engine)
	if code.Classes() != 5 || len(warnings) != 1 {
		t.Fatalf("classes %d, warnings %q: want 5 classes and the broken manifest", code.Classes(), warnings)
	}
	f := model.NewHash(3)
	f.Set("role", "web")
	f.Set("ntp_port", "123")
	res, err := engine.LookupNode(context.Background(), hiera.NodeRequest{Scope: facts.Scope(f, "web01")})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, a := range res.Answers {
		if e := code.Check(a); e != nil {
			want[a.Key] = e.Error()
		}
	}
	if len(want) != 6 { // servers, port, service_ensure, api_token, looping, unknown
		t.Fatalf("findings: %d, want 6: %v", len(want), want)
	}
	fresh, _ := Read(engine) // types not parsed yet: the goroutines parse them at once
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, a := range res.Answers {
				got := ""
				if e := fresh.Check(a); e != nil {
					got = e.Error()
				}
				if got != want[a.Key] {
					t.Errorf("%s: got %q, want %q", a.Key, got, want[a.Key])
				}
			}
		})
	}
	wg.Wait()
}
