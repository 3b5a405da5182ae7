package render

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Formats are the --render-as formats, as puppet lookup names them.
var Formats = []string{"s", "json", "yaml"}

// Render prints v in format (one of Formats) with the trailing line break puts adds.
func Render(v any, format string) ([]byte, error) {
	var out []byte
	switch format {
	case "json":
		js, err := datafile.MarshalJSON(v)
		if err != nil {
			return nil, err
		}
		out = rubyLineSeparators(js)
	case "yaml":
		out = YAML(v)
	case "s":
		out = []byte(model.ToS(v))
	default:
		return nil, fmt.Errorf("unknown rendering format '%s' (use %s)", format, strings.Join(Formats, ", "))
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return out, nil
}

// rubyLineSeparators writes U+2028 and U+2029 raw, as the json gem does (its script_safe is off),
// where Go's encoder escapes them. An escape is one only after an even run of backslashes.
func rubyLineSeparators(js []byte) []byte {
	if !bytes.Contains(js, []byte(`\u202`)) {
		return js
	}
	out := make([]byte, 0, len(js))
	for i := 0; i < len(js); i++ {
		if js[i] != '\\' {
			out = append(out, js[i])
			continue
		}
		if i+5 < len(js) && (string(js[i+1:i+6]) == "u2028" || string(js[i+1:i+6]) == "u2029") {
			out = append(out, "\u2028"...)
			if js[i+5] == '9' {
				out[len(out)-1] = 0xa9 // U+2029 is E2 80 A9
			}
			i += 5
			continue
		}
		out = append(out, js[i], js[i+1]) // any other escape, kept whole
		i++
	}
	return out
}
