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

// escapeValue is v with EscapeInterpolation applied to every string in it, hash keys included
// (Hiera interpolates those too). Plain Go maps become ordered hashes, their keys sorted.
func escapeValue(v any) any {
	switch t := v.(type) {
	case string:
		return EscapeInterpolation(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = escapeValue(e)
		}
		return out
	case map[string]any, *model.Hash:
		h, _ := normalize(v).(*model.Hash) // a hash, normalized
		out := model.NewHash(h.Len())
		h.Each(func(k, val any) bool {
			out.Set(escapeValue(k), escapeValue(val))
			return true
		})
		return out
	}
	return v
}
