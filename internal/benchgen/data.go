package benchgen

import (
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
)

// Vocabularies for generated names and values. None of the words is a YAML 1.1 boolean or null.
var (
	modules   = []string{"ntp", "ssh", "nginx", "postgresql", "redis", "haproxy", "sudo", "users", "firewall", "logrotate", "sysctl", "docker"}
	sections  = []string{"service", "package", "config", "limits", "logging", "monitoring", "backup", "tuning"}
	groups    = []string{"settings", "options", "paths", "users", "ports", "flags", "timeouts", "features"}
	leaves    = []string{"enabled", "port", "timeout", "max_conn", "path", "owner", "mode", "level", "retries", "workers", "listen", "tags"}
	words     = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform"}
	sentences = []string{"Managed by Puppet, do not edit", "Ask the platform team before changing this", "Tuned for the 2023 load test", "See runbook: https://wiki.example.com/ops"}
)

// interpolated are the values of InterpKey, chosen by index; they reach facts, trusted data, the
// environment, and other keys through lookup().
var interpolated = []any{
	"%{facts.hostname}.%{lookup('bench::base::domain')}",
	"https://%{lookup('bench::base::repo_url')}/%{facts.os.family}/%{facts.os.release.major}",
	"%{trusted.certname}-%{::environment}-%{facts.location}",
	obj{
		{"server", "%{lookup('bench::base::ntp_server')}"},
		{"node", "%{facts.networking.fqdn}"},
		{"env", "%{environment}"},
		{"role", "%{facts.role}"},
	},
}

// kv and obj are an ordered hash while generating.
type kv struct {
	k string
	v any
}
type obj []kv

// dataFile returns the YAML of one data file of the given level with keys top-level keys.
func dataFile(r *rand.Rand, level string, keys int) string {
	var b strings.Builder
	b.WriteString("---\n")
	rest := keys - keys/10 - 2*(keys/20)
	if level == "common" {
		b.WriteString("lookup_options:\n  '^bench::deep::':\n    merge: deep\n")
		for i := 0; i < keys/20; i++ {
			fmt.Fprintf(&b, "  %s:\n    merge: unique\n", UniqueKey(i))
		}
		emit(&b, 0, BaseKeys[0], "example.com")
		emit(&b, 0, BaseKeys[1], "ntp1.%{facts.location}.example.com")
		emit(&b, 0, BaseKeys[2], "repo.example.com/%{::environment}")
		for i := 0; i < keys/20; i++ {
			emit(&b, 0, InterpKey(i), interpolated[i%len(interpolated)])
		}
		rest -= len(BaseKeys) + keys/20
	}
	for i := 0; i < keys/10; i++ {
		emit(&b, 0, DeepKey(i), hash3(r))
	}
	for i := 0; i < keys/20; i++ {
		emit(&b, 0, UniqueKey(i), array(r))
	}
	for i := 0; i < keys/20; i++ {
		emit(&b, 0, FirstKey(i), fmt.Sprintf("%s-%s-%d", level, pick(r, words), r.Intn(1000)))
	}
	for i := 0; i < rest; i++ {
		var v any
		switch n := r.Intn(20); {
		case n < 8:
			v = scalar(r)
		case n < 13:
			v = array(r)
		default:
			v = hash3(r)
		}
		emit(&b, 0, LevelKey(level, i), v)
	}
	return b.String()
}

// floorData is the floor hierarchy's only data file.
func floorData() string {
	var b strings.Builder
	b.WriteString("---\n")
	for i := 0; i < FloorKeys; i++ {
		emit(&b, 0, FloorKey(i), fmt.Sprintf("value%04d", i))
	}
	return b.String()
}

// hash3 is a three-level hash whose names come from small vocabularies, so the same key on
// different levels overlaps and deep merges have work to do.
func hash3(r *rand.Rand) obj {
	var h obj
	for _, s := range sample(r, sections, 2+r.Intn(2)) {
		var g obj
		for _, name := range sample(r, groups, 2+r.Intn(2)) {
			var l obj
			for _, leaf := range sample(r, leaves, 2+r.Intn(3)) {
				if leaf == "tags" {
					l = append(l, kv{leaf, array(r)})
				} else {
					l = append(l, kv{leaf, scalar(r)})
				}
			}
			g = append(g, kv{name, l})
		}
		h = append(h, kv{s, g})
	}
	return h
}

// array is a short list of strings drawn from a small set, so arrays on different levels share items.
func array(r *rand.Rand) []any {
	out := make([]any, 2+r.Intn(4))
	for i := range out {
		out[i] = fmt.Sprintf("%s-%d", pick(r, words), r.Intn(8))
	}
	return out
}

func scalar(r *rand.Rand) any {
	switch r.Intn(10) {
	case 0, 1:
		return int64(r.Intn(65536))
	case 2:
		return r.Intn(2) == 0
	case 3:
		return float64(r.Intn(10000)) / 100
	case 4:
		return pick(r, sentences)
	default:
		return fmt.Sprintf("%s-%s-%d", pick(r, words), pick(r, words), r.Intn(1000))
	}
}

func pick(r *rand.Rand, list []string) string { return list[r.Intn(len(list))] }

// sample returns n distinct entries of list in random order.
func sample(r *rand.Rand, list []string, n int) []string {
	idx := r.Perm(len(list))[:n]
	out := make([]string, n)
	for i, j := range idx {
		out[i] = list[j]
	}
	return out
}

// emit writes key: value as block YAML at the given indentation (two spaces per level).
func emit(b *strings.Builder, indent int, key string, v any) {
	pad := strings.Repeat("  ", indent)
	switch t := v.(type) {
	case obj:
		b.WriteString(pad + key + ":\n")
		for _, e := range t {
			emit(b, indent+1, e.k, e.v)
		}
	case []any:
		b.WriteString(pad + key + ":\n")
		for _, e := range t {
			b.WriteString(pad + "  - " + yamlScalar(e) + "\n")
		}
	default:
		b.WriteString(pad + key + ": " + yamlScalar(t) + "\n")
	}
}

var plainString = regexp.MustCompile(`^[a-z][a-z0-9_./-]*$`)

// yamlScalar writes a scalar so that YAML reads back the same value and type.
func yamlScalar(v any) string {
	switch t := v.(type) {
	case string:
		if plainString.MatchString(t) {
			return t
		}
		return strconv.Quote(t) // ASCII only, so Go's escapes are YAML's
	case int64:
		return strconv.FormatInt(t, 10)
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return strconv.FormatFloat(t, 'f', 2, 64)
	}
	panic(fmt.Sprintf("benchgen: unexpected scalar %T", v))
}
