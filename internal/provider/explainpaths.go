package provider

import (
	"path/filepath"
	"regexp"
	"strconv"
)

// The provider's explain_paths: how an explanation names files. Absolute, as `puppet lookup
// --explain` prints them, or relative to the directory of the provider's hiera.yaml (else of its
// environment), so that the explanation in the state is the same on every machine that checks
// the repository out, wherever.
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
