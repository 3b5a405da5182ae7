// Command backarrows measures how far the module's dependencies run against its layers: the
// "arrows running back up" of ARCHITECTURE.md and issue #32.
//
// The graph: each non-test file of the core package (internal/hiera) is a node, every other
// package of the module one node; an arrow runs from a node to every node whose declarations it
// uses (type-checked: functions, methods, types, fields, variables, constants) or whose package it
// imports. Floors: the nodes are ordered by the Eades–Lin–Smyth heuristic (sinks to the bottom,
// sources to the top, else the node with the most arrows out over arrows in goes up), then each
// node's floor is the longest downward path below it along the arrows that agree with that order.
// An arrow running back up is one from a lower floor to a higher one.
//
// Usage: go run ./scripts/backarrows [-v] [-core internal/hiera] [module directory]
package main

import (
	"flag"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	core := flag.String("core", "internal/hiera", "the core package, as a path inside the module")
	verbose := flag.Bool("v", false, "list the floors and every arrow running back up")
	flag.Parse()
	dir := "."
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	g, err := load(dir, *core)
	if err != nil {
		fmt.Fprintln(os.Stderr, "backarrows:", err)
		os.Exit(1)
	}
	floor := g.floors()
	var up [][2]string
	for e := range g.edges {
		if floor[e[0]] < floor[e[1]] {
			up = append(up, e)
		}
	}
	sort.Slice(up, func(i, j int) bool { return up[i][0]+up[i][1] < up[j][0]+up[j][1] })
	coreFloors, coreFiles, mutual := map[int]bool{}, 0, 0
	for n := range g.nodes {
		if g.isFile(n) {
			coreFiles++
			coreFloors[floor[n]] = true
		}
	}
	for e := range g.edges {
		if g.isFile(e[0]) && g.isFile(e[1]) && e[0] < e[1] && g.edges[[2]string{e[1], e[0]}] {
			mutual++
		}
	}
	fmt.Printf("arrows running back up: %d of %d arrows; %d core files on %d floors; %d pairs of core files use each other\n",
		len(up), len(g.edges), coreFiles, len(coreFloors), mutual)
	if *verbose {
		byFloor := map[int][]string{}
		top := 0
		for n, f := range floor {
			byFloor[f] = append(byFloor[f], n)
			top = max(top, f)
		}
		for f := top; f >= 0; f-- {
			sort.Strings(byFloor[f])
			fmt.Printf("floor %2d: %s\n", f, strings.Join(byFloor[f], " "))
		}
		for _, e := range up {
			fmt.Printf("up: %s (floor %d) -> %s (floor %d)\n", e[0], floor[e[0]], e[1], floor[e[1]])
		}
	}
}

type graph struct {
	nodes map[string]bool
	edges map[[2]string]bool
}

// isFile reports whether a node is a file of the core (other nodes are packages).
func (g *graph) isFile(n string) bool { return strings.HasSuffix(n, ".go") }

func load(dir, core string) (*graph, error) {
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: dir}, "./...")
	if err != nil {
		return nil, err
	}
	mod := ""
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: %v", p.PkgPath, p.Errors[0])
		}
		if p.Module != nil && mod == "" {
			mod = p.Module.Path
		}
	}
	corePath := mod + "/" + core
	node := func(pkg, file string) string {
		if pkg == corePath {
			return filepath.Base(file)
		}
		return strings.TrimPrefix(strings.TrimPrefix(pkg, mod), "/")
	}
	inModule := func(pkg string) bool { return pkg == mod || strings.HasPrefix(pkg, mod+"/") }
	g := &graph{nodes: map[string]bool{}, edges: map[[2]string]bool{}}
	add := func(from, to string) {
		if from != to && !strings.HasSuffix(to, "_test.go") {
			g.edges[[2]string{from, to}] = true
		}
	}
	for _, p := range pkgs {
		for i, f := range p.Syntax {
			name := p.CompiledGoFiles[i]
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			from := node(p.PkgPath, name)
			g.nodes[from] = true
			for id, obj := range p.TypesInfo.Uses {
				if id.Pos() < f.Pos() || id.Pos() > f.End() || obj.Pkg() == nil || !inModule(obj.Pkg().Path()) {
					continue
				}
				if _, isPkg := obj.(*types.PkgName); !isPkg {
					add(from, node(obj.Pkg().Path(), p.Fset.Position(obj.Pos()).Filename))
				}
			}
			for _, imp := range f.Imports {
				if path := strings.Trim(imp.Path.Value, `"`); inModule(path) && path != corePath {
					add(from, node(path, ""))
				}
			}
		}
	}
	for e := range g.edges {
		g.nodes[e[0]], g.nodes[e[1]] = true, true
	}
	return g, nil
}

// floors orders the nodes with the Eades–Lin–Smyth heuristic and gives each the length of the
// longest path below it along the arrows that agree with the order (0: uses nothing above).
func (g *graph) floors() map[string]int {
	out, in := map[string][]string{}, map[string][]string{}
	for e := range g.edges {
		out[e[0]] = append(out[e[0]], e[1])
		in[e[1]] = append(in[e[1]], e[0])
	}
	left := map[string]bool{}
	for n := range g.nodes {
		left[n] = true
	}
	count := func(list []string) int {
		c := 0
		for _, m := range list {
			if left[m] {
				c++
			}
		}
		return c
	}
	sorted := func() []string {
		var ns []string
		for n := range left {
			ns = append(ns, n)
		}
		sort.Strings(ns)
		return ns
	}
	var top, bottom []string // bottom is built upward
	for len(left) > 0 {
		for changed := true; changed; {
			changed = false
			for _, n := range sorted() {
				if count(out[n]) == 0 {
					bottom = append(bottom, n)
					delete(left, n)
					changed = true
				}
			}
			for _, n := range sorted() {
				if count(in[n]) == 0 {
					top = append(top, n)
					delete(left, n)
					changed = true
				}
			}
		}
		if len(left) == 0 {
			break
		}
		best, bestScore := "", 0
		for _, n := range sorted() {
			if s := count(out[n]) - count(in[n]); best == "" || s > bestScore {
				best, bestScore = n, s
			}
		}
		top = append(top, best)
		delete(left, best)
	}
	order := top
	for i := len(bottom) - 1; i >= 0; i-- {
		order = append(order, bottom[i])
	}
	pos := map[string]int{}
	for i, n := range order {
		pos[n] = i
	}
	floor := map[string]int{}
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		for _, m := range out[n] {
			if pos[m] > i {
				floor[n] = max(floor[n], floor[m]+1)
			}
		}
	}
	return floor
}
