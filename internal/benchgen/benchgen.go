// Package benchgen writes deterministic Hiera hierarchies for benchmarks.
//
// The bench hierarchy is shaped like a Puppet control repository: a version 5 hiera.yaml with six
// levels (node, role, environment, location, os family, common) whose paths interpolate facts and
// trusted data, and data files of about Options.Keys keys each, mixing scalars, arrays and
// three-level hashes. Some keys exist on every level (for merges), common.yaml carries
// lookup_options (deep by regexp, unique by name) and a few values interpolate facts and other keys.
//
// The floor hierarchy is one small file where every lookup is trivial; it measures everything
// around a lookup (Terraform, the plugin protocol) so that it can be subtracted.
//
// Besides hiera.yaml and data/, Generate writes manifest.json: the nodes (facts and scope to look up
// as each of them) and lists of keys worth looking up, for scripts that drive the provider.
package benchgen

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// Options selects what Generate writes. The zero value is the default bench hierarchy.
type Options struct {
	// Keys is the number of keys in each data file: 0 means 500, or 3600 with Large. At least 100.
	Keys int
	// Large writes about 50 MB of YAML: more keys per file and more nodes.
	Large bool
	// Nodes is the number of nodes (one data file each): 0 means 12, or 24 with Large.
	Nodes int
	// Floor writes the one-file floor hierarchy instead (Keys and Large are then ignored).
	Floor bool
	// Seed makes a different but still deterministic hierarchy; 0 means 1.
	Seed int64
}

// Values of the facts that select the hierarchy's files.
var (
	Roles        = []string{"web", "db", "app", "cache", "lb", "monitor", "queue", "build"}
	Environments = []string{"production", "staging", "development"}
	Locations    = []string{"pdx", "iad", "ams", "fra", "sin", "syd"}
	OSFamilies   = []string{"Debian", "RedHat", "Suse"}
)

// Levels are the hierarchy's level names, most specific first; LevelKey uses them.
var Levels = []string{"node", "role", "environment", "location", "os", "common"}

// Key names. Each family has Keys/20 members (Keys/10 for DeepKey), numbered from 0.
//
//   - DeepKey: a three-level hash on all six levels; lookup_options (a regexp) say merge deep.
//   - UniqueKey: an array on all six levels; lookup_options say merge unique.
//   - FirstKey: a scalar on all six levels, so a first-found lookup stops at the node level.
//   - InterpKey: in common.yaml only; strings (or a hash of strings) interpolating facts,
//     trusted data, the environment and lookup() of BaseKeys.
//   - LevelKey: on one level only (a scalar, array or hash): the bulk of every file.
func DeepKey(i int) string   { return fmt.Sprintf("bench::deep::k%04d", i) }
func UniqueKey(i int) string { return fmt.Sprintf("bench::unique::k%04d", i) }
func FirstKey(i int) string  { return fmt.Sprintf("bench::first::k%04d", i) }
func InterpKey(i int) string { return fmt.Sprintf("bench::interp::k%04d", i) }
func LevelKey(level string, i int) string {
	return fmt.Sprintf("%s::%s::p%04d", level, modules[i%len(modules)], i)
}

// FloorKey names a key of the floor hierarchy (FloorKeys of them): a short string.
func FloorKey(i int) string { return fmt.Sprintf("floor::k%04d", i) }

// FloorKeys is the number of keys in the floor hierarchy's only file.
const FloorKeys = 100

// BaseKeys are plain strings in common.yaml that interpolated values reach through lookup().
var BaseKeys = []string{"bench::base::domain", "bench::base::ntp_server", "bench::base::repo_url"}

// Node is one machine of the generated fleet.
type Node struct {
	Certname string
	Role     string
	Env      string
	Location string
	OSFamily string
}

// Facts are the node's facts, as a provider or a hiera.Scope takes them.
func (n Node) Facts() map[string]any {
	host, _, _ := strings.Cut(n.Certname, ".")
	return map[string]any{
		"hostname":   host,
		"role":       n.Role,
		"location":   n.Location,
		"os":         map[string]any{"family": n.OSFamily, "release": map[string]any{"major": "9"}},
		"networking": map[string]any{"fqdn": n.Certname, "domain": "example.com"},
	}
}

// Vars are the node's other top-scope variables: trusted data and the environment.
func (n Node) Vars() map[string]any {
	return map[string]any{
		"trusted":     map[string]any{"certname": n.Certname},
		"environment": n.Env,
	}
}

// DataFiles are the six data files (relative to the hiera.yaml's directory) a lookup for the node
// reads, most specific first.
func (n Node) DataFiles() []string {
	return []string{
		"data/nodes/" + n.Certname + ".yaml",
		"data/roles/" + n.Role + ".yaml",
		"data/environments/" + n.Env + ".yaml",
		"data/locations/" + n.Location + ".yaml",
		"data/os/" + n.OSFamily + ".yaml",
		"data/common.yaml",
	}
}

// Nodes returns the fleet Generate writes node files for.
func Nodes(opts Options) []Node {
	count := 12
	switch {
	case opts.Nodes > 0:
		count = opts.Nodes
	case opts.Large:
		count = 24
	}
	nodes := make([]Node, count)
	for i := range nodes {
		nodes[i] = Node{
			Certname: fmt.Sprintf("node%03d.example.com", i),
			Role:     Roles[i%len(Roles)],
			Env:      Environments[i%len(Environments)],
			Location: Locations[i%len(Locations)],
			OSFamily: OSFamilies[i%len(OSFamilies)],
		}
	}
	return nodes
}

// KeysPerFile is the number of keys each data file gets for opts.
func KeysPerFile(opts Options) int {
	switch {
	case opts.Keys > 0:
		return opts.Keys
	case opts.Large:
		return 3600
	}
	return 500
}

// HieraYAML is the bench hierarchy's hiera.yaml.
const HieraYAML = `---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "Per-node data"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Per-role data"
    path: "roles/%{facts.role}.yaml"
  - name: "Per-environment data"
    path: "environments/%{environment}.yaml"
  - name: "Per-location data"
    path: "locations/%{facts.location}.yaml"
  - name: "Per-OS family data"
    path: "os/%{facts.os.family}.yaml"
  - name: "Common data"
    path: "common.yaml"
`

// FloorHieraYAML is the floor hierarchy's hiera.yaml: one level, one file.
const FloorHieraYAML = `---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "Common data"
    path: "common.yaml"
`

// Manifest is what Generate writes to manifest.json.
type Manifest struct {
	Floor       bool           `json:"floor"`
	KeysPerFile int            `json:"keys_per_file"`
	Files       int            `json:"files"`
	YAMLBytes   int64          `json:"yaml_bytes"` // data files and hiera.yaml
	Nodes       []ManifestNode `json:"nodes"`
	// Lookups are keys worth looking up: First for first-found lookups (found at various levels,
	// some interpolated), Deep for deep merges across all six levels.
	Lookups struct {
		First []string `json:"first"`
		Deep  []string `json:"deep"`
	} `json:"lookups"`
}

// ManifestNode is one node in manifest.json; Scope holds Node.Vars.
type ManifestNode struct {
	Certname string         `json:"certname"`
	Facts    map[string]any `json:"facts"`
	Scope    map[string]any `json:"scope"`
}

// Generate writes a hierarchy into dir (created if needed): hiera.yaml, data/ and manifest.json.
func Generate(dir string, opts Options) error {
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if !opts.Floor && KeysPerFile(opts) < 100 {
		return errors.New("benchgen: need at least 100 keys per file")
	}
	w := &writer{dir: dir}
	var m Manifest
	if opts.Floor {
		w.file("hiera.yaml", FloorHieraYAML)
		w.file("data/common.yaml", floorData())
		m.Floor = true
		m.KeysPerFile = FloorKeys
		node := Nodes(opts)[0]
		m.Nodes = []ManifestNode{{node.Certname, node.Facts(), node.Vars()}}
		for i := 0; i < FloorKeys; i++ {
			m.Lookups.First = append(m.Lookups.First, FloorKey(i))
			m.Lookups.Deep = append(m.Lookups.Deep, FloorKey(i))
		}
	} else {
		keys := KeysPerFile(opts)
		w.file("hiera.yaml", HieraYAML)
		for _, f := range dataFiles(opts) {
			r := rand.New(rand.NewSource(opts.Seed*1_000_003 + int64(hashName(f.path))))
			w.file(f.path, dataFile(r, f.level, keys))
		}
		m.KeysPerFile = keys
		for _, n := range Nodes(opts) {
			m.Nodes = append(m.Nodes, ManifestNode{n.Certname, n.Facts(), n.Vars()})
		}
		m.Lookups.First, m.Lookups.Deep = sampleLookups(keys)
	}
	if w.err != nil {
		return w.err
	}
	m.Files = w.files
	m.YAMLBytes = w.bytes
	js, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	w.file("manifest.json", string(js)+"\n")
	return w.err
}

// sampleLookups lists keys for drivers: first-found keys found on each level, and deep-merge keys.
func sampleLookups(keys int) (first, deep []string) {
	n := keys / 20
	for i := 0; i < n; i++ {
		first = append(first, FirstKey(i), LevelKey(Levels[i%len(Levels)], i), InterpKey(i))
		deep = append(deep, DeepKey(i))
	}
	return first, deep
}

type dataFileSpec struct{ path, level string }

// dataFiles lists every data file of the bench hierarchy with its level.
func dataFiles(opts Options) []dataFileSpec {
	var out []dataFileSpec
	for _, n := range Nodes(opts) {
		out = append(out, dataFileSpec{"data/nodes/" + n.Certname + ".yaml", "node"})
	}
	for _, group := range []struct {
		level, dir string
		names      []string
	}{
		{"role", "roles", Roles},
		{"environment", "environments", Environments},
		{"location", "locations", Locations},
		{"os", "os", OSFamilies},
	} {
		for _, name := range group.names {
			out = append(out, dataFileSpec{"data/" + group.dir + "/" + name + ".yaml", group.level})
		}
	}
	return append(out, dataFileSpec{"data/common.yaml", "common"})
}

func hashName(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// writer writes files under dir, keeping the first error and counting bytes.
type writer struct {
	dir   string
	err   error
	files int
	bytes int64
}

func (w *writer) file(rel, content string) {
	if w.err != nil {
		return
	}
	path := filepath.Join(w.dir, filepath.FromSlash(rel))
	if w.err = os.MkdirAll(filepath.Dir(path), 0o755); w.err != nil {
		return
	}
	w.err = os.WriteFile(path, []byte(content), 0o644)
	if strings.HasSuffix(rel, ".yaml") {
		w.files++
		w.bytes += int64(len(content))
	}
}
