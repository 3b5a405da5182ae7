package main

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestREADMEFileTables keeps the READMEs' file tables true: every file a table names exists
// beside the README, and every non-test Go file of the README's package has a row. A file table is
// a Markdown table whose first column is headed "file"; its rows name files in backquotes in that
// column.
func TestREADMEFileTables(t *testing.T) {
	readmes := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "docs") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "README.md" {
			return nil
		}
		named, hasTable, err := fileTableNames(path)
		if err != nil {
			t.Fatal(err)
		}
		if !hasTable {
			return nil
		}
		readmes++
		dir := filepath.Dir(path)
		for _, name := range named {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Errorf("%s: the file table names %s, which does not exist in %s", path, name, dir)
			}
		}
		for _, f := range packageFiles(t, dir) {
			if !containsName(named, f) {
				t.Errorf("%s: %s is missing from the file table: add a row saying what it does", path, f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if readmes < 2 { // internal/hiera and internal/provider have one: a broken parser finds none
		t.Fatalf("found %d READMEs with a file table, want at least 2", readmes)
	}
}

// fileTableNames lists the files the file tables of a README name, and whether it has one.
func fileTableNames(path string) (names []string, hasTable bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer func() { _ = f.Close() }()
	quoted := regexp.MustCompile("`([^`]+)`")
	inTable, isFileTable := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			inTable = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		first := strings.TrimSpace(cells[0])
		if !inTable { // the header row
			inTable, isFileTable = true, strings.EqualFold(first, "file")
			hasTable = hasTable || isFileTable
			continue
		}
		if !isFileTable || strings.Trim(first, "-: ") == "" {
			continue
		}
		for _, m := range quoted.FindAllStringSubmatch(first, -1) {
			names = append(names, m[1])
		}
	}
	return names, hasTable, sc.Err()
}

// packageFiles are the non-test Go files in dir, sorted.
func packageFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, n)
		}
	}
	sort.Strings(files)
	return files
}

func containsName(names []string, f string) bool {
	for _, n := range names {
		if n == f {
			return true
		}
	}
	return false
}
