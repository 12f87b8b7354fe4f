"""A small JSON Schema (2020-12) validator for the subset docs/schema/ uses, in stdlib code.

Supported: type, enum, const, properties, required, additionalProperties, patternProperties,
items, minItems, maxItems, minimum, maximum, minLength, pattern, anyOf, oneOf, allOf, and $ref to
"#/$defs/NAME" or "FILE.schema.json#/$defs/NAME" beside the schema. A keyword outside the subset
is an error, so a schema can never silently ask for a check that does not run. Annotations
($schema, $id, $defs, $comment, title, description, examples) are allowed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description", "examples"}
KEYWORDS = {
    "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties",
    "items", "minItems", "maxItems", "minimum", "maximum", "minLength", "pattern", "anyOf", "oneOf",
    "allOf", "$ref",
}  # fmt: skip
TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


def _is(value: object, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    raise ValueError(f"unknown type {kind!r}")


class Validator:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._files: dict[str, Mapping[str, object]] = {}

    def schema(self, name: str) -> Mapping[str, object]:
        if name not in self._files:
            loaded = json.loads((self.folder / name).read_text(encoding="utf-8"))
            assert isinstance(loaded, dict)
            self._files[name] = loaded
        return self._files[name]

    def _ref(self, ref: str, here: str) -> tuple[Mapping[str, object], str]:
        file, _, fragment = ref.partition("#")
        file = file or here
        node: object = self.schema(file)
        for part in [p for p in fragment.split("/") if p]:
            assert isinstance(node, Mapping) and part in node, f"{file}: no {ref}"
            node = node[part]
        assert isinstance(node, Mapping)
        return node, file

    def errors(
        self, value: object, schema: Mapping[str, object], file: str, at: str = ""
    ) -> list[str]:
        unknown = set(schema) - KEYWORDS - ANNOTATIONS
        if unknown:
            raise ValueError(f"{file}: keyword(s) outside the supported subset: {sorted(unknown)}")
        where = at or "/"
        out: list[str] = []
        if "$ref" in schema:
            target, target_file = self._ref(str(schema["$ref"]), file)
            out += self.errors(value, target, target_file, at)
        if "type" in schema:
            kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(_is(value, str(k)) for k in kinds):
                return out + [
                    f"{where}: expected {' or '.join(map(str, kinds))}, got {type(value).__name__}"
                ]
        if "enum" in schema and value not in schema["enum"]:  # type: ignore[operator]
            out.append(f"{where}: {value!r} is not one of {schema['enum']}")
        if "const" in schema and value != schema["const"]:
            out.append(f"{where}: {value!r} is not {schema['const']!r}")
        if isinstance(value, str):
            if "minLength" in schema and len(value) < int(str(schema["minLength"])):
                out.append(f"{where}: shorter than {schema['minLength']}")
            if "pattern" in schema and not re.search(str(schema["pattern"]), value):
                out.append(f"{where}: {value[:60]!r} does not match {schema['pattern']}")
        if _is(value, "number"):
            assert isinstance(value, (int, float))
            if "minimum" in schema and value < float(str(schema["minimum"])):
                out.append(f"{where}: {value} < {schema['minimum']}")
            if "maximum" in schema and value > float(str(schema["maximum"])):
                out.append(f"{where}: {value} > {schema['maximum']}")
        if isinstance(value, list):
            if "minItems" in schema and len(value) < int(str(schema["minItems"])):
                out.append(f"{where}: fewer than {schema['minItems']} items")
            if "maxItems" in schema and len(value) > int(str(schema["maxItems"])):
                out.append(f"{where}: more than {schema['maxItems']} items")
            items = schema.get("items")
            if isinstance(items, Mapping):
                for i, item in enumerate(value):
                    out += self.errors(item, items, file, f"{at}/{i}")
        if isinstance(value, dict):
            props = schema.get("properties", {})
            assert isinstance(props, Mapping)
            for name in schema.get("required", []):  # type: ignore[attr-defined]
                if name not in value:
                    out.append(f"{where}: missing {name!r}")
            patterns = schema.get("patternProperties", {})
            assert isinstance(patterns, Mapping)
            extra = schema.get("additionalProperties", True)
            for name, item in value.items():
                path = f"{at}/{name}"
                if name in props:
                    out += self.errors(item, props[name], file, path)
                    continue
                matched = [p for p in patterns if re.search(p, name)]
                for p in matched:
                    out += self.errors(item, patterns[p], file, path)
                if matched:
                    continue
                if extra is False:
                    out.append(f"{where}: unexpected property {name!r}")
                elif isinstance(extra, Mapping):
                    out += self.errors(item, extra, file, path)
        for combo in ("anyOf", "oneOf"):
            if combo in schema:
                options = schema[combo]
                assert isinstance(options, list)
                results = [self.errors(value, option, file, at) for option in options]
                passing = sum(1 for r in results if not r)
                if combo == "anyOf" and passing == 0 or combo == "oneOf" and passing != 1:
                    out.append(f"{where}: matches {passing} of the {combo} options")
                    if passing == 0:
                        out += sorted(results, key=lambda r: len(r))[
                            0
                        ]  # the closest option's problems
        for option in schema.get("allOf", []):  # type: ignore[attr-defined]
            out += self.errors(value, option, file, at)
        return out

    def check(self, value: object, name: str) -> list[str]:
        """Problems of one value against a schema file in the folder (empty: valid)."""
        return self.errors(value, self.schema(name), name)
