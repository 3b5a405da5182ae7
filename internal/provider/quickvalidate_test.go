package provider

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// TestQuickValidation_validatorKinds lists the kinds of validator in the hiera_* data sources'
// schemas. The quick validation gives them the configuration with the attributes nothing checks
// (facts, scope, default_value, ...) null: a new kind must not read those from the configuration
// before it joins this list.
func TestQuickValidation_validatorKinds(t *testing.T) {
	known := []string{
		"schemavalidator.AlsoRequiresValidator", // objectvalidator.AlsoRequires: reads the merge block's strategy
		"provider.deepOnly",                     // reads the merge block's strategy
		"provider.valueTypeValidator",
		"stringvalidator.lengthAtLeastValidator",
		"stringvalidator.oneOfValidator",
		"listvalidator.noNullValuesValidator",
		"listvalidator.valueStringsAreValidator",
		"listvalidator.uniqueValuesValidator",
		"schemavalidator.ConflictsWithValidator", // reads the attribute it conflicts with: facts_file, a key's path or PEM sibling, none unchecked
		"provider.durationValidator",             // reads its own value only
		"provider.puppetdbNodeNotHere",           // reads its own value only
	}
	direct, _, _ := configuredPair(t)
	for typeName, ds := range direct.dataSources {
		var kinds []string
		add := func(validators []any) {
			for _, v := range validators {
				kinds = append(kinds, fmt.Sprintf("%T", v))
			}
		}
		s := ds.validate.Schema
		for _, a := range s.Attributes {
			add(validatorsOf(a))
		}
		for _, b := range s.Blocks {
			single, _ := b.(schema.SingleNestedBlock)
			add(anySlice(single.Validators))
			for _, a := range single.Attributes {
				add(validatorsOf(a))
			}
		}
		for _, kind := range kinds {
			if !slices.Contains(known, kind) {
				t.Errorf("%s: validator %s is new to the quick validation: check it reads none of %v from the configuration, then add it here",
					typeName, kind, ds.validate.Unchecked)
			}
		}
	}
}

// validatorsOf returns an attribute's validators, of the kinds the quick validation handles.
func validatorsOf(a schema.Attribute) []any {
	switch t := a.(type) {
	case schema.StringAttribute:
		return anySlice(t.Validators)
	case schema.BoolAttribute:
		return anySlice(t.Validators)
	case schema.DynamicAttribute:
		return anySlice(t.Validators)
	case schema.ListAttribute:
		return anySlice(t.Validators)
	case schema.MapAttribute:
		return anySlice(t.Validators)
	}
	return nil
}

func anySlice[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
