package eyaml

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1" //nolint:gosec // the subject key identifier is SHA-1 by RFC 5280, as OpenSSL's "hash"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"math/big"
	"strings"
	"time"
)

// KeyOptions are createkeys' settings, named as the gem's pkcs7_* options.
type KeyOptions struct {
	Bits    int       // pkcs7_keysize; 0 is the gem's 2048
	Subject string    // pkcs7_subject in OpenSSL's "/CN=x/O=y" form; "" is the gem's "/" (no name)
	Now     time.Time // the start of validity; zero is time.Now()
}

// keyValidity is the gem's certificate lifetime on a 64-bit Ruby: 50 years of 365 days.
const keyValidity = 50 * 365 * 24 * time.Hour

var oidExtAuthorityKeyID = asn1.ObjectIdentifier{2, 5, 29, 35}

// CreateKeys makes a key pair as `eyaml createkeys` does: an RSA key (PEM "RSA PRIVATE KEY") and a
// self-signed certificate with serial 1, the subject as issuer, basicConstraints CA:TRUE
// (critical), a SHA-1 subject key identifier and an authority key identifier naming key id,
// issuer and serial, signed with SHA-256.
func CreateKeys(opts KeyOptions) (privatePEM, certPEM []byte, err error) {
	bits := opts.Bits
	if bits == 0 {
		bits = 2048
	}
	if bits < 1024 || bits > 16384 {
		return nil, nil, newErr(KindKeyNotRSA, nil, "key size %d is out of range (1024 to 16384 bits; the gem's default is 2048)", bits)
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	key, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		return nil, nil, newErr(KindUnknown, err, "cannot generate an RSA key")
	}
	pubDER, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, nil, newErr(KindUnknown, err, "cannot encode the public key")
	}
	var spki struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}
	if _, err := asn1.Unmarshal(pubDER, &spki); err != nil {
		return nil, nil, newErr(KindUnknown, err, "cannot encode the public key")
	}
	keyID := sha1.Sum(spki.PublicKey.Bytes) //nolint:gosec // RFC 5280 method 1, as OpenSSL
	serial := big.NewInt(1)
	rawSubject, err := parseSubject(opts.Subject)
	if err != nil {
		return nil, nil, err
	}
	// The gem sets no issuer: it stays the empty name, whatever the subject, and the authority key
	// identifier names that issuer.
	noName := tlv(derSequence)
	aki := tlv(derSequence,
		tlv(derContext0Raw, keyID[:]),
		tlv(derContext1, tlv(derContext4, noName)),
		tlv(derContext2Raw, []byte{1})) // serial 1, the INTEGER's body under an implicit [2] tag
	template := &x509.Certificate{
		SerialNumber:          serial,
		RawSubject:            rawSubject,
		NotBefore:             now,
		NotAfter:              now.Add(keyValidity),
		BasicConstraintsValid: true,
		IsCA:                  true,
		SubjectKeyId:          keyID[:],
		ExtraExtensions:       []pkix.Extension{{Id: oidExtAuthorityKeyID, Value: aki}},
		SignatureAlgorithm:    x509.SHA256WithRSA,
	}
	issuer := &x509.Certificate{RawSubject: noName, SubjectKeyId: keyID[:]}
	der, err := x509.CreateCertificate(rand.Reader, template, issuer, &key.PublicKey, key)
	if err != nil {
		return nil, nil, newErr(KindUnknown, err, "cannot sign the certificate")
	}
	privatePEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return privatePEM, certPEM, nil
}

// subjectAttributes are the names a subject may use, with the string type OpenSSL's
// X509::Name.parse gives their values (UTF8String unless the attribute needs another).
var subjectAttributes = map[string]struct {
	oid []byte
	tag byte
}{
	"CN":           {oidDER(2, 5, 4, 3), 0x0c},
	"C":            {oidDER(2, 5, 4, 6), 0x13}, // PrintableString
	"L":            {oidDER(2, 5, 4, 7), 0x0c},
	"ST":           {oidDER(2, 5, 4, 8), 0x0c},
	"O":            {oidDER(2, 5, 4, 10), 0x0c},
	"OU":           {oidDER(2, 5, 4, 11), 0x0c},
	"DC":           {oidDER(0, 9, 2342, 19200300, 100, 1, 25), 0x16}, // IA5String
	"emailAddress": {oidDER(1, 2, 840, 113549, 1, 9, 1), 0x16},
}

// parseSubject encodes an OpenSSL-style subject ("/CN=x/O=y", each attribute a set of its own, in
// the order given) as a DER Name.
func parseSubject(subject string) ([]byte, error) {
	var rdns [][]byte
	for _, part := range strings.Split(strings.TrimPrefix(subject, "/"), "/") {
		if part == "" {
			continue
		}
		name, value, ok := strings.Cut(part, "=")
		attr, known := subjectAttributes[name]
		if !ok || !known {
			return nil, newErr(KindCertificate, nil, "subject %q: %q is not NAME=value with NAME one of CN, O, OU, L, ST, C, DC, emailAddress", subject, part)
		}
		rdns = append(rdns, tlv(derSet, tlv(derSequence, attr.oid, tlv(attr.tag, []byte(value)))))
	}
	return tlv(derSequence, rdns...), nil
}
