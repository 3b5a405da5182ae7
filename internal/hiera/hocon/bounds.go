package hocon

import "fmt"

// work counts what one Parse does after reading the text — values resolved, copied, merged and
// compared, and the text that concatenations build — each against its limit. A reference is
// resolved again each time it is met (as in the gem), so a small file could otherwise buy
// exponential time, or gigabytes of text from a few lines of `${a}${a}`.
type work struct {
	steps, stepLimit int
	text, textLimit  int
	tokens           int // read in the file and the files it includes
}

// spend counts n units of work: a value resolved, or one entry of a value copied, merged or
// compared.
func (w *work) spend(n int) error {
	w.steps += n
	if w.steps > w.stepLimit {
		return &Error{Msg: fmt.Sprintf("substitutions and merges take more than %d resolution steps (values resolved, copied, merged or compared)", w.stepLimit)}
	}
	return nil
}

// build counts n bytes of text a concatenation makes.
func (w *work) build(n int) error {
	w.text += n
	if w.text > w.textLimit {
		return &Error{Msg: fmt.Sprintf("concatenations and substitutions build more than %d bytes of text", w.textLimit)}
	}
	return nil
}
