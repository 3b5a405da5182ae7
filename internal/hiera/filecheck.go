package hiera

// Checking data files without a node: what a lookup reaching a file fails on whatever the node.

import (
	"context"
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// FileCheck checks the data files Engine.DataFiles lists, one at a time (Check). It is used by
// one goroutine only.
type FileCheck struct {
	inv *invocation
	// secret are the lookup_options keys and patterns of any listed file that convert_to
	// Sensitive or are encrypted: a problem in such a key's value is reported without its text.
	secret []string
}

// NewFileCheck prepares the check of files (which it reads, for the keys whose values are secret).
func (e *Engine) NewFileCheck(ctx context.Context, files []DataFile) (*FileCheck, error) {
	inv, err := e.start(ctx, Request{})
	if err != nil {
		return nil, err
	}
	inv.withoutNode = true
	c := &FileCheck{inv: inv}
	for _, f := range files {
		df := c.read(f)
		opts, _ := rootValue(df, "lookup_options")
		if h, ok := opts.(*model.Hash); ok {
			h.Each(func(k, entry any) bool {
				if encryptedOptions(f, entry) {
					c.secret = append(c.secret, model.ToS(k))
				}
				if eh, ok := entry.(*model.Hash); ok {
					if to, _ := eh.Get("convert_to"); isSensitiveType(to) {
						c.secret = append(c.secret, model.ToS(k))
					}
				}
				return true
			})
		}
	}
	return c, nil
}

// encryptedOptions reports whether a lookup_options entry of the file is eyaml that its level's
// function decrypts.
func encryptedOptions(f DataFile, entry any) bool {
	return f.fn.Encrypted && hasEncToken(entry)
}

// read is a listed file as its level's function reads it, nil when it is gone.
func (c *FileCheck) read(f DataFile) *dataFile {
	defer c.inv.leave(c.inv.enter(f.layer))
	df, exists, _ := c.inv.data(f.File, f.fn)
	if !exists {
		return nil
	}
	return df
}

// Keys are the file's root keys in file order (lookup_options among them), none when it does not
// read (Check says why).
func (c *FileCheck) Keys(f DataFile) []string {
	df := c.read(f)
	if df == nil || df.err != nil || df.keys() == nil {
		return nil
	}
	var keys []string
	df.keys().Each(func(k, _ any) bool {
		if s, ok := k.(string); ok {
			keys = append(keys, s)
		}
		return true
	})
	return keys
}

// Check returns the problems a lookup reaching the file would meet whatever the node, each an
// *Error naming file, line and level: a file that does not parse or holds a value Puppet refuses;
// lookup_options that are not a hash, a module's lookup_options for keys not its own, a key's
// options that are not a hash, hold a merge Puppet rejects or a pattern that does not compile; an
// interpolation that fails without a node (its syntax, an unknown method, alias() inside a
// longer string, a key that does not parse). Values are not decrypted, nested lookups not made,
// facts not known (a reference to one is no problem). Warnings are Puppet's for the file (not a
// hash, a module's keys not qualified with its name).
func (c *FileCheck) Check(f DataFile) (problems []error, warnings []string) {
	defer func() {
		if r := recover(); r != nil {
			problems = append(problems, internalError(r, ""))
		}
	}()
	inv := c.inv
	defer inv.leave(inv.enter(f.layer))
	df := c.read(f)
	switch {
	case df == nil:
		return nil, nil
	case df.err != nil:
		return []error{withLevel(df.err, f.Level)}, nil
	case df.warning != "":
		warnings = append(warnings, df.warning)
	}
	if f.layer.place == hieraconfig.Module && f.fn.Kind == "data_hash" && !qualifiedKeys(df.keys(), f.Module) {
		warnings = append(warnings, fmt.Sprintf("Module '%s': Value returned from data_hash function '%s', when using location '%s', must use keys qualified with the name of the module", f.Module, f.fn.Name, f.File))
	}
	problems = append(problems, c.checkOptions(f, df)...)
	for _, k := range df.keys().Keys() {
		root, isStr := k.(string)
		if !isStr {
			continue // no lookup key names it
		}
		if err := c.checkValue(f, df, root); err != nil {
			problems = append(problems, err)
		}
		if err := inv.ctx.Err(); err != nil {
			return append(problems, err), warnings
		}
	}
	return problems, warnings
}

// checkValue checks one root key's value: readable, Puppet's data, interpolations that do not fail
// without a node.
func (c *FileCheck) checkValue(f DataFile, df *dataFile, root string) error {
	inv := c.inv
	v, _, badType, err := df.value(root)
	switch {
	case err != nil:
		return withLevel(&model.Error{Message: fmt.Sprintf("Unable to parse (%s): %v", f.File, err), File: f.File, ValueFree: true}, f.Level)
	case badType != "":
		return withLevel(atKey(richDataError(root, f.fn.Name, f.File, badType), root), f.Level)
	}
	inv.nameStack = inv.nameStack[:0]
	_, err = inv.interpolateValue(v)
	if err == nil {
		return nil
	}
	err = inv.interpolationError(err, f.Level, f.File, root)
	if root == "lookup_options" && f.layer.place == hieraconfig.Global {
		err = wrapOptionsError(err) // as a lookup reports it
	}
	if c.isSecret(root) {
		return model.WithholdSecret(withKey(err, root))
	}
	return withKey(err, root)
}

// isSecret reports whether some lookup_options entry makes root's value Sensitive.
func (c *FileCheck) isSecret(root string) bool {
	for _, k := range c.secret {
		if k == root {
			return true
		}
		if strings.HasPrefix(k, "^") {
			if re, err := compilePattern(k); err != nil || re.MatchString(root) {
				return true // a pattern that does not compile may have meant root
			}
		}
	}
	return false
}

// checkOptions checks a file's lookup_options as a lookup reaching it does: the layer's check
// (a hash; a module's own keys), then each entry (a hash, a merge Puppet takes, a pattern that
// compiles). Each problem is placed at its line.
func (c *FileCheck) checkOptions(f DataFile, df *dataFile) []error {
	v, found := rootValue(df, "lookup_options")
	if !found {
		return nil
	}
	// at places a problem of the entry key (or of lookup_options as a whole: "") as a lookup does
	at := func(err error, key, hint string) error {
		e, ok := err.(*model.Error)
		if !ok {
			e = &model.Error{Message: err.Error(), Err: err}
		}
		placed := *e
		placed.File, placed.Level, placed.Line, placed.Hint = f.File, f.Level, 0, hint
		return atKey(&placed, "lookup_options", key)
	}
	h, err := checkLayerOptions(v, f.Module)
	if err != nil {
		key := ""
		if vh, ok := v.(*model.Hash); ok {
			key = foreignOptionsKey(vh, f.Module)
		}
		return []error{at(err, key, foreignOptionsHint(key, f.Module))}
	}
	if h == nil {
		return nil
	}
	var problems []error
	h.Each(func(k, entry any) bool {
		key := model.ToS(k)
		if strings.HasPrefix(key, "^") {
			if _, err := compilePattern(key); err != nil {
				problems = append(problems, at(err, key, optionsEntryHint(key, err.Error())))
				return true
			}
		}
		if encryptedOptions(f, entry) {
			return true // what it holds is known once decrypted, by a lookup
		}
		if _, err := parseKeyOptions(key, entry); err != nil {
			problems = append(problems, at(err, key, optionsEntryHint(key, err.Error())))
		}
		return true
	})
	return problems
}
