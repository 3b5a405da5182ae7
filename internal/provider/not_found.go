// The "Hiera Key Not Found" diagnostic: where the lookup looked, and what it may have meant.
package provider

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// maxFilesShown bounds the data files a "not found" message names; explain shows every one.
const maxFilesShown = 10

// notFound words a missing key: the levels searched and how to get a value anyway (the first
// paragraph, as before), then what miss (the engine's ExplainMiss) found out: the root of a
// dotted key that was found and what is missing, or the files looked in, the nearest keys, and
// notes; and that explain shows every step.
func notFound(key, configPath string, res hiera.Result, miss hiera.Miss, kind lookupVariant) string {
	levels := "no hierarchy levels"
	if len(res.Searched) > 0 {
		levels = "these hierarchy levels: " + strings.Join(res.Searched, ", ")
	}
	hint := kind.missingHint
	if hint == "" {
		hint = "Set default_value to return a value when the key is missing."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The key %q was not found in the Hiera data of %s. Searched %s. %s", key, configPath, levels, hint)
	if r := miss.Root; r != nil {
		fmt.Fprintf(&b, "\n\nThe root key %q was found", r.Key)
		if len(r.Sources) > 0 {
			fmt.Fprintf(&b, " (%s)", sourceText(r.Sources[0]))
		}
		fmt.Fprintf(&b, ", but the rest of the key is not there: %s", r.Missing)
	} else if miss.FileCount > 0 {
		shown := miss.Files[:min(len(miss.Files), maxFilesShown)]
		b.WriteString("\n\nData files looked in")
		if miss.FileCount > len(shown) {
			fmt.Fprintf(&b, " (the first %d of %d)", len(shown), miss.FileCount)
		}
		b.WriteString(":")
		for _, f := range shown {
			fmt.Fprintf(&b, "\n  - %s: %s", sourceText(f.Source), fileState(f, miss.KeyRoot))
		}
		if rest := miss.FileCount - len(shown); rest > 0 {
			fmt.Fprintf(&b, "\n  - ... and %d more", rest)
		}
	}
	if len(miss.Suggestions) > 0 {
		fmt.Fprintf(&b, "\n\nDid you mean %s?", quoteList(miss.Suggestions))
	}
	for _, n := range miss.Notes {
		b.WriteString("\n\n" + n)
	}
	switch {
	case res.Explanation != "":
		b.WriteString("\n\n" + res.Explanation)
	case !kind.isFunction:
		b.WriteString("\n\nSet explain = true to see every step of the lookup (each level, path and key, as puppet lookup --explain shows them).")
	}
	return b.String()
}

// sourceText names a data file with its layer and level.
func sourceText(s hiera.Source) string {
	layer := s.Layer + " layer"
	if s.Module != "" {
		layer = fmt.Sprintf("module %q layer", s.Module)
	}
	return fmt.Sprintf("%s, level %q, %s", layer, s.Level, s.File)
}

func fileState(f hiera.MissFile, root string) string {
	switch {
	case !f.Exists:
		return "no such file"
	case f.HasKey:
		return "has the key"
	}
	return fmt.Sprintf("no key %q", root)
}

// quoteList is "a", "a" or "b", "a", "b" or "c".
func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// configNotFound reports the default hiera.yaml (config, environment and modulepath all unset)
// that does not exist. A hiera.yaml the user named is read as Puppet reads a missing one.
func configNotFound(err error) diag.Diagnostic {
	var he *model.Error
	missing := ""
	if errors.As(err, &he) {
		missing = he.File
	}
	wd, _ := os.Getwd()
	return diag.NewErrorDiagnostic("Hiera Config Not Found", fmt.Sprintf("There is no hiera.yaml at %s. Neither config nor environment nor modulepath is set, "+
		"so config defaults to hiera.yaml in Terraform's working directory (%s). Set config to the path of a hiera.yaml "+
		"(`config = \"${path.module}/hiera.yaml\"` in a module), or environment to a Puppet environment directory (such as a control "+
		"repository's environments/production): its hiera.yaml, data and modules are then read, with no global hiera.yaml unless "+
		"config is set too.", missing, wd))
}

// providerConfigMissing warns, on the provider's config attribute, that it names no file: the
// lookups that use it fail, each on its data source, where Terraform cannot point at the provider.
func providerConfigMissing(config string) diag.Diagnostics {
	var diags diag.Diagnostics
	if config == "" {
		return diags
	}
	if _, err := os.Stat(config); errors.Is(err, os.ErrNotExist) {
		abs, _ := absPath(config)
		diags.AddAttributeWarning(path.Root("config"), "Hiera Config Not Found",
			fmt.Sprintf("There is no hiera.yaml at %s (config %q; a relative path is taken from Terraform's working directory): "+
				"as Puppet does with a missing global hiera.yaml, every lookup that uses the provider's config reads Puppet's default "+
				"configuration instead, one level: %s.", abs, config, filepath.Join(filepath.Dir(abs), "data", "common.yaml")))
	}
	return diags
}

// foundIn names the files a found value came from (at most 3), for an error about the value.
func foundIn(res hiera.Result) string {
	if !res.Found || len(res.Sources) == 0 {
		return ""
	}
	parts := make([]string, 0, 3)
	for _, s := range res.Sources[:min(len(res.Sources), 3)] {
		parts = append(parts, sourceText(s))
	}
	more := ""
	if n := len(res.Sources) - len(parts); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf(" It was found in: %s%s.", strings.Join(parts, "; "), more)
}
