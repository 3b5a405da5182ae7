package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/render"
)

const diffSynopsis = `diff [flags]

Compares two nodes as the node command answers them: the keys one side has and the other not, and
the keys whose values differ, each with the data file that gave each side its value. A flag given
twice gives each side its value (two --facts: two nodes; two --environment: two environments; two
--environmentpath, --environment-dir or --config: two checkouts); a flag given once applies to both. --git-rev given
twice compares two revisions of the git repository the data paths lie in, as committed (read with
git into a temporary directory, removed after; the checkout is not touched; facts are read where
they are).

With --facts DIR, a directory of facts files (one node per file, as hiera_nodes' facts_dir), every
node is compared between the two sides, and the changes are grouped by key (a hash's subkeys
dotted), then by distinct change, with how many nodes each reaches and which: a table, JSON, or
Markdown for a pull-request comment. A node that cannot be read on a side is listed apart with
why; so is a key whose lookup fails (a key failing alike on both sides is no change).

Exits 0 when the sides agree, 1 when they differ, 2 when they cannot be compared (or a node
could not be read). Secrets are compared, never shown (--reveal shows a fleet's). Without the
eyaml private key (none given, and hiera.yaml's not there), secrets are compared by their
ciphertext: the same is no change, another is "(secret changed, no key to compare)". A key
rotation: --eyaml-private-key twice, the old key for the first side, the new for the second.`

const diffExample = `  hieraform diff --environment production --facts facts/web01.json --facts facts/web02.json
  hieraform diff --git-rev origin/main --git-rev HEAD --environment production --facts facts/web01.json
  hieraform diff --environmentpath main/environments --environmentpath branch/environments --environment production --facts web01.json
  # an r10k control repository (the repository is the environment), from its root
  hieraform diff --git-rev origin/main --git-rev HEAD --environment-dir . --environment production --facts facts/ --render-as markdown`

// keyChange is one key that differs between the sides.
type keyChange struct {
	key, change string // change: added, removed, changed
	left, right *hiera.Result
}

// opaque says the change is a secret's seen by its ciphertext only (no eyaml private key): the
// same secret encrypted again is another ciphertext. A secret against plain data shows as any change.
func (c keyChange) opaque() bool {
	return c.change == "changed" && c.left.Sensitive && c.right.Sensitive && // secrets, not plain data holding "ENC["
		(hiera.Undecrypted(c.left.Value) || hiera.Undecrypted(c.right.Value))
}

func runDiff(args []string, env Env) int {
	fs := newFlagSet("diff", diffSynopsis, diffExample, env)
	var src sourceFlags
	src.register(fs, env)
	var keys, prefixes, revs stringList
	fs.Var(&keys, "keys", "only these `keys`, separated by commas (the flag may be repeated)")
	fs.Var(&prefixes, "prefix", "only keys starting with this `prefix` (the flag may be repeated)")
	fs.Var(&revs, "git-rev", "a git `revision` (given twice: the two sides): the data as committed there, read with git "+
		"from the repository the data paths lie in (facts are read from where they are)")
	renderAs := fs.String("render-as", "table", "the output `format`: table, json, or markdown (a pull-request comment; a fleet only)")
	reveal := fs.Bool("reveal", false, "show secrets' values in a fleet's changes (default: \"(secret changed)\")")
	rest, err := parseArgs(fs, args)
	if errors.Is(err, errHelp) {
		return exitOK
	}
	fail := env.failer("Error: ", exitFailure)
	switch {
	case err != nil:
		return fail(err)
	case len(rest) > 0:
		return fail(fmt.Errorf("diff takes no arguments (got %q)", rest[0]))
	case *renderAs != "table" && *renderAs != "json" && *renderAs != "markdown":
		return fail(fmt.Errorf("diff renders --render-as table, json or markdown, not %q", *renderAs))
	}
	var req hiera.NodeRequest
	for _, k := range keys {
		req.Keys = append(req.Keys, strings.Split(k, ",")...)
	}
	req.Prefixes = prefixes
	source, err := fleetSource(&src)
	if err != nil {
		return fail(err)
	}
	ctx := context.Background()
	if len(revs) > 0 {
		// The revisions' trees are temporary: an interrupt, a kill or a hangup cancels the diff so
		// that they are removed as on any end (as eyaml edit removes its file); a second one ends
		// it at once.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		defer stop()
		context.AfterFunc(ctx, stop)
	}
	setups, trees, err := diffSides(ctx, &src, revs)
	for _, t := range trees {
		defer t.remove()
	}
	afterRevisionsRead(ctx)
	if err = cmp.Or(interrupted(ctx), err); err != nil {
		return fail(err)
	}
	for i := range setups {
		setups[i].eyaml.Ciphertext = true // without the private key, secrets compare by ciphertext
	}
	if source != nil {
		return runFleetDiff(ctx, env, setups, source, req, *renderAs, *reveal)
	}
	if *renderAs == "markdown" || *reveal {
		return fail(errors.New("--render-as markdown and --reveal are for a fleet: give --facts DIR, a directory of facts files"))
	}
	var sides [2]nodeAnswers
	for i := range sides {
		if sides[i], err = lookupNode(setups[i], req, env); err != nil {
			return fail(&reworded{setups[i].shown(err.Error()), []error{err}})
		}
		if failed := sides[i].failed; len(failed) > 0 { // a key that cannot be compared: no diff shown as complete
			return fail(&reworded{fmt.Sprintf("the lookups of %d keys of %s failed:%s", len(failed), setups[i].describe(), keyList(failed)), sides[i].failedErrs})
		}
	}
	changes := compareNodes(sides[0], sides[1])
	if *renderAs == "json" {
		out, err := render.Render(changesHash(changes, setups), "json")
		if err != nil {
			return fail(err)
		}
		_, _ = env.Stdout.Write(out)
	} else {
		writeTable(env, changes, setups)
	}
	if len(changes) > 0 {
		return exitAnswer
	}
	return exitOK
}

// diffSides are the two sides the flags give: --git-rev twice (each revision's tree), or flags
// given twice. The trees read are the caller's to remove, also when err is set.
func diffSides(ctx context.Context, src *sourceFlags, revs stringList) (setups [2]setup, trees []*revisionTree, err error) {
	switch len(revs) {
	case 0:
	case 2:
		return revisionSides(ctx, src, revs)
	default:
		return setups, nil, fmt.Errorf("--git-rev is given %d times: give it twice, the revision of each side (--git-rev origin/main --git-rev HEAD)", len(revs))
	}
	twice := false
	for _, l := range []stringList{src.config, src.environment, src.environmentDir, src.environmentpath, src.modulepath, src.facts, src.node} {
		twice = twice || len(l) == 2
	}
	if !twice {
		return setups, nil, errors.New("nothing to compare: give --git-rev twice, or --facts, --environment, --environment-dir, --environmentpath, --config, --modulepath or --node twice, once per side")
	}
	for i := range setups {
		if setups[i], err = src.side(i, 2); err != nil {
			return setups, nil, err
		}
	}
	return setups, nil, nil
}

// afterRevisionsRead is called once the sides are read (a test interrupts the diff there).
var afterRevisionsRead = func(context.Context) {}

// interrupted is the error of a diff a signal cancelled, nil while it runs.
func interrupted(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return errors.New("interrupted: nothing compared, the temporary trees removed")
}

// compareNodes lists the keys that differ: the left side's order, then keys only the right has.
func compareNodes(left, right nodeAnswers) []keyChange {
	rightByKey := map[string]*hiera.Result{}
	for i := range right.found {
		rightByKey[right.found[i].Key] = &right.found[i].Result
	}
	var changes []keyChange
	seen := map[string]bool{}
	for i := range left.found {
		a := &left.found[i]
		seen[a.Key] = true
		r, ok := rightByKey[a.Key]
		switch {
		case !ok:
			changes = append(changes, keyChange{key: a.Key, change: "removed", left: &a.Result})
		case a.Result.Sensitive != r.Sensitive || !model.Equal(a.Result.Value, r.Value):
			changes = append(changes, keyChange{key: a.Key, change: "changed", left: &a.Result, right: r})
		}
	}
	for i := range right.found {
		if a := &right.found[i]; !seen[a.Key] {
			changes = append(changes, keyChange{key: a.Key, change: "added", right: &a.Result})
		}
	}
	return changes
}

// sideJSON is one side of a change: its value (a secret redacted) and the file that gave it.
func sideJSON(r *hiera.Result, st setup) any {
	if r == nil {
		return nil
	}
	h := model.NewHash(2)
	h.Set("value", shownValue(*r))
	h.Set("file", sourceFile(r, st))
	return h
}

// sourceFile is the file that gave r its value, the most specific one of a merge, as the user
// knows it (st.shown).
func sourceFile(r *hiera.Result, st setup) string {
	if r == nil || len(r.Sources) == 0 {
		return ""
	}
	return st.shown(r.Sources[0].File)
}

// sourceCell is the table's source of row key (a key, or a subkey of a changed hash) on one side:
// the most specific file of r's sources that holds the whole key (a subkey of a merged hash may
// come from a less specific file than the hash's first), else the first, shown relative to the
// side's data (tablePath); "-" for none, and how many more files a merge read.
func sourceCell(r *hiera.Result, st setup, key string) string {
	if r == nil || len(r.Sources) == 0 {
		return "-"
	}
	file := r.Sources[0].File
	if len(r.Sources) > 1 {
		for _, s := range r.Sources {
			if _, whole := hiera.KeyLine(s.File, key); whole {
				file = s.File
				break
			}
		}
	}
	f := st.tablePath(st.shown(file))
	if len(r.Sources) > 1 {
		return fmt.Sprintf("%s (+%d more)", f, len(r.Sources)-1)
	}
	return f
}

// tablePath is a data file as the table shows it: relative to the side's data, its environment
// directory, else its hiera.yaml's directory, which the table's header names (the JSON keeps the
// whole path); as it is when it lies elsewhere (a module outside the environment, a revision's).
func (st setup) tablePath(file string) string {
	root := filepath.Dir(st.config)
	if st.environment != "" || st.envDir != "" {
		root = st.environmentDir()
	}
	if st.config == "" && st.environment == "" && st.envDir == "" {
		return file
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return file
	}
	if rel, err := filepath.Rel(abs, file); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && filepath.IsAbs(file) {
		return rel
	}
	return file
}

func changesHash(changes []keyChange, setups [2]setup) *model.Hash {
	list := make([]any, len(changes))
	for i, c := range changes {
		h := model.NewHash(4)
		h.Set("key", c.key)
		h.Set("change", c.change)
		if c.opaque() {
			h.Set("ciphertext", true) // compared by ciphertext: no eyaml private key
		}
		h.Set("left", sideJSON(c.left, setups[0]))
		h.Set("right", sideJSON(c.right, setups[1]))
		list[i] = h
	}
	out := model.NewHash(3)
	out.Set("left", setups[0].describe())
	out.Set("right", setups[1].describe())
	out.Set("changes", list)
	return out
}

// writeTable writes the changes for people: one row per key (a changed hash: per subkey that
// differs), values as puppet lookup --render-as s.
func writeTable(env Env, changes []keyChange, setups [2]setup) {
	if len(changes) == 0 {
		_, _ = fmt.Fprintf(env.Stdout, "no differences between %s and %s\n", setups[0].describe(), setups[1].describe())
		return
	}
	_, _ = fmt.Fprintf(env.Stdout, "left:  %s\nright: %s\n\n", setups[0].describe(), setups[1].describe())
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	_, _ = fmt.Fprintln(tw, "CHANGE\tKEY\tLEFT\tLEFT FROM\tRIGHT\tRIGHT FROM")
	for _, c := range changes {
		for _, r := range tableRows(c) {
			_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.change, r.key, r.left, sourceCell(c.left, setups[0], r.key), r.right, sourceCell(c.right, setups[1], r.key))
		}
	}
	_ = tw.Flush()
	_, _ = fmt.Fprintf(env.Stdout, "\n%d keys differ\n", len(changes))
}

// tableRow is one row of the table: a key or one subkey of a changed hash, its two sides shown.
type tableRow struct{ change, key, left, right string }

// maxSubkeyRows bounds the rows one changed hash gives; the rest are counted in one more row.
const maxSubkeyRows = 20

// tableRows are c's rows: a changed hash whose sides are not secret as the subkeys that differ,
// dotted as a lookup takes them (ntp::config.maxpoll), so that a change deep in a long value
// shows; anything else as one row.
func tableRows(c keyChange) []tableRow {
	if c.change == "changed" && !c.left.Sensitive && !c.right.Sensitive {
		var rows []tableRow
		for _, vc := range valueChanges(c.key, c.left.Value, c.right.Value) {
			rows = append(rows, tableRow{vc.kind(), vc.key, vc.cell(vc.old, vc.hasOld), vc.cell(vc.new, vc.hasNew)})
		}
		if n := len(rows) - maxSubkeyRows; n > 0 {
			rows = append(rows[:maxSubkeyRows], tableRow{change: "changed", key: c.key + ".*",
				left: fmt.Sprintf("%d more subkeys differ (--render-as json shows the whole values)", n), right: ""})
		}
		return rows
	}
	left, right := "-", "-"
	if c.left != nil {
		left = cell(shownValue(*c.left))
	}
	if c.right != nil {
		right = cell(shownValue(*c.right))
	}
	if c.opaque() {
		right = secretChange(valueChange{opaque: true})
	}
	return []tableRow{{c.change, c.key, left, right}}
}

// valueChange is a key or subkey whose value differs: its old value (hasOld: it had one) and its
// new one (hasNew).
type valueChange struct {
	key            string
	old, new       any
	hasOld, hasNew bool
	// opaque is a secret's change seen by its ciphertext only (no eyaml private key): another
	// ciphertext may hold the same plaintext.
	opaque bool
}

// kind is added, removed or changed.
func (vc valueChange) kind() string {
	switch {
	case !vc.hasOld:
		return "added"
	case !vc.hasNew:
		return "removed"
	}
	return "changed"
}

// cell is one side of vc in a table: the value, or "-" when the side has none.
func (valueChange) cell(v any, has bool) string {
	if !has {
		return "-"
	}
	return cell(v)
}

// valueChanges are the changes from l to r, two values that differ: when both are hashes, the
// subkeys that differ, dotted as a lookup takes them (key.a.b), recursively; a hash one of whose
// keys no dotted key can name, or anything else, whole.
func valueChanges(key string, l, r any) []valueChange {
	var out []valueChange
	subkeyChanges(key, l, r, &out)
	return out
}

func subkeyChanges(key string, l, r any, out *[]valueChange) {
	lh, lok := l.(*model.Hash)
	rh, rok := r.(*model.Hash)
	segments := map[any]string{}
	if !lok || !rok || !dottable(lh, segments) || !dottable(rh, segments) {
		*out = append(*out, valueChange{key: key, old: l, new: r, hasOld: true, hasNew: true})
		return
	}
	lh.Each(func(k, lv any) bool {
		sub := key + "." + segments[k]
		switch rv, ok := rh.Get(k); {
		case !ok:
			*out = append(*out, valueChange{key: sub, old: lv, hasOld: true})
		case !model.Equal(lv, rv):
			subkeyChanges(sub, lv, rv, out)
		}
		return true
	})
	rh.Each(func(k, rv any) bool {
		if _, ok := lh.Get(k); !ok {
			*out = append(*out, valueChange{key: key + "." + segments[k], new: rv, hasNew: true})
		}
		return true
	})
}

// dottable says whether every key of h can be a segment of a dotted lookup key, and puts each
// one's segment in segments.
func dottable(h *model.Hash, segments map[any]string) bool {
	ok := true
	h.Each(func(k, _ any) bool {
		var seg string
		if seg, ok = keySegment(k); ok {
			segments[k] = seg
		}
		return ok
	})
	return ok
}

// keySegment is a hash key as a segment of a dotted lookup key: as it is, else quoted one way or
// the other, whichever a lookup reads back as the key (ok is false when none does: an empty key,
// one holding a dot and both quotes, a float).
func keySegment(k any) (segment string, ok bool) {
	text := model.ToS(k)
	for _, candidate := range []string{text, "'" + text + "'", `"` + text + `"`} {
		segs, err := hiera.ParseKey("k." + candidate)
		if err == nil && len(segs) == 2 && model.Equal(segs[1], k) {
			return candidate, true
		}
	}
	return "", false
}

// cell is a value in a table cell: as puppet lookup --render-as s prints it, on one line (control
// characters escaped), shortened.
// maxCellRunes bounds a value in the table, so that a row fits a wide terminal (--render-as json
// shows the whole values).
const maxCellRunes = 30

func cell(v any) string {
	s := model.ToS(v)
	if v == nil {
		s = "nil"
	}
	if r := []rune(s); len(r) > maxCellRunes {
		s = string(r[:maxCellRunes-3]) + "..."
	}
	return escapeControl(s)
}
