package hiera

// Lines of data files in errors, found on error paths only: the file is read again.

import (
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// keyLine is the 1-based line of a value in a YAML or JSON data file, reached by its root key, then
// hash keys and array indexes (the deepest step found); 0 when the file does not read as YAML (HOCON).
func keyLine(file string, path ...any) int {
	text, err := boundedfile.Read(file, MaxDataFileSize)
	if err != nil {
		return 0
	}
	return datafile.SourceLine(text, path...)
}

// atKey gives an error about a value of its file the line of that value (path as keyLine takes
// it), when the error names a file and no line yet.
func atKey(err error, path ...any) error {
	e, ok := err.(*model.Error)
	if !ok || e.File == "" || e.Line > 0 {
		return err
	}
	if line := keyLine(e.File, path...); line > 0 {
		c := *e
		c.Line = line
		return &c
	}
	return err
}

// interpolationError places a failed interpolation of root's value read from file at level: the
// line of the string that failed (inv.errPath, filled as the error returned), unless the error
// names a file already (a nested lookup's value failed: its own file and line).
func (inv *invocation) interpolationError(err error, level, file, root string) error {
	path := inv.errPath
	inv.errPath = inv.errPath[:0]
	if e, ok := err.(*model.Error); ok && e.File != "" {
		return withLevel(err, level)
	}
	steps := make([]any, 0, len(path)+1)
	steps = append(steps, root)
	for i := len(path) - 1; i >= 0; i-- {
		steps = append(steps, path[i])
	}
	return atKey(withFile(err, level, file), steps...)
}

// KeyLine is the line of a lookup key's value in a YAML or JSON data file (a dotted key digs:
// "users.alice.uid", "ntp::servers.0"), and whether the file holds the whole key: when it does
// not, the line of the deepest part found (0 when none is, or the file does not read as YAML). It
// reads the file again: it is for reporting a problem (a value of the wrong type), not for lookups.
func KeyLine(file, key string) (line int, whole bool) {
	segs, err := parseKey(key)
	if err != nil {
		return 0, false
	}
	text, err := boundedfile.Read(file, MaxDataFileSize)
	if err != nil {
		return 0, false
	}
	return datafile.SourcePathLine(text, segs...)
}

// PlaceAt places a problem with key's value at the data file and line the value came from: the
// first of sources (most specific first) whose file holds the whole key, else the first without a
// line; a value several files merged says so in Hint. e itself is not changed.
func PlaceAt(e *model.Error, key string, sources []Source) *model.Error {
	if len(sources) == 0 {
		return e
	}
	placed := *e
	s, line := sources[0], 0
	for _, src := range sources {
		if l, whole := KeyLine(src.File, key); whole {
			s, line = src, l
			break
		}
	}
	placed.File, placed.Level, placed.Line = s.File, s.Level, line
	if len(sources) > 1 {
		placed.Hint = strings.TrimPrefix(placed.Hint+fmt.Sprintf("; the value merges %d files", len(sources)), "; ")
	}
	return &placed
}
