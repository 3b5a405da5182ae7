package cli

// check against the Puppet code that reads the data (internal/classparams): keys that name no
// class parameter, values that do not match a parameter's declared type.

import (
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/classparams"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// checkKeys reports the keys of a data file that name no class parameter and no looked-up key of
// their module: a problem when a parameter's key is near (a typo), else a note (a problem with
// --strict).
func (c *checker) checkKeys(f hiera.DataFile, keys []string) {
	for _, key := range keys {
		unknown, near := c.code.UnknownKey(key)
		if !unknown {
			continue
		}
		line, _ := hiera.KeyLine(f.File, key)
		e := &model.Error{Message: classparams.UnknownKeyMessage(key), File: f.File, Line: line, Level: f.Level, ValueFree: true}
		switch {
		case len(near) > 0:
			e.Hint = fmt.Sprintf("Did you mean %s?", strings.Join(near, " or "))
			c.report(e, "", true)
		case c.strict:
			c.report(e, "", true)
		default:
			c.note(e)
		}
	}
}

// checkParam reports a node's value for a class parameter that does not match its declared type,
// at the value's file and line; a parameter whose type cannot be resolved, at the manifest's.
func (c *checker) checkParam(node string, a hiera.NodeAnswer) {
	switch e := c.code.Check(a); {
	case e == nil:
	case e.Key == "": // the code's problem, whatever the node
		c.report(e, "", false)
	default:
		c.report(e, node, true)
	}
}
