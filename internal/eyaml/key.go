package eyaml

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
)

// Decryptor decrypts ENC[PKCS7,...] values with one RSA private key and,
// optionally, the matching certificate. It is safe for concurrent use.
type Decryptor struct {
	key  *rsa.PrivateKey
	cert *x509.Certificate // nil: try each RSA recipient, as OpenSSL does without a cert

	opened         openedCache  // what each value decrypted to
	rsaDecryptions atomic.Int64 // made so far: what a value costs, for tests
}

// NewDecryptor parses a PEM private key as written by `eyaml createkeys`
// (PKCS#1 "RSA PRIVATE KEY") or PKCS#8 ("PRIVATE KEY").
func NewDecryptor(privateKeyPEM []byte) (*Decryptor, error) {
	key, err := parsePrivateKey(privateKeyPEM)
	if err != nil {
		return nil, err
	}
	return &Decryptor{key: key}, nil
}

// maxKeyFileSize bounds a key or certificate file: a PEM key is a few kilobytes, and a key path
// naming /dev/zero or a huge file must not exhaust memory.
const maxKeyFileSize = 1 << 20

// LoadDecryptor reads and parses a private key file; errors name the path.
func LoadDecryptor(privateKeyPath string) (*Decryptor, error) {
	data, err := boundedfile.Read(privateKeyPath, maxKeyFileSize)
	if err != nil {
		return nil, newErr(KindKeyFile, err, "cannot read private key %q", privateKeyPath)
	}
	d, err := NewDecryptor(data)
	if err != nil {
		return nil, inKeyFile("key file", privateKeyPath, err)
	}
	return d, nil
}

// inKeyFile prefixes an error of this package with the key file it is about.
func inKeyFile(what, path string, err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	return newErr(e.Kind, e.Err, "%s %q: %s", what, path, e.Msg)
}

// WithCertificateFile is WithCertificate with the certificate read from a file.
func (d *Decryptor) WithCertificateFile(path string) (*Decryptor, error) {
	data, err := boundedfile.Read(path, maxKeyFileSize)
	if err != nil {
		return nil, newErr(KindKeyFile, err, "cannot read public key %q", path)
	}
	return d.WithCertificate(data)
}

// WithCertificate returns a copy of d that also knows its public certificate
// (eyaml's pkcs7_public_key). The certificate must hold d's public key; the
// copy then only tries the first PKCS7 recipient issued to that certificate, as OpenSSL does.
func (d *Decryptor) WithCertificate(certPEM []byte) (*Decryptor, error) {
	if d == nil || d.key == nil {
		return nil, newErr(KindKeyNotPEM, nil, "decryptor has no private key (use NewDecryptor)")
	}
	block, _ := pem.Decode(certPEM)
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, newErr(KindCertificate, nil, "public key is not a PEM CERTIFICATE")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, newErr(KindCertificate, err, "cannot parse public key certificate")
	}
	pub, ok := cert.PublicKey.(*rsa.PublicKey)
	if !ok || !pub.Equal(&d.key.PublicKey) {
		return nil, newErr(KindCertificate, nil, "public key certificate does not match the private key")
	}
	return &Decryptor{key: d.key, cert: cert}, nil
}

func parsePrivateKey(data []byte) (*rsa.PrivateKey, error) {
	block := findKeyBlock(data)
	if block == nil {
		return nil, newErr(KindKeyNotPEM, nil, "no PEM private key found (want -----BEGIN RSA PRIVATE KEY-----)")
	}
	// Legacy OpenSSL encryption is flagged in the headers; PKCS#8 by the type.
	if block.Type == "ENCRYPTED PRIVATE KEY" || strings.Contains(block.Headers["Proc-Type"], "ENCRYPTED") {
		return nil, newErr(KindKeyEncrypted, nil, "private key is passphrase-protected; eyaml keys must be unencrypted")
	}
	switch block.Type {
	case "RSA PRIVATE KEY":
		k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		if err != nil {
			return nil, newErr(KindKeyNotPEM, err, "cannot parse RSA private key")
		}
		return k, nil
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, newErr(KindKeyNotPEM, err, "cannot parse PKCS#8 private key")
		}
		rk, ok := k.(*rsa.PrivateKey)
		if !ok {
			return nil, newErr(KindKeyNotRSA, nil, "private key is %s, not RSA", keyTypeName(k))
		}
		return rk, nil
	default: // e.g. "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"
		return nil, newErr(KindKeyNotRSA, nil, "private key is %q, not RSA", block.Type)
	}
}

// findKeyBlock returns the first PEM block that holds a private key, so a
// file bundling certificate and key also works.
func findKeyBlock(data []byte) *pem.Block {
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return nil
		}
		if strings.HasSuffix(block.Type, "PRIVATE KEY") {
			return block
		}
	}
}

func keyTypeName(k any) string {
	switch k.(type) {
	case *ecdsa.PrivateKey:
		return "ECDSA"
	case ed25519.PrivateKey:
		return "Ed25519"
	case *ecdh.PrivateKey:
		return "X25519"
	}
	return fmt.Sprintf("%T", k)
}
