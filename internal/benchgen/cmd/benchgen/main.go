// Command benchgen writes a Hiera hierarchy for benchmarks (see internal/benchgen).
//
//	go run ./internal/benchgen/cmd/benchgen -out /tmp/bench            # six levels, 500 keys per file
//	go run ./internal/benchgen/cmd/benchgen -out /tmp/large -large     # about 50 MB of YAML
//	go run ./internal/benchgen/cmd/benchgen -out /tmp/floor -floor     # one trivial file
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hieraform/terraform-provider-hiera/internal/benchgen"
)

func main() {
	var opts benchgen.Options
	out := flag.String("out", "", "directory to write hiera.yaml, data/ and manifest.json into (required)")
	flag.IntVar(&opts.Keys, "keys", 0, "keys per data file (default 500, or 3600 with -large)")
	flag.IntVar(&opts.Nodes, "nodes", 0, "nodes, one data file each (default 12, or 24 with -large)")
	flag.BoolVar(&opts.Large, "large", false, "write the large variant (about 50 MB of YAML)")
	flag.BoolVar(&opts.Floor, "floor", false, "write the one-file floor hierarchy instead")
	flag.Int64Var(&opts.Seed, "seed", 1, "random seed")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := benchgen.Generate(*out, opts); err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
	js, err := os.ReadFile(filepath.Join(*out, "manifest.json"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
	var m benchgen.Manifest
	if err := json.Unmarshal(js, &m); err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d YAML files, %.1f MB, %d keys per file, %d nodes\n",
		*out, m.Files, float64(m.YAMLBytes)/1e6, m.KeysPerFile, len(m.Nodes))
}
