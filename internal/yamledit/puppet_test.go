package yamledit

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// What real Puppet 7.23 (`puppet lookup`) answers for files that Set wrote is recorded in
// testdata/puppet-lookup.json. To record it again (after a change in how values are written):
//
//	HIERAFORM_YAMLEDIT_CASES=/tmp/cases go test ./internal/yamledit/ -run TestPuppetLookupRecord
//	python3 /work/shared/oracle/expect.py /tmp/cases /tmp/out
//	python3 internal/yamledit/testdata/record.py /tmp/cases /tmp/out > internal/yamledit/testdata/puppet-lookup.json

// puppetCase is one data file written by Set, and the keys looked up in it.
type puppetCase struct {
	id    string
	file  []byte
	names []string // the lookups' keys, quoted as a lookup names them
	want  []any
}

func puppetCases(t *testing.T) []puppetCase {
	big1, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	values := []struct {
		key string
		v   any
	}{
		{"bigint", big1},
		{"negbig", new(big.Int).Neg(big1)},
		{"maxint", int64(9223372036854775807)},
		{"float01", 0.1},
		{"floatexp", 1e21},
		{"tiny", 5e-324},
		{"whole", 3.0},
		{"null", nil},
		{"emptyhash", map[string]any{}},
		{"emptylist", []any{}},
		{"nested", map[string]any{"yes": []any{"no", int64(1), nil, []any{"a", []any{"b"}}, map[string]any{"k": "v"}},
			"a: b": map[string]any{"%{hostname}": "%{facts.fqdn}", "": "empty key", "<<": map[string]any{"not": "merged"}}, "multi": "one\ntwo\n", "lead": " x\ny"}},
		{"<<", map[string]any{"root": "not merged"}},
		{"%", map[string]any{"%{k}": "%{hostname}", "list": []any{"%{facts.fqdn}"}}},
		{"interp", "%{hostname} and %{facts.fqdn} and %{literal('%')}"},
		{"a.b", "dotted root key"},
		{"it's", "quote in key"},
	}
	var lf puppetCase
	lf.id = "yamledit-lf"
	f, err := Parse("common.yaml", []byte("# written by yamledit's tests\n"))
	if err != nil {
		t.Fatal(err)
	}
	set := func(c *puppetCase, f *File, key string, v any) {
		if err := f.Set(key, v, Options{}); err != nil {
			t.Fatalf("Set %q: %v", key, err)
		}
		c.names = append(c.names, lookupName(key))
		c.want = append(c.want, normalize(v))
	}
	for i, s := range trickyStrings {
		set(&lf, f, keyOf(i), s)
	}
	for _, kv := range values {
		set(&lf, f, kv.key, kv.v)
	}
	keys := map[string]any{} // every tricky string as a hash key
	for i, s := range trickyStrings {
		keys[s] = int64(i)
	}
	set(&lf, f, "tricky_keys", keys)
	lf.file = f.Bytes()

	// An edited CRLF file with comments: the keys kept and the keys written.
	var crlf puppetCase
	crlf.id = "yamledit-crlf"
	src, err := os.ReadFile("testdata/crlf.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse("crlf.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	set(&crlf, g, "block", "replaced\nblock\n\n")
	set(&crlf, g, "first", "yes")
	set(&crlf, g, "added", map[string]any{"list": []any{"0x1F", "2026-01-01"}})
	crlf.names = append(crlf.names, "nested", "last")
	crlf.want = append(crlf.want, rootValue(t, src, "nested"), "folded text")
	crlf.file = g.Bytes()
	return []puppetCase{lf, crlf}
}

func rootValue(t *testing.T, text []byte, key string) any {
	v, _ := rootValues(t, text).Get(key)
	return v
}

// lookupName is how a lookup names the root key key.
func lookupName(key string) string {
	switch {
	case !strings.ContainsAny(key, `.'"`):
		return key
	case !strings.Contains(key, `"`):
		return `"` + key + `"`
	}
	return `'` + key + `'`
}

type recordedCase struct {
	ID      string            `json:"id"`
	Files   map[string]string `json:"files"`
	Lookups []struct {
		Key string `json:"key"`
	} `json:"lookups"`
	Results []json.RawMessage `json:"results"`
}

// Real Puppet read every value back exactly (every tricky string as a value and as a hash key),
// from the very files Set writes today.
func TestPuppetLookupRecord(t *testing.T) {
	cases := puppetCases(t)
	if dir := os.Getenv("HIERAFORM_YAMLEDIT_CASES"); dir != "" {
		writePuppetCases(t, dir, cases)
		return
	}
	b, err := os.ReadFile("testdata/puppet-lookup.json")
	if err != nil {
		t.Fatal(err)
	}
	var recorded []recordedCase
	if err := json.Unmarshal(b, &recorded); err != nil {
		t.Fatal(err)
	}
	byID := map[string]recordedCase{}
	for _, r := range recorded {
		byID[r.ID] = r
	}
	for _, c := range cases {
		r := byID[c.id]
		if r.ID != c.id || r.Files["data/common.yaml"] != string(c.file) || len(r.Results) != len(c.names) {
			t.Fatalf("%s: the recorded file is not what Set writes today: record it again (see the comment above)", c.id)
		}
		for j, name := range c.names {
			var res struct {
				Value    json.RawMessage `json:"value"`
				NotFound bool            `json:"not_found"`
				Error    string          `json:"error"`
			}
			if err := json.Unmarshal(r.Results[j], &res); err != nil {
				t.Fatal(err)
			}
			if res.Error != "" || res.NotFound {
				t.Errorf("%s: puppet lookup %s: %s (not found: %v)", c.id, name, res.Error, res.NotFound)
				continue
			}
			got, err := fromPuppetJSON(res.Value)
			if err != nil {
				t.Fatal(err)
			}
			if !sameValue(got, c.want[j]) { // (decoding JSON objects loses their order)
				t.Errorf("%s: puppet lookup %s answers %s, want %s", c.id, name, model.Inspect(got), model.Inspect(c.want[j]))
			}
		}
	}
}

// fromPuppetJSON reads puppet lookup's JSON: integers exact, a number with "." or "e" a Float.
func fromPuppetJSON(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return fromJSONValue(v), nil
}

func fromJSONValue(v any) any {
	switch t := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(t), ".eE") {
			i, _ := new(big.Int).SetString(string(t), 10)
			return model.NormInt(i)
		}
		f, _ := t.Float64()
		return f
	case []any:
		for i := range t {
			t[i] = fromJSONValue(t[i])
		}
		return t
	case map[string]any:
		for k := range t {
			t[k] = fromJSONValue(t[k])
		}
		return normalize(t)
	}
	return v
}

func writePuppetCases(t *testing.T, dir string, cases []puppetCase) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		lookups := make([]map[string]string, len(c.names))
		for i, n := range c.names {
			lookups[i] = map[string]string{"key": n}
		}
		b, err := json.MarshalIndent(map[string]any{
			"id": c.id, "engine": "puppet",
			"files": map[string]string{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
				"data/common.yaml": string(c.file),
			},
			"facts":   map[string]any{},
			"lookups": lookups,
		}, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.id+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
