#!/usr/bin/env python3
"""Validates scenario files (YAML or JSON) against Protocol/schemas/scenario.schema.json (JSON Schema 2020-12),
with PyYAML reading the YAML: a check of the schema against the files `lifebus run` accepts, independent of it.

    python3 scripts/validate-scenarios.py FILE...      exit status 0 when every file is valid
"""
import json
import os
import sys

import yaml
from jsonschema import Draft202012Validator

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Protocol", "schemas",
                      "scenario.schema.json")


def main(paths):
    with open(SCHEMA, encoding="utf-8") as file:
        validator = Draft202012Validator(json.load(file))
    bad = 0
    for path in paths:
        with open(path, encoding="utf-8") as file:
            document = json.load(file) if path.endswith(".json") else yaml.safe_load(file)
        errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
        for error in errors:
            where = "/".join(str(part) for part in error.absolute_path) or "(top)"
            print(f"{path}: {where}: {error.message}")
        bad += bool(errors)
    print(f"validate-scenarios: {len(paths) - bad} of {len(paths)} files valid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
