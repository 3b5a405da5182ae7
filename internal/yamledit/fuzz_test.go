package yamledit

import (
	"encoding/binary"
	"math"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// valueSource builds engine values from fuzz bytes.
type valueSource struct {
	b     []byte
	nodes int
}

func (s *valueSource) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *valueSource) bytes(n int) []byte {
	n = min(n, len(s.b))
	out := s.b[:n]
	s.b = s.b[n:]
	return out
}

// str is a valid UTF-8 string: one of the tricky strings, or bytes from the input (made valid),
// or both joined, so that the fuzzer can mix the hard parts.
func (s *valueSource) str() string {
	c := s.byte()
	raw := strings.ToValidUTF8(string(s.bytes(int(s.byte()%24))), "\uFFFD")
	tricky := trickyStrings[int(s.byte())%len(trickyStrings)]
	switch c % 4 {
	case 0:
		return tricky
	case 1:
		return raw
	case 2:
		return tricky + raw
	}
	return raw + tricky
}

func (s *valueSource) value(depth int) any {
	s.nodes++
	kind := s.byte() % 10
	if depth >= 5 || s.nodes > 60 {
		kind %= 6 // scalars only
	}
	switch kind {
	case 0:
		return nil
	case 1:
		return s.byte()%2 == 0
	case 2:
		return int64(binary.LittleEndian.Uint64(append(s.bytes(8), make([]byte, 8)...)))
	case 3:
		i := new(big.Int).SetBytes(s.bytes(int(s.byte() % 20)))
		if s.byte()%2 == 0 {
			i.Neg(i)
		}
		return model.NormInt(i)
	case 4:
		return math.Float64frombits(binary.LittleEndian.Uint64(append(s.bytes(8), make([]byte, 8)...)))
	case 5:
		return s.str()
	case 6, 7:
		n := int(s.byte() % 5)
		list := make([]any, n)
		for i := range list {
			list[i] = s.value(depth + 1)
		}
		return list
	case 8:
		n := int(s.byte() % 5)
		m := make(map[string]any, n)
		for range n {
			m[s.str()] = s.value(depth + 1)
		}
		return m
	}
	n := int(s.byte() % 5)
	h := model.NewHash(n)
	for range n {
		var k any = s.str()
		switch s.byte() % 4 {
		case 0:
			k = int64(int8(s.byte()))
		case 1:
			if f := float64(int16(binary.LittleEndian.Uint16(append(s.bytes(2), 0, 0)))) / 8; f != math.Trunc(f) {
				k = f // a float key that is not a whole number (3.0 reads back as the Float 3.0 too, but keep it simple)
			}
		}
		h.Set(k, s.value(depth+1))
	}
	return h
}

// FuzzEncode: any value, written by Encode (and by Set into a file with comments), reads back as
// itself with the engine's readers (the full one and the data files' lazy skim) and, after the
// engine's interpolation, from a real lookup.
func FuzzEncode(f *testing.F) {
	for i := range trickyStrings {
		f.Add([]byte{5, 0, 0, byte(i)}, "key")
		f.Add([]byte{8, 2, 0, 3, 0, byte(i), 5, 2, 0, 0, byte(i + 1), 9, 1, 1, 2, 6, 2, 5, 0, 0, 7}, "a.b")
	}
	f.Add([]byte{3, 19, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1}, "big")
	f.Add([]byte{4, 1, 2, 3, 4, 5, 6, 7, 8}, "float")
	fixture := []byte("# data\r\nfirst: 1 # kept\r\n\r\n# about key\r\nkey: old\r\nlast: |\r\n  text\r\n")
	f.Fuzz(func(t *testing.T, data []byte, key string) {
		if !utf8.ValidString(key) || len(key) > 200 {
			return
		}
		src := &valueSource{b: data}
		v := src.value(0)
		text, err := Encode(key, v, Options{}, "\n")
		if err != nil {
			if CheckKey(key) != nil || strings.Contains(err.Error(), "longer than YAML allows") {
				return
			}
			t.Fatalf("Encode(%q, %s): %v", key, model.Inspect(v), err)
		}
		asGiven, err := Encode(key, v, Options{Interpolate: true}, "\r\n")
		if err != nil {
			t.Fatalf("Encode(%q, %s) with Interpolate: %v", key, model.Inspect(v), err)
		}
		if full, lazy := readBothWays(t, asGiven, key); !sameOrdered(full, normalize(v)) || !sameOrdered(lazy, normalize(v)) {
			t.Fatalf("%q reads as %s (full) and %s (lazy), want %s", asGiven, model.Inspect(full), model.Inspect(lazy), model.Inspect(v))
		}
		want, raw := normalize(v), normalize(escapeValue(key, v))
		full, lazy := readBothWays(t, text, key)
		if !sameOrdered(full, raw) || !sameOrdered(lazy, raw) {
			t.Fatalf("%q reads as %s (full) and %s (lazy), want %s", text, model.Inspect(full), model.Inspect(lazy), model.Inspect(raw))
		}
		file, err := Parse("common.yaml", fixture)
		if err != nil {
			t.Fatal(err)
		}
		if err := file.Set(key, v, Options{}); err != nil {
			t.Fatalf("Set(%q, %s): %v", key, model.Inspect(v), err)
		}
		got, found := lookupKey(t, lookupEngine(t, file.Bytes()), key)
		if !found || !sameOrdered(got, want) {
			t.Fatalf("lookup of %q in\n%s\nanswers %s, want %s", key, file.Bytes(), model.Inspect(got), model.Inspect(want))
		}
	})
}

// sameOrdered is sameValue where hashes also keep their order (Puppet iterates them in order).
func sameOrdered(a, b any) bool {
	ha, ok := a.(*model.Hash)
	if !ok {
		if la, isList := a.([]any); isList {
			lb, ok := b.([]any)
			if !ok || len(la) != len(lb) {
				return false
			}
			for i := range la {
				if !sameOrdered(la[i], lb[i]) {
					return false
				}
			}
			return true
		}
		return sameValue(a, b)
	}
	hb, ok := b.(*model.Hash)
	if !ok || ha.Len() != hb.Len() {
		return false
	}
	ka, kb := ha.Keys(), hb.Keys()
	for i := range ka {
		va, _ := ha.Get(ka[i])
		vb, _ := hb.Get(kb[i])
		if !sameValue(ka[i], kb[i]) || !sameOrdered(va, vb) {
			return false
		}
	}
	return true
}
