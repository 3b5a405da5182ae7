// Package ptype is Puppet's type language as lookup_options' value_type uses it: the types (Type,
// ptype.go), the parser with Puppet's messages (Parse: ptypeparse.go for the expression,
// ptypeparams.go for each type's parameters), instance and assignability checks (IsInstance,
// ptypematch.go, with variants normalized as Puppet does in ptypenormalize.go and the bound on a
// check's regexp work in ptypematchlimit.go) and the TypeMismatchDescriber's messages (Check, and
// CheckParameter as a class parameter's, ptypedescribe.go). Aliases (ptypealias.go) resolves a
// code base's type aliases (type Stdlib::Port = Integer[0, 65535]) as Puppet's loaders do;
// messages expand them.
//
// A new Puppet type: its kind and String in ptype.go, its name or constructor in ptypeparse.go or
// ptypeparams.go, its instance and assignability rules in ptypematch.go (and, for a type that
// merges in a Variant, ptypenormalize.go), its wording in ptypedescribe.go. It imports the value model and rubyre (Pattern types).
package ptype
