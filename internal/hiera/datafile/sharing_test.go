package datafile

import (
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// readShared reads each text as a data file through one sharing table.
func readShared(t *testing.T, texts ...string) []*model.Hash {
	t.Helper()
	share := &model.Sharing{}
	var out []*model.Hash
	for _, text := range texts {
		v, err := parseDataYAML([]byte(text), share)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		h, ok := v.(*model.Hash)
		if !ok {
			t.Fatalf("%q: read %T", text, v)
		}
		out = append(out, h)
	}
	return out
}

// hashAt returns the hash stored under key in h.
func hashAt(t *testing.T, h *model.Hash, key any) *model.Hash {
	t.Helper()
	v, _ := h.Get(key)
	sub, ok := v.(*model.Hash)
	if !ok {
		t.Fatalf("%v is %T, not a hash", key, v)
	}
	return sub
}

// copyHash is Copy for a hash.
func copyHash(t *testing.T, h *model.Hash) *model.Hash {
	t.Helper()
	c, ok := model.Copy(h).(*model.Hash)
	if !ok {
		t.Fatalf("Copy of a hash is %T", c)
	}
	return c
}

// sameKeyList reports whether two non-empty hashes read their keys from one list.
func sameKeyList(a, b *model.Hash) bool { return &a.RawKeys()[0] == &b.RawKeys()[0] }

func TestSharingAcrossFiles(t *testing.T) {
	files := readShared(t, "a: {x: 1, y: 2}\nb: {x: 3, y: 4}\n", "a: {x: 5, y: 6}\nc: {y: 7, x: 8}\n")
	h1, h2 := hashAt(t, files[0], "a"), hashAt(t, files[0], "b")
	h3, h4 := hashAt(t, files[1], "a"), hashAt(t, files[1], "c")
	if !sameKeyList(h1, h2) || !sameKeyList(h1, h3) {
		t.Errorf("hashes with the keys x, y do not share their key list")
	}
	if sameKeyList(h1, h4) {
		t.Errorf("keys y, x share the list of x, y: order matters")
	}
	if files[0].RawKeys()[0] != files[1].RawKeys()[0] {
		t.Errorf("key a is not shared between the files")
	}
	if got := model.Inspect(h4); got != `{"y"=>7, "x"=>8}` {
		t.Errorf("c = %s", got)
	}
}

func TestSharedKeysAreCopiedOnWrite(t *testing.T) {
	files := readShared(t, "a: {x: 1, y: 2}\nb: {x: 3, y: 4}\n")
	b := hashAt(t, files[0], "b")
	a := copyHash(t, hashAt(t, files[0], "a"))
	a.Set("z", 9)
	a.Delete("x")
	c := copyHash(t, b)
	c.Delete("y")
	if got := model.Inspect(a); got != `{"y"=>2, "z"=>9}` {
		t.Errorf("a after Set and Delete = %s", got)
	}
	if got := model.Inspect(c); got != `{"x"=>3}` {
		t.Errorf("copy of b after Delete = %s", got)
	}
	if got := model.Inspect(b); got != `{"x"=>3, "y"=>4}` {
		t.Errorf("b changed with its copies: %s", got)
	}
	// A hash made by the reader is changed the same way (the engine never does: values read from
	// files are shared).
	b.Set("w", 0)
	if got, _ := files[0].Get("a"); model.Inspect(got) != `{"x"=>1, "y"=>2}` {
		t.Errorf("a changed when b got a key: %s", model.Inspect(got))
	}
}

func TestSharingKeepsKeyTypesApart(t *testing.T) {
	files := readShared(t, "a: {1: int}\nb: {'1': string}\nc: {1.0: float}\nd: {true: bool}\ne: {'true': string}\n"+
		"f: {-0.0: negative}\ng: {0.0: zero}\n")
	for _, tc := range []struct {
		root string
		key  any
		want string
	}{
		{"a", int64(1), "int"}, {"b", "1", "string"}, {"c", 1.0, "float"}, {"d", true, "bool"}, {"e", "true", "string"},
		{"f", 0.0, "negative"}, {"g", 0.0, "zero"},
	} {
		h := hashAt(t, files[0], tc.root)
		if got, ok := h.Get(tc.key); !ok || got != tc.want {
			t.Errorf("%s[%#v] = %v, %v; want %s", tc.root, tc.key, got, ok, tc.want)
		}
		if h.Len() != 1 {
			t.Errorf("%s has %d keys", tc.root, h.Len())
		}
	}
	// -0.0 and 0.0 are one key, but each hash shows the one it was written with.
	f, _ := files[0].Get("f")
	g, _ := files[0].Get("g")
	if got := model.Inspect(f) + " " + model.Inspect(g); got != `{-0.0=>"negative"} {0.0=>"zero"}` {
		t.Errorf("f and g = %s", got)
	}
}

func TestSharingWithDuplicateKeys(t *testing.T) {
	// Psych keeps the first position of a repeated key and its last value.
	files := readShared(t, "a:\n  x: 1\n  y: 2\n  x: 3\nb: {x: 4, y: 5}\n")
	a, _ := files[0].Get("a")
	b, _ := files[0].Get("b")
	if got := model.Inspect(a); got != `{"x"=>3, "y"=>2}` {
		t.Errorf("a = %s", got)
	}
	if got := model.Inspect(b); got != `{"x"=>4, "y"=>5}` {
		t.Errorf("b = %s", got)
	}
}
