package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzParseReview(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.pp")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Add([]byte("class a($x = \"${y}\", Enum['a'] $z = @(EOT)\n  hi\n  | EOT\n) { lookup('k') }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, err := Parse("x.pp", src)
		if err != nil {
			_ = err.(*Problem)
		}
	})
}
