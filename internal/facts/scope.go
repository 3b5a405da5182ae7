package facts

import (
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Certname is the node's certname: the name the file gives, else its clientcert fact, else its
// fqdn fact, else its networking.fqdn fact in lower case (Facter 4's facter -j prints no top-level
// fqdn; a Puppet agent's certname defaults to its fqdn: CertnameNote says so), else "".
func (n *Node) Certname() string {
	if c := n.givenCertname(); c != "" {
		return c
	}
	return hiera.NetworkingFQDN(n.Facts)
}

// CertnameNote is the warning to give when the certname comes from networking.fqdn, else "".
func (n *Node) CertnameNote() string {
	if n.givenCertname() != "" {
		return ""
	}
	if c := hiera.NetworkingFQDN(n.Facts); c != "" {
		return hiera.CertnameFromFQDNNote(c)
	}
	return ""
}

// givenCertname is the certname the file names: its name, clientcert or fqdn fact; else "".
func (n *Node) givenCertname() string {
	if n.Name != "" {
		return n.Name
	}
	for _, fact := range []string{"clientcert", "fqdn"} {
		if v, _ := n.Facts.Get(fact); v != nil {
			if s, ok := v.(string); ok && s != "" {
				return s
			}
		}
	}
	return ""
}

// Scope is the scope `puppet lookup --node certname --facts FILE` gives a hierarchy: the facts,
// and $trusted as Puppet sets it for a node not compiled with its certificate (authenticated
// "local", no extensions), unless the facts hold the node's trusted data (hiera.TrustedFact: a
// PuppetDB node's facts). facts may be nil; with certname "" there is no $trusted.
func Scope(facts *model.Hash, certname string) hiera.Scope {
	if facts == nil {
		facts = model.NewHash(0)
	}
	vars := model.NewHash(1)
	if certname != "" {
		if _, stored := hiera.TrustedFact(facts); !stored { // else the engine takes the stored data
			vars.Set("trusted", Trusted(certname))
		}
		facts = withNameFacts(facts, certname)
	}
	return hiera.Scope{Facts: facts, Vars: vars}
}

// Trusted is Puppet's $trusted hash (TrustedInformation#to_h) for certname, as `puppet lookup`
// builds it: hostname and domain split at the first dot.
func Trusted(certname string) *model.Hash {
	var hostname, domain any = certname, nil
	if host, dom, ok := strings.Cut(certname, "."); ok {
		hostname, domain = host, dom
	}
	t := model.NewHash(6)
	t.Set("authenticated", "local")
	t.Set("certname", certname)
	t.Set("extensions", model.NewHash(0))
	t.Set("hostname", hostname)
	t.Set("domain", domain)
	t.Set("external", model.NewHash(0))
	return t
}

// withNameFacts adds the facts Puppet's node gives from its certname where the file has none:
// clientcert and fqdn, hostname and domain split at the first dot (as the recorded Puppet answers
// of the conformance corpus show).
func withNameFacts(facts *model.Hash, certname string) *model.Hash {
	host, domain, _ := strings.Cut(certname, ".")
	defaults := [][2]string{{"hostname", host}, {"domain", domain}, {"fqdn", certname}, {"clientcert", certname}}
	out := facts
	for _, d := range defaults {
		if _, has := facts.Get(d[0]); has {
			continue
		}
		if out == facts {
			out = model.NewHash(facts.Len() + len(defaults))
			facts.Each(func(k, v any) bool { out.Set(k, v); return true })
		}
		out.Set(d[0], d[1])
	}
	return out
}
