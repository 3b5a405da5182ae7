package eyaml

import "crypto/rsa"

// open decrypts a DER/BER PKCS#7 EnvelopedData value.
func (d *Decryptor) open(der []byte) ([]byte, error) {
	if d == nil || d.key == nil {
		return nil, newErr(KindKeyNotPEM, nil, "decryptor has no private key (use NewDecryptor)")
	}
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

// contentKey unwraps the content-encryption key from the first recipient
// our RSA key can open. eyaml certificates all share issuer "/" and serial
// 1, so the RSA decryption itself is what tells keys apart.
func (d *Decryptor) contentKey(env *envelope, keySize int) ([]byte, error) {
	tried, otherAlg := 0, ""
	for _, r := range env.recipients {
		if d.cert != nil && !r.matches(d.cert) {
			continue
		}
		if r.keyAlg != oidRSAEncryption {
			otherAlg = r.keyAlg
			continue
		}
		tried++
		// PKCS#1 v1.5 is what the format uses; its error oracle does not
		// matter here, as nobody can submit ciphertexts to us at scale.
		k, err := rsa.DecryptPKCS1v15(nil, d.key, r.encryptedKey) //nolint:staticcheck // SA1019: required by PKCS#7
		if err == nil && len(k) == keySize {
			return k, nil
		}
	}
	if tried == 0 && otherAlg != "" {
		return nil, newErr(KindUnsupportedCipher, nil, "key transport %s is not supported (want rsaEncryption)", oidName(otherAlg))
	}
	return nil, newErr(KindWrongKey, nil, "the value was encrypted for another key")
}
