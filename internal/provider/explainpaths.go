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

// fileLine is a line of an explanation that names a file: the data file of a level (Path "...")
// or a layer's hiera.yaml (Using configuration "..."), the only lines whose quoted text is a path.
// Values are shown on lines of their own ("Found key: ... value: ..."), escaped to one line.
var fileLine = regexp.MustCompile(`(?m)^([ \t]*(?:Path|Using configuration) )("/(?:[^"\\]|\\.)*")$`)

// relativeExplanation is text with the absolute file each file line names made relative to base
// (an absolute directory); a path it cannot relate stays as it is, and so does every value.
func relativeExplanation(text, base string) string {
	return fileLine.ReplaceAllStringFunc(text, func(line string) string {
		m := fileLine.FindStringSubmatch(line)
		p, err := strconv.Unquote(m[2])
		if err != nil {
			return line
		}
		rel, err := filepath.Rel(base, p)
		if err != nil {
			return line
		}
		return m[1] + strconv.Quote(filepath.ToSlash(rel))
	})
}

// relativeBase is the directory that explanations and sources name files from: explainBase with
// explain_paths = "relative", "" for absolute paths.
func (pd *providerData) relativeBase(src dataSources) string {
	if pd.explainPaths != explainRelative {
		return ""
	}
	return explainBase(src)
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
