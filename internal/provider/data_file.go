package provider

// hiera_data's file: read (refused when it is not a regular YAML file within the data files'
// bound), edited key by key with internal/yamledit, written with internal/atomicfile under the
// file's lock, so that several resources on one file in one apply take turns.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/atomicfile"
	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/yamledit"
)

// dataFile is one data file as hiera_data finds it.
type dataFile struct {
	name   string // as the configuration gives it, for messages
	abs    string
	exists bool
	mode   fs.FileMode
	edit   *yamledit.File
	values *model.Hash // the root keys' values as the engine reads them (before interpolation); nil when none
	// unterminated: the file's last line has no line break (an edit adds one: destroy takes it away)
	unterminated bool
}

// openDataFile reads the file at name (relative to the working directory). A file that does not
// exist is an empty one, exists false. Refused: a symbolic link, anything but a regular file, a
// file over the data files' bound, a file that does not parse, a root that is not a hash.
func openDataFile(name string) (*dataFile, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve the path %q: %w", name, err)
	}
	f := &dataFile{name: name, abs: abs, mode: 0o644}
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.edit, err = yamledit.Parse(name, nil)
		return f, err
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %w", name, unwrapPathError(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s is a symbolic link: hiera_data writes regular files only (give the path of the file it leads to)", name)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%s): hiera_data writes regular files only", name, fi.Mode().Type())
	case fi.Size() > hiera.MaxDataFileSize:
		return nil, fmt.Errorf("%s is %d bytes, more than the data files' limit of %d: hiera_data does not edit it", name, fi.Size(), hiera.MaxDataFileSize)
	}
	f.exists, f.mode = true, fi.Mode().Perm()
	src, err := boundedfile.Read(abs, hiera.MaxDataFileSize)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, unwrapPathError(err))
	}
	if f.edit, err = yamledit.Parse(name, src); err != nil {
		return nil, err // names the file and line
	}
	f.unterminated = len(src) > 0 && src[len(src)-1] != '\n'
	root, _, err := datafile.ParseYAML(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch t := root.(type) {
	case nil:
	case *model.Hash:
		f.values = t
	default:
		return nil, fmt.Errorf("%s holds %s, not a hash of keys: hiera_data edits data files whose root is a hash", name, model.TypeName(root))
	}
	return f, nil
}

// openDataFileLocked is openDataFile under the file's lock, to read it between two writes.
func openDataFileLocked(name string) (*dataFile, error) {
	unlock, err := atomicfile.Lock(name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return openDataFile(name)
}

// unwrapPathError is an os error without the absolute path it names (messages name the given one).
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// value is a root key's value in the file.
func (f *dataFile) value(key string) (any, bool) {
	if f.values == nil {
		return nil, false
	}
	return f.values.Get(key)
}

// where is "FILE line N" for a key the file holds.
func (f *dataFile) where(key string) string {
	if line, ok := f.edit.Line(key); ok {
		return fmt.Sprintf("%s line %d", f.name, line)
	}
	return f.name
}

// digests are the SHA-256 of each secret key's value as the file holds it; a key it does not
// hold has none.
func (f *dataFile) digests(keys []string) map[string]string {
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		if v, ok := f.value(k); ok {
			s, isString := v.(string)
			if !isString {
				s = model.Inspect(v)
			}
			out[k] = digest(s)
		}
	}
	return out
}

func digest(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// imported is the whole file as an import takes it: the plain keys as values, the eyaml values'
// keys as secrets.
func (f *dataFile) imported() (types.Dynamic, []string, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := map[string]tftypes.Value{}
	attrTypes := map[string]tftypes.Type{}
	var secrets []string
	if f.values != nil {
		f.values.Each(func(k, v any) bool {
			key := keyString(k)
			if s, ok := v.(string); ok && isEyamlToken(s) {
				secrets = append(secrets, key)
				return true
			}
			tv, err := toTF(v)
			if err != nil {
				diags.AddError("Cannot Import the Data File", fmt.Sprintf("%s: the value of %q%s", f.where(key), key, notTerraformValue(key, v, err)))
				return false
			}
			elems[key], attrTypes[key] = tv, tv.Type()
			return true
		})
	}
	slices.Sort(secrets)
	return types.DynamicValue(tfValue{tftypes.NewValue(tftypes.Object{AttributeTypes: attrTypes}, elems)}), secrets, diags
}

// notTerraformValue says why the file's value v of key is no Terraform value: in Puppet's words
// for a value Puppet does not take as data either (a Ruby symbol), else err's.
func notTerraformValue(key string, v any, err error) string {
	h := model.NewHash(1)
	h.Set(key, v)
	if typ, bad := datafile.InvalidRootKeys(h)[key]; bad {
		return fmt.Sprintf(" has wrong type, expects Puppet::LookupValue, got %s (Puppet fails its lookup too)", typ)
	}
	return ": " + err.Error()
}

// isEyamlToken tells a value that is one encrypted eyaml value (ENC[PKCS7,...], any spacing the gem's block form has).
func isEyamlToken(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "ENC[") && strings.HasSuffix(s, "]")
}

// writtenForm is how the file holds values once written: each key written into an empty file and
// read back, as Read compares it with the file.
func writtenForm(values map[string]any, interpolate bool) (map[string]any, error) {
	scratch, err := yamledit.Parse("", nil)
	if err != nil {
		return nil, err
	}
	for k, v := range values {
		if err := scratch.Set(k, v, yamledit.Options{Interpolate: interpolate}); err != nil {
			return nil, fmt.Errorf("%q: %w", k, err)
		}
	}
	root, _, err := datafile.ParseYAML(scratch.Bytes())
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if h, ok := root.(*model.Hash); ok {
		h.Each(func(k, v any) bool {
			out[keyString(k)] = v
			return true
		})
	}
	return out, nil
}

// writeRequest is one create's or update's change to the file.
type writeRequest struct {
	want     *desired
	values   []string // value keys to write (a create: all of them)
	secrets  []string // secret keys to encrypt and write
	remove   []string // keys to remove
	owned    []string // keys the resource holds already: written over, never a conflict
	creating bool
}

type writeResult struct {
	created bool // the file did not exist
	// lineBreakAdded: the file's last line had no line break, and writing added one
	lineBreakAdded bool
	digests        map[string]string // of the secrets written
}

// writtenKeys are the keys each file's hiera_data resources wrote in this process, by absolute
// path: a key another resource wrote in this apply is that conflict, not a key to import.
var writtenKeys = struct {
	sync.Mutex
	files   map[string]map[string]bool
	created map[string]bool // files a hiera_data resource created in this process
}{files: map[string]map[string]bool{}, created: map[string]bool{}}

// noteCreated records a file a resource created; createdHere tells one.
func noteCreated(abs string) {
	writtenKeys.Lock()
	defer writtenKeys.Unlock()
	writtenKeys.created[abs] = true
}

func createdHere(abs string) bool {
	writtenKeys.Lock()
	defer writtenKeys.Unlock()
	return writtenKeys.created[abs]
}

func noteWritten(abs string, keys []string, written bool) {
	writtenKeys.Lock()
	defer writtenKeys.Unlock()
	m := writtenKeys.files[abs]
	if m == nil {
		m = map[string]bool{}
		writtenKeys.files[abs] = m
	}
	for _, k := range keys {
		if written {
			m[k] = true
		} else {
			delete(m, k)
		}
	}
}

func writtenHere(abs, key string) bool {
	writtenKeys.Lock()
	defer writtenKeys.Unlock()
	return writtenKeys.files[abs][key]
}

// conflicts refuses keys the resource is to add that the file holds already.
func (f *dataFile) conflicts(keys, owned []string) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, k := range keys {
		if slices.Contains(owned, k) {
			continue
		}
		if _, held := f.edit.Line(k); !held {
			continue
		}
		if writtenHere(f.abs, k) {
			diags.AddAttributeError(path.Root("values").AtMapKey(k), "Key Managed Twice",
				fmt.Sprintf("The key %q is already in %s, written by another hiera_data resource in this apply: two resources cannot manage one key. "+
					"Remove %q from one of them.", k, f.where(k), k))
			continue
		}
		diags.AddAttributeError(path.Root("values").AtMapKey(k), "Key Already in the Data File",
			fmt.Sprintf("The key %q is already in %s, not written by this resource. To manage the keys the file holds, import it: "+
				"terraform import ADDRESS %s (or an import block with id = %q), then give every key it holds; else remove %q from the file "+
				"or from this resource (or from the other hiera_data resource that wrote it).", k, f.where(k), f.name, f.name, k))
	}
	return diags
}

// write applies one create or update to the file under its lock.
func (r *dataResource) write(m *dataModel, req writeRequest) (writeResult, diag.Diagnostics) {
	var diags diag.Diagnostics
	res := writeResult{digests: map[string]string{}}
	name := m.Path.ValueString()
	abs, err := filepath.Abs(name)
	if err != nil {
		diags.AddAttributeError(path.Root("path"), "Invalid Path", err.Error())
		return res, diags
	}
	if req.creating {
		req.values, req.secrets = req.want.valueKeys, req.want.secretKeys()
	}
	var enc *eyaml.Encryptor
	if len(req.secrets) > 0 {
		if enc, diags = r.data.encryptor(req.want.publicKey); diags.HasError() {
			return res, diags
		}
	}
	unlock, err := atomicfile.Lock(abs)
	if err != nil {
		diags.AddAttributeError(path.Root("path"), "Cannot Lock the Data File", fmt.Sprintf("%s: %v", name, err))
		return res, diags
	}
	defer unlock()
	f, err := openDataFile(name)
	if err != nil {
		diags.AddAttributeError(path.Root("path"), "Cannot Edit the Data File", err.Error())
		return res, diags
	}
	if diags.Append(f.conflicts(append(slices.Clone(req.values), req.secrets...), req.owned)...); diags.HasError() {
		return res, diags
	}
	for _, k := range req.want.valueKeys { // removed by hand, though its value is unchanged (null)
		if _, held := f.edit.Line(k); !held && !slices.Contains(req.values, k) {
			req.values = append(req.values, k)
		}
	}
	opts := yamledit.Options{Interpolate: req.want.interpolate}
	for _, k := range req.values {
		if err := f.edit.Set(k, req.want.values[k], opts); err != nil {
			diags.AddAttributeError(path.Root("values").AtMapKey(k), "Cannot Write the Value", fmt.Sprintf("%s: %q: %v", name, k, err))
		}
	}
	for _, k := range req.secrets {
		plain := req.want.secrets[k]
		if !req.want.interpolate {
			plain = yamledit.EscapeInterpolation(plain)
		}
		token, err := enc.Encrypt([]byte(surviveChomp(plain)))
		if err != nil { // the key's own problem; the value is not in it
			diags.AddAttributeError(path.Root("eyaml_public_key"), "Cannot Encrypt", eyaml.Detail(err))
			return res, diags
		}
		if err := f.edit.Set(k, token, yamledit.Options{Interpolate: true}); err != nil {
			diags.AddAttributeError(path.Root("secret_values_wo").AtMapKey(k), "Cannot Write the Secret", fmt.Sprintf("%s: %q: %v", name, k, model.WithholdSecret(err)))
			continue
		}
		res.digests[k] = digest(token)
	}
	for _, k := range req.remove {
		diags.Append(deleteKey(f, k)...)
	}
	if diags.HasError() {
		return res, diags
	}
	if !f.exists { // a node's file in a directory of nodes yet to be made
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			diags.AddAttributeError(path.Root("path"), "Cannot Write the Data File", fmt.Sprintf("%s: %v", name, unwrapPathError(err)))
			return res, diags
		}
	}
	if err := atomicfile.WriteFile(abs, f.edit.Bytes(), f.mode); err != nil {
		diags.AddAttributeError(path.Root("path"), "Cannot Write the Data File", fmt.Sprintf("%s: %v", name, unwrapPathError(err)))
		return res, diags
	}
	// Resources sharing a file one of them created in this apply count as its creators: whichever
	// is destroyed last removes it, once nothing is left in it.
	res.created = !f.exists || createdHere(abs)
	if !f.exists {
		noteCreated(abs)
	}
	res.lineBreakAdded = f.unterminated && bytes.HasSuffix(f.edit.Bytes(), []byte("\n"))
	noteWritten(abs, append(slices.Clone(req.values), req.secrets...), true)
	noteWritten(abs, req.remove, false)
	return res, diags
}

// removeKeys is destroy: the keys leave the file, and the file goes when the resource created it
// and nothing is left in it; a line break the resource added at the end of the file goes too.
func removeKeys(name string, keys []string, private dataPrivate) diag.Diagnostics {
	var diags diag.Diagnostics
	abs, err := filepath.Abs(name)
	if err != nil {
		diags.AddAttributeError(path.Root("path"), "Invalid Path", err.Error())
		return diags
	}
	unlock, err := atomicfile.Lock(abs)
	if err != nil {
		diags.AddAttributeError(path.Root("path"), "Cannot Lock the Data File", fmt.Sprintf("%s: %v", name, err))
		return diags
	}
	defer unlock()
	f, err := openDataFile(name)
	switch {
	case err != nil:
		diags.AddAttributeError(path.Root("path"), "Cannot Edit the Data File", err.Error())
		return diags
	case !f.exists:
		return diags
	}
	for _, k := range keys {
		diags.Append(deleteKey(f, k)...)
	}
	if diags.HasError() {
		return diags
	}
	noteWritten(abs, keys, false)
	if private.Created && f.edit.Empty() {
		writtenKeys.Lock()
		delete(writtenKeys.created, abs)
		writtenKeys.Unlock()
		if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			diags.AddAttributeError(path.Root("path"), "Cannot Remove the Data File", fmt.Sprintf("%s: %v", name, unwrapPathError(err)))
		}
		return diags
	}
	out := f.edit.Bytes()
	if private.LineBreakAdded {
		out = bytes.TrimSuffix(out, []byte("\n"))
		out = bytes.TrimSuffix(out, []byte("\r"))
	}
	if err := atomicfile.WriteFile(abs, out, f.mode); err != nil {
		diags.AddAttributeError(path.Root("path"), "Cannot Write the Data File", fmt.Sprintf("%s: %v", name, unwrapPathError(err)))
	}
	return diags
}

// deleteKey removes a key from the file; one that cannot be removed safely (an anchor another
// key's alias uses) is an error.
func deleteKey(f *dataFile, key string) diag.Diagnostics {
	var diags diag.Diagnostics
	if !f.edit.Delete(key) {
		if err := f.edit.Editable(key); err != nil {
			diags.AddAttributeError(path.Root("values").AtMapKey(key), "Cannot Remove the Key", err.Error())
		}
	}
	return diags
}

// surviveChomp is a secret as encrypted so that Puppet answers it: eyaml_lookup_key chomps the
// decrypted text (one trailing "\r\n", "\n" or "\r"), so a value ending in a line break gets a
// "\r\n" for the chomp to take ("x\n\r\n" chomps to "x\n", "x\r\r\n" to "x\r").
func surviveChomp(plain string) string {
	if strings.HasSuffix(plain, "\n") || strings.HasSuffix(plain, "\r") {
		return plain + "\r\n"
	}
	return plain
}
