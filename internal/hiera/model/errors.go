package model

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
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
	// Hint follows where it happened, a sentence of what Puppet's message leaves out (the entry at
	// fault, the valid names, what to use instead). It is not Puppet's wording, nor part of Message.
	Hint string

	// ValueFree says the message names only keys, paths, types and limits, never a data value,
	// so it is shown in full even when the lookup touched a secret (see WithholdSecret).
	ValueFree bool
	// OfConfig marks a problem of hiera.yaml met while resolving its locations, which Puppet
	// reports before any lookup: no "Lookup of key 'lookup_options' failed" in front.
	OfConfig bool
	// OfDataFile marks a data file that cannot be read or parsed or holds no hash: a problem of the
	// file whatever key is looked up. Puppet puts "Lookup of key 'lookup_options' failed" in front
	// (its first read of the file is for lookup_options), which sends the user looking at
	// lookup_options; the message without it is still part of Puppet's.
	OfDataFile bool
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(CutMessage(e.Message))
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
	if e.Hint != "" {
		b.WriteString(". " + e.Hint)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// maxMessage bounds a message as shown: Puppet's messages quote whole values (a 20 MB value in
// "Unknown merge strategy: '...'"), and a node read shows one message per failing key.
const maxMessage = 2000

// CutMessage is msg with its middle left out past maxMessage bytes, at character boundaries: the
// start says what failed, the end where and what to do.
func CutMessage(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	head, tail := msg[:maxMessage/2], msg[len(msg)-maxMessage/4:]
	for !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	for !utf8.ValidString(tail) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s[... %d bytes left out ...]%s", head, len(msg)-len(head)-len(tail), tail)
}

// Errorf builds an *Error with a formatted message.
func Errorf(format string, args ...any) *Error {
	return &Error{Message: fmt.Sprintf(format, args...)}
}

// ValueFreef builds an *Error whose message quotes no data value (only keys, paths, types, limits).
func ValueFreef(format string, args ...any) *Error {
	return &Error{Message: fmt.Sprintf(format, args...), ValueFree: true}
}

// QuotesNoValue reports whether err is an *Error whose message quotes no data value, so that
// callers merging values that may be sensitive can show it.
func QuotesNoValue(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.ValueFree
}

// WithholdSecret replaces the message of an error raised in a lookup that touched a secret (an eyaml
// decryption or a convert_to Sensitive, possibly in a nested lookup): Puppet's messages quote the
// text or value they failed on, which may be the secret or derived from it. Where the error
// happened (key, level, file, line) is kept; value-free messages are kept whole.
func WithholdSecret(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{}
	}
	if e.ValueFree {
		return err
	}
	return &Error{
		Message: fmt.Sprintf("Lookup of key '%s' failed on a value derived from a secret (details withheld: the value is secret)", e.Key),
		Key:     e.Key, File: e.File, Line: e.Line, Level: e.Level, ValueFree: true,
	}
}
