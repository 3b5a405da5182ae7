package eyaml

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/pem"
	"io"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
)

// Encryptor encrypts values for one eyaml public key (the certificate `eyaml createkeys` writes),
// as hiera-eyaml's PKCS7 encryptor does: OpenSSL::PKCS7.encrypt with AES-256-CBC and the BINARY
// flag, so the plaintext's bytes are encrypted as they are. It is safe for concurrent use.
type Encryptor struct {
	cert *x509.Certificate
	pub  *rsa.PublicKey
}

// NewEncryptor parses a PEM certificate holding an RSA public key. Anything else (a bare PUBLIC
// KEY, a private key, text that is not PEM) is a KindCertificate error that quotes none of it.
func NewEncryptor(certPEM []byte) (*Encryptor, error) {
	block, _ := pem.Decode(certPEM)
	switch {
	case block == nil:
		return nil, newErr(KindCertificate, nil, "public key is not PEM (want the -----BEGIN CERTIFICATE----- that eyaml createkeys writes)")
	case block.Type != "CERTIFICATE":
		return nil, newErr(KindCertificate, nil, "public key is a PEM %q, not a CERTIFICATE (eyaml encrypts for the certificate eyaml createkeys writes)", block.Type)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, newErr(KindCertificate, err, "cannot parse public key certificate")
	}
	pub, ok := cert.PublicKey.(*rsa.PublicKey)
	if !ok {
		return nil, newErr(KindCertificate, nil, "public key certificate holds a %s key, not RSA", cert.PublicKeyAlgorithm)
	}
	return &Encryptor{cert: cert, pub: pub}, nil
}

// LoadEncryptor reads and parses a public key file; errors name the path.
func LoadEncryptor(publicKeyPath string) (*Encryptor, error) {
	data, err := boundedfile.Read(publicKeyPath, maxKeyFileSize)
	if err != nil {
		return nil, newErr(KindKeyFile, err, "cannot read public key %q", publicKeyPath)
	}
	e, err := NewEncryptor(data)
	if err != nil {
		return nil, inKeyFile("public key file", publicKeyPath, err)
	}
	return e, nil
}

// Encrypt returns plaintext as an ENC[PKCS7,<base64>] token (one line, the gem's string form).
func (e *Encryptor) Encrypt(plaintext []byte) (string, error) {
	der, err := e.envelope(rand.Reader, plaintext)
	if err != nil {
		return "", err
	}
	return "ENC[PKCS7," + base64.StdEncoding.EncodeToString(der) + "]", nil
}

var (
	oidDERData          = oidDER(1, 2, 840, 113549, 1, 7, 1)
	oidDEREnveloped     = oidDER(1, 2, 840, 113549, 1, 7, 3)
	oidDERRSAEncryption = oidDER(1, 2, 840, 113549, 1, 1, 1)
	oidDERAES256CBC     = oidDER(2, 16, 840, 1, 101, 3, 4, 1, 42)
)

// envelope writes PKCS#7 EnvelopedData for one recipient, field for field as OpenSSL's
// PKCS7_encrypt does (see pkcs7.go for the structure).
func (e *Encryptor) envelope(random io.Reader, plaintext []byte) ([]byte, error) {
	key := make([]byte, 32)
	iv := make([]byte, aes.BlockSize)
	if _, err := io.ReadFull(random, key); err != nil {
		return nil, newErr(KindUnknown, err, "cannot make a content key")
	}
	if _, err := io.ReadFull(random, iv); err != nil {
		return nil, newErr(KindUnknown, err, "cannot make an IV")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, newErr(KindUnknown, err, "cannot make the content cipher")
	}
	pad := aes.BlockSize - len(plaintext)%aes.BlockSize
	ct := make([]byte, len(plaintext)+pad)
	copy(ct, plaintext)
	for i := len(plaintext); i < len(ct); i++ {
		ct[i] = byte(pad)
	}
	cipher.NewCBCEncrypter(block, iv).CryptBlocks(ct, ct)
	wrapped, err := rsa.EncryptPKCS1v15(random, e.pub, key) //nolint:staticcheck // SA1019: what PKCS#7 and the gem use
	if err != nil {
		return nil, newErr(KindCertificate, err, "cannot encrypt for the public key")
	}
	serial, err := asn1.Marshal(e.cert.SerialNumber)
	if err != nil {
		return nil, newErr(KindCertificate, err, "public key certificate has a bad serial number")
	}
	version0 := tlv(derInteger, []byte{0})
	recipient := tlv(derSequence,
		version0,
		tlv(derSequence, e.cert.RawIssuer, serial),
		tlv(derSequence, oidDERRSAEncryption, tlv(derNull)),
		tlv(derOctetString, wrapped))
	content := tlv(derSequence,
		oidDERData,
		tlv(derSequence, oidDERAES256CBC, tlv(derOctetString, iv)),
		tlv(derContext0Raw, ct))
	enveloped := tlv(derSequence, version0, tlv(derSet, recipient), content)
	return tlv(derSequence, oidDEREnveloped, tlv(derContext0, enveloped)), nil
}
