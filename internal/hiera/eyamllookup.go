package hiera

import (
	"errors"
	"fmt"
	"os"

	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// decryptors caches one eyaml decryptor per key file version, shared by all lookups.
type decryptorKey struct {
	private, public           string
	privateStamp, publicStamp fileStamp
}

// decryptValue decrypts the ENC[...] tokens inside a value read by eyaml_lookup_key and marks the
// lookup sensitive when it decrypted anything. Errors never contain plaintext.
func (inv *invocation) decryptValue(e *entry, v any) (any, error) {
	if !hasEncToken(v) {
		return chompGated(v), nil
	}
	dec, err := inv.decryptor(e)
	if keys := inv.req.EyamlKeys; err != nil && keys.Ciphertext && !keys.privateGiven() && errors.Is(err, ErrEyamlKey) {
		inv.sensitive, inv.undecrypted = true, err
		inv.volatile++ // a secret: not for the result cache
		return v, nil
	}
	if err != nil {
		return nil, err
	}
	inv.sensitive = true
	out, err := decryptAll(dec, v)
	if err != nil { // eyaml's errors name the token's problem, never its plaintext
		msg := err.Error()
		if eyaml.KindOf(err) == eyaml.KindWrongKey {
			err = errors.Join(ErrEyamlKey, err)
		}
		return nil, &model.Error{Message: msg, Err: err, ValueFree: true}
	}
	return out, nil
}

// chompGated is what hiera-eyaml does to a value without a decryptable token: a string that passes
// its encrypted? test still loses one trailing line break (the parser's result is chomped), e.g.
// the literal block "ENC[PKCS7,abc-def]\n". Other values are returned as they are.
func chompGated(v any) any {
	switch t := v.(type) {
	case string:
		return eyaml.ChompGated(t)
	case []any:
		var out []any
		for i, el := range t {
			c := chompGated(el)
			if out == nil && !sameRef(c, el) {
				out = make([]any, len(t))
				copy(out, t[:i])
			}
			if out != nil {
				out[i] = c
			}
		}
		if out != nil {
			return out
		}
	case *model.Hash:
		var out *model.Hash // made at the first value that changes
		for i, k := range t.RawKeys() {
			val := t.Vals[i]
			c := chompGated(val)
			if out == nil && !sameRef(c, val) {
				out = model.NewHash(t.Len())
				for j, earlier := range t.RawKeys()[:i] {
					out.Set(earlier, t.Vals[j])
				}
			}
			if out != nil {
				out.Set(k, c)
			}
		}
		if out != nil {
			return out
		}
	}
	return v
}

func hasEncToken(v any) bool {
	switch t := v.(type) {
	case string:
		return eyaml.HasToken(t)
	case []any:
		for _, el := range t {
			if hasEncToken(el) {
				return true
			}
		}
	case *model.Hash:
		found := false
		t.Each(func(_, val any) bool { found = hasEncToken(val); return !found })
		return found
	}
	return false
}

func decryptAll(dec *eyaml.Decryptor, v any) (any, error) {
	switch t := v.(type) {
	case string:
		out, _, err := dec.ReplaceAll(t)
		return out, err
	case []any:
		out := make([]any, len(t))
		for i, el := range t {
			d, err := decryptAll(dec, el)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	case *model.Hash:
		out := model.NewHash(t.Len())
		var err error
		t.Each(func(k, val any) bool {
			var d any
			d, err = decryptAll(dec, val)
			out.Set(k, d)
			return err == nil
		})
		return out, err
	}
	return v, nil
}

// decryptor is the entry's decryptor, found once per lookup (every encrypted value asks for it).
func (inv *invocation) decryptor(e *entry) (*eyaml.Decryptor, error) {
	if dec := inv.decryptors[e]; dec != nil {
		return dec, nil
	}
	dec, err := inv.loadDecryptor(e)
	if err == nil {
		if inv.decryptors == nil {
			inv.decryptors = map[*entry]*eyaml.Decryptor{}
		}
		inv.decryptors[e] = dec
	}
	return dec, err
}

// loadDecryptor loads the entry's pkcs7 key (paths relative to hiera.yaml, interpolation allowed),
// or the request's EyamlKeys in its place, through the engine's cache of keys by path and version.
func (inv *invocation) loadDecryptor(e *entry) (*eyaml.Decryptor, error) {
	given := inv.req.EyamlKeys
	keyError := func(msg string, err error) error {
		return &model.Error{Message: msg, Level: e.Name, File: inv.cfg.Path, Err: errors.Join(ErrEyamlKey, err), ValueFree: true}
	}
	privPath, pubPath := given.PrivateKeyPath, given.PublicKeyPath
	if k := given.Key; k != nil {
		if k.hasCert || pubPath == "" {
			return k.dec, nil
		}
		dec, err := k.dec.WithCertificateFile(pubPath)
		if err != nil {
			return nil, keyError(err.Error(), err)
		}
		return dec, nil
	}
	var err error
	if privPath == "" {
		if privPath, err = inv.keyOption(e, "pkcs7_private_key"); err != nil {
			return nil, err
		}
	}
	if privPath == "" {
		return nil, keyError("eyaml_lookup_key needs options.pkcs7_private_key (the path of the private key)", nil)
	}
	if pubPath == "" && !given.privateGiven() { // a private key given alone decrypts alone
		if pubPath, err = inv.keyOption(e, "pkcs7_public_key"); err != nil {
			return nil, err
		}
		if pubPath == "" { // the private key alone would do, but hiera-eyaml refuses, and so Puppet
			return nil, keyError("eyaml_lookup_key needs options.pkcs7_public_key as well as pkcs7_private_key to decrypt "+
				"(hiera-eyaml, and so Puppet, fails with \"pkcs7_public_key is not defined\")", nil)
		}
	}
	ck := decryptorKey{private: privPath, public: pubPath}
	fi, err := os.Stat(privPath)
	if err != nil {
		return nil, keyError(fmt.Sprintf("cannot read the eyaml private key %s: %v", privPath, err), err)
	}
	ck.privateStamp = stampOf(fi)
	if pubPath != "" {
		pfi, err := os.Stat(pubPath)
		if err != nil {
			return nil, keyError(fmt.Sprintf("cannot read the eyaml public key %s: %v", pubPath, err), err)
		}
		ck.publicStamp = stampOf(pfi)
	}
	if d, ok := inv.engine.decryptors.Load(ck); ok {
		if dec, isDec := d.(*eyaml.Decryptor); isDec { // always: only decryptors are stored
			return dec, nil
		}
	}
	dec, err := eyaml.LoadDecryptor(privPath)
	if err == nil && pubPath != "" {
		dec, err = dec.WithCertificateFile(pubPath)
	}
	if err != nil {
		return nil, keyError(err.Error(), err)
	}
	inv.engine.decryptors.Store(ck, dec)
	return dec, nil
}

func (inv *invocation) keyOption(e *entry, name string) (string, error) {
	v, ok := e.Options.Get(name)
	if !ok || v == nil {
		return "", nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", &model.Error{Message: fmt.Sprintf("options.%s must be a path string", name), Level: e.Name, File: inv.cfg.Path, ValueFree: true}
	}
	text, err := inv.interpolatePath(e, s)
	if err != nil {
		return "", err
	}
	return inv.confine(e, s, joinPath(inv.cfg.Dir, text), inv.cfg.Dir)
}
