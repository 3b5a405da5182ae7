package eyaml

import (
	"bytes"
	"crypto/x509"
	"math/big"
)

// PKCS#7 EnvelopedData (RFC 2315 section 10), as OpenSSL writes it:
//
//	ContentInfo ::= SEQUENCE { contentType OID, content [0] EXPLICIT EnvelopedData }
//	EnvelopedData ::= SEQUENCE { version INTEGER, recipientInfos SET OF RecipientInfo,
//	                             encryptedContentInfo EncryptedContentInfo }
//	RecipientInfo ::= SEQUENCE { version INTEGER, issuerAndSerialNumber SEQUENCE,
//	                             keyEncryptionAlgorithm AlgorithmIdentifier, encryptedKey OCTET STRING }
//	EncryptedContentInfo ::= SEQUENCE { contentType OID, contentEncryptionAlgorithm AlgorithmIdentifier,
//	                                    encryptedContent [0] IMPLICIT OCTET STRING OPTIONAL }
//
// CMS additions (originatorInfo, subjectKeyIdentifier recipients) are tolerated.

const (
	oidEnvelopedData = "1.2.840.113549.1.7.3"
	oidRSAEncryption = "1.2.840.113549.1.1.1"
)

var contentTypeNames = map[string]string{
	"1.2.840.113549.1.7.1": "data",
	"1.2.840.113549.1.7.2": "signedData",
	"1.2.840.113549.1.7.4": "signedAndEnvelopedData",
	"1.2.840.113549.1.7.5": "digestedData",
	"1.2.840.113549.1.7.6": "encryptedData",
}

type recipient struct {
	issuer, serial []byte // raw Name and INTEGER contents; nil if not given
	skid           []byte // CMS subjectKeyIdentifier form
	keyAlg         string
	encryptedKey   []byte
}

// matches reports whether r names cert, as OpenSSL checks with a cert given.
func (r recipient) matches(cert *x509.Certificate) bool {
	if r.skid != nil {
		return bytes.Equal(r.skid, cert.SubjectKeyId)
	}
	return bytes.Equal(r.issuer, cert.RawIssuer) &&
		new(big.Int).SetBytes(r.serial).Cmp(cert.SerialNumber) == 0
}

type envelope struct {
	recipients []recipient
	cipherOID  string
	iv         []byte
	ciphertext []byte
}

func notPKCS7(detail string) error {
	return newErr(KindNotPKCS7, nil, "value is not PKCS7 encrypted data: %s", detail)
}

// seq parses n as a constructed element with the given universal tag.
func seq(n node, tag int, what string) ([]node, error) {
	if !n.is(classUniversal, tag) || !n.constructed {
		return nil, notPKCS7("bad " + what)
	}
	kids, err := n.children()
	if err != nil {
		return nil, notPKCS7(what + ": " + err.Error())
	}
	return kids, nil
}

func parseEnvelope(der []byte) (*envelope, error) {
	top, rest, err := parseNode(der, 0)
	if err != nil {
		return nil, notPKCS7(err.Error())
	}
	if len(rest) != 0 {
		return nil, notPKCS7("trailing data after the ASN.1 structure")
	}
	ci, err := seq(top, tagSequence, "ContentInfo")
	if err != nil {
		return nil, err
	}
	if len(ci) != 2 || !ci[1].is(classContext, 0) {
		return nil, notPKCS7("bad ContentInfo")
	}
	ct, err := ci[0].oid()
	if err != nil {
		return nil, notPKCS7("bad content type")
	}
	if ct != oidEnvelopedData {
		name := contentTypeNames[ct]
		if name == "" {
			name = ct
		}
		return nil, notPKCS7("content type is " + name + ", want envelopedData")
	}
	wrapped, err := ci[1].children()
	if err != nil || len(wrapped) != 1 {
		return nil, notPKCS7("bad EnvelopedData wrapper")
	}
	ed, err := seq(wrapped[0], tagSequence, "EnvelopedData")
	if err != nil {
		return nil, err
	}
	// version, [0] originatorInfo (CMS, skipped), recipientInfos, encryptedContentInfo
	if len(ed) > 1 && ed[1].is(classContext, 0) {
		ed = append(ed[:1:1], ed[2:]...)
	}
	if len(ed) < 3 || !ed[0].is(classUniversal, tagInteger) {
		return nil, notPKCS7("bad EnvelopedData")
	}
	env := &envelope{}
	ris, err := seq(ed[1], tagSet, "recipientInfos")
	if err != nil {
		return nil, err
	}
	for _, ri := range ris {
		if !ri.is(classUniversal, tagSequence) {
			continue // CMS key agreement / KEK / password recipients: not RSA
		}
		r, err := parseRecipient(ri)
		if err != nil {
			return nil, err
		}
		env.recipients = append(env.recipients, r)
	}
	if err := env.parseContent(ed[2]); err != nil {
		return nil, err
	}
	return env, nil
}

func parseRecipient(ri node) (recipient, error) {
	var r recipient
	f, err := seq(ri, tagSequence, "RecipientInfo")
	if err != nil {
		return r, err
	}
	if len(f) != 4 || !f[3].is(classUniversal, tagOctetString) {
		return r, notPKCS7("bad RecipientInfo")
	}
	switch {
	case f[1].is(classUniversal, tagSequence):
		ias, err := seq(f[1], tagSequence, "issuerAndSerialNumber")
		if err != nil {
			return r, err
		}
		if len(ias) != 2 || !ias[1].is(classUniversal, tagInteger) {
			return r, notPKCS7("bad issuerAndSerialNumber")
		}
		r.issuer, r.serial = ias[0].raw, ias[1].body
	case f[1].is(classContext, 0):
		r.skid = f[1].body
	default:
		return r, notPKCS7("bad recipient identifier")
	}
	alg, err := seq(f[2], tagSequence, "keyEncryptionAlgorithm")
	if err != nil {
		return r, err
	}
	if len(alg) == 0 {
		return r, notPKCS7("bad keyEncryptionAlgorithm")
	}
	if r.keyAlg, err = alg[0].oid(); err != nil {
		return r, notPKCS7("bad keyEncryptionAlgorithm")
	}
	if r.encryptedKey, err = f[3].octets(); err != nil {
		return r, notPKCS7("encryptedKey: " + err.Error())
	}
	return r, nil
}

func (env *envelope) parseContent(n node) error {
	eci, err := seq(n, tagSequence, "EncryptedContentInfo")
	if err != nil {
		return err
	}
	if len(eci) < 3 || !eci[2].is(classContext, 0) {
		return notPKCS7("no encrypted content")
	}
	alg, err := seq(eci[1], tagSequence, "contentEncryptionAlgorithm")
	if err != nil {
		return err
	}
	if len(alg) == 0 {
		return notPKCS7("bad contentEncryptionAlgorithm")
	}
	if env.cipherOID, err = alg[0].oid(); err != nil {
		return notPKCS7("bad contentEncryptionAlgorithm")
	}
	// The IV is checked once we know the cipher; an unknown cipher may
	// have other parameters, and should be reported as unsupported.
	if len(alg) > 1 && alg[1].is(classUniversal, tagOctetString) {
		if env.iv, err = alg[1].octets(); err != nil {
			return notPKCS7("IV: " + err.Error())
		}
	}
	// [0] IMPLICIT OCTET STRING: primitive, or chunked when constructed.
	if env.ciphertext, err = eci[2].octets(); err != nil {
		return notPKCS7("encryptedContent: " + err.Error())
	}
	return nil
}
