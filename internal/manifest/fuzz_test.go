package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Any text gives a File or a *Problem in the file at one of its lines: never a panic or a hang.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.pp")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("class a($x = \"${y}\", Enum['a'] $z = @(EOT)\n  hi\n  | EOT\n) { lookup('k') }"))
	f.Add([]byte("class a { $x = /re/; $y = 4 / 2; hiera_hash({'name' => 'k'}) }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("x.pp", src)
		if err == nil {
			if file == nil {
				t.Fatal("no File and no error")
			}
			return
		}
		p, ok := err.(*Problem)
		if !ok || p.File != "x.pp" || p.Line < 1 || p.Line > strings.Count(string(src), "\n")+1 {
			t.Fatalf("%T %v", err, err)
		}
	})
}
