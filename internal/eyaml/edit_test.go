package eyaml

import (
	"strings"
	"testing"
)

// A value holding "]!" cannot be shown in the edit form: the gem's edit cuts it there and saves
// the cut value; NewEdit refuses, naming the line.
func TestNewEditRefusesWhatTheFormCannotHold(t *testing.T) {
	token, _ := encryptor(t, "public_key.pkcs7.pem").Encrypt([]byte("a ]! b"))
	_, err := ourKey(t).NewEdit("x: 1\ny: " + token + "\n")
	var e *Error
	if !asError(err, &e) || e.Line != 2 || strings.Contains(err.Error(), "a ]! b") {
		t.Errorf("got %v, want an error on line 2 without the value", err)
	}
}
