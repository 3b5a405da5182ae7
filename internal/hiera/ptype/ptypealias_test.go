package ptype

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// testAliases are the definitions of stdlib's and ntp's aliases the cases use (modelled on
// puppetlabs-stdlib and puppetlabs-ntp, Apache-2.0), and aliases that refer to themselves.
var testAliases = map[string]string{
	"Stdlib::Absolutepath": `Variant[Stdlib::Windowspath, Stdlib::Unixpath]`,
	"Stdlib::Windowspath":  `Pattern[/\A(([a-zA-Z]:[\\\/])|([\\\/][\\\/][^\\\/]+[\\\/][^\\\/]+)|([\\\/][\\\/]\?[\\\/][^\\\/]+)).*\z/]`,
	"Stdlib::Unixpath":     `Pattern[/\A\/([^\n\/\0]+\/*)*\z/]`,
	"Stdlib::Port":         `Integer[0, 65535]`,
	"Ntp::Key_id":          `Integer[1, 65534]`,
	"Profile::Tree":        `Array[Variant[String, Profile::Tree]]`,
	"Profile::A":           `Profile::B`,
	"Profile::B":           `Profile::A`,
	"Profile::Selfish":     `Variant[String, Profile::Selfish]`,
	"Profile::Broken":      `Array[String`,
	"Profile::Uses_broken": `Optional[Profile::Broken]`,
}

func newTestAliases() *Aliases {
	return NewAliases(func(name string) (string, string, bool) {
		for k, v := range testAliases {
			if strings.EqualFold(k, name) {
				return k, v, true
			}
		}
		return "", "", false
	})
}

// TestCheckParameter: the messages real Puppet 7.23 raised compiling these classes with these
// values (puppet apply --noop -e 'include ntp'), a parameter at a time.
func TestCheckParameter(t *testing.T) {
	aliases := newTestAliases()
	hash := model.NewHash(1)
	hash.Set("a", int64(1))
	for _, c := range []struct {
		class, param, typ string
		value             any
		want              string
	}{
		{"Class[Ntp]", "config", "Stdlib::Absolutepath", "relative/path",
			`Class[Ntp]: parameter 'config' expects a Stdlib::Absolutepath = Variant[Stdlib::Windowspath = Pattern[/\A(([a-zA-Z]:[\\\/])|([\\\/][\\\/][^\\\/]+[\\\/][^\\\/]+)|([\\\/][\\\/]\?[\\\/][^\\\/]+)).*\z/], Stdlib::Unixpath = Pattern[/\A\/([^\n\/\0]+\/*)*\z/]] value, got String`},
		{"Class[Ntp]", "config", "Stdlib::Absolutepath", "/etc/ntp.conf", ""},
		{"Class[Ntp]", "keys_controlkey", "Optional[Ntp::Key_id]", int64(70000),
			"Class[Ntp]: parameter 'keys_controlkey' expects a Ntp::Key_id = Integer[1, 65534] value, got Integer[70000, 70000]"},
		{"Class[Ntp]", "servers", "Array[String]", "pool.ntp.org", "Class[Ntp]: parameter 'servers' expects an Array value, got String"},
		{"Class[Ntp]", "service_ensure", "Enum['running', 'stopped']", "stoped",
			"Class[Ntp]: parameter 'service_ensure' expects a match for Enum['running', 'stopped'], got 'stoped'"},
		{"Class[Ntp]", "statistics", "Optional[Array]", hash, "Class[Ntp]: parameter 'statistics' expects a value of type Undef or Array, got Struct"},
		{"Class[Ntp]", "tos_cohort", "Variant[Boolean, Integer[0,1]]", "yes",
			"Class[Ntp]: parameter 'tos_cohort' expects a value of type Boolean or Integer, got String"},
		{"Class[Profile::Base]", "secret", "Sensitive[String[8]]", "short",
			"Class[Profile::Base]: parameter 'secret' expects a Sensitive[String] value, got String"},
		{"Class[Profile::Base]", "secret", "Sensitive[String[8]]", SensitiveValue{"short"}, ""},
		{"Class[Profile::Base]", "admin_port", "Stdlib::Port", int64(70000),
			"Class[Profile::Base]: parameter 'admin_port' expects a Stdlib::Port = Integer[0, 65535] value, got Integer[70000, 70000]"},
		{"Class[Profile::Nodefault]", "b", "Boolean", nil, "Class[Profile::Nodefault]: parameter 'b' expects a Boolean value, got Undef"},
		{"Class[Profile::Tree]", "t", "Profile::Tree", []any{"a", []any{"b", []any{"c", int64(1)}}},
			"Class[Profile::Tree]:\n" +
				"  parameter 't' index 1 variant 0 expects a String value, got Tuple\n" +
				"  parameter 't' index 1 variant 1 index 1 variant 0 expects a String value, got Tuple\n" +
				"  parameter 't' index 1 variant 1 index 1 variant 1 index 1 expects a value of type String or Profile::Tree = Array[Variant[String, Profile::Tree]], got Integer"},
		{"Class[Profile::Tree]", "t", "Profile::Tree", []any{"a", []any{"b", []any{"c"}}}, ""},
	} {
		typ, err := aliases.Parse(c.typ)
		if err != nil {
			t.Fatalf("%s: %v", c.typ, err)
		}
		if got := CheckParameter(c.class, c.param, typ, c.value); got != c.want {
			t.Errorf("%s %s = %v:\ngot  %s\nwant %s", c.typ, c.param, c.value, got, c.want)
		}
	}
}

// TestAliasErrors: an alias that cannot be used is an error naming it, every time it is used;
// a name no alias has stays a reference (Unresolved names it).
func TestAliasErrors(t *testing.T) {
	aliases := newTestAliases()
	for _, c := range []struct{ typ, want string }{
		{"Profile::A", "Type alias 'Profile::A' cannot be resolved to a real type"},
		{"Optional[Profile::B]", "Type alias 'Profile::B' cannot be resolved to a real type"},
		{"Profile::Selfish", "Type alias 'Profile::Selfish' refers to itself outside an Array, Hash, Tuple, Struct or Sensitive: it cannot be checked"},
		{"Profile::Broken", "type alias 'Profile::Broken': Syntax error at end of input"},
		{"Profile::Uses_broken", "type alias 'Profile::Broken': Syntax error at end of input"},
		{"Profile::A", "Type alias 'Profile::A' cannot be resolved to a real type"},
	} {
		if _, err := aliases.Parse(c.typ); err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %s", c.typ, err, c.want)
		}
	}
	typ, err := aliases.Parse("Array[Profile::Nope]")
	if err != nil || Unresolved(typ) != "Profile::Nope" {
		t.Errorf("unknown alias: got %v, %v", typ, err)
	}
}

// branchingAliases defines M::L0 ... M::L<levels> where each level's definition is form with NEXT
// the next level's name, and the last is Integer: Variants whose members lead to the same next
// alias, 2^levels paths (and more) to the Integer.
func branchingAliases(t *testing.T, levels int, form string) *Type {
	t.Helper()
	defs := map[string]string{}
	for i := range levels {
		defs[strings.ToLower(fmt.Sprintf("M::L%d", i))] = strings.ReplaceAll(form, "NEXT", fmt.Sprintf("M::L%d", i+1))
	}
	defs[strings.ToLower(fmt.Sprintf("M::L%d", levels))] = "Integer"
	typ, err := NewAliases(func(name string) (string, string, bool) {
		src, ok := defs[strings.ToLower(name)]
		return name, src, ok
	}).Parse("M::L0")
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

// Aliases whose Variants share the next level are checked in steps linear in the levels (each
// alias against each part of the value once), where every path was followed (x2 per level).
func TestCheckBranchingAliasesLinear(t *testing.T) {
	const levels = 30
	for _, form := range []string{"Variant[NEXT, Array[NEXT]]", "Variant[Array[NEXT], Hash[String, NEXT], NEXT]", "Variant[Optional[NEXT], NotUndef[NEXT]]"} {
		typ := branchingAliases(t, levels, form)
		for _, v := range []any{"x", int64(5), []any{"x", []any{"y"}}, nil} {
			c := new(checker)
			c.assignable(typ, inferType(v))
			if c.steps > 100*levels {
				t.Errorf("%s against %v: %d steps", form, v, c.steps)
			}
		}
	}
	typ := branchingAliases(t, levels, "Variant[NEXT, Array[NEXT]]")
	if msg := CheckParameter("Class[X]", "p", typ, int64(5)); msg != "" {
		t.Errorf("5 is an instance: %s", msg)
	}
	// The message expands at most maxAliasExpansions aliases (each level's expansion doubled).
	msg := CheckParameter("Class[X]", "p", typ, "x")
	if !strings.HasPrefix(msg, "Class[X]: parameter 'p' expects a M::L0 = Variant[M::L1 = Variant[") || len(msg) > 100*maxAliasExpansions {
		t.Errorf("%d bytes: %.300s", len(msg), msg)
	}
}

// A mismatch whose description branches past maxDescribeSteps says that it cannot be checked.
func TestCheckBranchingAliasesCannotBeChecked(t *testing.T) {
	typ := branchingAliases(t, 20, "Variant[Tuple[NEXT, NEXT], Struct[{a => NEXT, Optional[b] => NEXT}], NEXT]")
	value := []any{[]any{"x"}, []any{"y", []any{"z"}}}
	want := "Class[X]: parameter 'p' cannot be checked: M::L0 branches into more than 1048576 steps of checking or 8192 of describing the mismatch " +
		"(type aliases whose Variants lead to the same aliases, level after level)"
	if msg := CheckParameter("Class[X]", "p", typ, value); msg != want {
		t.Errorf("got  %s\nwant %s", msg, want)
	}
	if msg := Check("Found value", typ, value); !strings.HasPrefix(msg, "Found value cannot be checked: M::L0 branches") {
		t.Errorf("got %s", msg)
	}
}
