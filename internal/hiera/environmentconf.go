package hiera

// environment.conf: the module directories of an environment.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/glob"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// environmentConf is what the engine uses of an environment.conf: its modulepath, and its
// environment_data_provider (deprecated, read by Puppet when the environment has no hiera.yaml).
type environmentConf struct {
	stamp        fileStamp
	modulepath   []string // nil when the file does not set one
	dataProvider string   // "" when the file does not set one
	warnings     []string
	err          error
}

// envConfCache holds the current parse of the environment's environment.conf.
type envConfCache struct {
	mu      sync.Mutex
	current *environmentConf
}

var (
	// The lines of Puppet's ini format (Puppet::Settings::IniFile).
	confSection = regexp.MustCompile(`^\s*\[(\w+)\]\s*$`)
	confSetting = regexp.MustCompile(`^\s*(\w+)\s*=\s*(.*?)\s*$`)
	confBlank   = regexp.MustCompile(`^\s*#|^\s*$`)
	// A Puppet setting referenced in a value ($name).
	confVariable = regexp.MustCompile(`\$(\w+)`)
	// File options in a setting's value ({owner = root, mode = 0644}, Puppet's extract_fileinfo):
	// Puppet takes the first {...} of any value for them, removes it, and fails on anything else.
	confFileOptions     = regexp.MustCompile(`\{\s*([^}]+)\s*\}`)
	confFileOption      = regexp.MustCompile(`^\s*(\w+)\s*=\s*(\w+)\s*$`)
	confOptionSeparator = regexp.MustCompile(`\s*,\s*`)
)

// environmentConf returns the parsed environment.conf, re-reading it when it changed.
func (e *Engine) environmentConf() (*environmentConf, error) {
	path := filepath.Join(e.layers.Environment, "environment.conf")
	fi, err := os.Stat(path)
	c := &e.envConf
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &environmentConf{}, nil
		}
		return nil, &model.Error{Message: "cannot read environment.conf: " + err.Error(), File: path, Err: err}
	}
	stamp := stampOf(fi)
	if c.current == nil || c.current.stamp != stamp {
		c.current = e.parseEnvironmentConf(path, stamp)
	}
	return c.current, c.current.err
}

// parseEnvironmentConf reads the modulepath setting as Puppet does: the first modulepath line of
// the main section, quotes at its ends dropped, file options ({owner = ...}) removed, entries
// separated by ':', relative ones against the environment directory, globs (*, ?, [set], **)
// expanded to the directories they match. Puppet interpolates its settings ($name) there, which
// name directories of a Puppet installation this provider does not have: $basemodulepath adds
// nothing, an entry naming another setting is skipped with a warning.
func (e *Engine) parseEnvironmentConf(path string, stamp fileStamp) *environmentConf {
	conf := &environmentConf{stamp: stamp}
	text, err := readLimited(path)
	if err != nil {
		conf.err = &model.Error{Message: "cannot read environment.conf: " + err.Error(), File: path, Err: err}
		return conf
	}
	section := "main"
	value, set, valueLine := "", false, 0
	for i, line := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if m := confSection.FindStringSubmatch(line); m != nil {
			section = m[1]
			continue
		}
		if m := confSetting.FindStringSubmatch(line); m != nil {
			switch {
			case section != "main":
			case m[1] == "modulepath" && !set: // Puppet finds the first
				value, set, valueLine = m[2], true, i+1
			case m[1] == "environment_data_provider" && conf.dataProvider == "":
				conf.dataProvider, _ = settingValue(m[2])
			}
			continue
		}
		if !confBlank.MatchString(line) {
			conf.err = &model.Error{Message: fmt.Sprintf("Could not match line %s", line), File: path, Line: i + 1}
			return conf
		}
	}
	if !set {
		return conf
	}
	value, problem := settingValue(value)
	if problem != "" {
		conf.err = &model.Error{Message: problem, File: path, Line: valueLine}
		return conf
	}
	if strings.Contains(value, "${") { // Puppet's settings take $name only
		conf.err = &model.Error{Message: fmt.Sprintf("Could not parse '%s'", value), File: path, Line: valueLine}
		return conf
	}
	conf.modulepath = []string{}
	for _, entry := range strings.Split(value, ":") {
		dir, warning := e.modulepathEntry(entry)
		if warning != "" {
			conf.warnings = append(conf.warnings, fmt.Sprintf("%s: modulepath entry '%s' %s", path, entry, warning))
		}
		if dir == "" {
			continue
		}
		if strings.ContainsAny(dir, "*?[") {
			matches, err := glob.Directories(dir)
			if err != nil {
				conf.err = &model.Error{Message: fmt.Sprintf("modulepath entry '%s': %v", entry, err), File: path, Line: valueLine}
				return conf
			}
			if len(matches) == 0 {
				conf.warnings = append(conf.warnings, fmt.Sprintf("%s: modulepath entry '%s' matches no directory", path, entry))
			}
			conf.modulepath = append(conf.modulepath, matches...)
			continue
		}
		conf.modulepath = append(conf.modulepath, dir)
	}
	return conf
}

// modulepathEntry resolves one modulepath entry to a directory ("" to skip it, with a warning when
// the reason is worth one).
func (e *Engine) modulepathEntry(entry string) (dir, warning string) {
	if m := confVariable.FindStringSubmatch(entry); m != nil {
		if m[1] == "basemodulepath" {
			return "", "" // Puppet's global module directories: none here
		}
		return "", fmt.Sprintf("names the Puppet setting $%s, which this provider does not know: skipped (list the directory in the provider's modulepath instead)", m[1])
	}
	if entry == "" {
		return "", ""
	}
	return joinPath(e.layers.Environment, entry), ""
}

// settingValue is a setting's text as Puppet's settings parser reads it: a quote dropped at either
// end (ValueTranslator), then the first {...} taken as file options and removed
// (ConfigFile#extract_fileinfo). That makes {a,b} alternatives a parse error in Puppet: the error
// is Puppet's, with what it means said after it.
func settingValue(text string) (value, problem string) {
	v := text
	if strings.HasPrefix(v, `"`) || strings.HasPrefix(v, `'`) {
		v = v[1:]
	}
	if strings.HasSuffix(v, `"`) || strings.HasSuffix(v, `'`) {
		v = v[:len(v)-1]
	}
	v = strings.TrimRight(v, " \t")
	m := confFileOptions.FindStringSubmatchIndex(v)
	if m == nil {
		return v, ""
	}
	for _, option := range confOptionSeparator.Split(v[m[2]:m[3]], -1) {
		o := confFileOption.FindStringSubmatch(option)
		switch {
		case o == nil && m[0] > 0 && v[m[0]-1] == '$':
			return "", fmt.Sprintf("Could not parse '%s'", v) // ${name}: Puppet's words say it
		case o == nil:
			return "", fmt.Sprintf("Could not parse '%s' (Puppet reads {...} in a setting's value as file options, such as {owner = root, mode = 0644}, so {a,b} alternatives fail to parse in Puppet too: list the directories)", v)
		case o[1] != "owner" && o[1] != "group" && o[1] != "mode":
			return "", fmt.Sprintf("Invalid file option '%s'", o[1])
		case o[1] == "mode" && strings.Trim(o[2], "0123456789") != "":
			return "", "File modes must be numbers"
		}
	}
	return strings.TrimRight(v[:m[0]]+v[m[1]:], " \t"), ""
}
