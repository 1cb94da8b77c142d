"""Validates OpenAPI documents: each against the OpenAPI 3.1 schema shipped beside this file
(the OpenAPI Initiative's published schema, Apache-2.0), and every Schema Object inside against
the JSON Schema 2020-12 meta-schema, which the 3.1 schema leaves unchecked.

usage: validate.py DOC.json... ; exit 1 and one line per problem when a document is invalid."""
import json
import os
import sys

import jsonschema

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "openapi-3.1.schema.json")) as f:
    openapi = jsonschema.Draft202012Validator(json.load(f))


def schema_objects(doc):
    for name, s in doc.get("components", {}).get("schemas", {}).items():
        yield "components/schemas/" + name, s

    def walk(node, at):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "schema" and isinstance(v, dict):
                    yield at + "/schema", v
                else:
                    yield from walk(v, at + "/" + k)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from walk(v, at + "/" + str(i))

    yield from walk(doc.get("paths", {}), "paths")


bad = 0
for path in sys.argv[1:]:
    with open(path) as f:
        doc = json.load(f)
    problems = [e.message for e in openapi.iter_errors(doc)]
    for at, s in schema_objects(doc):
        try:
            jsonschema.Draft202012Validator.check_schema(s)
        except jsonschema.exceptions.SchemaError as e:
            problems.append(at + ": " + e.message)
    for p in problems:
        print(path + ": " + p[:300])
    bad += bool(problems)
sys.exit(1 if bad else 0)
