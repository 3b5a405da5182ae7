package hiera

import (
	"errors"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/ptype"
)

// Function says which Puppet function a lookup behaves like; it decides the default merge strategy
// and, for a version 3 hiera.yaml, which Hiera 3 resolution type is used.
type Function int

const (
	// FuncLookup is Puppet's lookup(): lookup_options decide the merge, else first found.
	FuncLookup Function = iota
	// FuncHash is hiera_hash(): a hash merge (Hiera 3 :merge_behavior: for a version 3 config).
	FuncHash
	// FuncArray is hiera_array(): a unique merge whose result is always an array.
	FuncArray
)

// Scope holds the variables interpolation sees. Facts are reachable as %{facts.x} and as top-scope
// %{x} / %{::x}; Vars are other top-scope variables (trusted, server_facts, environment, ...) and win
// over a fact of the same name. The engine remembers where a scope's hierarchy leads by the hashes'
// identity: do not change them after a lookup.
type Scope struct {
	Facts *model.Hash
	Vars  *model.Hash
}

// Request is one lookup.
type Request struct {
	Key string
	// Keys, when set, are candidate names tried in order instead of Key: the first found wins.
	Keys     []string
	Function Function
	Merge    *merge.Merge // nil: lookup_options for the key, else the function's default
	// ValueType, when HasValueType is set, is a Puppet type expression ("Array[String, 1]") the found
	// value, or the default, must match, as lookup()'s value_type. See ParseValueType.
	ValueType    string
	HasValueType bool
	Default      any // returned when nothing is found and HasDefault is set
	HasDefault   bool
	Scope        Scope
	Explain      bool
	// EyamlKeys, when given, replace the key files every eyaml_lookup_key entry names.
	EyamlKeys EyamlKeys
	// Pitfalls asks for Result.Pitfalls.
	Pitfalls bool
	// Without, when set, makes the lookup answer as if one data file had no value for one root
	// key: what removing that value would change (hieraform unused's redundant overrides).
	Without Omission
}

// Omission is a root key's value in one data file, left out of a lookup (Request.Without).
type Omission struct {
	File string // the data file's path, as Source.File names it
	Key  string // a root key
}

// omits says whether the value of root in the data file at path is left out.
func (o Omission) omits(path, root string) bool { return o.Key == root && o.File == path }

// Result is the outcome of a lookup that did not fail.
type Result struct {
	Value any
	// Found is false when nothing was found (Value is then the default, if one was given).
	Found bool
	// Sensitive is set when the value came from convert_to: Sensitive or from an eyaml decryption
	// (in this lookup or a nested one), or when the key's own lookup_options entry did (an encrypted
	// merge): encrypted entries for other keys leave it plain.
	Sensitive bool
	// Wrapped is set when the key's convert_to made the found value Sensitive to Puppet: a class
	// parameter receives it as Sensitive[...] (a decrypted eyaml value alone is a String to Puppet).
	Wrapped bool
	// Explanation is the readable trace of the lookup, when Request.Explain was set.
	Explanation string
	// Searched names the hierarchy levels consulted, for "not found" diagnostics. It may be shared
	// with the engine's cache: read it, never change it.
	Searched []string
	// Warnings are soft problems met on the way (a data file that is not a hash, ...).
	Warnings []string
	// Sources are the data files that gave the value, most specific first: the one where a
	// first-found lookup found it, each file whose value a merge took in. Empty when nothing was
	// found (the default answered). Files that only a nested lookup (%{lookup('x')}) read are not
	// among them. It may be shared with the engine's cache: read it, never change it.
	Sources []Source
	// Pitfalls, when Request.Pitfalls is set, are silent traps Puppet has too, met on the way: a fact
	// with a dot in its name, a variable a path or value interpolates that is not set, a module with
	// data but no hiera.yaml. The answer is Puppet's all the same.
	Pitfalls []string
}

// ErrValueType is wrapped by the errors of a request's value_type: a type that does not parse, or a
// found value or default that does not match it (errors.Is(err, ErrValueType)).
var ErrValueType = errors.New("value_type")

// ErrConfigNotFound is wrapped by the error of an engine whose global hiera.yaml does not exist
// (errors.Is(err, ErrConfigNotFound)), so that callers can say where the path came from.
var ErrConfigNotFound = errors.New("hiera.yaml not found")

// ParseValueType checks a value_type expression as Puppet's type parser does, for validation ahead
// of a lookup; the error carries Puppet's message.
func ParseValueType(s string) error {
	_, err := ptype.Parse(s)
	return err
}

// valueTypeError marks err as a value_type error.
func valueTypeError(err error) error {
	if e, ok := err.(*model.Error); ok && e.Err == nil {
		c := *e
		c.Err = ErrValueType
		return &c
	}
	return err
}
