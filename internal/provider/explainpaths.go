package provider

import (
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// The provider's explain_paths: how explanation and sources name files. Absolute, as `puppet lookup
// --explain` prints them, or relative to the directory of the provider's hiera.yaml (else of its
// environment), so that the state is the same on every machine that checks the repository out,
// wherever.
const (
	explainAbsolute = "absolute"
	explainRelative = "relative"
)

var explainPathsValues = []string{explainAbsolute, explainRelative}

// quotedAbsPath is a quoted absolute path as explanations write them ("Path \"/srv/...\"").
var quotedAbsPath = regexp.MustCompile(`"(/(?:[^"\\]|\\.)*)"`)

// relativeExplanation is text with every quoted absolute path made relative to base (an absolute
// directory); a path it cannot relate stays as it is.
func relativeExplanation(text, base string) string {
	return quotedAbsPath.ReplaceAllStringFunc(text, func(quoted string) string {
		p, err := strconv.Unquote(quoted)
		if err != nil {
			return quoted
		}
		rel, err := filepath.Rel(base, p)
		if err != nil {
			return quoted
		}
		return strconv.Quote(filepath.ToSlash(rel))
	})
}

// explainBase is the directory relative explanations start from: the global hiera.yaml's, else
// the environment's; "" when neither is known.
func explainBase(src dataSources) string {
	dir := src.layers.Environment
	if src.config != "" {
		dir = filepath.Dir(src.config)
	}
	if dir == "" {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return abs
}

// relativeSources is sources with each absolute file made relative to base, in a new slice: the
// engine caches sources with its results.
func relativeSources(sources []hiera.Source, base string) []hiera.Source {
	out := make([]hiera.Source, len(sources))
	for i, src := range sources {
		if filepath.IsAbs(src.File) {
			if rel, err := filepath.Rel(base, src.File); err == nil {
				src.File = filepath.ToSlash(rel)
			}
		}
		out[i] = src
	}
	return out
}
