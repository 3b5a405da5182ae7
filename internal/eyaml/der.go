package eyaml

// A minimal DER writer for the structures eyaml writes: definite lengths, as OpenSSL encodes them.

const (
	derInteger     = 0x02
	derOctetString = 0x04
	derNull        = 0x05
	derOID         = 0x06
	derSequence    = 0x30
	derSet         = 0x31
	derContext0    = 0xa0 // [0] constructed
	derContext0Raw = 0x80 // [0] primitive
	derContext1    = 0xa1 // [1] constructed
	derContext2Raw = 0x82 // [2] primitive
	derContext4    = 0xa4 // [4] constructed
)

// tlv encodes one element: tag, DER length, then the bodies concatenated.
func tlv(tag byte, bodies ...[]byte) []byte {
	n := 0
	for _, b := range bodies {
		n += len(b)
	}
	out := []byte{tag}
	switch {
	case n < 0x80:
		out = append(out, byte(n))
	default:
		var l []byte
		for m := n; m > 0; m >>= 8 {
			l = append([]byte{byte(m)}, l...)
		}
		out = append(append(out, 0x80|byte(len(l))), l...)
	}
	for _, b := range bodies {
		out = append(out, b...)
	}
	return out
}

// oidDER is the DER of a dotted OID whose arcs after the first two are all below 2^28.
func oidDER(arcs ...uint32) []byte {
	body := []byte{byte(arcs[0]*40 + arcs[1])}
	for _, a := range arcs[2:] {
		var enc []byte
		enc = append(enc, byte(a&0x7f))
		for a >>= 7; a > 0; a >>= 7 {
			enc = append([]byte{byte(a&0x7f) | 0x80}, enc...)
		}
		body = append(body, enc...)
	}
	return tlv(derOID, body)
}
