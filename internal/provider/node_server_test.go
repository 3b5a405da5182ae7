package provider

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// configsFor are the configurations worth comparing for a data source type.
func configsFor(typeName string, typ tftypes.Object) map[string]map[string]tftypes.Value {
	switch typeName {
	case "hiera_node":
		return nodeConfigs()
	case "hiera_nodes":
		return nodesConfigs()
	}
	return dataConfigs(typ)
}

// nodeConfigs are hiera_node configurations worth comparing between the server's direct read and
// the framework's (TestServer_sameAnswersAsFramework): whole nodes, keys and prefixes, each
// validation error and each kind of failure.
func nodeConfigs() map[string]map[string]tftypes.Value {
	unknownList := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue)
	return map[string]map[string]tftypes.Value{
		"whole node": {},
		"keys":       {"keys": list6(str6("string"), str6("nested.alpha.list.1"), str6("no::such::key"), str6("secret_token"), str6("ntp::servers"))},
		"prefixes":   {"prefixes": list6(str6("profile::"), str6("ntp::"), str6("n"))},
		"keys and prefixes": {"keys": list6(str6("string"), str6("nothing"), str6("ntp::servers")),
			"prefixes": list6(str6("n"))},
		"no keys":             {"keys": list6()},
		"facts":               {"facts": object6(map[string]tftypes.Value{"role": str6("db"), "os": object6(map[string]tftypes.Value{"family": str6("RedHat")})})},
		"facts file":          {"facts_file": str6("testdata/facts/db01.json")},
		"facts over file":     {"facts_file": str6("testdata/facts/db01.json"), "facts": object6(map[string]tftypes.Value{"role": str6("web")})},
		"missing facts file":  {"facts_file": str6("testdata/facts/nowhere.json")},
		"empty facts file":    {"facts_file": str6("")},
		"environment":         {"environment": str6(staging)},
		"modulepath":          {"modulepath": list6(str6(productionModules)), "keys": list6(str6("ntp::servers"), str6("ntp::settings"))},
		"failing keys":        {"environment": str6(production), "keys": list6(str6("broken::setting"), str6("typo::ok"), str6("ntp::servers"))},
		"unreadable node":     {"environment": str6(production)},
		"bad config":          {"config": str6("testdata/nowhere/hiera.yaml")},
		"missing environment": {"environment": str6("testdata/control_repo/environments/nowhere")},
		"module warning":      {"modulepath": list6(str6(warnModules))},
		"repeated key":        {"keys": list6(str6("string"), str6("string"))},
		"empty key":           {"keys": list6(str6(""))},
		"null key":            {"keys": list6(tftypes.NewValue(tftypes.String, nil))},
		"empty prefix":        {"prefixes": list6(str6(""))},
		"unknown keys":        {"keys": unknownList},
		"unknown prefix":      {"prefixes": list6(tftypes.NewValue(tftypes.String, tftypes.UnknownValue))},
	}
}

// nodesConfigs are hiera_nodes configurations worth comparing likewise: the fleet of testdata/fleet
// and nodes given by name, whole and with keys, selected, and each kind of failure.
func nodesConfigs() map[string]map[string]tftypes.Value {
	fleetDir := str6("testdata/fleet")
	yes, no := tftypes.NewValue(tftypes.Bool, true), tftypes.NewValue(tftypes.Bool, false)
	given := object6(map[string]tftypes.Value{"mail01.example.com": object6(map[string]tftypes.Value{"role": str6("web")}),
		"db01.example.com": object6(map[string]tftypes.Value{})})
	return map[string]map[string]tftypes.Value{
		"facts_dir":          {"facts_dir": fleetDir},
		"nodes":              {"nodes": given},
		"keys":               {"facts_dir": fleetDir, "keys": list6(str6("tags"), str6("no::such::key"), str6("ntp::servers"))},
		"select":             {"facts_dir": fleetDir, "select": list6(str6("web*"), str6("nothing*")), "prefixes": list6(str6("t"))},
		"facts":              {"facts_dir": fleetDir, "facts": object6(map[string]tftypes.Value{"role": str6("db")})},
		"environment":        {"facts_dir": fleetDir, "environment": str6(staging)},
		"module warning":     {"facts_dir": fleetDir, "modulepath": list6(str6(warnModules))},
		"failing keys":       {"facts_dir": fleetDir, "environment": str6(production), "keys": list6(str6("broken::setting"))},
		"named twice":        {"facts_dir": fleetDir, "nodes": given},
		"no nodes":           {},
		"missing directory":  {"facts_dir": str6("testdata/nowhere")},
		"bad select":         {"nodes": given, "select": list6(str6("web["))},
		"empty select":       {"nodes": given, "select": list6(str6(""))},
		"with sources, json": {"facts_dir": fleetDir, "with_sources": yes, "with_json": yes},
		"keys, with sources": {"facts_dir": fleetDir, "keys": list6(str6("greeting"), str6("packages")), "with_sources": yes, "with_json": no},
		"one type":           {"facts_dir": fleetDir, "keys": list6(str6("greeting"), str6("packages"))},
	}
}
