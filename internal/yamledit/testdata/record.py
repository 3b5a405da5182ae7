#!/usr/bin/env python3
"""Joins yamledit's Puppet cases (CASES_DIR) and expect.py's answers (OUT_DIR) into puppet-lookup.json."""
import json, os, sys

cases_dir, out_dir = sys.argv[1], sys.argv[2]
records = []
for name in sorted(os.listdir(cases_dir)):
    case = json.load(open(os.path.join(cases_dir, name)))
    out = json.load(open(os.path.join(out_dir, name)))
    records.append({"id": case["id"], "files": case["files"], "lookups": case["lookups"], "results": out["results"]})
json.dump(records, sys.stdout, indent=1, ensure_ascii=False)
print()
