package eyaml

import (
	"crypto/rsa"
	"crypto/sha256"
	"sync"
)

// open decrypts a DER/BER PKCS#7 EnvelopedData value, or answers from the decryptor's cache.
func (d *Decryptor) open(der []byte) ([]byte, error) {
	if d == nil || d.key == nil {
		return nil, newErr(KindKeyNotPEM, nil, "decryptor has no private key (use NewDecryptor)")
	}
	sum := sha256.Sum256(der)
	if pt, err, ok := d.opened.get(sum); ok {
		return pt, err
	}
	pt, err := d.openUncached(der)
	d.opened.put(sum, pt, err)
	return pt, err
}

func (d *Decryptor) openUncached(der []byte) ([]byte, error) {
	env, err := parseEnvelope(der)
	if err != nil {
		return nil, err
	}
	spec, ok := ciphers[env.cipherOID]
	if !ok {
		return nil, newErr(KindUnsupportedCipher, nil, "content cipher %s is not supported (want aes-256-cbc, as eyaml writes)", oidName(env.cipherOID))
	}
	key, err := d.contentKey(env, spec.keySize)
	if err != nil {
		return nil, err
	}
	return decryptCBC(spec, key, env.iv, env.ciphertext)
}

// maxRecipientsTried bounds the RSA decryptions one value costs without the certificate: each
// takes a millisecond or more, and a value may name thousands of recipients (one of 2.7 MB names
// 7,000). eyaml writes one.
const maxRecipientsTried = 16

// contentKey unwraps the content-encryption key as OpenSSL's PKCS7_dataDecode does. With the
// certificate (as hiera-eyaml always decrypts), only the first recipient naming it by issuer and
// serial is tried: eyaml certificates all share issuer "/" and serial 1, so a value encrypted for
// several eyaml keys opens only with the first one's, and with another key fails as the gem fails
// ("bad decrypt"). Without it, each RSA recipient in turn, up to maxRecipientsTried.
func (d *Decryptor) contentKey(env *envelope, keySize int) ([]byte, error) {
	if d.cert != nil {
		for _, r := range env.recipients {
			if r.matches(d.cert) {
				if r.keyAlg != oidRSAEncryption {
					return nil, newErr(KindUnsupportedCipher, nil, "key transport %s is not supported (want rsaEncryption)", oidName(r.keyAlg))
				}
				if k := d.unwrap(r, keySize); k != nil {
					return k, nil
				}
				if len(env.recipients) == 1 {
					return nil, newErr(KindWrongKey, nil, "the value was encrypted for another key")
				}
				return nil, newErr(KindWrongKey, nil, "the value was encrypted for another key (of its %d recipients, the first naming the public key's "+
					"issuer and serial, the one hiera-eyaml tries, does not open with the private key)", len(env.recipients))
			}
		}
		return nil, newErr(KindWrongKey, nil, "the value was encrypted for another key (no recipient names the public key's issuer and serial)")
	}
	tried, otherAlg := 0, ""
	for _, r := range env.recipients {
		if r.keyAlg != oidRSAEncryption {
			otherAlg = r.keyAlg
			continue
		}
		if tried == maxRecipientsTried {
			return nil, newErr(KindWrongKey, nil, "the value was encrypted for another key, or for this one after its first %d recipients "+
				"(it has %d; give the public key, pkcs7_public_key, to take the recipient that names it)", maxRecipientsTried, len(env.recipients))
		}
		tried++
		if k := d.unwrap(r, keySize); k != nil {
			return k, nil
		}
	}
	if tried == 0 && otherAlg != "" {
		return nil, newErr(KindUnsupportedCipher, nil, "key transport %s is not supported (want rsaEncryption)", oidName(otherAlg))
	}
	return nil, newErr(KindWrongKey, nil, "the value was encrypted for another key")
}

// unwrap decrypts r's content key of keySize bytes, nil when it does not open with d's key.
func (d *Decryptor) unwrap(r recipient, keySize int) []byte {
	d.rsaDecryptions.Add(1)
	// PKCS#1 v1.5 is what the format uses; its error oracle does not matter here, as nobody can
	// submit ciphertexts to us at scale.
	k, err := rsa.DecryptPKCS1v15(nil, d.key, r.encryptedKey) //nolint:staticcheck // SA1019: required by PKCS#7
	if err != nil || len(k) != keySize {
		return nil
	}
	return k
}

// openedCache remembers what a decryptor made of each value (by its SHA-256), so that the nodes
// of a fleet, and the lookups of one node, decrypt a value once: each decryption costs an RSA
// operation. It holds at most maxOpenedBytes of plaintext, in this process only (the decrypted
// values are in its memory anyway, in the answers); when full it starts again.
type openedCache struct {
	mu    sync.Mutex
	m     map[[sha256.Size]byte]openedValue
	bytes int
}

type openedValue struct {
	plaintext []byte
	err       error
}

const maxOpenedBytes = 16 << 20

func (c *openedCache) get(sum [sha256.Size]byte) ([]byte, error, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[sum]
	return v.plaintext, v.err, ok
}

func (c *openedCache) put(sum [sha256.Size]byte, plaintext []byte, err error) {
	size := len(plaintext) + sha256.Size + 64
	if size > maxOpenedBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.bytes+size > maxOpenedBytes {
		c.m, c.bytes = map[[sha256.Size]byte]openedValue{}, 0
	}
	c.m[sum] = openedValue{plaintext: plaintext, err: err}
	c.bytes += size
}
