package eyaml

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/binary"
	"encoding/pem"
	"io"
	"math/big"

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

// Encrypt returns plaintext as an ENC[PKCS7,<base64>] token (one line, the gem's string form),
// encrypted afresh each time as the gem does.
func (e *Encryptor) Encrypt(plaintext []byte) (string, error) {
	return e.token(rand.Reader, plaintext)
}

// EncryptStable is Encrypt with the content key, IV and RSA padding drawn from a stream seeded by
// the certificate and the plaintext, so that the same key and plaintext always give the same
// token: Terraform requires a function to return the same result at plan and at apply, and a
// configuration to plan no change when nothing changed. The price: whoever has the public key can
// check a guess of the plaintext against the token, and equal plaintexts give equal tokens. For
// generated secrets, not for guessable ones.
func (e *Encryptor) EncryptStable(plaintext []byte) (string, error) {
	seed := sha256.New()
	for _, part := range [][]byte{[]byte("hieraform eyaml EncryptStable v1"), e.cert.Raw, plaintext} {
		_ = binary.Write(seed, binary.BigEndian, uint64(len(part)))
		seed.Write(part)
	}
	return e.token(&hmacStream{key: seed.Sum(nil)}, plaintext)
}

func (e *Encryptor) token(random io.Reader, plaintext []byte) (string, error) {
	der, err := e.envelope(random, plaintext)
	if err != nil {
		return "", err
	}
	return "ENC[PKCS7," + base64.StdEncoding.EncodeToString(der) + "]", nil
}

// hmacStream is a deterministic stream of bytes: HMAC-SHA256(key, counter) for counter 0, 1, ...
type hmacStream struct {
	key     []byte
	counter uint64
	buf     []byte
}

func (h *hmacStream) Read(p []byte) (int, error) {
	for n := 0; n < len(p); {
		if len(h.buf) == 0 {
			mac := hmac.New(sha256.New, h.key)
			_ = binary.Write(mac, binary.BigEndian, h.counter)
			h.counter++
			h.buf = mac.Sum(nil)
		}
		c := copy(p[n:], h.buf)
		h.buf = h.buf[c:]
		n += c
	}
	return len(p), nil
}

// encryptPKCS1v15 is RSAES-PKCS1-v1_5 (RFC 8017 section 7.2.1), what PKCS#7 and the gem use, with
// the padding read from random: crypto/rsa's ignores its reader (since Go 1.26), and EncryptStable
// needs it read.
func encryptPKCS1v15(random io.Reader, pub *rsa.PublicKey, msg []byte) ([]byte, error) {
	k := pub.Size()
	if len(msg) > k-11 {
		return nil, newErr(KindCertificate, nil, "public key is too small (%d bits) to encrypt a content key", pub.N.BitLen())
	}
	em := make([]byte, k)
	em[1] = 2
	ps := em[2 : k-len(msg)-1]
	if _, err := io.ReadFull(random, ps); err != nil {
		return nil, newErr(KindUnknown, err, "cannot make the RSA padding")
	}
	for i := range ps { // padding bytes are nonzero: draw again for each zero
		for ps[i] == 0 {
			if _, err := io.ReadFull(random, ps[i:i+1]); err != nil {
				return nil, newErr(KindUnknown, err, "cannot make the RSA padding")
			}
		}
	}
	copy(em[k-len(msg):], msg)
	c := new(big.Int).Exp(new(big.Int).SetBytes(em), big.NewInt(int64(pub.E)), pub.N)
	return c.FillBytes(make([]byte, k)), nil
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
	wrapped, err := encryptPKCS1v15(random, e.pub, key)
	if err != nil {
		return nil, err
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
