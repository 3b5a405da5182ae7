package eyaml

import (
	"bytes"
	"crypto/rand"
	"runtime"
	"testing"
)

func TestParseNode(t *testing.T) {
	deep := append(bytes.Repeat([]byte{0x30, 0x80}, maxDepth+2), make([]byte, 2*(maxDepth+2))...)
	tests := []struct {
		name string
		in   []byte
		ok   bool
	}{
		{"short form", []byte{0x04, 0x01, 0xff}, true},
		{"long form", append([]byte{0x04, 0x81, 0x80}, make([]byte, 0x80)...), true},
		{"indefinite", []byte{0x30, 0x80, 0x04, 0x00, 0x00, 0x00}, true},
		{"high tag", []byte{0x1f, 0x81, 0x01, 0x00}, true},
		{"empty", nil, false},
		{"one byte", []byte{0x30}, false},
		{"length past end", []byte{0x04, 0x05, 0x00}, false},
		{"long length past end", []byte{0x04, 0x84, 0xff, 0xff, 0xff, 0xff}, false},
		{"huge length bytes", append([]byte{0x04, 0xfe}, bytes.Repeat([]byte{0xff}, 126)...), false},
		{"indefinite primitive", []byte{0x04, 0x80, 0x00, 0x00}, false},
		{"indefinite unterminated", []byte{0x30, 0x80, 0x04, 0x00}, false},
		{"high tag unterminated", []byte{0x1f, 0x81, 0x81, 0x81, 0x81, 0x81}, false},
		{"too deep", deep, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseNode(tt.in, 0)
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

func TestOID(t *testing.T) {
	tests := []struct {
		in   []byte
		want string
	}{
		{[]byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x03}, "1.2.840.113549.1.7.3"},
		{[]byte{0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a}, "2.16.840.1.101.3.4.1.42"},
		{[]byte{0x06, 0x02, 0x88, 0x37}, "2.999"},
		{[]byte{0x06, 0x01, 0x81}, ""}, // truncated
		{[]byte{0x06, 0x00}, ""},
		{[]byte{0x04, 0x01, 0x2a}, ""}, // not an OID
	}
	for _, tt := range tests {
		n, _, err := parseNode(tt.in, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := n.oid()
		if got != tt.want || (err == nil) != (tt.want != "") {
			t.Errorf("%x: got %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestOctetsChunked(t *testing.T) {
	in := []byte{0x24, 0x80, 0x04, 0x01, 'a', 0x24, 0x03, 0x04, 0x01, 'b', 0x00, 0x00}
	n, _, err := parseNode(in, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := n.octets(); err != nil || string(got) != "ab" {
		t.Fatalf("got %q, %v", got, err)
	}
	bad := []byte{0x24, 0x03, 0x02, 0x01, 0x00} // INTEGER chunk
	n, _, _ = parseNode(bad, 0)
	if _, err := n.octets(); err == nil {
		t.Fatal("accepted an INTEGER chunk")
	}
}

// envelopedData encrypts plaintext for the certificate of certFile, as eyaml does, and returns the
// EnvelopedData's fields: version, recipientInfos, encryptedContentInfo.
func envelopedData(t testing.TB, certFile string, plaintext []byte) []node {
	t.Helper()
	der, err := encryptor(t, certFile).envelope(rand.Reader, plaintext)
	if err != nil {
		t.Fatal(err)
	}
	top, _, _ := parseNode(der, 0)
	ci, _ := top.children()
	wrapped, _ := ci[1].children()
	ed, _ := wrapped[0].children()
	return ed
}

// oneByteChunks is a value for plaintext whose encrypted content is BER chunks of one byte each
// (valid: OpenSSL reads it), the form that costs the most per byte.
func oneByteChunks(t testing.TB, plaintext []byte) string {
	t.Helper()
	ed := envelopedData(t, "public_key.pkcs7.pem", plaintext)
	eci, _ := ed[2].children()
	ct := eci[2].body
	chunks := make([]byte, 0, 3*len(ct))
	for _, b := range ct {
		chunks = append(chunks, tagOctetString, 1, b)
	}
	content := tlv(derSequence, eci[0].raw, eci[1].raw, tlv(derContext0, chunks))
	enveloped := tlv(derSequence, ed[0].raw, ed[1].raw, content)
	return token(tlv(derSequence, oidDEREnveloped, tlv(derContext0, enveloped)))
}

// A value of one-byte chunks is decrypted in a few times its own bytes of memory: the base64
// without spaces, the DER, the content and the plaintext (a node per chunk took 52 bytes per
// byte of the value, 4 GiB for a 48 MB value under the data file's bounds).
func TestDecryptOneByteChunksMemory(t *testing.T) {
	plaintext := bytes.Repeat([]byte("0123456789abcdef"), 1<<14) // 256 KiB: a 1 MiB value
	tok := oneByteChunks(t, plaintext)
	d := ourKey(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := d.Decrypt(tok)
	runtime.ReadMemStats(&after)
	if err != nil || got != string(plaintext) {
		t.Fatalf("%d bytes, %v", len(got), err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > uint64(4*len(tok)) {
		t.Errorf("decrypting a value of %d bytes allocated %d bytes (%.1f per byte), want at most 4 per byte",
			len(tok), allocated, float64(allocated)/float64(len(tok)))
	}
}
