package yamledit

import (
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// interpolationEscape is what "%{" is written as so that Hiera reads it without interpolating:
// the token %{literal('%')} gives "%", and the "{" after it is plain text, as the interpolation
// scan never looks again at text it has passed (hiera-semantics.md §6.5).
const interpolationEscape = "%{literal('%')}{"

// EscapeInterpolation returns the text that Hiera's interpolation turns back into s: every "%{"
// escaped. A "%" not followed by "{" needs nothing.
func EscapeInterpolation(s string) string {
	if !strings.Contains(s, "%{") {
		return s
	}
	return strings.ReplaceAll(s, "%{", interpolationEscape)
}

// emptyTokenEscape is "%{" written with an empty token between "%" and "{", which Hiera reads
// as nothing: the escape for values of the root key "%", where literal('%') would be a lookup of
// "%" inside "%" to Hiera's recursion guard ("Recursive lookup detected in [%]", a Puppet quirk,
// hiera-semantics.md §3.10).
const emptyTokenEscape = "%%{}{"

// escapeValue is v, the value of the root key key, with every "%{" in it escaped (in hash keys
// too: Hiera interpolates those as well). Plain Go maps become ordered hashes, their keys sorted.
func escapeValue(key string, v any) any {
	escape := EscapeInterpolation
	if key == "%" {
		escape = func(s string) string { return strings.ReplaceAll(s, "%{", emptyTokenEscape) }
	}
	return escapeWith(v, escape)
}

func escapeWith(v any, escape func(string) string) any {
	switch t := v.(type) {
	case string:
		return escape(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = escapeWith(e, escape)
		}
		return out
	case map[string]any, *model.Hash:
		h, _ := normalize(v).(*model.Hash) // a hash, normalized
		out := model.NewHash(h.Len())
		h.Each(func(k, val any) bool {
			out.Set(escapeWith(k, escape), escapeWith(val, escape))
			return true
		})
		return out
	}
	return v
}
