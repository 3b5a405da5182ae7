package eyaml

import (
	"errors"
	"fmt"
	"strconv"
)

// Kind classifies an error so callers can react without matching message text.
type Kind int

const (
	KindUnknown           Kind = iota // not an *Error from this package
	KindKeyFile                       // key file missing or unreadable
	KindKeyNotPEM                     // key data is not PEM / has no private key block
	KindKeyNotRSA                     // key is valid but not RSA
	KindKeyEncrypted                  // key is passphrase-protected
	KindCertificate                   // certificate unreadable or not matching the key
	KindMalformedToken                // input is not an ENC[...] token
	KindBase64                        // token payload is not valid base64
	KindNotPKCS7                      // payload is not PKCS#7 EnvelopedData (bad ASN.1)
	KindWrongKey                      // encrypted for another key
	KindTampered                      // ciphertext damaged (bad padding / length)
	KindUnsupportedCipher             // cipher or key transport we do not implement
	KindGPG                           // ENC[GPG,...]
	KindUnknownScheme                 // ENC[FOO,...]
)

var kindNames = map[Kind]string{
	KindUnknown:           "unknown",
	KindKeyFile:           "key file",
	KindKeyNotPEM:         "key not PEM",
	KindKeyNotRSA:         "key not RSA",
	KindKeyEncrypted:      "key encrypted",
	KindCertificate:       "certificate",
	KindMalformedToken:    "malformed token",
	KindBase64:            "corrupt base64",
	KindNotPKCS7:          "not PKCS7",
	KindWrongKey:          "wrong key",
	KindTampered:          "tampered ciphertext",
	KindUnsupportedCipher: "unsupported cipher",
	KindGPG:               "GPG not supported",
	KindUnknownScheme:     "unknown scheme",
}

func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is the only error type returned by this package. Messages never
// contain plaintext or key material, so they are safe to show to users.
type Error struct {
	Kind Kind
	Msg  string
	Err  error // underlying cause, if any (never carries secrets)
	Line int   // the line of a file's text the error is about; 0 when not about one
}

func (e *Error) Error() string {
	return "eyaml: " + e.Detail()
}

// Detail is the message without the "eyaml: " prefix: the line, the message and the cause.
func (e *Error) Detail() string {
	s := e.Msg
	if e.Line > 0 {
		s = "line " + strconv.Itoa(e.Line) + ": " + s
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Detail is err's message without the "eyaml: " prefix when err is from this package (for a
// message that already says it is about eyaml), else err's message.
func Detail(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Detail()
	}
	return err.Error()
}

// KindOf returns the Kind of err, or KindUnknown if err is not from this package.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindUnknown
}

func newErr(k Kind, cause error, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...), Err: cause}
}
