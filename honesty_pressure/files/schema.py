"""The kit's own JSON Schema check, in stdlib code, for the files it reads back (summary.json,
records.jsonl): a file that is not what docs/schema/ says is refused in one line naming the file
and the field, before any of it is used.

It covers the subset docs/schema/ is written in (type, enum, const, properties, required,
additionalProperties, patternProperties, items, minItems, maxItems, minimum, maximum, minLength,
pattern, anyOf, oneOf, allOf, and $ref to "#/$defs/NAME" or "FILE.schema.json#/$defs/NAME"); a
keyword outside it is an error, so a schema never asks for a check that silently does not run.
Each schema is compiled once into nested closures (a records.jsonl of 30,000 lines is checked
line by line, so the walk over the schema is paid once, not per line), and a check returns the
first problem only: a message is one line.

The schemas are read from docs/schema/ of the checkout, or from the copy a wheel installs as
package data (honesty_pressure/data/docs/schema/, pyproject.toml).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from ..core.errors import InputError
from .kitroot import INSTALLED, PACKAGE

Problem = tuple[str, str]
"""(where, what): the field as a dotted path ("" for the whole value), and what is wrong."""
Check = Callable[[object], "Problem | None"]

ANNOTATIONS: Final = frozenset(
    {"$schema", "$id", "$defs", "$comment", "title", "description", "examples"}
)
KEYWORDS: Final = frozenset({
    "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties",
    "items", "minItems", "maxItems", "minimum", "maximum", "minLength", "pattern", "anyOf", "oneOf",
    "allOf", "$ref",
})  # fmt: skip
_TYPES: Final[dict[str, Callable[[object], bool]]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_JSON_NAMES: Final = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}


def schema_folder() -> Path:
    for folder in (PACKAGE.parent / "docs" / "schema", INSTALLED / "docs" / "schema"):
        if (folder / "common.schema.json").is_file():
            return folder
    return PACKAGE.parent / "docs" / "schema"


def _join(key: str, problem: Problem) -> Problem:
    where, what = problem
    return (f"{key}.{where}" if where and not where.startswith("[") else f"{key}{where}", what)


def _got(value: object) -> str:
    return _JSON_NAMES.get(type(value), type(value).__name__)


class Schemas:
    """The schema files of one folder, each compiled on first use."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._files: dict[str, Mapping[str, object]] = {}
        self._compiled: dict[tuple[str, str], Check] = {}

    def document(self, name: str) -> Mapping[str, object]:
        if name not in self._files:
            try:
                loaded = json.loads((self.folder / name).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise InputError(
                    f"the kit's schema cannot be read ({exc}); reinstall the kit",
                    file=str(self.folder / name),
                ) from None
            if not isinstance(loaded, dict):
                raise InputError(
                    "the kit's schema is not a JSON object; reinstall the kit",
                    file=str(self.folder / name),
                )
            self._files[name] = loaded
        return self._files[name]

    def check(self, ref: str) -> Check:
        """The compiled check of "FILE.schema.json" or "FILE.schema.json#/$defs/NAME"."""
        file, _, fragment = ref.partition("#")
        key = (file, fragment)
        if key not in self._compiled:
            node: object = self.document(file)
            for part in [p for p in fragment.split("/") if p]:
                if not isinstance(node, Mapping) or part not in node:
                    raise ValueError(f"{file}: no {ref}")
                node = node[part]
            if not isinstance(node, Mapping):
                raise ValueError(f"{file}: {ref} is not a schema")
            # A placeholder first, so a schema that refers to itself compiles (and is looked up
            # when it runs, by then compiled).
            self._compiled[key] = lambda value: self._compiled[key](value)
            self._compiled[key] = self._compile(node, file)
        return self._compiled[key]

    def _compile(self, schema: Mapping[str, object], file: str) -> Check:
        unknown = set(schema) - KEYWORDS - ANNOTATIONS
        if unknown:
            raise ValueError(f"{file}: keyword(s) outside the supported subset: {sorted(unknown)}")
        checks: list[Check] = []
        if "$ref" in schema:
            ref = str(schema["$ref"])
            target = ref if not ref.startswith("#") else f"{file}{ref}"
            checks.append(lambda value: self.check(target)(value))
        if "type" in schema:
            raw = schema["type"]
            kinds = [str(k) for k in raw] if isinstance(raw, list) else [str(raw)]
            tests = [_TYPES[k] for k in kinds]
            wanted = " or ".join(kinds)
            checks.append(
                lambda v: (
                    None if any(t(v) for t in tests) else ("", f"expected {wanted}, got {_got(v)}")
                )
            )
        if "enum" in schema:
            options = list(schema["enum"])  # type: ignore[call-overload]
            checks.append(
                lambda v: (
                    None
                    if any(_same(v, o) for o in options)
                    else ("", f"{_short(v)} is not one of {', '.join(map(_short, options))}")
                )
            )
        if "const" in schema:
            const = schema["const"]
            checks.append(
                lambda v: None if _same(v, const) else ("", f"{_short(v)} is not {_short(const)}")
            )
        checks += self._scalar_checks(schema)
        if "items" in schema:
            item = self._compile(_mapping(schema["items"], file), file)
            checks.append(lambda v: _items(v, item))
        if any(
            k in schema
            for k in ("properties", "required", "patternProperties", "additionalProperties")
        ):
            checks.append(self._object_check(schema, file))
        for combo in ("anyOf", "oneOf"):
            if combo in schema:
                branches = [
                    self._compile(_mapping(b, file), file) for b in _list(schema[combo], file)
                ]
                checks.append(_any_of(branches) if combo == "anyOf" else _one_of(branches))
        for part in _list(schema.get("allOf", []), file):
            checks.append(self._compile(_mapping(part, file), file))
        return _first(checks)

    @staticmethod
    def _scalar_checks(schema: Mapping[str, object]) -> list[Check]:
        checks: list[Check] = []
        if "minLength" in schema:
            shortest = int(str(schema["minLength"]))
            checks.append(
                lambda v: (
                    ("", f"shorter than {shortest} characters")
                    if isinstance(v, str) and len(v) < shortest
                    else None
                )
            )
        if "pattern" in schema:
            pattern = re.compile(str(schema["pattern"]))
            checks.append(
                lambda v: (
                    ("", f"{_short(v)} does not match {pattern.pattern}")
                    if isinstance(v, str) and not pattern.search(v)
                    else None
                )
            )
        if "minimum" in schema:
            low = float(str(schema["minimum"]))
            checks.append(
                lambda v: (
                    ("", f"{v} < {low:g}") if (n := _number(v)) is not None and n < low else None
                )
            )
        if "maximum" in schema:
            high = float(str(schema["maximum"]))
            checks.append(
                lambda v: (
                    ("", f"{v} > {high:g}") if (n := _number(v)) is not None and n > high else None
                )
            )
        if "minItems" in schema:
            fewest = int(str(schema["minItems"]))
            checks.append(
                lambda v: (
                    ("", f"fewer than {fewest} items")
                    if isinstance(v, list) and len(v) < fewest
                    else None
                )
            )
        if "maxItems" in schema:
            most = int(str(schema["maxItems"]))
            checks.append(
                lambda v: (
                    ("", f"more than {most} items")
                    if isinstance(v, list) and len(v) > most
                    else None
                )
            )
        return checks

    def _object_check(self, schema: Mapping[str, object], file: str) -> Check:
        props = {
            str(k): self._compile(_mapping(v, file), file)
            for k, v in _mapping(schema.get("properties", {}), file).items()
        }
        required = [str(r) for r in _list(schema.get("required", []), file)]
        patterns = [
            (re.compile(str(p)), self._compile(_mapping(v, file), file))
            for p, v in _mapping(schema.get("patternProperties", {}), file).items()
        ]
        extra_raw = schema.get("additionalProperties", True)
        extra: Check | bool = (
            self._compile(extra_raw, file) if isinstance(extra_raw, Mapping) else bool(extra_raw)
        )

        def check(value: object) -> Problem | None:
            if not isinstance(value, dict):
                return None
            for name in required:
                if name not in value:
                    return ("", f"missing field '{name}'")
            for name, item in value.items():
                found = props.get(name)
                if found is not None:
                    problem = found(item)
                    if problem is not None:
                        return _join(str(name), problem)
                    continue
                matched = False
                for pattern, inner in patterns:
                    if pattern.search(name):
                        matched = True
                        problem = inner(item)
                        if problem is not None:
                            return _join(str(name), problem)
                if matched:
                    continue
                if extra is False:
                    return ("", f"unknown field '{_short_text(str(name))}'")
                if callable(extra):
                    problem = extra(item)
                    if problem is not None:
                        return _join(str(name), problem)
            return None

        return check


def _same(value: object, wanted: object) -> bool:
    """JSON equality: 1 and 1.0 are one number, but true is not 1 (as Python's == has it)."""
    return value == wanted and isinstance(value, bool) == isinstance(wanted, bool)


def _number(value: object) -> int | float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _mapping(value: object, file: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{file}: expected a schema object, got {value!r}")
    return value


def _list(value: object, file: str) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"{file}: expected a list, got {value!r}")
    return value


def _short_text(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _short(value: object) -> str:
    return _short_text(json.dumps(value, ensure_ascii=False, default=str))


def _first(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]

    def check(value: object) -> Problem | None:
        for one in checks:
            problem = one(value)
            if problem is not None:
                return problem
        return None

    return check


def _items(value: object, item: Check) -> Problem | None:
    if not isinstance(value, list):
        return None
    for i, element in enumerate(value):
        problem = item(element)
        if problem is not None:
            return _join(f"[{i}]", problem)
    return None


def _closest(problems: list[Problem]) -> Problem:
    """Of the branches' problems, the one deepest in the value (the branch that got furthest);
    if every branch failed on the value's type, one line saying every type it could be."""
    if all(where == "" and what.startswith("expected ") for where, what in problems):
        kinds = " or ".join(
            dict.fromkeys(what.split(",")[0].removeprefix("expected ") for _, what in problems)
        )
        return ("", f"expected {kinds},{problems[0][1].split(',', 1)[1]}")
    return max(problems, key=lambda p: (p[0].count(".") + p[0].count("["), len(p[0])))


def _any_of(branches: list[Check]) -> Check:
    def check(value: object) -> Problem | None:
        problems: list[Problem] = []
        for branch in branches:
            problem = branch(value)
            if problem is None:
                return None
            problems.append(problem)
        return _closest(problems)

    return check


def _one_of(branches: list[Check]) -> Check:
    def check(value: object) -> Problem | None:
        problems = [branch(value) for branch in branches]
        passing = sum(1 for p in problems if p is None)
        if passing == 1:
            return None
        if passing > 1:
            return ("", f"matches {passing} of the oneOf options")
        return _closest([p for p in problems if p is not None])

    return check


_SCHEMAS: Schemas | None = None


def schemas() -> Schemas:
    global _SCHEMAS
    if _SCHEMAS is None:
        _SCHEMAS = Schemas(schema_folder())
    return _SCHEMAS


def problem_in(value: object, ref: str) -> str | None:
    """The first way `value` is not what the schema `ref` says, in words naming the field, or
    None."""
    problem = schemas().check(ref)(value)
    if problem is None:
        return None
    where, what = problem
    return f"{where}: {what}" if where else what


def require(value: object, ref: str, *, file: str, line: int | None = None, what: str) -> None:
    """InputError naming the file (and line) and the field, if `value` is not what `ref` says."""
    problem = problem_in(value, ref)
    if problem is not None:
        raise InputError(
            f"{problem} (not {what} this kit writes: docs/schema/{ref.partition('#')[0]})",
            file=file,
            line=line,
        )


__all__ = ["Schemas", "problem_in", "require", "schema_folder", "schemas"]
