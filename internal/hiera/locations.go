package hiera

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/glob"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// location is one concrete file (or URI) a hierarchy entry resolves to for the current scope.
type location struct {
	path     string // absolute path (or the URI)
	original string // as written in hiera.yaml
	uri      bool
}

// locations resolves an entry's paths for the invocation's scope: interpolation (variables only),
// the datadir, globs and mapped_paths. A path built from a variable may not leave the directory
// its literal part names, so facts cannot point a lookup at arbitrary files.
func (inv *invocation) locations(e *entry) ([]location, error) {
	key, cacheable := inv.locationKey(e)
	if cacheable {
		if cached, ok := inv.cfg.locCache.Load(key); ok {
			if locs, isLocs := cached.([]location); isLocs { // always: only []location is stored
				return locs, nil
			}
		}
	}
	out, err := inv.resolveLocations(e)
	if err != nil {
		if ce, ok := err.(*model.Error); ok {
			c := *ce
			c.OfConfig = true
			return nil, &c
		}
		return nil, err
	}
	// Puppet resolves the locations (bad URI, ...) before it calls the function, which then checks
	// its options.
	if err := inv.cfg.CheckLocations(e); err != nil {
		return nil, err
	}
	if cacheable {
		inv.cfg.locCache.Store(key, out)
	}
	return out, nil
}

// locationKey identifies an entry's plain paths by their interpolated text, so that resolving
// them (joining, confinement checks) happens once per distinct scope. Globs and mapped_paths
// depend on more than that and are resolved every time.
func (inv *invocation) locationKey(e *entry) (string, bool) {
	if inv.cfg.V3 != nil || (e.LocKind != "path" && e.LocKind != "paths") {
		return "", false
	}
	b := make([]byte, 0, 128)
	b = append(b, e.Name...)
	for i := -1; i < len(e.Locs); i++ {
		tpl := e.Datadir
		if i >= 0 {
			tpl = e.Locs[i]
		}
		text, ok := inv.fastInterpolatePath(tpl)
		if !ok {
			return "", false
		}
		b = append(append(b, 0), text...)
	}
	return string(b), true
}

func (inv *invocation) resolveLocations(e *entry) ([]location, error) {
	datadir, err := inv.resolveDir(e, e.Datadir, inv.cfg.Dir)
	if err != nil {
		return nil, err
	}
	var out []location
	switch e.LocKind {
	case "path", "paths":
		for _, p := range e.Locs {
			if inv.cfg.V3 != nil {
				// Hiera 3 skips a source that interpolation left empty or malformed
				text, err := inv.interpolatePath(e, p)
				if err != nil {
					return nil, err
				}
				item := strings.TrimSuffix(text, filepath.Ext(text))
				if item == "" || strings.HasPrefix(item, "/") || strings.HasSuffix(item, "/") || strings.Contains(item, "//") {
					continue
				}
			}
			full, err := inv.resolveFile(e, p, datadir)
			if err != nil {
				return nil, err
			}
			out = append(out, location{path: full, original: p})
		}
	case "glob", "globs":
		for _, g := range e.Locs {
			text, err := inv.interpolatePath(e, g)
			if err != nil {
				return nil, err
			}
			pattern := joinPath(datadir, text)
			root := inv.confineRoot(g, datadir)
			matches, err := glob.Expand(pattern, root)
			if err != nil {
				return nil, &model.Error{Message: interpolatedPathError("glob", g, text != g, root, err), Level: e.Name, File: inv.cfg.Path}
			}
			for _, m := range matches {
				out = append(out, location{path: m, original: g})
			}
		}
	case "mapped_paths":
		return inv.mappedLocations(e, datadir)
	case "uri", "uris":
		for _, u := range e.Locs {
			text, err := inv.interpolatePath(e, u)
			if err != nil {
				return nil, err
			}
			if _, err := url.Parse(text); err != nil || strings.ContainsAny(text, " \t\n") {
				return nil, &model.Error{Message: fmt.Sprintf("bad URI(is not URI?): %q", text), Level: e.Name, File: inv.cfg.Path}
			}
			out = append(out, location{path: text, original: u, uri: true})
		}
	}
	return out, nil
}

func (inv *invocation) mappedLocations(e *entry, datadir string) ([]location, error) {
	source, name, template := e.Locs[0], e.Locs[1], e.Locs[2]
	v, err := inv.scopeValue(source, "mapped_paths")
	if err != nil {
		return nil, withFile(err, e.Name, inv.cfg.Path)
	}
	var elems []any
	switch t := v.(type) {
	case nil:
	case string:
		elems = []any{t}
	case []any:
		elems = t
	case *model.Hash:
		t.Each(func(k, val any) bool { elems = append(elems, []any{k, val}); return true })
	default:
		elems = []any{t}
	}
	var out []location
	saved := inv.scope
	defer func() { inv.scope = saved }()
	for _, el := range elems {
		inv.scope = saved.withLocal(name, el)
		full, err := inv.resolveFile(e, template, datadir)
		if err != nil {
			return nil, err
		}
		out = append(out, location{path: full, original: template})
	}
	return out, nil
}

// resolveDir interpolates a datadir and joins it to base.
func (inv *invocation) resolveDir(e *entry, dir, base string) (string, error) {
	text, err := inv.interpolatePath(e, dir)
	if err != nil {
		return "", err
	}
	return inv.confine(e, dir, joinPath(base, text), base)
}

// resolveFile interpolates a path template and joins it to the datadir.
func (inv *invocation) resolveFile(e *entry, template, datadir string) (string, error) {
	text, err := inv.interpolatePath(e, template)
	if err != nil {
		return "", err
	}
	return inv.confine(e, template, joinPath(datadir, text), datadir)
}

// confine checks that a path whose template interpolates variables stays below the directory
// named by the template's literal part, and that a module's paths stay in the module.
func (inv *invocation) confine(e *entry, template, full, base string) (string, error) {
	root := inv.confineRoot(template, base)
	if root == "/" {
		return full, nil
	}
	p, err := glob.Confine(full, root)
	if err != nil {
		return "", &model.Error{Message: interpolatedPathError("hierarchy path", template, true, root, err), Level: e.Name, File: inv.cfg.Path}
	}
	return p, nil
}

// interpolatedPathError words a path or glob that cannot be used. When variables were interpolated
// into it, it names the template and the directory it may not leave, never the resolved path: a
// variable may hold a secret (Terraform passes no sensitivity marks to providers).
func interpolatedPathError(what, template string, interpolated bool, root string, err error) string {
	var ge *glob.Error
	if !interpolated || !errors.As(err, &ge) {
		return err.Error()
	}
	reason := ge.Reason
	switch {
	case ge.Link:
		reason = fmt.Sprintf("leads through a symbolic link outside %s", root)
	case strings.HasPrefix(ge.Subject, "path "): // a resolved path or a match
		reason = fmt.Sprintf("leads outside %s", root)
	}
	return fmt.Sprintf("%s %q %s once interpolated (the interpolated values are not shown)", what, template, reason)
}

// confineRoot is the directory a template's path may not leave: the template's own (see
// confineRoot), narrowed to the module's directory in a module layer.
func (inv *invocation) confineRoot(template, base string) string {
	root := confineRoot(template, base)
	if m := inv.layer.confineTo; m != "" && !glob.Within(filepath.Clean(root), m) {
		return m
	}
	return root
}

// confineRoot is the directory a template may not leave: "/" (no limit) for a literal template,
// else the literal directory part before the first interpolation, joined to base.
func confineRoot(template, base string) string {
	i := strings.Index(template, "%{")
	if i < 0 {
		return "/"
	}
	prefix := template[:i]
	prefix = prefix[:strings.LastIndex(prefix, "/")+1]
	return joinPath(base, prefix)
}

// joinPath is Ruby's Pathname join: an absolute p replaces base.
func joinPath(base, p string) string {
	if isAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// interpolatePath interpolates variables (not functions) in a hiera.yaml string. A NUL byte in the
// result (from a fact) is an error: Ruby raises "pathname contains null byte" (a Puppet crash).
func (inv *invocation) interpolatePath(e *entry, s string) (string, error) {
	text, err := inv.interpolatePathText(e, s)
	if err == nil && strings.IndexByte(text, 0) >= 0 {
		return "", &model.Error{Message: fmt.Sprintf("hierarchy path %q contains a NUL byte once interpolated (a fact holds one)", s), Level: e.Name, File: inv.cfg.Path}
	}
	return text, err
}

func (inv *invocation) interpolatePathText(e *entry, s string) (string, error) {
	if text, ok := inv.fastInterpolatePath(s); ok {
		return text, nil
	}
	ex, stack := inv.ex, inv.nameStack
	inv.ex = nil // explain shows the resolved path, not how it was built
	// Puppet interpolates hiera.yaml with a recursion guard of its own (a fresh invocation)
	inv.nameStack = nil
	v, err := inv.interpolateString(s, false)
	inv.ex, inv.nameStack = ex, stack
	if err != nil {
		if ie, ok := err.(*model.Error); ok && ie.File == "" {
			c := *ie
			c.File = inv.cfg.Path
			c.Level = e.Name
			return "", &c
		}
		return "", err
	}
	return model.ToS(v), nil
}

// isAbs reports whether a path as written is absolute.
func isAbs(p string) bool { return strings.HasPrefix(p, "/") || filepath.IsAbs(p) }
