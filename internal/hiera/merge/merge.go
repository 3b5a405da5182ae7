package merge

import (
	"errors"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Merge strategies as Puppet's lookup() implements them (Puppet::Pops::MergeStrategy). The lookup code
// drives the "merge over variants" loop of hiera-semantics.md §4.1 with IsFirst, Convert, Single and Combine.

// deepOptionKeys are the options the deep strategy accepts, in the order Puppet checks them.
var deepOptionKeys = []string{"knockout_prefix", "merge_debug", "merge_hash_arrays", "sort_merged_arrays"}

// Parse validates a merge given as a strategy name or as a hash with "strategy" and options, with
// the messages of Puppet's MergeStrategy.strategy. nil and false mean the default strategy (first
// found); a *Merge is returned as is.
//
// An empty knockout_prefix is rejected here, although Puppet only fails once two values are merged:
// Merge has no way to carry an empty prefix to that point.
func Parse(v any) (*Merge, error) {
	var name any
	var opts *model.Hash
	switch t := v.(type) {
	case nil:
		return &Merge{Strategy: "default"}, nil
	case bool:
		if !t {
			return &Merge{Strategy: "default"}, nil
		}
		name = t
	case *Merge:
		return t, nil
	case *model.Hash:
		s, _ := t.Get("strategy")
		if s == nil {
			return nil, model.Errorf("The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'")
		}
		name = s
		if t.Len() > 1 {
			opts = t
		}
	default:
		name = v
	}
	s, ok := name.(string)
	if !ok || !KnownStrategy(s) {
		return nil, model.Errorf("Unknown merge strategy: '%s'", model.ToS(name))
	}
	m := &Merge{Strategy: s}
	if opts == nil {
		return m, nil
	}
	if err := m.setOptions(opts); err != nil {
		return nil, err
	}
	return m, nil
}

func KnownStrategy(s string) bool {
	return slices.Contains(Strategies, s) || slices.Contains(hiddenStrategies, s)
}

// setOptions checks opts against the strategy's options type and stores the deep options.
func (m *Merge) setOptions(opts *model.Hash) error {
	var problems []string
	switch m.Strategy {
	case "deep":
		for _, k := range deepOptionKeys {
			v, ok := opts.Get(k)
			if !ok || v == nil {
				continue
			}
			want, okType := "String", false
			if k == "knockout_prefix" {
				_, okType = v.(string)
			} else {
				want = "Boolean"
				_, okType = v.(bool)
			}
			if !okType {
				problems = append(problems, "entry '"+k+"' expects a value of type Undef or "+want+", got "+model.TypeName(v))
			}
		}
		nonString := false
		opts.Each(func(k, _ any) bool {
			ks, ok := k.(string)
			switch {
			case !ok:
				nonString = true
			case ks != "strategy" && !isDeepOption(ks):
				problems = append(problems, "unrecognized key '"+ks+"'")
			}
			return true
		})
		if nonString {
			problems = []string{"expects a Struct[{'strategy' => Optional[Pattern[/deep/]], 'knockout_prefix' => Optional[String], " +
				"'merge_debug' => Optional[Boolean], 'merge_hash_arrays' => Optional[Boolean], " +
				"'sort_merged_arrays' => Optional[Boolean]}] value, got " + model.TypeDetail(opts)}
		}
	case "reverse_deep", "unconstrained_deep":
		// Hash[String[1], Any]: free-form (Hiera 3's deep_merge_options); only the three deep
		// options that Merge holds have an effect.
		for _, k := range opts.RawKeys() {
			if s, ok := k.(string); !ok || s == "" {
				problems = []string{"expects a Hash[String[1], Any] value, got " + model.TypeDetail(opts)}
				break
			}
		}
	default:
		opts.Each(func(k, _ any) bool {
			if k != "strategy" {
				problems = append(problems, "unrecognized key '"+model.ToS(k)+"'")
			}
			return true
		})
	}
	if len(problems) > 0 {
		return model.Errorf("%s", joinTypeProblems("The merge options has wrong type, ", problems))
	}
	if v, _ := opts.Get("knockout_prefix"); truthy(v) {
		m.Deep.KnockoutPrefix = model.ToS(v)
		if m.Deep.KnockoutPrefix == "" {
			return model.Errorf("knockout_prefix cannot be an empty string in deep_merge!")
		}
	}
	m.Deep.SortMergedArrays = truthyOption(opts, "sort_merged_arrays")
	m.Deep.MergeHashArrays = truthyOption(opts, "merge_hash_arrays")
	return nil
}

func isDeepOption(k string) bool { return slices.Contains(deepOptionKeys, k) }

// truthyOption reads a deep_merge flag the way the gem does (`options[:x] || false`).
func truthyOption(opts *model.Hash, k string) bool {
	v, _ := opts.Get(k)
	return truthy(v)
}

// truthy is Ruby truthiness: only nil and false are false.
func truthy(v any) bool {
	return v != nil && v != false
}

// joinTypeProblems formats one or several type assertion problems as Puppet's TypeAsserter does.
func joinTypeProblems(prefix string, problems []string) string {
	if len(problems) == 1 {
		return prefix + problems[0]
	}
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = prefix + p
	}
	return " " + strings.Join(lines, "\n  ")
}

// IsFirst reports whether the strategy is first found (no merging at all).
func (m *Merge) IsFirst() bool {
	return m == nil || m.Strategy == "" || m.Strategy == "first" || m.Strategy == "default"
}

func (m *Merge) isDeep() bool {
	return m.Strategy == "deep" || m.Strategy == "reverse_deep" || m.Strategy == "unconstrained_deep"
}

// String is the strategy name as explain prints it.
func (m *Merge) String() string {
	if m == nil || m.Strategy == "" {
		return "default"
	}
	return m.Strategy
}

// OptionsHash is the "Options:" hash explain prints for a deep merge, nil when there is none. Only
// options that are set can be shown: Merge does not record options given with their default value.
func (m *Merge) OptionsHash() *model.Hash {
	if m == nil || !m.isDeep() || m.Deep == (DeepOptions{}) {
		return nil
	}
	h := model.NewHash(3)
	if m.Deep.SortMergedArrays {
		h.Set("sort_merged_arrays", true)
	}
	if m.Deep.MergeHashArrays {
		h.Set("merge_hash_arrays", true)
	}
	if m.Deep.KnockoutPrefix != "" {
		h.Set("knockout_prefix", m.Deep.KnockoutPrefix)
	}
	return h
}

// Convert is Puppet's convert_value, applied to the first value found when several variants are
// merged: unique flattens an array or wraps any other value in one.
func (m *Merge) Convert(v any) any {
	if m != nil && m.Strategy == "unique" {
		return uniqueConvert(v)
	}
	return v
}

// Single is Puppet's merge_single, the value of a stage with exactly one variant: unique removes
// duplicates from an array (without flattening it).
func (m *Merge) Single(v any) any {
	if m != nil && m.Strategy == "unique" {
		if a, ok := v.([]any); ok {
			return rubyUnion(nil, a)
		}
	}
	return v
}

// Combine merges memo (the higher-priority result so far, already converted) with lower, the next
// value found. It checks both operands' types first, like Puppet. Its inputs are never modified.
func (m *Merge) Combine(memo, lower any) (any, error) {
	if m.IsFirst() {
		return memo, nil
	}
	switch m.Strategy {
	case "unique":
		if err := checkUnique("first", memo); err != nil {
			return nil, err
		}
		if err := checkUnique("second", lower); err != nil {
			return nil, err
		}
		return rubyUnion(uniqueConvert(memo), uniqueConvert(lower)), nil
	case "hash":
		high, err := checkHash("first", memo)
		if err != nil {
			return nil, err
		}
		low, err := checkHash("second", lower)
		if err != nil {
			return nil, err
		}
		return Hashes(high, low), nil
	case "deep", "unconstrained_deep":
		return m.deepMerge(memo, lower)
	case "reverse_deep":
		return m.deepMerge(lower, memo)
	}
	return nil, model.Errorf("Unknown merge strategy: '%s'", m.Strategy)
}

// deepMerge is deep_merge!(source, deep copy of dest) with the merge's options.
func (m *Merge) deepMerge(source, dest any) (any, error) {
	dm, err := newDeepMerger(m.Deep, false)
	if err != nil {
		return nil, err
	}
	return dm.merge(source, model.Copy(dest))
}

// uniqueConvert flattens an array completely, or wraps a non-array.
func uniqueConvert(v any) []any {
	a, ok := v.([]any)
	if !ok {
		return []any{v}
	}
	return flatten(nil, a)
}

func flatten(out, a []any) []any {
	for _, e := range a {
		if sub, ok := e.([]any); ok {
			out = flatten(out, sub)
		} else {
			out = append(out, e)
		}
	}
	if out == nil {
		out = []any{}
	}
	return out
}

// rubyUnion is Ruby's a | b: the elements of a then b, first occurrences only, compared by value and
// type (1, 1.0 and "1" differ). It returns a new slice. Longer arrays keep a set, so that the union
// costs linear time: scalars by value, arrays and hashes by a hash of their contents (model.ValueHash),
// then compared with Equal.
func rubyUnion(a, b []any) []any {
	out := make([]any, 0, len(a)+len(b))
	var seen map[any]bool        // for longer arrays; scanning a short one costs less than hashing
	var buckets map[uint64][]any // containers in out, by model.ValueHash
	if len(a)+len(b) > 16 {
		seen = make(map[any]bool, len(a)+len(b))
		buckets = make(map[uint64][]any)
	}
	add := func(e any) {
		if seen == nil {
			if slices.ContainsFunc(out, func(o any) bool { return model.Equal(o, e) }) {
				return
			}
		} else if k, ok := scalarSetKey(e); ok {
			if seen[k] {
				return
			}
			seen[k] = true
		} else {
			h := model.ValueHash(e)
			if slices.ContainsFunc(buckets[h], func(o any) bool { return model.Equal(o, e) }) {
				return
			}
			buckets[h] = append(buckets[h], e)
		}
		out = append(out, e)
	}
	for _, e := range a {
		add(e)
	}
	for _, e := range b {
		add(e)
	}
	return out
}

// bigKey is a big integer as a comparable Go value (its decimal text).
type bigKey string

// scalarSetKey gives scalars a map key that is equal exactly when Equal is (NaN excluded: it never
// equals itself, so it is compared the slow way and always kept).
func scalarSetKey(v any) (any, bool) {
	switch t := v.(type) {
	case nil, bool, string, int64:
		return t, true
	case float64:
		return t, t == t
	case *big.Int:
		if t.IsInt64() {
			return t.Int64(), true
		}
		return bigKey(t.String()), true
	}
	return nil, false
}

// Hashes is Ruby's low.merge(high): the lower keys in their order, values from high where both
// have the key, then the keys only high has.
func Hashes(high, low *model.Hash) *model.Hash {
	out := model.NewHash(low.Len() + high.Len())
	low.Each(func(k, v any) bool { out.Set(k, v); return true })
	high.Each(func(k, v any) bool { out.Set(k, v); return true })
	return out
}

// checkUnique asserts Variant[Scalar, Array[Data]].
func checkUnique(which string, v any) error {
	var problems []string
	switch t := v.(type) {
	case nil, *model.Hash:
		problems = []string{"expects a value of type Scalar or Array, got " + model.TypeName(v)}
	case []any:
		if !model.IsData(t) {
			problems = []string{"variant 0 expects a Scalar value, got Tuple"}
			for i, e := range t {
				if !model.IsData(e) {
					problems = append(problems, model.DataMismatches(e, "variant 1 index "+strconv.Itoa(i)+" ")...)
				}
			}
		}
	}
	return mergeTypeError(which, problems)
}

// checkHash asserts Hash[String, Data] and returns v as a Hash.
func checkHash(which string, v any) (*model.Hash, error) {
	var problems []string
	h, ok := v.(*model.Hash)
	switch {
	case !ok:
		problems = []string{"expects a Hash value, got " + model.TypeName(v)}
	case !model.StringKeys(h):
		problems = []string{"expects a Hash[String, Data] value, got " + model.TypeDetail(h)}
	default:
		for i, k := range h.RawKeys() {
			if !model.IsData(h.Vals[i]) {
				name, _ := k.(string) // model.StringKeys checked every key
				problems = append(problems, model.DataMismatches(h.Vals[i], "entry '"+name+"' ")...)
			}
		}
	}
	if err := mergeTypeError(which, problems); err != nil {
		return nil, err
	}
	return h, nil
}

// ErrMergeType is wrapped by the errors of a value that the merge strategy cannot take (an array
// for a hash merge, a hash for a unique merge): errors.Is(err, ErrMergeType).
var ErrMergeType = errors.New("merge type")

func mergeTypeError(which string, problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	return &model.Error{Message: joinTypeProblems("The "+which+" element of the merge has wrong type, ", problems), Err: ErrMergeType}
}

// Merge is a merge strategy with its options, as given in a lookup's merge argument or in
// lookup_options. Build one with Parse to get Puppet's validation. Every field is part of
// its cache key (appendKey); TestMergeKeyCoversEveryField fails when a new one is not.
type Merge struct {
	// Strategy is one of Strategies, or "default" (first), or Puppet's hidden reverse_deep /
	// unconstrained_deep.
	Strategy string
	// Deep holds the deep strategies' options.
	Deep DeepOptions
}

// DeepOptions are the options of the deep strategies (the deep_merge gem's), also used by a
// version 3 hiera.yaml's :deep_merge_options:.
type DeepOptions struct {
	KnockoutPrefix   string // "" = no knockout
	SortMergedArrays bool
	MergeHashArrays  bool
}

// Strategies are the merge strategies a user names, in the order messages list them.
var Strategies = []string{"first", "unique", "hash", "deep"}

// hiddenStrategies are accepted too, as Puppet does: "default" is first, the others are deep
// variants Puppet uses internally.
var hiddenStrategies = []string{"default", "reverse_deep", "unconstrained_deep"}

// AppendKey appends the merge's identity for the result cache: every field, each ended by a 0.
func (m *Merge) AppendKey(b []byte) []byte {
	b = append(append(b, m.String()...), 0)
	b = append(append(b, m.Deep.KnockoutPrefix...), 0)
	b = strconv.AppendBool(b, m.Deep.SortMergedArrays)
	b = strconv.AppendBool(b, m.Deep.MergeHashArrays)
	return append(b, 0)
}
