package eyaml

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
)

// cipherSpec is a CBC content cipher we can decrypt.
type cipherSpec struct {
	name     string
	keySize  int
	newBlock func(key []byte) (cipher.Block, error)
}

// eyaml always uses aes-256-cbc; the others are what `openssl smime`
// produces and eyaml still decrypts, so data made that way works too.
var ciphers = map[string]cipherSpec{
	"2.16.840.1.101.3.4.1.2":  {"aes-128-cbc", 16, aes.NewCipher},
	"2.16.840.1.101.3.4.1.22": {"aes-192-cbc", 24, aes.NewCipher},
	"2.16.840.1.101.3.4.1.42": {"aes-256-cbc", 32, aes.NewCipher},
	"1.2.840.113549.3.7":      {"des-ede3-cbc", 24, des.NewTripleDESCipher},
}

// Names for OIDs we refuse, so the error says more than digits.
var unsupportedNames = map[string]string{
	"1.2.840.113549.3.2":        "rc2-cbc",
	"1.3.14.3.2.7":              "des-cbc",
	"2.16.840.1.101.3.4.1.6":    "aes-128-gcm",
	"2.16.840.1.101.3.4.1.26":   "aes-192-gcm",
	"2.16.840.1.101.3.4.1.46":   "aes-256-gcm",
	"1.2.392.200011.61.1.1.1.2": "camellia-128-cbc",
	"1.2.392.200011.61.1.1.1.3": "camellia-192-cbc",
	"1.2.392.200011.61.1.1.1.4": "camellia-256-cbc",
	"1.2.840.113549.1.1.7":      "rsaes-oaep",
}

func oidName(oid string) string {
	if n, ok := unsupportedNames[oid]; ok {
		return n + " (" + oid + ")"
	}
	return oid
}

// decryptCBC decrypts and strips PKCS#7 padding. CBC has no integrity
// check: padding is the only sign of tampering we can see.
func decryptCBC(spec cipherSpec, key, iv, ct []byte) ([]byte, error) {
	block, err := spec.newBlock(key)
	if err != nil {
		return nil, newErr(KindWrongKey, nil, "the value was encrypted for another key")
	}
	bs := block.BlockSize()
	if len(iv) != bs {
		return nil, newErr(KindNotPKCS7, nil, "%s IV has %d bytes, want %d", spec.name, len(iv), bs)
	}
	if len(ct) == 0 || len(ct)%bs != 0 {
		return nil, newErr(KindTampered, nil, "ciphertext is corrupt: length %d is not a multiple of %d", len(ct), bs)
	}
	out := make([]byte, len(ct))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(out, ct)
	p := int(out[len(out)-1])
	if p == 0 || p > bs {
		return nil, errBadPadding()
	}
	for _, c := range out[len(out)-p:] {
		if int(c) != p {
			return nil, errBadPadding()
		}
	}
	return out[:len(out)-p], nil
}

func errBadPadding() error {
	return newErr(KindTampered, nil, "ciphertext is corrupt or was tampered with (bad padding)")
}
