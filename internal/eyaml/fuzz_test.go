package eyaml

import (
	"path/filepath"
	"testing"
)

// FuzzDecrypt feeds arbitrary bytes to every entry point, both as raw
// PKCS7 (reaching the BER parser directly) and as token text.
func FuzzDecrypt(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.enc")
	for _, file := range files {
		f.Add(der(f, file[len("testdata/"):]))
	}
	f.Add([]byte("a ENC[PKCS7,aGVsbG8=] b ENC[GPG,abc=]\n"))
	f.Add([]byte{0x30, 0x80, 0x30, 0x80, 0x00, 0x00, 0x00, 0x00})
	d := ourKey(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(out string, err error) {
			if err != nil && (out != "" || KindOf(err) == KindUnknown) {
				t.Fatalf("out %q with error %v", out, err)
			}
		}
		check(d.Decrypt(token(data)))
		check(d.Decrypt(string(data)))
		out, found, err := d.ReplaceAll(string(data))
		check(out, err)
		if err == nil && found != HasToken(string(data)) {
			t.Fatalf("found %v != HasToken", found)
		}
	})
}
