package hiera

import (
	"math/big"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// The names of the engine's subpackages that internal/provider uses, so that it imports the
// engine only. Each is the subpackage's own: an alias or a call, never a second implementation.

type (
	// Hash is model.Hash, the engine's ordered hash.
	Hash = model.Hash
	// Error is model.Error, a lookup failure with key, file, line and level.
	Error = model.Error
	// Merge is merge.Merge, a merge strategy with its options.
	Merge = merge.Merge
	// DeepOptions is merge.DeepOptions, the options of a deep merge.
	DeepOptions = merge.DeepOptions
)

// Strategies is merge.Strategies, the merge strategies a user names.
var Strategies = merge.Strategies

// ParseMerge is merge.Parse.
func ParseMerge(v any) (*Merge, error) { return merge.Parse(v) }

// MergeValues is merge.Values.
func MergeValues(m *Merge, values []any) (result any, found bool, err error) {
	return merge.Values(m, values)
}

// MergeHashes is merge.Hashes, Ruby's low.merge(high).
func MergeHashes(high, low *Hash) *Hash { return merge.Hashes(high, low) }

// MarshalJSON is datafile.MarshalJSON.
func MarshalJSON(v any) ([]byte, error) { return datafile.MarshalJSON(v) }

// NewHash is model.NewHash.
func NewHash(n int) *Hash { return model.NewHash(n) }

// FromGo is model.FromGo.
func FromGo(v any) (any, error) { return model.FromGo(v) }

// FromBigFloat is model.FromBigFloat.
func FromBigFloat(f *big.Float) any { return model.FromBigFloat(f) }

// Equal is model.Equal.
func Equal(a, b any) bool { return model.Equal(a, b) }

// QuotesNoValue is model.QuotesNoValue.
func QuotesNoValue(err error) bool { return model.QuotesNoValue(err) }
