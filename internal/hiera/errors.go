package hiera

import (
	"fmt"
	"strings"
)

// Error is a lookup failure. Message is Puppet's wording where Puppet has one; the other fields say
// where it happened, when known, so that diagnostics can name the file, line, level and key.
type Error struct {
	Message string
	Key     string // the key being looked up
	File    string // the hiera.yaml or data file involved
	Line    int    // 1-based line in File, 0 when unknown
	Level   string // the hierarchy entry name
	Err     error  // an underlying error, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	var where []string
	if e.Level != "" {
		where = append(where, fmt.Sprintf("hierarchy level %q", e.Level))
	}
	if e.File != "" {
		if e.Line > 0 {
			where = append(where, fmt.Sprintf("file: %s, line: %d", e.File, e.Line))
		} else {
			where = append(where, "file: "+e.File)
		}
	}
	if len(where) > 0 {
		b.WriteString(" (" + strings.Join(where, ", ") + ")")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// errorf builds an *Error with a formatted message.
func errorf(format string, args ...any) *Error {
	return &Error{Message: fmt.Sprintf(format, args...)}
}
