package hiera

import (
	"fmt"
	"math/big"
)

// Puppet validates a looked-up value as RichData: hash keys must be strings or numbers. A YAML
// file may hold other keys (true: x); Puppet fails the lookup of the root key that contains them.

// invalidRootKeys maps each root key of data whose value is not RichData to the value's type.
// It runs once when a file is parsed, so lookups only consult the map.
func invalidRootKeys(data *Hash) map[string]string {
	var bad map[string]string
	data.Each(func(k, v any) bool {
		ks, isStr := k.(string)
		if isStr && !isRichData(v) {
			if bad == nil {
				bad = map[string]string{}
			}
			bad[ks] = puppetTypeDetail(v)
		}
		return true
	})
	return bad
}

func isRichData(v any) bool {
	switch t := v.(type) {
	case []any:
		for _, el := range t {
			if !isRichData(el) {
				return false
			}
		}
	case *Hash:
		ok := true
		t.Each(func(k, val any) bool {
			switch k.(type) {
			case string, int64, float64, *big.Int:
			default:
				ok = false
			}
			ok = ok && isRichData(val)
			return ok
		})
		return ok
	}
	return true
}

func richDataError(key, function, path, typ string) error {
	return &Error{Message: fmt.Sprintf("Value for key '%s', in hash returned from data_hash function '%s', when using location '%s', has wrong type, expects Puppet::LookupValue, got %s", key, function, path, typ), File: path, valueFree: true}
}
