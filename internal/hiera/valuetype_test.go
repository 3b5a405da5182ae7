package hiera_test

import (
	"context"
	"errors"
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
