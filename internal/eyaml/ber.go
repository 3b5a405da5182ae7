package eyaml

import (
	"errors"
	"strconv"
	"strings"
)

// A minimal BER reader. encoding/asn1 accepts only DER, but hiera-eyaml
// (OpenSSL) also decrypts indefinite-length BER, e.g. `openssl smime -stream`.

const maxDepth = 32 // bounds recursion on hostile input

const (
	classUniversal = 0
	classContext   = 2

	tagInteger     = 2
	tagOctetString = 4
	tagOID         = 6
	tagSequence    = 16
	tagSet         = 17
)

// node is one decoded TLV element.
type node struct {
	class       int
	tag         int
	constructed bool
	raw         []byte // the whole element, for byte comparisons
	body        []byte // contents, without an end-of-contents marker
}

func (n node) is(class, tag int) bool { return n.class == class && n.tag == tag }

// parseNode reads one element from b and returns it with the bytes after it.
func parseNode(b []byte, depth int) (node, []byte, error) {
	var n node
	if depth > maxDepth {
		return n, nil, errors.New("ASN.1 nesting too deep")
	}
	if len(b) < 2 {
		return n, nil, errors.New("truncated ASN.1 element")
	}
	n.class = int(b[0] >> 6)
	n.constructed = b[0]&0x20 != 0
	n.tag = int(b[0] & 0x1f)
	i := 1
	if n.tag == 0x1f { // high-tag-number form
		n.tag = 0
		for {
			if i >= len(b) || i > 4 {
				return n, nil, errors.New("bad ASN.1 tag")
			}
			c := b[i]
			i++
			n.tag = n.tag<<7 | int(c&0x7f)
			if c&0x80 == 0 {
				break
			}
		}
	}
	if i >= len(b) {
		return n, nil, errors.New("truncated ASN.1 element")
	}
	l := int(b[i])
	i++
	switch {
	case l == 0x80: // indefinite length: children up to 00 00
		if !n.constructed {
			return n, nil, errors.New("indefinite length on primitive ASN.1 element")
		}
		cur := b[i:]
		for {
			if len(cur) >= 2 && cur[0] == 0 && cur[1] == 0 {
				end := len(b) - len(cur)
				n.body, n.raw = b[i:end], b[:end+2]
				return n, cur[2:], nil
			}
			var err error
			if _, cur, err = parseNode(cur, depth+1); err != nil {
				return n, nil, err
			}
		}
	case l > 0x80: // long form: l&0x7f length bytes follow
		nb := l & 0x7f
		l = 0
		for ; nb > 0; nb-- {
			if i >= len(b) || l > len(b) { // the second test also stops overflow
				return n, nil, errors.New("truncated ASN.1 element")
			}
			l = l<<8 | int(b[i])
			i++
		}
	}
	if l > len(b)-i {
		return n, nil, errors.New("truncated ASN.1 element")
	}
	n.body, n.raw = b[i:i+l], b[:i+l]
	return n, b[i+l:], nil
}

// children parses the contents of a constructed element.
func (n node) children() ([]node, error) {
	if !n.constructed {
		return nil, errors.New("expected a constructed ASN.1 element")
	}
	var out []node
	for rest := n.body; len(rest) > 0; {
		c, r, err := parseNode(rest, 0)
		if err != nil {
			return nil, err
		}
		out, rest = append(out, c), r
	}
	return out, nil
}

// octets returns an OCTET STRING's bytes; BER may split it into chunks, constructed strings
// nested at most maxDepth deep. The chunks are walked twice, to size the result and to fill it,
// holding no chunk: a value of one-byte chunks costs its content's bytes, not a node per chunk.
func (n node) octets() ([]byte, error) {
	if !n.constructed {
		return n.body, nil
	}
	size := 0
	if err := n.eachChunk(0, func(b []byte) { size += len(b) }); err != nil {
		return nil, err
	}
	out := make([]byte, 0, size)
	_ = n.eachChunk(0, func(b []byte) { out = append(out, b...) }) // the walk above met no error
	return out, nil
}

// eachChunk calls each with the contents of every primitive chunk of an OCTET STRING, in order.
func (n node) eachChunk(depth int, each func([]byte)) error {
	if !n.constructed {
		each(n.body)
		return nil
	}
	if depth > maxDepth {
		return errors.New("ASN.1 nesting too deep")
	}
	for rest := n.body; len(rest) > 0; {
		c, r, err := parseNode(rest, 0)
		if err != nil {
			return err
		}
		if !c.is(classUniversal, tagOctetString) {
			return errors.New("bad chunk in constructed OCTET STRING")
		}
		if err := c.eachChunk(depth+1, each); err != nil {
			return err
		}
		rest = r
	}
	return nil
}

// oid returns an OBJECT IDENTIFIER in dotted form.
func (n node) oid() (string, error) {
	if !n.is(classUniversal, tagOID) || n.constructed || len(n.body) == 0 {
		return "", errors.New("expected an OBJECT IDENTIFIER")
	}
	var parts []string
	var v uint64
	for i, c := range n.body {
		if v > 1<<56 {
			return "", errors.New("OBJECT IDENTIFIER component too large")
		}
		v = v<<7 | uint64(c&0x7f)
		if c&0x80 != 0 {
			if i == len(n.body)-1 {
				return "", errors.New("truncated OBJECT IDENTIFIER")
			}
			continue
		}
		if parts == nil { // first byte packs two arcs
			first := min(v/40, 2)
			parts = append(parts, strconv.FormatUint(first, 10))
			v -= first * 40
		}
		parts = append(parts, strconv.FormatUint(v, 10))
		v = 0
	}
	return strings.Join(parts, "."), nil
}
