package hiera

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Key syntax (hiera-semantics.md §3.2). Puppet splits a key with Ruby's
// key.split(/(\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+)/) and then checks that the pieces alternate
// segment, ".", segment. keyScan reproduces that: at each position the three alternatives are
// tried in order, and the only text allowed between two segments is a single ".".

// errKeySyntax is wrapped by key syntax errors so that callers (interpolation, hiera-semantics.md §6.3) can detect
// them with errors.Is and report Puppet's "Syntax error in string: ..." instead.
var errKeySyntax = errors.New("key syntax error")

// keyIntSeg is Puppet's test for an index segment. The optional ':' is a typo in Puppet's regexp
// that is kept on purpose (":1" is an Integer segment, and Ruby's to_i turns it into 0).
var keyIntSeg = regexp.MustCompile(`^:?[+-]?[0-9]+$`)

// keyH3IntSeg is Hiera 3's test: an all-digit segment is an Array index.
var keyH3IntSeg = regexp.MustCompile(`^[0-9]+$`)

// parseKey splits a lookup key into segments: strings, and int64 (or *big.Int) for unquoted
// segments that look like integers. A key without '.', '\” or '"' is one string segment, even
// "1" or "". Whitespace around segments is trimmed, whitespace inside quotes kept.
//
// The root segment always stays a string: Puppet converts a numeric root too and then crashes
// (`undefined method 'index' for 1:Integer`, case dot-numeric-root); keeping the text lets such a
// key simply look up the root key "1".
func parseKey(key string) ([]any, error) {
	if plainKey(key) {
		return []any{key}, nil
	}
	raw, ok := keyScan(key, true)
	if !ok {
		return nil, &model.Error{Message: "Syntax error in key: '" + key + "'", Key: key, Err: errKeySyntax}
	}
	segs := make([]any, len(raw))
	for i, s := range raw {
		s = strings.Trim(s, " \t\n\v\f\r\x00")
		switch {
		case strings.HasPrefix(s, `"`) || strings.HasPrefix(s, `'`):
			segs[i] = s[1 : len(s)-1]
		case i > 0 && keyRubyLineMatch(keyIntSeg, s):
			segs[i] = keyRubyToI(s)
		default:
			// Whitespace-only segments become "" as in Puppet (` h. .a` is not an error).
			segs[i] = s
		}
	}
	return segs, nil
}

// ParseKey splits a lookup key into the segments a lookup digs with, as Puppet does (strings, and
// int64 for array indexes), or returns Puppet's error for a key it cannot parse ("a..b").
func ParseKey(key string) ([]any, error) { return parseKey(key) }

// plainKey tells whether parseKey makes key one segment, itself.
func plainKey(key string) bool { return !strings.ContainsAny(key, `.'"`) }

// keyRoot returns the root key of parsed segments.
func keyRoot(segs []any) string {
	if len(segs) == 0 {
		return ""
	}
	s, _ := segs[0].(string)
	return s
}

// splitKey3 splits a key the Hiera 3 way (lib/hiera/util.rb split_key): the same grammar without
// whitespace trimming, quotes removed, no integer conversion.
func splitKey3(key string) ([]string, error) {
	if key == "" {
		return []string{""}, nil
	}
	segs, ok := keyScan(key, false)
	if !ok {
		return nil, &model.Error{Message: "Syntax error in key: " + key, Key: key, Err: errKeySyntax}
	}
	return segs, nil
}

// keyScan returns the raw segments of key, or ok=false for a syntax error. With h5 the quoted
// alternatives include surrounding whitespace and keep their quotes (Puppet strips both later);
// without it (Hiera 3) only the text between the quotes is returned.
func keyScan(key string, h5 bool) (segs []string, ok bool) {
	i := 0
	for {
		seg, n := keyMatchAt(key, i, h5)
		if n == 0 {
			return nil, false
		}
		segs = append(segs, seg)
		i += n
		if i == len(key) {
			return segs, true
		}
		if key[i] != '.' || i+1 == len(key) {
			return nil, false
		}
		i++
	}
}

// keyMatchAt tries the three alternatives of the split regexp at position i and returns the
// segment and the number of bytes consumed (0: no alternative matches here).
func keyMatchAt(key string, i int, h5 bool) (string, int) {
	for _, q := range []byte{'"', '\''} {
		j := i
		if h5 {
			j = keySkipSpace(key, j)
		}
		if j >= len(key) || key[j] != q {
			continue
		}
		k := strings.IndexByte(key[j+1:], q)
		if k <= 0 { // no closing quote, or nothing between the quotes
			continue
		}
		end := j + 1 + k + 1
		if !h5 {
			return key[j+1 : end-1], end - i
		}
		end = keySkipSpace(key, end)
		return key[i:end], end - i
	}
	j := i
	for j < len(key) && !strings.ContainsRune(`'".`, rune(key[j])) {
		j++
	}
	return key[i:j], j - i
}

// keySkipSpace skips Ruby's \s characters.
func keySkipSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\n\v\f\r", s[i]) >= 0 {
		i++
	}
	return i
}

// keyRubyLineMatch emulates Ruby's =~ with ^ and $, which match at every line boundary.
func keyRubyLineMatch(re *regexp.Regexp, s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// keyRubyToI is Ruby's String#to_i: leading whitespace, an optional sign, then digits (single
// underscores allowed between digits); anything else stops the scan, no digits gives 0.
func keyRubyToI(s string) any {
	i := keySkipSpace(s, 0)
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var digits []byte
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits = append(digits, c)
		} else if c == '_' && len(digits) > 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			continue
		} else {
			break
		}
	}
	if len(digits) == 0 {
		return int64(0)
	}
	n, _ := new(big.Int).SetString(string(digits), 10)
	if neg {
		n.Neg(n)
	}
	return model.NormInt(n)
}

// dig walks segs[1:] into v, the (merged) value of the root key (hiera-semantics.md §3.7, Puppet's
// SubLookup#sub_lookup). found=false when a segment is missing, an index is out of range or a nil
// is reached. Any other value that is not hash-like is an error with Puppet's text.
func dig(v any, segs []any, key string) (any, bool, error) {
	for _, seg := range segs[1:] {
		if v == nil {
			return nil, false, nil
		}
		switch t := v.(type) {
		case []any:
			switch i := seg.(type) {
			case int64:
				if i < 0 || i >= int64(len(t)) {
					return nil, false, nil
				}
				v = t[i]
				continue
			case *big.Int:
				return nil, false, nil // never a valid index
			}
		case *model.Hash:
			x, ok := t.Get(seg)
			if !ok {
				return nil, false, nil
			}
			v = x
			continue
		}
		// Puppet crashes for an Integer here (it has #[] but no #include?); we report the mismatch.
		return nil, false, &model.Error{Key: key, Message: fmt.Sprintf(
			"Data Provider type mismatch: Got %s when a hash-like object was expected to access value using '%v' from key '%s'",
			model.ClassName(v), seg, key)}
	}
	return v, true, nil
}

// dig3 is the Hiera 3 variant (hiera-semantics.md §8.2, Hiera::Backend#qualified_lookup): it splits key itself
// (no whitespace trimming), an all-digit segment requires an Array, any other segment a Hash.
func dig3(v any, key string) (any, bool, error) {
	segs, err := splitKey3(key)
	if err != nil {
		return nil, false, err
	}
	for _, seg := range segs[1:] {
		if v == nil {
			return nil, false, nil
		}
		if keyRubyLineMatch(keyH3IntSeg, seg) {
			idx := keyRubyToI(seg)
			arr, ok := v.([]any)
			if !ok {
				return nil, false, &model.Error{Key: key, Message: fmt.Sprintf(
					"Hiera type mismatch: Got %s when Array was expected to access value using '%v' from key '%s'",
					model.ClassName(v), idx, key)}
			}
			i, small := idx.(int64)
			if !small || i >= int64(len(arr)) {
				return nil, false, nil
			}
			v = arr[i]
			continue
		}
		h, ok := v.(*model.Hash)
		if !ok {
			return nil, false, &model.Error{Key: key, Message: fmt.Sprintf(
				"Hiera type mismatch: Got %s when a hash-like object was expected to access value using '%s' from key '%s'",
				model.ClassName(v), seg, key)}
		}
		if v, ok = h.Get(seg); !ok {
			return nil, false, nil
		}
	}
	return v, true, nil
}
