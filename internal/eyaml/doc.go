// Package eyaml decrypts and encrypts hiera-eyaml ENC[PKCS7,...] values in pure Go, makes key
// pairs as `eyaml createkeys` does, and reads and writes eyaml files as the gem's parser splits
// them (decrypt -f, the edit form DEC(n)::PKCS7[...]!, recrypt).
//
// hiera-eyaml's PKCS7 encryptor writes OpenSSL PKCS#7 EnvelopedData (DER,
// base64) for one recipient: the AES-256-CBC content key is wrapped with
// RSA PKCS#1 v1.5 for the certificate made by `eyaml createkeys`. This
// package parses that structure itself (BER too, as OpenSSL accepts it) and
// supports aes-128/192/256-cbc and des-ede3-cbc content ciphers. Encryption writes what the gem
// writes: AES-256-CBC, one recipient named by the certificate's issuer and serial.
//
// Errors are *Error values with a Kind; messages never hold plaintext or
// key material. Fixtures in testdata/ come from the real tools: see
// testdata/regen.sh.
package eyaml
