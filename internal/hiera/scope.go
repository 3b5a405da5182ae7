package hiera

import (
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// scope resolves the variables interpolation sees, as Puppet's top scope does: every fact is a
// top-scope variable, plus facts, trusted, server_facts and environment; other variables given by
// the caller win over facts. locals are the temporary mapped_paths variables.
type scope struct {
	facts       *model.Hash
	vars        *model.Hash
	locals      map[string]any
	environment string

	trusted any // built lazily: the caller's trusted hash completed as `puppet lookup` does
}

// newScope is the scope of a lookup in the named environment ("" for Puppet's default, production).
func newScope(s Scope, environment string) scope {
	facts := s.Facts
	if facts == nil {
		facts = model.NewHash(0)
	}
	vars := s.Vars
	if vars == nil {
		vars = model.NewHash(0)
	}
	if environment == "" {
		environment = "production"
	}
	return scope{facts: facts, vars: vars, environment: environment}
}

// get returns the variable name (a leading "::" means top scope, which is the only scope here).
// found is false for a variable that does not exist at all.
func (s *scope) get(name string) (any, bool) {
	name = strings.TrimPrefix(name, "::")
	if v, ok := s.locals[name]; ok {
		return v, true
	}
	if name == "trusted" {
		return s.trustedHash(), true
	}
	if v, ok := s.vars.Get(name); ok {
		return v, true
	}
	switch name {
	case "facts":
		return s.facts, true
	case "environment":
		return s.environment, true
	case "server_facts":
		return model.NewHash(0), true
	}
	return s.facts.Get(name)
}

// trustedHash is the caller's trusted hash with the fields `puppet lookup` fills in for a node
// (authenticated, certname, domain, hostname, extensions) added where missing. A node's trusted
// data stored among its facts comes first, as Puppet takes it (TrustedFact).
func (s *scope) trustedHash() any {
	if s.trusted != nil {
		return s.trusted
	}
	given, ok := s.vars.Get("trusted")
	if ok {
		if _, isHash := given.(*model.Hash); !isHash {
			s.trusted = given // not a hash: the caller's choice, kept as is
			return given
		}
	}
	var t *model.Hash
	if stored, ok := TrustedFact(s.facts); ok {
		t = model.NewHash(stored.Len())
		stored.Each(func(k, v any) bool { t.Set(k, v); return true })
	} else {
		t = model.NewHash(5)
		fact := func(k string) any { v, _ := s.facts.Get(k); return v }
		certname := fact("clientcert")
		if certname == nil {
			certname = fact("fqdn")
		}
		if certname == nil {
			if fqdn := NetworkingFQDN(s.facts); fqdn != "" {
				certname = fqdn
			}
		}
		t.Set("authenticated", "local")
		t.Set("certname", certname)
		t.Set("domain", fact("domain"))
		t.Set("hostname", fact("hostname"))
		t.Set("extensions", model.NewHash(0))
	}
	if gh, isHash := given.(*model.Hash); isHash {
		gh.Each(func(k, v any) bool { t.Set(k, v); return true })
	}
	s.trusted = t
	return t
}

// TrustedFact is a node's trusted data stored as its "trusted" fact, as PuppetDB stores it (and
// so its exports and `puppet facts` of a node from PuppetDB hold it): a hash with authenticated,
// certname and extensions. Puppet (Node#sanitize) makes such a fact the node's $trusted, as it
// is; $facts keeps it too. Any other "trusted" fact is not trusted data.
func TrustedFact(facts *model.Hash) (*model.Hash, bool) {
	if facts == nil {
		return nil, false
	}
	v, _ := facts.Get("trusted")
	t, ok := v.(*model.Hash)
	if !ok {
		return nil, false
	}
	for _, k := range []string{"authenticated", "certname", "extensions"} {
		if _, has := t.Get(k); !has {
			return nil, false
		}
	}
	return t, true
}

// NetworkingFQDN is the certname a Puppet agent takes by default, its fqdn in lower case, from the
// networking.fqdn fact of facts as Facter 4 prints them (`facter -j` prints no top-level fqdn or
// clientcert), or "".
func NetworkingFQDN(facts *model.Hash) string {
	networking, _ := facts.Get("networking")
	n, isHash := networking.(*model.Hash)
	if !isHash {
		return ""
	}
	fqdn, _ := n.Get("fqdn")
	s, _ := fqdn.(string)
	return strings.ToLower(s)
}

// CertnameFromFQDNNote is the warning that a node's certname was taken from its networking.fqdn
// fact: the facts name no certname, clientcert or fqdn.
func CertnameFromFQDNNote(certname string) string {
	return fmt.Sprintf("The facts name no certname, clientcert or fqdn (Facter 4's facter -j prints none of them): trusted.certname is %q, "+
		"from the fact networking.fqdn, as a Puppet agent's certname defaults to its fqdn. If the node's certificate names it "+
		"otherwise, give its certname: a clientcert fact, scope = { trusted = { certname = ... } }, or hieraform's --node.", certname)
}

// withLocal returns a copy of s with one extra local variable (for mapped_paths templates).
func (s *scope) withLocal(name string, v any) *scope {
	c := *s
	c.locals = map[string]any{name: v}
	return &c
}
