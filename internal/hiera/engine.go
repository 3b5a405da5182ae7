package hiera

import (
	"context"
	"errors"
)

// Engine answers lookups against one hiera.yaml. It is safe for concurrent use. (stub: being written)
type Engine struct {
	configPath string
}

// NewEngine returns an engine for the hiera.yaml at configPath. The file is read at the first lookup,
// so a missing file is reported there, naming the path.
func NewEngine(configPath string) *Engine {
	return &Engine{configPath: configPath}
}

// Lookup runs one lookup.
func (e *Engine) Lookup(ctx context.Context, req Request) (Result, error) {
	return Result{}, errors.New("not implemented yet")
}
