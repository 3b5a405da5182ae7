package datafile

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// SourceLine is the 1-based line of a node of a YAML (or JSON) text, reached from the top mapping
// by path: a string step selects a mapping key (exactly, or a symbol key without its ':') and gives
// the key's own line, as Puppet reports it; an integer step (int, or int64 as parseKey gives it)
// selects a sequence element. Where the path leaves the text, the line of the last step found; 0
// when not even the first is. Only error paths use it, so re-reading the text is fine.
func SourceLine(src []byte, path ...any) int {
	line, _ := SourcePathLine(src, path...)
	return line
}

// SourcePathLine is SourceLine, and whether every step of path was found.
func SourcePathLine(src []byte, path ...any) (line int, whole bool) {
	defer func() {
		if recover() != nil {
			line, whole = 0, false
		}
	}()
	var doc yaml.Node
	if yaml.Unmarshal(src, &doc) != nil || len(doc.Content) == 0 {
		return 0, false
	}
	n := doc.Content[0]
	for _, step := range path {
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		if i, ok := step.(int); ok {
			step = int64(i)
		}
		var next *yaml.Node
		switch s := step.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return line, false
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Kind == yaml.ScalarNode && (k.Value == s || strings.TrimPrefix(k.Value, ":") == s) {
					next, line = n.Content[i+1], k.Line // a duplicate key: the last one wins
				}
			}
		case int64:
			if n.Kind == yaml.SequenceNode && s >= 0 && s < int64(len(n.Content)) {
				next = n.Content[s]
				line = next.Line
			}
		}
		if next == nil {
			return line, false
		}
		n = next
	}
	return line, true
}
