package provider

import "testing"

// relativeExplanation rewrites the files an explanation names (a level's data file, a layer's
// hiera.yaml), never a value that holds an absolute path (it rewrote "/etc/ssl/certs" as
// "../../../../../etc/ssl/certs").
func TestRelativeExplanation(t *testing.T) {
	text := `Searching for "ssl::dir"
  Global Data Provider (hiera configuration version 5)
    Using configuration "/srv/repo/hiera.yaml"
    Hierarchy entry "common"
      Path "/srv/repo/data/common.yaml"
        Original path: "common.yaml"
        Found key: "ssl::dir" value: "/etc/ssl/certs"
    Hierarchy entry "tricky"
      Path "/srv/repo/data/Path \"quoted\".yaml"
        Found key: "note" value: "Path \"/etc/passwd\""
        Interpolation on "/etc/%{facts.x}"
`
	want := `Searching for "ssl::dir"
  Global Data Provider (hiera configuration version 5)
    Using configuration "hiera.yaml"
    Hierarchy entry "common"
      Path "data/common.yaml"
        Original path: "common.yaml"
        Found key: "ssl::dir" value: "/etc/ssl/certs"
    Hierarchy entry "tricky"
      Path "data/Path \"quoted\".yaml"
        Found key: "note" value: "Path \"/etc/passwd\""
        Interpolation on "/etc/%{facts.x}"
`
	if got := relativeExplanation(text, "/srv/repo"); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
