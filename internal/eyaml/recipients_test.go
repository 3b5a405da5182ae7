package eyaml

import "testing"

// manyRecipients is a value for "secret" whose recipients are n-1 of the other key's and ours at
// index ours (every eyaml certificate has issuer "/" and serial 1, so all name our certificate).
func manyRecipients(t *testing.T, n, ours int) string {
	t.Helper()
	recipientOf := func(certFile string) (recipient, version, content []byte) {
		ed := envelopedData(t, certFile, []byte("secret"))
		set, _ := ed[1].children()
		return set[0].raw, ed[0].raw, ed[2].raw
	}
	ourRecipient, version, content := recipientOf("public_key.pkcs7.pem")
	otherRecipient, _, _ := recipientOf("other_public_key.pkcs7.pem")
	recipients := make([][]byte, n)
	for i := range recipients {
		recipients[i] = otherRecipient
	}
	recipients[ours] = ourRecipient
	enveloped := tlv(derSequence, version, tlv(derSet, recipients...), content)
	return token(tlv(derSequence, oidDEREnveloped, tlv(derContext0, enveloped)))
}

func ourKeyWithCertificate(t *testing.T) *Decryptor {
	t.Helper()
	d, err := ourKey(t).WithCertificate([]byte(fixture(t, "keys/public_key.pkcs7.pem")))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// With the certificate, a value of many recipients costs one RSA decryption, as OpenSSL (the gem,
// Puppet) tries only the first recipient naming the certificate: ours first opens, ours later fails.
func TestDecryptManyRecipientsTriesTheFirstMatching(t *testing.T) {
	const n = 300
	d := ourKeyWithCertificate(t)
	if got, err := d.Decrypt(manyRecipients(t, n, 0)); err != nil || got != "secret" {
		t.Errorf("ours first: %q, %v", got, err)
	}
	wantKind(t, ignore(d.Decrypt(manyRecipients(t, n, n-1))), KindWrongKey, "encrypted for another key", "of its 300 recipients, the first")
	if got := d.rsaDecryptions.Load(); got != 2 {
		t.Errorf("%d RSA decryptions for two values of %d recipients, want 2", got, n)
	}
}

// Without the certificate each RSA recipient is tried, at most maxRecipientsTried of them.
func TestDecryptManyRecipientsWithoutCertificate(t *testing.T) {
	d := ourKey(t)
	if got, err := d.Decrypt(manyRecipients(t, maxRecipientsTried, maxRecipientsTried-1)); err != nil || got != "secret" {
		t.Errorf("ours last of %d: %q, %v", maxRecipientsTried, got, err)
	}
	wantKind(t, ignore(d.Decrypt(manyRecipients(t, 300, 299))), KindWrongKey, "after its first 16 recipients", "give the public key")
	if got := d.rsaDecryptions.Load(); got != 2*maxRecipientsTried {
		t.Errorf("%d RSA decryptions, want %d", got, 2*maxRecipientsTried)
	}
}

// A value is decrypted once per decryptor, however many lookups (the nodes of a fleet) ask for it;
// a value it cannot open is not tried again either.
func TestDecryptOncePerValue(t *testing.T) {
	d := ourKeyWithCertificate(t)
	good, bad := manyRecipients(t, 3, 0), manyRecipients(t, 3, 2)
	for range 5 {
		if got, err := d.Decrypt(good); err != nil || got != "secret" {
			t.Fatalf("%q, %v", got, err)
		}
		if got, _, err := d.ReplaceAll("a: " + good + " b: " + good); err != nil || got != "a: secret b: secret" {
			t.Fatalf("%q, %v", got, err)
		}
		wantKind(t, ignore(d.Decrypt(bad)), KindWrongKey)
	}
	if got := d.rsaDecryptions.Load(); got != 2 {
		t.Errorf("%d RSA decryptions for two values asked for 20 times, want 2", got)
	}
}
