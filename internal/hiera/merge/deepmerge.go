package merge

import (
	"math"
	"math/big"
	"math/bits"
	"regexp"
	"strings"
	"sync"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// deepMerger is DeepMerge.deep_merge!(source, dest, options) of the deep_merge gem (1.1.1), which
// Puppet's deep strategies and Hiera 3's deep/deeper behaviours call. It reproduces the gem's results,
// quirks included, except that it never modifies the source: the gem edits it in place (knockouts),
// which makes Puppet's explain output and cached data change; that is deliberately not copied.
//
// Contract: merge(src, dst) may modify dst (pass a copy) and never modifies src.
type deepMerger struct {
	ko         *regexp.Regexp // nil: no knockout
	koStr      string
	sort       bool   // sort_merged_arrays
	hashArrays bool   // merge_hash_arrays
	preserve   bool   // preserve_unmergeables (Hiera 3 "deep")
	unpack     string // unpack_arrays (Hiera 3's :deep_merge_options:): arrays are joined and split on it
}

func newDeepMerger(opts DeepOptions, preserve bool) (*deepMerger, error) {
	ko := opts.KnockoutPrefix
	d := &deepMerger{koStr: ko, sort: opts.SortMergedArrays, hashArrays: opts.MergeHashArrays, preserve: preserve}
	if ko == "" {
		return d, nil
	}
	if preserve {
		return nil, model.Errorf("overwrite_unmergeable must be true if knockout_prefix is specified in deep_merge!")
	}
	// The gem builds %r{^#{knockout_prefix}}: the prefix is an unescaped regexp and Ruby's ^ matches
	// at every line start.
	re, err := knockoutRegexp(ko)
	if err != nil {
		return nil, model.Errorf("knockout_prefix %s is not a valid regular expression: %v", model.Quote(ko), err)
	}
	d.ko = re
	return d, nil
}

// knockoutRegexps caches compiled prefixes: a deep merge builds a merger for every pair of values.
var knockoutRegexps sync.Map // prefix -> *regexp.Regexp

func knockoutRegexp(ko string) (*regexp.Regexp, error) {
	if v, ok := knockoutRegexps.Load(ko); ok {
		if re, isRe := v.(*regexp.Regexp); isRe {
			return re, nil
		}
	}
	re, err := regexp.Compile("(?m)^" + ko)
	if err != nil {
		return nil, err
	}
	knockoutRegexps.Store(ko, re)
	return re, nil
}

func (d *deepMerger) merge(src, dst any) (any, error) {
	if src == nil {
		return dst, nil
	}
	if !truthy(dst) && !d.preserve {
		return src, nil
	}
	switch s := src.(type) {
	case *model.Hash:
		return d.mergeHash(s, dst)
	case []any:
		return d.mergeArray(s, dst, false)
	}
	return d.overwrite(src, dst), nil
}

func (d *deepMerger) mergeHash(s *model.Hash, dst any) (any, error) {
	dh, ok := dst.(*model.Hash)
	if !ok {
		if s.Len() == 0 || d.preserve {
			return dst, nil
		}
		// The gem replaces dst by src itself at the first key, then merges the remaining keys of src
		// into src: their values are merged with themselves.
		out := model.NewHash(s.Len())
		for i, k := range s.RawKeys() {
			v := s.Vals[i]
			if i > 0 && truthy(v) {
				var err error
				if v, err = d.self(v); err != nil {
					return nil, err
				}
			}
			out.Set(k, v)
		}
		return out, nil
	}
	for i, k := range s.RawKeys() {
		sv := s.Vals[i]
		var r any
		var err error
		if dv, ok := dh.Get(k); ok && truthy(dv) {
			r, err = d.merge(sv, dv)
		} else {
			r, err = d.fresh(sv) // a missing, nil or false dst value: sv merged into a dup of itself
		}
		if err != nil {
			return nil, err
		}
		dh.Set(k, r)
	}
	return dh, nil
}

// mergeArray merges the array s into dst; aliased is set when dst is a copy of s (see joinArrays).
func (d *deepMerger) mergeArray(s []any, dst any, aliased bool) (any, error) {
	src := append([]any{}, s...)
	if d.unpack != "" {
		// the gem replaces both arrays by new ones: no longer the same array
		src, aliased = unpackArray(src, d.unpack), false
		if da, ok := dst.([]any); ok {
			dst = unpackArray(da, d.unpack)
		}
	}
	if d.ko != nil && containsValue(src, d.koStr) {
		// A bare prefix empties the destination.
		dst = clearOrNil(dst)
		src = deleteValue(src, d.koStr)
	}
	da, ok := dst.([]any)
	if !ok {
		return d.overwrite(src, dst), nil
	}
	if d.ko != nil {
		src, da = d.knockOut(src, da)
	}
	return d.joinArrays(src, da, aliased)
}

// knockOut removes the prefixed strings from src and what they name (with or without the prefix)
// from dst. The gem deletes from dst once per knockout; deleting the set of named strings in one pass
// gives the same array in linear time.
func (d *deepMerger) knockOut(src, dst []any) ([]any, []any) {
	keep := make([]any, 0, len(src))
	var gone map[string]bool
	for _, e := range src {
		if s, ok := e.(string); ok {
			if t := d.ko.ReplaceAllString(s, ""); t != s {
				if gone == nil {
					gone = make(map[string]bool)
				}
				gone[t], gone[s] = true, true
				continue
			}
		}
		keep = append(keep, e)
	}
	if gone == nil {
		return keep, dst
	}
	out := make([]any, 0, len(dst))
	for _, e := range dst {
		if s, ok := e.(string); !ok || !gone[s] {
			out = append(out, e)
		}
	}
	return keep, out
}

// joinArrays is the last step of an array merge: index-wise merge of hash arrays, else the union with
// dst's elements first; then the optional sort. aliased says that dst's elements are src's own
// objects (dst is a dup of src), which makes the gem merge those hashes with themselves.
func (d *deepMerger) joinArrays(src, dst []any, aliased bool) (any, error) {
	var out []any
	if d.hashArrays && allHashes(src) && allHashes(dst) {
		out = make([]any, len(dst), max(len(dst), len(src)))
		for i, de := range dst {
			var r any
			var err error
			switch {
			case i >= len(src):
				r = de // merging {} into it changes nothing
			case aliased && src[i] == de:
				r, err = d.self(de)
			case aliased:
				r, err = d.merge(src[i], model.Copy(de))
			default:
				r, err = d.merge(src[i], de)
			}
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		if len(src) > len(dst) {
			out = append(out, src[len(dst):]...)
		}
	} else {
		out = rubyUnion(dst, src)
	}
	if d.sort {
		return rubySort(out)
	}
	return out, nil
}

// overwrite is the gem's overwrite_unmergeables: src replaces dst, but with a knockout prefix a
// prefixed string becomes "" and an array loses its prefixed strings.
func (d *deepMerger) overwrite(src, dst any) any {
	if d.preserve {
		return dst
	}
	if d.ko == nil {
		return src
	}
	switch s := src.(type) {
	case string:
		if d.ko.ReplaceAllString(s, "") != s {
			return ""
		}
	case []any:
		out := make([]any, 0, len(s))
		for _, e := range s {
			if str, ok := e.(string); ok && d.ko.MatchString(str) {
				continue
			}
			out = append(out, e)
		}
		return out
	}
	return src
}

// fresh is deep_merge!(v, v.dup), what the gem does for a key dst lacks. The dup is shallow, so the
// values of a hash are merged with themselves.
func (d *deepMerger) fresh(v any) (any, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case *model.Hash:
		return d.self(t)
	case []any:
		return d.mergeArray(t, append([]any{}, t...), true)
	}
	return d.merge(v, v)
}

// self is deep_merge!(v, v) with source and destination the same object.
func (d *deepMerger) self(v any) (any, error) {
	if d.plain() {
		v, _ = selfPlain(v)
		return v, nil
	}
	return d.selfCopy(v)
}

// plain reports whether the merger has none of the options under which deep_merge!(v, v) does
// more than drop the duplicates of v's arrays.
func (d *deepMerger) plain() bool {
	return d.ko == nil && !d.sort && !d.hashArrays && !d.preserve && d.unpack == ""
}

// selfPlain is self for a plain merger: v with the duplicates of its arrays dropped, and v itself
// (changed false) where it has none. The gem's copy is not needed: a value is never modified once
// made (merges modify only their copy of the destination), so sharing it is safe, and merging a
// fleet's values with themselves no longer copies every hash at every level of the hierarchy.
func selfPlain(v any) (out any, changed bool) {
	switch t := v.(type) {
	case *model.Hash:
		var h *model.Hash
		for i, k := range t.RawKeys() {
			r, rChanged := t.Vals[i], false
			if truthy(r) {
				r, rChanged = selfPlain(r)
			}
			if rChanged && h == nil {
				h = model.NewHash(t.Len())
				for j, pk := range t.RawKeys()[:i] {
					h.Set(pk, t.Vals[j])
				}
			}
			if h != nil {
				h.Set(k, r)
			}
		}
		if h == nil {
			return t, false
		}
		return h, true
	case []any:
		if u := rubyUnion(t, nil); len(u) != len(t) {
			return u, true
		}
	}
	return v, false
}

// selfCopy is self as the gem does it, for any merger: a copy of v merged with itself.
func (d *deepMerger) selfCopy(v any) (any, error) {
	switch t := v.(type) {
	case *model.Hash:
		out := model.NewHash(t.Len())
		for i, k := range t.RawKeys() {
			r := t.Vals[i]
			if truthy(r) {
				var err error
				if r, err = d.self(r); err != nil {
					return nil, err
				}
			}
			out.Set(k, r)
		}
		return out, nil
	case []any:
		return d.selfArray(t)
	}
	return d.merge(v, v)
}

func (d *deepMerger) selfArray(a []any) (any, error) {
	if d.unpack != "" { // unpacking gives source and destination arrays of their own
		return d.mergeArray(a, a, false)
	}
	if d.ko != nil && containsValue(a, d.koStr) {
		return []any{}, nil // clearing the destination cleared the source as well
	}
	arr := append([]any{}, a...)
	if d.ko != nil {
		arr = d.aliasedKnockOut(arr)
	}
	var out []any
	if d.hashArrays && allHashes(arr) {
		out = make([]any, len(arr))
		for i, e := range arr {
			r, err := d.self(e)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
	} else {
		out = rubyUnion(arr, nil)
	}
	if d.sort {
		return rubySort(out)
	}
	return out, nil
}

// aliasedKnockOut replays Ruby's source.delete_if { dest.delete(...) } when source and dest are the
// same array: the deletions shift the array under the running delete_if (Ruby 3.1 array.c's
// reject_bang_i and select_bang_ensure). Ruby rescans the array for every knockout; here the array
// is its original slots, each deleted at most once, with a Fenwick tree of the live ones to find the
// i-th element, so a long array with many knockouts costs n log n instead of n².
func (d *deepMerger) aliasedKnockOut(ary []any) []any {
	vals := append([]any{}, ary...)
	live := newLiveSlots(len(vals))
	at := make(map[string][]int) // slots that held a string (checked again when deleting)
	for p, v := range vals {
		if s, ok := v.(string); ok {
			at[s] = append(at[s], p)
		}
	}
	del := func(s string) { // Array#delete(s) on the whole array
		for _, p := range at[s] {
			if live.has(p) && vals[p] == any(s) {
				live.remove(p)
			}
		}
		delete(at, s)
	}
	i1, i2 := 0, 0
	for ; i1 < live.n; i1++ {
		v := vals[live.find(i1)]
		if s, ok := v.(string); ok {
			if t := d.ko.ReplaceAllString(s, ""); t != s {
				del(t)
				del(s)
				continue
			}
		}
		if i1 != i2 { // rb_ary_store(ary, i2, v); i2 < i1 < the length here: nothing was deleted
			p := live.find(i2)
			vals[p] = v
			if s, ok := v.(string); ok {
				at[s] = append(at[s], p)
			}
		}
		i2++
	}
	// select_bang_ensure: the loop ran to the end (i1 >= length), so only the first i2 stay.
	n := min(live.n, i2)
	out := make([]any, n)
	for i := range n {
		out[i] = vals[live.find(i)]
	}
	return out
}

// liveSlots is a Fenwick tree over slots that are live (1) or deleted (0): removing a slot and
// finding the i-th live one cost log n.
type liveSlots struct {
	tree []int // 1-based partial sums
	dead []bool
	n    int // live slots
}

func newLiveSlots(n int) *liveSlots {
	l := &liveSlots{tree: make([]int, n+1), dead: make([]bool, n), n: n}
	for i := 1; i <= n; i++ { // linear build: every slot counts 1
		l.tree[i]++
		if j := i + i&-i; j <= n {
			l.tree[j] += l.tree[i]
		}
	}
	return l
}

func (l *liveSlots) has(p int) bool { return !l.dead[p] }

func (l *liveSlots) remove(p int) {
	l.dead[p] = true
	l.n--
	for i := p + 1; i < len(l.tree); i += i & -i {
		l.tree[i]--
	}
}

// find returns the slot of the i-th live element (0-based); i < l.n.
func (l *liveSlots) find(i int) int {
	pos, rest := 0, i+1
	for step := bits.Len(uint(len(l.tree) - 1)); step >= 0; step-- {
		next := pos + 1<<step
		if next < len(l.tree) && l.tree[next] < rest {
			pos = next
			rest -= l.tree[next]
		}
	}
	return pos // the 1-based index of the slot before it, which is its 0-based index
}

// clearOrNil is the gem's clear_or_nil: containers and strings are emptied, anything else is nil.
func clearOrNil(v any) any {
	switch v.(type) {
	case []any:
		return []any{}
	case *model.Hash:
		return model.NewHash(0)
	case string:
		return ""
	}
	return nil
}

func containsValue(a []any, v any) bool {
	for _, e := range a {
		if model.Equal(e, v) {
			return true
		}
	}
	return false
}

// deleteValue is Array#delete on a copy.
func deleteValue(a []any, v any) []any {
	out := make([]any, 0, len(a))
	for _, e := range a {
		if !model.Equal(e, v) {
			out = append(out, e)
		}
	}
	return out
}

func allHashes(a []any) bool {
	for _, e := range a {
		if _, ok := e.(*model.Hash); !ok {
			return false
		}
	}
	return true
}

// rubySort is Array#sort! as Ruby 3.1 runs it on glibc: a top-down merge sort calling <=>, so that
// the first incomparable pair met (and the error naming it) is the one Ruby reports.
func rubySort(a []any) ([]any, error) {
	out := append([]any{}, a...)
	tmp := make([]any, len(out))
	var err error
	mergeSort(out, tmp, &err)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func mergeSort(b, tmp []any, err *error) {
	if len(b) <= 1 || *err != nil {
		return
	}
	b1, b2 := b[:len(b)/2], b[len(b)/2:]
	mergeSort(b1, tmp, err)
	mergeSort(b2, tmp, err)
	if *err != nil {
		return
	}
	i, j, k := 0, 0, 0
	for i < len(b1) && j < len(b2) {
		c, e := rubyCmp(b1[i], b2[j])
		if e != nil {
			*err = e
			return
		}
		if c <= 0 {
			tmp[k] = b1[i]
			i++
		} else {
			tmp[k] = b2[j]
			j++
		}
		k++
	}
	k += copy(tmp[k:], b1[i:])
	copy(b, tmp[:k]) // what is left of b2 is already in place
}

// rubyCmp is a <=> b, failing like Ruby's sort when they are not comparable.
func rubyCmp(a, b any) (int, error) {
	if c, ok := spaceship(a, b); ok {
		return c, nil
	}
	return 0, model.Errorf("comparison of %s with %s failed", model.ClassName(a), model.CmpOperand(b))
}

// spaceship is Ruby's <=>; ok is false where Ruby returns nil.
func spaceship(a, b any) (int, bool) {
	if isNumber(a) && isNumber(b) {
		return numCmp(a, b)
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			switch {
			case x < y:
				return -1, true
			case x > y:
				return 1, true
			}
			return 0, true
		}
		return 0, false
	case []any:
		y, ok := b.([]any)
		if !ok {
			return 0, false
		}
		for i := 0; i < len(x) && i < len(y); i++ {
			c, ok := spaceship(x[i], y[i])
			if !ok || c != 0 {
				return c, ok
			}
		}
		return numCmp(int64(len(x)), int64(len(y)))
	}
	// Object#<=>: 0 when equal, else not comparable.
	if rubyEqual(a, b) {
		return 0, true
	}
	return 0, false
}

func isNumber(v any) bool {
	switch v.(type) {
	case int64, *big.Int, float64, *big.Float:
		return true
	}
	return false
}

// numCmp compares two numbers exactly, across Integer and Float; NaN is not comparable.
func numCmp(a, b any) (int, bool) {
	fa, aFloat := a.(float64)
	fb, bFloat := b.(float64)
	if (aFloat && math.IsNaN(fa)) || (bFloat && math.IsNaN(fb)) {
		return 0, false
	}
	return toBigFloat(a).Cmp(toBigFloat(b)), true
}

func toBigFloat(v any) *big.Float {
	switch t := v.(type) {
	case int64:
		return new(big.Float).SetInt64(t)
	case *big.Int:
		return new(big.Float).SetInt(t)
	case float64:
		return new(big.Float).SetFloat64(t)
	case *big.Float:
		return t
	}
	// Cannot happen: numCmp is only called with numbers (isNumber).
	return new(big.Float)
}

// rubyEqual is Ruby's ==: like Equal, but numbers compare by value (1 == 1.0).
func rubyEqual(a, b any) bool {
	if isNumber(a) && isNumber(b) {
		c, ok := numCmp(a, b)
		return ok && c == 0
	}
	switch a.(type) {
	case []any, *model.Hash:
		return model.ContainersEqual(a, b, rubyEqual)
	}
	return model.Equal(a, b)
}

// unpackArray is Ruby's a.join(sep).split(sep), which unpack_arrays applies to both arrays.
func unpackArray(a []any, sep string) []any {
	var parts []string
	if sep == " " { // Ruby's split on a single space splits on runs of whitespace
		parts = strings.Fields(rubyJoin(a, sep))
	} else {
		parts = strings.Split(rubyJoin(a, sep), sep)
		for len(parts) > 0 && parts[len(parts)-1] == "" { // split drops trailing empty fields
			parts = parts[:len(parts)-1]
		}
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// rubyJoin is Array#join: nested arrays joined too, nil as "", anything else by to_s.
func rubyJoin(a []any, sep string) string {
	var sb strings.Builder
	for i, v := range a {
		if i > 0 {
			sb.WriteString(sep)
		}
		switch t := v.(type) {
		case []any:
			sb.WriteString(rubyJoin(t, sep))
		case nil:
		default:
			sb.WriteString(model.ToS(t))
		}
	}
	return sb.String()
}
