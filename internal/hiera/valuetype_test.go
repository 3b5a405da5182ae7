package hiera_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// value_type as lookup() applies it; the conformance corpus (vtype-*) holds Puppet's answers for the
// type language itself, these tests cover what it cannot: secrets, errors carrying the key, defaults.

func lookupTyped(t *testing.T, e *hiera.Engine, key, valueType string) (hiera.Result, error) {
	t.Helper()
	return e.Lookup(context.Background(), hiera.Request{Key: key, ValueType: valueType, HasValueType: true})
}

func TestValueTypeErrorNamesKey(t *testing.T) {
	e, _ := newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "ports: [80, '8080']\n",
	})
	_, err := lookupTyped(t, e, "ports", "Array[Integer]")
	var herr *model.Error
	if !errors.As(err, &herr) {
		t.Fatalf("want an *Error, got %v", err)
	}
	if herr.Key != "ports" || herr.Message != "Found value has wrong type, index 1 expects an Integer value, got String" {
		t.Fatalf("got key %q message %q", herr.Key, herr.Message)
	}
}

func TestValueTypeSyntaxErrorBeforeLookup(t *testing.T) {
	// Puppet parses the type before it looks anything up: a missing key still reports the type
	e, _ := newEngine(t, files{"hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"})
	_, err := lookupTyped(t, e, "missing", "Hash[String")
	if messageOf(err) != "Syntax error at end of input" {
		t.Fatalf("got %v", err)
	}
	if err := hiera.ParseValueType("Hash[String, Integer]"); err != nil {
		t.Fatalf("ParseValueType refused a valid type: %v", err)
	}
	if err := hiera.ParseValueType("Struct[name]"); err == nil || !strings.Contains(err.Error(), "The expression <Struct[name]> is not a valid type specification.") {
		t.Fatalf("ParseValueType: got %v", err)
	}
}

func TestValueTypeNeverShowsDecryptedValue(t *testing.T) {
	const plaintext = "hunter2-secret"
	e, _ := eyamlEngine(t, eyamlConfig, "password: "+encrypt(t, plaintext)+"\nport: "+encrypt(t, "8443")+"\n", "x: 1\n")
	for _, vt := range []string{"Integer", "Enum[a, b]", "Pattern[/^x/]", "String[1, 3]", "Array[String]", "Optional[Enum[a]]"} {
		_, err := lookupTyped(t, e, "password", vt)
		if err == nil {
			t.Fatalf("%s: a string matched", vt)
		}
		if strings.Contains(err.Error(), plaintext) || !strings.Contains(err.Error(), "details withheld") {
			t.Fatalf("%s: message %q must withhold the value", vt, err)
		}
	}
	if res, err := lookupTyped(t, e, "password", "String[1]"); err != nil || res.Value != plaintext {
		t.Fatalf("a matching secret: %v, %v", res.Value, err)
	}
}

func TestValueTypeSensitiveConversion(t *testing.T) {
	e, _ := newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "lookup_options:\n  pw:\n    convert_to: Sensitive\npw: s3cret\n",
	})
	if _, err := lookupTyped(t, e, "pw", "Sensitive[String]"); err != nil {
		t.Fatalf("Sensitive[String]: %v", err)
	}
	_, err := lookupTyped(t, e, "pw", "Sensitive[Integer]")
	if messageOf(err) != "Found value has wrong type, expects a Sensitive[Integer] value, got Sensitive[String]" {
		t.Fatalf("got %v", err)
	}
	// The type of the contents alone: Puppet's message, and how to write the type.
	_, err = lookupTyped(t, e, "pw", "String[8]")
	if messageOf(err) != "Found value has wrong type, expects a String value, got Sensitive[String]" ||
		!strings.Contains(err.Error(), "The value is Sensitive (convert_to: Sensitive): write the type as Sensitive[String[8]]") {
		t.Fatalf("got %v", err)
	}
}

// TestValueTypeSensitiveShowsNoSecret: a Sensitive value is described by its contents' common type,
// generalized, as Puppet's infer_Sensitive does (Sensitive[Hash[String, String]]): a hash key
// interpolated from eyaml, a value or a size never reaches the message, whatever type is asked.
func TestValueTypeSensitiveShowsNoSecret(t *testing.T) {
	t.Parallel()
	const user = "db-admin-7f3q"
	e, _ := eyamlEngine(t, eyamlConfig, "secret_user: "+encrypt(t, user)+"\n",
		"lookup_options:\n  creds:\n    convert_to: Sensitive\ncreds:\n  \"%{lookup('secret_user')}\": x\n  pw: [1, 2.5]\n")
	for vt, want := range map[string]string{
		"Sensitive[Struct[{other => String}]]": "Found value has wrong type, expects a Sensitive[Struct[{'other' => String}]] value, got Sensitive[Hash[String, Any]]",
		"Sensitive[Hash[String, Integer, 5]]":  "Found value has wrong type, expects a Sensitive[Hash[String, Integer]] value, got Sensitive[Hash[String, Any]]",
		"Struct[{other => String}]":            "Found value has wrong type, expects a Struct value, got Sensitive[Hash]",
		"Variant[Sensitive[Array], Integer]":   "Found value has wrong type, expects a value of type Sensitive[Array] or Integer, got Sensitive[Hash[String, Any]]",
	} {
		res, err := lookupTyped(t, e, "creds", vt)
		if err == nil {
			t.Errorf("%s: no error, found %v", vt, res.Found)
			continue
		}
		if strings.Contains(err.Error(), user) || messageOf(err) != want {
			t.Errorf("%s:\n got %q\nwant %q", vt, err, want)
		}
	}
	if _, err := lookupTyped(t, e, "creds", "Sensitive[Hash[String, Variant[String, Array[Numeric]]]]"); err != nil {
		t.Errorf("a matching type: %v", err)
	}
}

// TestValueTypeSensitiveGeneralized: Puppet's Sensitive[T] holds T generalized, and checks the value
// against it (recorded with Puppet 7.23): sizes and ranges drop, an Enum becomes a String as long as
// its values, a Pattern stays.
func TestValueTypeSensitiveGeneralized(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "lookup_options:\n  s: {convert_to: Sensitive}\n  h: {convert_to: Sensitive}\n  n: {convert_to: Sensitive}\ns: short\nh: {key1: v}\nn: 5\n",
	})
	for _, tc := range []struct{ key, valueType, want string }{
		{"s", "Sensitive[String[100]]", ""},
		{"s", "Sensitive[String[1,3]]", ""},
		{"s", "Sensitive[Enum[a,b]]", "Found value has wrong type, expects a Sensitive[String[1, 1]] value, got Sensitive[String]"},
		{"s", "Sensitive[Integer]", "Found value has wrong type, expects a Sensitive[Integer] value, got Sensitive[String]"},
		{"h", "Sensitive[Struct[{other => String}]]", "Found value has wrong type, expects a Sensitive[Struct[{'other' => String}]] value, got Sensitive[Hash[String, String]]"},
		{"h", "Sensitive[Struct[{key1 => String}]]", ""},
		{"h", "Sensitive[Struct[{key1 => Integer}]]", "Found value has wrong type, expects a Sensitive[Struct[{'key1' => Integer}]] value, got Sensitive[Hash[String, String]]"},
		{"n", "Sensitive[Integer[10,20]]", ""},
		{"s", "Sensitive[Pattern[/^x/]]", "Found value has wrong type, expects a Sensitive[Pattern[/^x/]] value, got Sensitive[String]"},
	} {
		_, err := lookupTyped(t, e, tc.key, tc.valueType)
		if got := messageOf(err); got != tc.want || (err != nil) != (tc.want != "") {
			t.Errorf("%s as %s:\n got %q (%v)\nwant %q", tc.key, tc.valueType, got, err, tc.want)
		}
	}
}

// TestValueTypePatternWork: a Pattern's regexps are compiled once per value_type text (counted in
// allocations of a repeated lookup), and a check whose regexp work (program instructions times bytes
// of strings) would pass 2^26 steps is refused with a clear error instead of running for seconds
// (1,000 regexps over a 100 KB string took 17 s per lookup); real patterns pass far below it.
func TestValueTypePatternWork(t *testing.T) {
	var rx []string
	for i := 0; i < 1000; i++ {
		rx = append(rx, fmt.Sprintf("/^x%d(a|b|c|d|e|f|g|h)*y$/", i))
	}
	e, _ := newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "big: " + strings.Repeat("abcdefgh", 100000/8) + "\nhost: web-01.example.com\n",
	})
	many := "Pattern[" + strings.Join(rx, ", ") + "]"
	_, err := lookupTyped(t, e, "big", many)
	if got := messageOf(err); got != "Found value cannot be checked: matching the value_type's regular expressions against the value's strings would take more than 67108864 steps (program instructions times bytes)" {
		t.Errorf("1,000 regexps over 100 KB: %q (%v)", got, err)
	}
	allocs := testing.AllocsPerRun(3, func() { _, err = lookupTyped(t, e, "host", many) })
	if messageOf(err) == "" || !strings.HasPrefix(messageOf(err), "Found value has wrong type, expects a match for Pattern[/^x0(") {
		t.Errorf("1,000 regexps over a host name: %v", err)
	}
	if allocs > 20000 { // compiling the 1,000 regexps again would be over 300,000
		t.Errorf("a repeated lookup allocates %.0f times: the value_type is parsed again", allocs)
	}
	realistic := `Pattern[/\A[a-z0-9-]+\.example\.com\z/, /\A\d+\.\d+\.\d+\.\d+\z/]`
	if _, err := lookupTyped(t, e, "host", realistic); err != nil {
		t.Errorf("a real pattern: %v", err)
	}
}

func TestValueTypeDefault(t *testing.T) {
	e, _ := newEngine(t, files{"hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"})
	req := hiera.Request{Key: "missing", ValueType: "Integer[0, 9]", HasValueType: true, Default: int64(12), HasDefault: true}
	_, err := e.Lookup(context.Background(), req)
	if messageOf(err) != "Default value has wrong type, expects an Integer[0, 9] value, got Integer[12, 12]" {
		t.Fatalf("got %v", err)
	}
	// not found and no default: no type check, as in Puppet
	res, err := lookupTyped(t, e, "missing", "NoSuchType")
	if err != nil || res.Found {
		t.Fatalf("got %v, %v", res, err)
	}
}

// messageOf is the Message of an engine error ("" for none or another error).
func messageOf(err error) string {
	var herr *model.Error
	if errors.As(err, &herr) {
		return herr.Message
	}
	return ""
}
