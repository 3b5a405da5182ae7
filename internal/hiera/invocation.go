package hiera

// The state of one lookup, and the wrappers that give its errors key, level and file.

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/ptype"
)

// invocation is the state of one Engine.Lookup: the recursion guard, the lookup_options assembled
// for its scope, the explain trace. It is used by one goroutine only.
type invocation struct {
	ctx    context.Context
	engine *Engine
	// cfg is the hiera.yaml of the layer being searched (the global one between searches; an
	// empty one when there is no global layer).
	cfg           *config
	layer         *layer            // the layer being searched
	global, env   *layer            // the layers every key searches
	modules       map[string]*layer // module layers met so far, by module name
	req           Request
	scope         *scope
	nameStack     []string
	nestedLookups int                     // lookup()/alias() interpolations so far, bounded by maxNestedLookups
	answers       map[string]nestedAnswer // nested lookups answered (answers.go)
	// interpolated counts the text interpolation built in the lookup, readInterpolated in all
	// the lookups of the invocation (a node read's), each bounded (countText)
	interpolated, readInterpolated int
	deepest                        int        // the recursion guard's greatest depth (answers.go)
	ex                             *explainer // nil unless explaining

	signatures []layersSignature           // hierarchySignature per set of layers
	locs       map[*entry][]location       // resolved locations per entry
	files      map[fileKey]seenFile        // data files seen
	decryptors map[*entry]*eyaml.Decryptor // per eyaml entry, once loaded
	volatile   int                         // bumped when a found value depended on more than the files
	listed     []Source                    // the data files nodeKeys listed (NodeResult.Files)
	firstKeys  map[string]string           // per file nodeKeys listed, its first candidate key (pathOrderFirst)

	options map[string]*model.Hash // assembled lookup_options per module name ("" for none; nil: no options)
	// firstOptions is the first module's entry of options, kept apart: most lookups need one.
	firstOptions struct {
		module string
		opts   *model.Hash
		done   bool
	}
	baseOptions      *model.Hash // the global and environment layers' lookup_options
	baseDone         bool
	globalOptions    *model.Hash // the global layer's lookup_options (none while being assembled)
	globalStarted    bool
	secretOptions    map[string]bool // the lookup_options entries (by key) that came from a secret
	optionsAssembled int             // how many times lookup_options were assembled for a module
	sensitive        bool
	// undecrypted is the eyaml key error of a value left encrypted (EyamlKeys.Ciphertext) in this
	// lookup: a lookup that then fails (a conversion of the ciphertext) fails with it, the key missing.
	undecrypted error
	wrapped     bool        // the key's convert_to made the value Puppet-Sensitive (value_type sees Sensitive[...])
	valueType   *ptype.Type // the request's value_type, parsed
	redact      bool        // explain prints no values (the key converts to Sensitive)
	searched    []string
	sources     []Source // the files that gave the keys being looked up their values (sources.go)
	warnings    []string
	warned      map[string]bool
	pitfalls    notes // when the request asks for them: noted by interpolate.go, then pitfalls.go
	// errPath is where in a data value a failed interpolation sits, innermost first (hash keys and
	// array indexes), filled as the error returns: lookupInLocation turns it into a line.
	errPath []any
	// withoutNode: interpolation makes no nested lookups (FileCheck.Check checks what is decided
	// without a node).
	withoutNode bool
	// probing: a node read's probe (probeNode), which passes the levels of custom functions
	probing      bool
	customPlaces map[string]functionPlace // custom functions met, by name (customlevels.go)
	// nodeRead: the invocation of a node read (LookupNode). Its pitfalls gather every key's, so a
	// nested lookup's answer is remembered (answers.go) even when the request asks for them: the
	// pitfalls of its first computation stay.
	nodeRead bool

	// Storage for the above that a warm lookup would otherwise allocate one by one.
	own struct {
		scope       scope
		global, env layer
		names       [4]string
		signatures  [4]layersSignature
	}
}

// seenFile is a data file as an invocation saw it (df nil: missing), and until when (see dataFor).
type seenFile struct {
	df    *dataFile
	until int64
}

// newInvocation starts a lookup; its base layers are still to be filled in (Engine.baseLayers).
func newInvocation(ctx context.Context, e *Engine, req Request) *invocation {
	inv := &invocation{ctx: ctx, engine: e, req: req}
	inv.own.scope = newScope(req.Scope, e.envName)
	inv.scope, inv.global, inv.env = &inv.own.scope, &inv.own.global, &inv.own.env
	inv.nameStack, inv.signatures = inv.own.names[:0], inv.own.signatures[:0]
	if req.Explain {
		inv.ex = &explainer{secret: inv.secret}
	}
	return inv
}

// emptyConfig stands for a missing global hiera.yaml between searches: version 5 rules, no levels.
var emptyConfig = &config{Config: &hieraconfig.Config{Version: 5}}

// enter makes l the layer being searched and returns the previous one, for leave.
func (inv *invocation) enter(l *layer) (previous *layer) {
	previous = inv.layer
	inv.layer, inv.cfg = l, l.cfg
	if inv.cfg == nil {
		inv.cfg = emptyConfig
	}
	return previous
}

func (inv *invocation) leave(previous *layer) { inv.enter(previous) }

func (inv *invocation) run() (Result, error) {
	names := []string{inv.req.Key}
	if len(inv.req.Keys) > 0 {
		names = inv.req.Keys
	}
	if m := inv.req.Merge; m != nil && m.Strategy != "" && !merge.KnownStrategy(m.Strategy) {
		// a Merge built without merge.Parse: refuse it even when a single value would not be merged
		return Result{}, withKey(model.Errorf("Unknown merge strategy: '%s'", m.Strategy), names[0])
	}
	var found bool
	var value any
	var err error
	for _, name := range names {
		value, found, err = inv.lookupTop(name, inv.req.Merge, inv.req.Function)
		if err != nil && inv.undecrypted != nil {
			return Result{}, withKey(inv.undecrypted, name)
		}
		if err != nil {
			return Result{}, inv.guard(withKey(err, name))
		}
		if found {
			break
		}
	}
	if found {
		if err := inv.checkValueType("Found value", value); err != nil {
			return Result{}, withKey(cmp.Or(inv.undecrypted, err), names[0])
		}
	}
	res := Result{Value: value, Found: found, Sensitive: inv.sensitive, Wrapped: found && inv.wrapped, Searched: inv.searched, Warnings: inv.warnings}
	if found {
		res.Sources = slices.Clip(inv.sources)
	}
	if !found && inv.req.HasDefault {
		res.Value = inv.req.Default
		if s, isStr := res.Value.(string); isStr && inv.cfg.V3 != nil {
			// Hiera 3 interpolates a string default
			if res.Value, err = inv.interpolateString(s, true); err != nil {
				return Result{}, inv.guard(withKey(err, inv.req.Key))
			}
		}
		inv.ex.defaultValue(res.Value)
		inv.wrapped = false
		if err := inv.checkValueType("Default value", res.Value); err != nil {
			return Result{}, withKey(err, inv.req.Key)
		}
	}
	if !found && !inv.req.HasDefault {
		inv.ex.notFound(inv.req.Key)
	}
	res.Explanation = inv.ex.String()
	if inv.req.Pitfalls {
		if segs, err := parseKey(names[0]); err == nil {
			inv.findPitfalls(keyRoot(segs))
		}
		res.Pitfalls = inv.pitfalls
	}
	return res, nil
}

// secret reports whether the lookup touched a secret: a decrypted eyaml value or a key that
// converts to Sensitive, in this lookup or a nested one. Every value may then derive from it.
func (inv *invocation) secret() bool { return inv.sensitive || inv.redact }

// guard withholds the details of an error once the lookup touched a secret.
func (inv *invocation) guard(err error) error {
	if inv.secret() {
		return model.WithholdSecret(err)
	}
	return err
}

// checkValueType applies the request's value_type as lookup() does, to the found value or the
// default. A decrypted value is not described: Puppet's messages quote values and show their ranges.
func (inv *invocation) checkValueType(subject string, v any) error {
	if inv.valueType == nil {
		return nil
	}
	if inv.wrapped {
		v = ptype.SensitiveValue{Value: v}
	}
	msg := ptype.Check(subject, inv.valueType, v)
	switch {
	case msg == "":
		return nil
	case inv.sensitive && !inv.wrapped:
		msg = fmt.Sprintf("%s has wrong type, expects a value of type %s (details withheld: the value is secret)", subject, inv.valueType)
	}
	// a wrapped (Sensitive) value shows as Sensitive[String], never its contents
	e := &model.Error{Message: msg, Err: ErrValueType, ValueFree: inv.sensitive}
	if inv.wrapped && !strings.HasPrefix(inv.valueType.String(), "Sensitive") {
		e.Hint = fmt.Sprintf("The value is Sensitive (convert_to: Sensitive): write the type as Sensitive[%s]", inv.valueType)
	}
	return e
}

// withKey sets an error's Key. Errors may be shared (cached with a data file or the
// configuration), so a copy is changed, never the error itself.
func withKey(err error, key string) error {
	e, ok := err.(*model.Error)
	if !ok {
		return &model.Error{Message: err.Error(), Key: key, Err: err}
	}
	if e.Key != key {
		c := *e
		c.Key = key
		return &c
	}
	return e
}

// maxGuardDepth bounds the recursion guard: the nesting of lookups and interpolations.
const maxGuardDepth = 100

// check runs fn with name on the recursion guard, failing as Puppet does if name is already there.
func (inv *invocation) check(name string, fn func() error) error {
	for _, n := range inv.nameStack {
		if n == name {
			if inv.cfg.V3 != nil {
				return model.ValueFreef("Lookup recursion detected in [%s]", strings.Join(inv.nameStack, ", "))
			}
			return model.ValueFreef("Recursive lookup detected in [%s]", strings.Join(inv.nameStack, ", "))
		}
	}
	if n := len(inv.nameStack); n > inv.deepest {
		inv.deepest = n
	}
	if len(inv.nameStack) > maxGuardDepth {
		return model.ValueFreef("Interpolation nested more than %d levels deep in [%s]", maxGuardDepth, strings.Join(inv.nameStack, ", "))
	}
	inv.nameStack = append(inv.nameStack, name)
	defer func() { inv.nameStack = inv.nameStack[:len(inv.nameStack)-1] }()
	return fn()
}

func (inv *invocation) noteSearched(name string) {
	for _, s := range inv.searched {
		if s == name {
			return
		}
	}
	inv.searched = append(inv.searched, name)
}

func (inv *invocation) warn(msg string) {
	if inv.warned == nil {
		inv.warned = map[string]bool{}
	}
	if !inv.warned[msg] {
		inv.warned[msg] = true
		inv.warnings = append(inv.warnings, msg)
	}
}

// withLevel names the hierarchy level on an error that does not say it yet.
func withLevel(err error, level string) error {
	if e, ok := err.(*model.Error); ok {
		if e.Level == "" {
			c := *e
			c.Level = level
			return &c
		}
		return e
	}
	return &model.Error{Message: err.Error(), Level: level, Err: err}
}

func withFile(err error, level, file string) error {
	err = withLevel(err, level)
	if e, ok := err.(*model.Error); ok && e.File == "" {
		c := *e
		c.File = file
		return &c
	}
	return err
}
