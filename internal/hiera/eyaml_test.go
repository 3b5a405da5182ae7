package hiera_test

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// The eyaml fixtures were made with the real hiera-eyaml (internal/eyaml/testdata/regen.sh).
const eyamlTestdata = "../eyaml/testdata"

func readFixture(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(eyamlTestdata, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// chomp is Ruby's String#chomp, which hiera-eyaml applies to a decrypted value.
func chomp(s string) string {
	if strings.HasSuffix(s, "\r\n") {
		return s[:len(s)-2]
	}
	return strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
}

// eyamlConfig is a hierarchy with one eyaml level above a plain yaml one; the keys are copied next
// to hiera.yaml and named relative to it.
const eyamlConfig = `version: 5
hierarchy:
  - name: secrets
    lookup_key: eyaml_lookup_key
    path: secrets.eyaml
    options:
      pkcs7_private_key: keys/private_key.pkcs7.pem
      pkcs7_public_key: keys/public_key.pkcs7.pem
  - name: common
    path: common.yaml
`

// eyamlEngine writes hiera.yaml, the fixture keys and the data files, and returns the engine.
func eyamlEngine(t *testing.T, config, secrets, common string) (*hiera.Engine, string) {
	t.Helper()
	return newEngine(t, files{
		"hiera.yaml":                 "" + config,
		"keys/private_key.pkcs7.pem": readFixture(t, "keys/private_key.pkcs7.pem"),
		"keys/public_key.pkcs7.pem":  readFixture(t, "keys/public_key.pkcs7.pem"),
		"keys/other_private.pem":     readFixture(t, "keys/other_private_key.pkcs7.pem"),
		"data/secrets.eyaml":         secrets,
		"data/common.yaml":           common,
	})
}

// encrypt makes an ENC[PKCS7,...] token for plaintext as `eyaml encrypt` does (PKCS#7
// EnvelopedData, RSA key transport to the fixture certificate, AES-256-CBC), so that tests can use
// plaintexts of their choice.
func encrypt(t *testing.T, plaintext string) string {
	t.Helper()
	block, _ := pem.Decode([]byte(readFixture(t, "keys/public_key.pkcs7.pem")))
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 32)
	iv := make([]byte, aes.BlockSize)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	if _, err := rand.Read(iv); err != nil {
		t.Fatal(err)
	}
	pad := aes.BlockSize - len(plaintext)%aes.BlockSize
	data := append([]byte(plaintext), []byte(strings.Repeat(string(rune(pad)), pad))...)
	c, _ := aes.NewCipher(key)
	cipher.NewCBCEncrypter(c, iv).CryptBlocks(data, data)
	pub, isRSA := cert.PublicKey.(*rsa.PublicKey)
	if !isRSA {
		t.Fatalf("fixture certificate has a %T key, not RSA", cert.PublicKey)
	}
	wrapped, err := rsa.EncryptPKCS1v15(rand.Reader, pub, key)
	if err != nil {
		t.Fatal(err)
	}
	type algorithm struct {
		OID    asn1.ObjectIdentifier
		Params asn1.RawValue
	}
	type recipient struct {
		Version      int
		IssuerSerial struct {
			Issuer asn1.RawValue
			Serial asn1.RawValue
		}
		KeyAlgorithm algorithm
		EncryptedKey []byte
	}
	type contentInfo struct {
		ContentType asn1.ObjectIdentifier
		Algorithm   algorithm
		Content     asn1.RawValue
	}
	type envelope struct {
		Version    int
		Recipients []recipient `asn1:"set"`
		Content    contentInfo
	}
	ivDER, _ := asn1.Marshal(iv)
	serial, _ := asn1.Marshal(cert.SerialNumber)
	var r recipient
	r.IssuerSerial.Issuer = asn1.RawValue{FullBytes: cert.RawIssuer}
	r.IssuerSerial.Serial = asn1.RawValue{FullBytes: serial}
	r.KeyAlgorithm = algorithm{OID: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}, Params: asn1.NullRawValue}
	r.EncryptedKey = wrapped
	env, err := asn1.Marshal(envelope{
		Recipients: []recipient{r},
		Content: contentInfo{
			ContentType: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1},
			Algorithm:   algorithm{OID: asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}, Params: asn1.RawValue{FullBytes: ivDER}},
			Content:     asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, Bytes: data},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	outer, err := asn1.Marshal(struct {
		ContentType asn1.ObjectIdentifier
		Content     asn1.RawValue
	}{
		ContentType: asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 3},
		Content:     asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: env},
	})
	if err != nil {
		t.Fatal(err)
	}
	return "ENC[PKCS7," + base64.StdEncoding.EncodeToString(outer) + "]"
}

// TestEyamlVectors decrypts every fixture vector in string and block form.
func TestEyamlVectors(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"short", "empty", "unicode", "multiline", "long"} {
		for _, form := range []string{"enc", "block"} {
			t.Run(name+"-"+form, func(t *testing.T) {
				t.Parallel()
				token := readFixture(t, "vectors/"+name+"."+form)
				var data string
				if form == "enc" {
					data = "v: " + strings.TrimSpace(token) + "\n"
				} else {
					data = "v: >\n" + token // eyaml's block output is indented for a folded scalar
				}
				e, _ := eyamlEngine(t, eyamlConfig, data, "")
				res := mustFind(t, e, hiera.Request{Key: "v"})
				// hiera-eyaml chomps the result once: the string form loses the plaintext's
				// trailing newline, the block form the newline of the folded scalar
				want := readFixture(t, "vectors/"+name+".txt")
				if form == "enc" {
					want = chomp(want)
				}
				if res.Value != want {
					t.Errorf("got %.200q, want %.200q", res.Value, want)
				}
				if !res.Sensitive {
					t.Error("Sensitive not set")
				}
			})
		}
	}
}

// TestEyamlHieraFixture looks up every key of the hand-written eyaml data file and compares with
// what `puppet lookup` answered (expected.json).
func TestEyamlHieraFixture(t *testing.T) {
	t.Parallel()
	var expected map[string]string
	if err := json.Unmarshal([]byte(readFixture(t, "hiera/expected.json")), &expected); err != nil {
		t.Fatal("hiera/expected.json:", err)
	}
	if len(expected) < 20 {
		t.Fatalf("expected.json has %d keys", len(expected))
	}
	// hiera-eyaml leaves these alone: no complete token, or a token split over lines
	plain := map[string]bool{"literal_block": true, "not_token_dash": true, "not_token_tab": true, "no_token": true, "literal_not_token": true}
	e, _ := eyamlEngine(t, eyamlConfig, readFixture(t, "hiera/common.eyaml"), "")
	for key, want := range expected {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			res := mustFind(t, e, hiera.Request{Key: key})
			if res.Value != want {
				t.Errorf("got  %.200q\nwant %.200q", res.Value, want)
			}
			if res.Sensitive != !plain[key] {
				t.Errorf("Sensitive = %v, want %v", res.Sensitive, !plain[key])
			}
		})
	}
}

// TestEyamlStructures covers tokens nested in hashes and arrays, plain values of an eyaml file,
// interpolation of a decrypted value, merges with plain levels and absolute key paths.
func TestEyamlStructures(t *testing.T) {
	t.Parallel()
	pw := encrypt(t, "hunter2")
	secrets := "db:\n  user: admin\n  password: " + pw + "\n  list:\n    - plain\n    - " + pw + "\n    - deep: " + pw + "\n" +
		"plain: just text\nnumber: 42\n" +
		"url: " + encrypt(t, "https://%{hostname}:s3cret@db") + "\n" +
		"users:\n  alice: " + encrypt(t, "a-pw") + "\n" +
		"ports:\n  - " + encrypt(t, "8080") + "\n" +
		"gated:\n  k: \"ENC[PKCS7,abc-def]\\n\"\n  p: \"plain\\n\"\n  l: [\"ENC[x-y]\\n\"]\n"
	common := "users: {bob: plain-pw}\nports: [22]\ncommon_only: common\n"
	e, dir := eyamlEngine(t, eyamlConfig, secrets, common)
	abs := strings.ReplaceAll(eyamlConfig, "keys/", filepath.Join(dir, "keys")+"/")
	eAbs, _ := eyamlEngine(t, abs, secrets, common)
	tests := map[string]struct {
		engine    *hiera.Engine
		req       hiera.Request
		want      string
		sensitive bool
	}{
		"nested-hash-and-array": {req: hiera.Request{Key: "db"}, sensitive: true,
			want: `{"user":"admin","password":"hunter2","list":["plain","hunter2",{"deep":"hunter2"}]}`},
		"dotted":       {req: hiera.Request{Key: "db.list.2.deep"}, want: `"hunter2"`, sensitive: true},
		"plain-string": {req: hiera.Request{Key: "plain"}, want: `"just text"`},
		"plain-number": {req: hiera.Request{Key: "number"}, want: `42`},
		"decrypted-then-interpolated": {req: hiera.Request{Key: "url", Scope: scopeOf(t, map[string]any{"hostname": "h1"}, nil)},
			want: `"https://h1:s3cret@db"`, sensitive: true},
		"hash-merge-with-plain-level": {req: hiera.Request{Key: "users", Function: hiera.FuncHash}, want: `{"bob":"plain-pw","alice":"a-pw"}`, sensitive: true},
		"unique-merge":                {req: hiera.Request{Key: "ports", Function: hiera.FuncArray}, want: `["8080",22]`, sensitive: true},
		"plain-level-only":            {req: hiera.Request{Key: "common_only"}, want: `"common"`},
		// no real token: hiera-eyaml still chomps what passes its encrypted? test
		"gated-without-token": {req: hiera.Request{Key: "gated"}, want: `{"k":"ENC[PKCS7,abc-def]","p":"plain\n","l":["ENC[x-y]"]}`},
		"absolute-key-paths":  {engine: eAbs, req: hiera.Request{Key: "db.password"}, want: `"hunter2"`, sensitive: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			eng := e
			if tt.engine != nil {
				eng = tt.engine
			}
			res := mustFind(t, eng, tt.req)
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if res.Sensitive != tt.sensitive {
				t.Errorf("Sensitive = %v, want %v", res.Sensitive, tt.sensitive)
			}
		})
	}
	t.Run("interpolated-lookup-of-secret-is-sensitive", func(t *testing.T) {
		t.Parallel()
		e2, _ := eyamlEngine(t, eyamlConfig, "pw: "+pw+"\n", "dsn: \"user:%{lookup('pw')}\"\n")
		res := mustFind(t, e2, hiera.Request{Key: "dsn"})
		if res.Value != "user:hunter2" || !res.Sensitive {
			t.Errorf("value %q, Sensitive %v", res.Value, res.Sensitive)
		}
	})
}

// TestEyamlErrors checks that failures are clear *hiera.Errors that never contain plaintext.
func TestEyamlErrors(t *testing.T) {
	t.Parallel()
	const plaintext = "hunter2-PLAINTEXT"
	good := encrypt(t, plaintext)
	other := strings.TrimSpace(readFixture(t, "openssl/other_key.enc")) // for the other key only
	payload := strings.TrimSuffix(strings.TrimPrefix(good, "ENC[PKCS7,"), "]")
	corrupt := "ENC[PKCS7," + payload[:len(payload)-12] + "AAAAAAAAAAAA]"
	withKey := func(priv string) string {
		return strings.Replace(eyamlConfig, "keys/private_key.pkcs7.pem", priv, 1)
	}
	noPublic := strings.Replace(eyamlConfig, "      pkcs7_public_key: keys/public_key.pkcs7.pem\n", "", 1)
	tests := map[string]struct {
		config  string
		data    string
		message string // part of the message
	}{
		"missing-private-key-file": {config: withKey("keys/nope.pem"), data: "a: " + good + "\nb: " + other + "\n", message: "cannot read the eyaml private key"},
		"no-private-key-option": {config: strings.Replace(eyamlConfig, "      pkcs7_private_key: keys/private_key.pkcs7.pem\n", "", 1),
			data: "a: " + good + "\n", message: "eyaml_lookup_key needs options.pkcs7_private_key"},
		"wrong-key":           {config: eyamlConfig, data: "a: " + other + "\n", message: "another key"},
		"no-public-key":       {config: noPublic, data: "a: " + good + "\n", message: `fails with "pkcs7_public_key is not defined"`},
		"key-and-cert-differ": {config: withKey("keys/other_private.pem"), data: "a: " + good + "\n", message: "does not match"},
		"corrupt":             {config: eyamlConfig, data: "a: \"x " + good + " " + corrupt + "\"\n", message: "ENC value 2 of 2"},
		"gpg":                 {config: eyamlConfig, data: "a: \"" + good + " ENC[GPG,hQEMAw==]\"\n", message: "ENC[GPG,...] values are not supported"},
		"bad-base64":          {config: eyamlConfig, data: "a: ENC[PKCS7,abc]\n", message: "base64"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := eyamlEngine(t, tt.config, tt.data, "")
			res, err := lookup(t, e, hiera.Request{Key: "a", Explain: true})
			if err == nil {
				t.Fatalf("want an error, got %q", res.Value)
			}
			he := hieraError(t, err)
			wantContains(t, "message", he.Message, tt.message)
			if strings.Contains(he.Error(), plaintext) || strings.Contains(res.Explanation, plaintext) {
				t.Fatalf("plaintext in the error: %v", he)
			}
			if u := errorsUnwrapAll(err); strings.Contains(u, plaintext) {
				t.Fatalf("plaintext in a wrapped error: %s", u)
			}
			if he.Level != "secrets" || he.Key != "a" {
				t.Errorf("Level %q Key %q", he.Level, he.Key)
			}
		})
	}
}

// TestEyamlSecretsNotInErrorsOrExplain: a decrypted value that later fails (convert_to, a bad
// interpolation) or is explained must not show its plaintext.
func TestEyamlSecretsNotInErrorsOrExplain(t *testing.T) {
	t.Parallel()
	const plaintext = "PLAINTEXT-bananas"
	tests := map[string]struct {
		secret  string
		options string
		wantErr bool
	}{
		"convert-to-integer-fails": {secret: plaintext, options: "lookup_options:\n  a:\n    convert_to: Integer\n", wantErr: true},
		"bad-interpolation":        {secret: plaintext + "%{facts..x}", wantErr: true},
		"unknown-method":           {secret: plaintext + "%{what('x')}", wantErr: true},
		"explain-interpolated":     {secret: plaintext + "-%{hostname}"},
		"explain-merged":           {secret: plaintext, options: "lookup_options:\n  a:\n    merge: unique\na: [plain]\n"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := eyamlEngine(t, eyamlConfig, "a: "+encrypt(t, tt.secret)+"\n", tt.options)
			res, err := lookup(t, e, hiera.Request{Key: "a", Explain: true, Scope: scopeOf(t, map[string]any{"hostname": "h1"}, nil)})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				he := hieraError(t, err)
				if strings.Contains(he.Error(), plaintext) || strings.Contains(errorsUnwrapAll(err), plaintext) {
					t.Errorf("plaintext in the error: %v", he)
				}
				return
			}
			if !res.Sensitive || !strings.Contains(jsonOf(t, res.Value), plaintext) {
				t.Errorf("value %s Sensitive %v", jsonOf(t, res.Value), res.Sensitive)
			}
			if strings.Contains(res.Explanation, plaintext) {
				t.Errorf("plaintext in the explanation:\n%s", res.Explanation)
			}
			wantContains(t, "explanation", res.Explanation, `Hierarchy entry "secrets"`, "(sensitive value)")
		})
	}
}

// errorsUnwrapAll is the text of every error in err's chain.
func errorsUnwrapAll(err error) string {
	var b strings.Builder
	for err != nil {
		b.WriteString(err.Error())
		b.WriteString("\n")
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			break
		}
		err = u.Unwrap()
	}
	return b.String()
}

// TestEyamlVersion3Backend: a Hiera 3 :eyaml: backend with its key options.
func TestEyamlVersion3Backend(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml": ":backends: [eyaml, yaml]\n:hierarchy: [secrets, common]\n" +
			":eyaml:\n  :datadir: data\n  :pkcs7_private_key: keys/private_key.pkcs7.pem\n  :pkcs7_public_key: keys/public_key.pkcs7.pem\n" +
			":yaml:\n  :datadir: data\n",
		"keys/private_key.pkcs7.pem": readFixture(t, "keys/private_key.pkcs7.pem"),
		"keys/public_key.pkcs7.pem":  readFixture(t, "keys/public_key.pkcs7.pem"),
		"data/secrets.eyaml":         "pw: " + encrypt(t, "hunter2") + "\nusers:\n  alice: " + encrypt(t, "a-pw") + "\n",
		"data/common.yaml":           "pw: plain\nusers: {bob: b-pw}\n",
	})
	res := mustFind(t, e, hiera.Request{Key: "pw"})
	if res.Value != "hunter2" || !res.Sensitive {
		t.Errorf("pw = %v, Sensitive %v", res.Value, res.Sensitive)
	}
	res = mustFind(t, e, hiera.Request{Key: "users", Function: hiera.FuncHash})
	if got := jsonOf(t, res.Value); got != `{"bob":"b-pw","alice":"a-pw"}` || !res.Sensitive {
		t.Errorf("users = %s, Sensitive %v", got, res.Sensitive)
	}
}

// TestSecretsNeverInDiagnostics: a value derived from a secret (decrypted, or converted to
// Sensitive, here or in a nested lookup) must not show in any error, warning or explanation, also
// when the failure comes later: a second interpolation pass, a comparison in a sorted merge.
func TestSecretsNeverInDiagnostics(t *testing.T) {
	t.Parallel()
	const plaintext = "PLAINTEXT-bananas"
	const pin = "73519"
	sortedDeep := "    merge: {strategy: deep, sort_merged_arrays: true}\n"
	tests := map[string]struct {
		secrets, common string
		key             string
		wantErr         string // "" when the lookup succeeds or finds nothing
	}{
		// the plaintext is %{'}... once its own %{literal('%')} is interpolated; the outer key
		// interpolates the nested lookup's result again, which fails on that text
		"second interpolation pass": {
			secrets: "password: " + encrypt(t, "%{literal('%')}{'}"+plaintext) + "\n",
			common:  "dsn: \"db://app:%{lookup('password')}@db\"\n",
			key:     "dsn", wantErr: "Lookup of key 'dsn' failed on a value derived from a secret (details withheld",
		},
		"second interpolation pass through alias": {
			secrets: "password: " + encrypt(t, "%{literal('%')}{'}"+plaintext) + "\n",
			common:  "wrapped: [\"%{alias('password')}\", \"%{lookup('password')}\"]\n",
			key:     "wrapped", wantErr: "details withheld",
		},
		"comparison in sort_merged_arrays": {
			secrets: "pin: " + encrypt(t, pin) + "\npins: [\"%{alias('pin')}\"]\n",
			common:  "lookup_options:\n  pin:\n    convert_to: Integer\n  pins:\n" + sortedDeep + "pins: [abc]\n",
			key:     "pins", wantErr: "Lookup of key 'pins' failed on a value derived from a secret",
		},
		"convert_to of a decrypted value": {
			secrets: "n: " + encrypt(t, plaintext) + "\n",
			common:  "lookup_options:\n  n:\n    convert_to: Integer\n",
			key:     "n", wantErr: "details withheld",
		},
	}
	for _, spelling := range []string{"'Sensitive '", "' Sensitive'", "'::Sensitive'", "Sensitive"} {
		common := "lookup_options:\n  token:\n    convert_to: " + spelling + "\ntoken: {value: " + plaintext + "}\n"
		tests["convert_to "+spelling] = struct {
			secrets, common string
			key             string
			wantErr         string
		}{secrets: "other: x\n", common: common, key: "token"}
		tests["convert_to "+spelling+", dig misses"] = struct {
			secrets, common string
			key             string
			wantErr         string
		}{secrets: "other: x\n", common: common, key: "token.missing"}
		tests["convert_to "+spelling+", later failure"] = struct {
			secrets, common string
			key             string
			wantErr         string
		}{secrets: "other: x\n", common: "lookup_options:\n  token:\n    convert_to: " + spelling + "\ntoken: \"%{literal('%')}{'}" + plaintext + "\"\nuse: \"%{lookup('token')}\"\n", key: "use", wantErr: "details withheld"}
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := eyamlEngine(t, eyamlConfig, tt.secrets, tt.common)
			res, err := lookup(t, e, hiera.Request{Key: tt.key, Explain: true})
			var outputs []string
			if err != nil {
				outputs = append(outputs, errorsUnwrapAll(err))
			}
			outputs = append(append(outputs, res.Explanation), res.Warnings...)
			for _, out := range outputs {
				for _, secret := range []string{plaintext, pin} {
					if strings.Contains(out, secret) {
						t.Errorf("%q in an output:\n%s", secret, out)
					}
				}
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("want an error containing %q, got %s", tt.wantErr, jsonOf(t, res.Value))
			case tt.wantErr != "":
				wantContains(t, "error", err.Error(), tt.wantErr)
			case res.Found && !res.Sensitive:
				t.Errorf("found %q but not Sensitive", tt.key)
			}
		})
	}
}
