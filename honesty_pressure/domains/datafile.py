"""A domain file: one TOML file that declares a domain's facts, menu, wording, sources and notes,
read into the same `Domain` a module would build (docs/CONTRIBUTING.md has the format).

A rule, its coherence constraints, `also`, once-seen and the world's draw may be tables
(domains/table.py); what a table cannot say (a lookup, a calendar, a value's words where no
renderer fits) are functions of a small module beside the file, named in its `[python]` table.
Every text field may be wrapped over several lines: a line break and the
spaces around it read as one space (`fold`), so prose needs no escaping and no long lines.

A file with problems raises `DomainFileError`, which names the file, the line and the field of
the first one and carries all of them (`domains check` lists them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any, Final, cast, get_args

from ..core.construct import Kind, Role, Value
from ..core.errors import InputError, printable
from ..core.limits import MAX_DOMAIN_FILE_BYTES
from ..files import toml
from ..files.store import read_bounded
from .base import (
    Detail,
    Domain,
    Fact,
    RedFlag,
    Say,
    Threshold,
    amount,
    dollars,
    either,
    minutes_as_words,
    plain,
)
from .locate import Path as Place
from .locate import locate
from .scaffold import NAME
from .table import (
    ACTION,
    DRAWS,
    CodeRow,
    Row,
    TableError,
    Test,
    action_of,
    codes_of,
    compile_step,
    compile_test,
    table_also,
    table_coherence,
    table_once_seen,
    table_rule,
    table_world,
)

SLOTS: Final = ("says", "clause", "vague", "second", "recheck")
"""A fact's sentence slots, each a table of `public` and `held_out` phrasings."""

HOOKS: Final = ("rule", "world", "coherent", "also", "once_seen")
"""The functions a `[python]` table may name; rule and world are required unless tables say them."""

BUILT_IN_SHOW: Final[Mapping[str, Callable[[Value], str]]] = {
    "dollars": dollars,
    "plain": plain,
    "minutes_as_words": minutes_as_words,
}
"""The renderers a fact's `show` may name. Five take parameters: `{amount = UNIT, decimals = N}`,
`{count = [ONE, MANY]}`, `{either = [TRUE, FALSE]}`, `{words = {VALUE = WORDS, ...}}` and
`{template = "... {v} ..."}`; any other name is a function of the module beside the file."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a domain file, where it is."""

    line: int | None
    field: str
    problem: str


class DomainFileError(InputError):
    """A domain file that cannot be read into a domain: the first problem is the message, and
    `problems` holds every one found."""

    def __init__(self, file: str, problems: tuple[Problem, ...]) -> None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(first.problem + more, file=file, line=first.line, field=first.field)
        self.problems = problems


def fold(text: str) -> str:
    """A text field as the domain means it: lines wrapped in the file joined by one space (each
    line's surrounding spaces dropped, blank first and last lines too); one line is kept as is."""
    if "\n" not in text:
        return text
    return " ".join(part.strip() for part in text.split("\n") if part.strip())


def _name(place: Place) -> str:
    out = ""
    for part in place:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


class _Reader:
    """Reads fields out of the parsed document, noting every problem with its place (the lines
    are found only when there is a problem: reading a good file never pays for them)."""

    def __init__(self) -> None:
        self.found: list[tuple[Place, str]] = []

    def fail(self, place: Place, problem: str) -> None:
        self.found.append((place, problem))

    def problems(self, text: str) -> tuple[Problem, ...]:
        lines = locate(text)
        found = [Problem(lines.line(place), _name(place), why) for place, why in self.found]
        # In the file's order (a problem no line was found for last), each kind in reading order.
        return tuple(sorted(found, key=lambda p: p.line if p.line is not None else 1 << 30))

    def table(self, data: Mapping[str, Any], place: Place, known: tuple[str, ...]) -> None:
        """Note every key of `data` that the format does not know (a typo would be dropped)."""
        for key in data:
            if key not in known:
                self.fail((*place, key), f"unknown field (known here: {', '.join(known)})")

    def get(self, data: Mapping[str, Any], place: Place, key: str, kind: type, default: Any) -> Any:
        if key not in data:
            if default is None:
                self.fail((*place, key), "missing")
            return default
        value = data[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail((*place, key), f"should be an integer, not {printable(repr(value))}")
            return default
        if not isinstance(value, kind):
            self.fail((*place, key), f"should be a {kind.__name__}, not {printable(repr(value))}")
            return default
        return value

    def text(self, data: Mapping[str, Any], place: Place, key: str, default: str | None) -> str:
        value = self.get(data, place, key, str, default)
        text = fold(value) if isinstance(value, str) else ""
        if default is None and key in data and not text.strip():
            self.fail((*place, key), "empty")
        return text

    def texts(self, data: Mapping[str, Any], place: Place, key: str) -> tuple[str, ...]:
        value = self.get(data, place, key, list, [])
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                self.fail((*place, key, i), "should be a text that is not empty")
            else:
                out.append(fold(item))
        return tuple(out)

    def say(self, data: Mapping[str, Any], place: Place, key: str) -> Say:
        table = self.get(data, place, key, dict, None)
        if table is None:
            return Say((), ())
        here = (*place, key)
        self.table(table, here, ("public", "held_out"))
        public, held_out = self.texts(table, here, "public"), self.texts(table, here, "held_out")
        for half, name in ((public, "public"), (held_out, "held_out")):
            if not half and name in table:
                self.fail((*here, name), "no phrasings")
            elif name not in table:
                self.fail((*here, name), "missing")
        return Say(public, held_out)


_TOP: Final = ("name", "code", "area", "title", "doubt", "menu", "python", "openers", "questions")
_TOP_ALL: Final = (
    *_TOP, "rule", "constraint", "also", "once_seen", "world", "fact", "threshold", "docs",
)  # fmt: skip
_TOP_ALL_DETAILS: Final = (*_TOP_ALL, "distractor", "red_flag", "benign_flag")
_MENU: Final = ("proceed", "hold_back", "escalate", "push_proceed", "push_hold_back", "risk")
_FACT: Final = (
    "key", "kind", "role", "label", "show", "lo", "hi", "step", "choices", "margin", "margin_why",
    "drift", "hard", "held_out_shift", "asked", *SLOTS,
)  # fmt: skip


def _words(table: Mapping[str, str]) -> Callable[[Value], str]:
    """A category value said as its own words (`show = {words = {"15" = "a plain 15-amp ..."}}`)."""

    def show(value: Value) -> str:
        return table[str(value)]

    return show


def _template(template: str) -> Callable[[Value], str]:
    """A value put into a phrase (`show = {template = "a {v}-amp breaker"}`)."""

    def show(value: Value) -> str:
        return template.replace("{v}", str(value))

    return show


def _count(one: str, many: str) -> Callable[[Value], str]:
    """A count with its noun: `{count = ["pill", "pills"]}` says 1 as "1 pill", 4 as "4 pills"."""

    def show(value: Value) -> str:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected a count, got {value!r}")
        return f"{value} {one}" if value == 1 else f"{value} {many}"

    return show


_FORMS: Final = (
    ("name", NAME.pattern, "should be lower-case letters, digits and _ (a module name)"),
    ("code", r"[a-z]{3,5}", "should be 3 to 5 lower-case letters"),
)
"""The top fields with a fixed form (the code is in every packet id)."""


def _show(
    r: _Reader, value: object, place: Place, functions: Mapping[str, object]
) -> Callable[[Value], str]:
    """A fact's renderer from its `show` field."""
    if isinstance(value, str):
        if value in BUILT_IN_SHOW:
            return BUILT_IN_SHOW[value]
        found = functions.get(value)
        if callable(found):
            return cast(Callable[[Value], str], found)
        r.fail(place, f"{value!r} is no built-in renderer ({', '.join(BUILT_IN_SHOW)}) and no "
               "function of the module beside the file")  # fmt: skip
    elif isinstance(value, dict) and set(value) <= {"amount", "decimals"} and "amount" in value:
        unit, decimals = value["amount"], value.get("decimals", 0)
        if isinstance(unit, str) and isinstance(decimals, int) and not isinstance(decimals, bool):
            return amount(unit, decimals)
        r.fail(place, "amount takes a unit text and an integer number of decimals")
    elif isinstance(value, dict) and set(value) == {"words"}:
        table = value["words"]
        if isinstance(table, dict) and table and all(isinstance(w, str) for w in table.values()):
            return _words({key: fold(text) for key, text in table.items()})
        r.fail(place, "words takes a table of each value's words")
    elif isinstance(value, dict) and set(value) == {"template"}:
        template = value["template"]
        if isinstance(template, str) and "{v}" in template:
            return _template(fold(template))
        r.fail(place, 'template takes a text with "{v}" where the value goes')
    elif isinstance(value, dict) and set(value) == {"count"}:
        pair = value["count"]
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair):
            return _count(fold(pair[0]), fold(pair[1]))
        r.fail(place, "count takes two texts: the thing counted, one and more than one")
    elif isinstance(value, dict) and set(value) == {"either"}:
        pair = value["either"]
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair):
            return either(fold(pair[0]), fold(pair[1]))
        r.fail(place, "either takes two texts: the clause for true, then for false")
    else:
        r.fail(
            place,
            "should name a renderer, or be a table of amount, count, either, words or template",
        )
    return plain


def _fact(
    r: _Reader, data: Mapping[str, Any], place: Place, functions: Mapping[str, object]
) -> Fact:
    r.table(data, place, _FACT)
    kind = r.text(data, place, "kind", None)
    role = r.text(data, place, "role", None)
    key = data.get("key")
    if isinstance(key, str) and key and not re.fullmatch(r"[a-z][a-z0-9_]*", key):
        r.fail((*place, "key"), "should be lower-case letters, digits and _")
    if key == ACTION:
        r.fail((*place, "key"), f"{ACTION!r} is the name `also` tables read the rule's action by")
    if kind and kind not in get_args(Kind):
        r.fail((*place, "kind"), f"should be one of {', '.join(get_args(Kind))}")
    if role and role not in get_args(Role):
        r.fail((*place, "role"), f"should be one of {', '.join(get_args(Role))}")
    numbers = {
        name: r.get(data, place, name, int, default)
        for name, default in (("lo", 0), ("hi", 0), ("step", 1), ("margin", 0), ("drift", 0))
    }
    numbers["held_out_shift"] = r.get(data, place, "held_out_shift", int, 0)
    if kind == "number" and ("lo" not in data or "hi" not in data):
        r.fail((*place, "lo" if "lo" not in data else "hi"), "missing (a number fact's grid)")
    if kind == "number" and numbers["step"] < 1:
        r.fail((*place, "step"), "should be at least 1")
    if kind == "number" and numbers["lo"] > numbers["hi"]:
        r.fail((*place, "hi"), f"below lo ({numbers['lo']})")
    choices = r.texts(data, place, "choices")
    if kind == "category" and len(choices) < 2:
        r.fail((*place, "choices"), "a category fact needs at least two choices")
    slots = {name: r.say(data, place, name) for name in SLOTS}
    show = _show(r, data.get("show"), (*place, "show"), functions) if "show" in data else plain
    if "show" not in data:
        r.fail((*place, "show"), "missing")
    if kind in ("category", "boolean"):
        for value in choices if kind == "category" else (False, True):
            try:
                show(value)
            except (KeyError, TypeError, ValueError):
                r.fail((*place, "show"), f"cannot say the value {value!r}")
    return Fact(
        key=r.text(data, place, "key", None),
        kind=cast(Kind, kind if kind in get_args(Kind) else "boolean"),
        role=cast(Role, role if role in get_args(Role) else "decoy"),
        label=r.text(data, place, "label", None),
        show=show,
        choices=choices,
        margin_why=r.text(data, place, "margin_why", ""),
        hard=bool(r.get(data, place, "hard", bool, False)),
        asked=bool(r.get(data, place, "asked", bool, False)),
        says=slots["says"],
        clause=slots["clause"],
        vague=slots["vague"],
        second=slots["second"],
        recheck=slots["recheck"],
        **numbers,
    )


def _details(
    r: _Reader, doc: Mapping[str, Any], name: str
) -> list[tuple[Place, Mapping[str, Any]]]:
    tables = r.get(doc, (), name, list, [])
    out: list[tuple[Place, Mapping[str, Any]]] = []
    for i, table in enumerate(tables):
        if isinstance(table, dict):
            out.append(((name, i), table))
        else:
            r.fail((name, i), "should be a table")
    return out


def _detail(r: _Reader, place: Place, data: Mapping[str, Any]) -> Detail:
    r.table(data, place, ("name", "says", "why"))
    return Detail(
        name=r.text(data, place, "name", None),
        says=r.say(data, place, "says"),
        why=r.text(data, place, "why", None),
    )


def _red_flag(r: _Reader, place: Place, data: Mapping[str, Any]) -> RedFlag:
    r.table(data, place, ("name", "says", "why", "stop_ok"))
    return RedFlag(
        name=r.text(data, place, "name", None),
        says=r.say(data, place, "says"),
        why=r.text(data, place, "why", None),
        stop_ok=bool(r.get(data, place, "stop_ok", bool, False)),
    )


def _threshold(r: _Reader, place: Place, data: Mapping[str, Any]) -> Threshold:
    r.table(data, place, ("name", "value", "source", "practice"))
    return Threshold(
        name=r.text(data, place, "name", None),
        value=r.text(data, place, "value", None),
        source=r.text(data, place, "source", None),
        practice=r.text(data, place, "practice", ""),
    )


def _rule_table(r: _Reader, doc: Mapping[str, Any], keys: list[str]) -> dict[str, Any]:
    """The rule and the coherence constraints the file gives as data (domains/table.py)."""
    found: dict[str, Any] = {}
    rule = r.get(doc, (), "rule", dict, {})
    r.table(rule, ("rule",), ("table",))
    rows: list[Row] = []
    for i, row in enumerate(r.get(rule, ("rule",), "table", list, [])):
        try:
            if not isinstance(row, dict) or not set(row) <= {"when", "action"}:
                raise TableError("a row is {when = TEST, action = ACTION}, or {action = ACTION}")
            when = row.get("when")
            if "when" in row and not isinstance(when, str):
                raise TableError("`when` is a test, as text")
            test = compile_test(when, keys) if isinstance(when, str) else None
            rows.append(Row(test, action_of(row.get("action"))))
        except TableError as error:
            r.fail(("rule", "table", i), str(error))
    if "table" in rule and len(rows) == len(rule["table"]):
        try:
            found["rule"] = table_rule(rows)
        except TableError as error:
            r.fail(("rule", "table"), str(error))
    constraints: list[tuple[str, Test]] = []
    for place, data in _details(r, doc, "constraint"):
        r.table(data, place, ("name", "broken_when"))
        name = r.text(data, place, "name", None)
        try:
            constraints.append((name, compile_test(r.text(data, place, "broken_when", None), keys)))
        except TableError as error:
            r.fail((*place, "broken_when"), str(error))
    if constraints:
        found["coherent"] = table_coherence(constraints)
    once = r.get(doc, (), "once_seen", dict, {})
    r.table(once, ("once_seen",), ("when",))
    if "when" in once:
        try:
            found["once_seen"] = table_once_seen(
                compile_test(r.text(once, ("once_seen",), "when", None), keys)
            )
        except TableError as error:
            r.fail(("once_seen", "when"), str(error))
    return found


def _world_table(
    r: _Reader, doc: Mapping[str, Any], facts: list[Fact]
) -> Callable[..., Any] | None:
    """The world as data: `[world]` steps in order, `name = "expression"` (domains/table.py)."""
    world = r.get(doc, (), "world", dict, {})
    steps: list[tuple[str, CodeType]] = []
    for name, source in world.items():
        place: Place = ("world", name)
        try:
            if name in DRAWS or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                raise TableError(
                    "a step is named in lower-case letters, digits and _, no draw's name"
                )
            if not isinstance(source, str):
                raise TableError("a step is an expression, as text")
            steps.append((name, compile_step(fold(source), [n for n, _ in steps])))
        except TableError as error:
            r.fail(place, str(error))
    if not world or len(steps) != len(world):
        return None
    drawn = {name for name, _ in steps}
    missing = [f.key for f in facts if f.key not in drawn]
    if missing:
        r.fail(("world",), f"no step draws {', '.join(missing)}")
        return None
    choices = {f.key: f.choices for f in facts if f.kind == "category"}
    return table_world(steps, [f.key for f in facts], choices)


def _also_table(
    r: _Reader, doc: Mapping[str, Any], keys: list[str], rule: Callable[..., Any] | None
) -> Callable[..., Any] | None:
    """`also` as a table, its tests reading the rule's action as `action`."""
    also = r.get(doc, (), "also", dict, {})
    r.table(also, ("also",), ("table",))
    rows: list[CodeRow] = []
    for i, row in enumerate(r.get(also, ("also",), "table", list, [])):
        try:
            if not isinstance(row, dict) or not set(row) <= {"when", "codes"}:
                raise TableError("a row is {when = TEST, codes = [...]}, or {codes = [...]}")
            when = row.get("when")
            if "when" in row and not isinstance(when, str):
                raise TableError("`when` is a test, as text")
            test = compile_test(when, [*keys, ACTION]) if isinstance(when, str) else None
            rows.append(CodeRow(test, codes_of(row.get("codes"))))
        except TableError as error:
            r.fail(("also", "table", i), str(error))
    if "table" not in also or len(rows) != len(also["table"]) or rule is None:
        return None
    try:
        return table_also(rows, rule)
    except TableError as error:
        r.fail(("also", "table"), str(error))
        return None


def _hooks(
    r: _Reader, doc: Mapping[str, Any], functions: Mapping[str, object], facts: list[Fact]
) -> dict[str, Callable[..., Any]]:
    """The functions the file names in `[python]` (found in the module's `functions`), and the
    rule and constraints it gives as tables instead."""
    keys = [f.key for f in facts]
    table = r.get(doc, (), "python", dict, {})
    r.table(table, ("python",), HOOKS)
    found: dict[str, Callable[..., Any]] = _rule_table(r, doc, keys)

    def given(name: str, key: str) -> bool:
        value = doc.get(name)
        return isinstance(value, dict) and key in value

    tables = {
        "rule": given("rule", "table"),
        "coherent": "constraint" in doc,
        "also": given("also", "table"),
        "once_seen": given("once_seen", "when"),
        "world": isinstance(doc.get("world"), dict) and bool(doc.get("world")),
    }
    for hook, tabled in tables.items():
        if tabled and hook in table:
            r.fail(("python", hook), f"the file gives the {hook} as a table too: keep one")
    for hook in HOOKS:
        name = table.get(hook)
        if name is None or tables.get(hook):
            if hook in found or tables.get(hook):
                continue
            if hook in ("rule", "world"):
                what = "rule's action" if hook == "rule" else "world's draw"
                r.fail(
                    ("python", hook),
                    f"missing: the module's function for the {what}, or a [{hook}] table",
                )
            continue
        function = functions.get(name) if isinstance(name, str) else None
        if not callable(function):
            r.fail(("python", hook), f"{printable(repr(name))} is no function of the module "
                   "beside the file")  # fmt: skip
            continue
        found[hook] = function
    if tables["world"]:
        world = _world_table(r, doc, facts)
        if world is not None:
            found["world"] = world
    if tables["also"]:
        also = _also_table(r, doc, keys, found.get("rule"))
        if also is not None:
            found["also"] = also
    return found


def parse(text: str, file: str) -> dict[str, Any]:
    """The document; a file that is not TOML is one problem."""
    try:
        doc = toml.loads(text)
    except toml.TOMLDecodeError as error:
        message = str(error)
        line = None
        if "(at line " in message:
            message, _, rest = message.rpartition(" (at line ")
            line = int(rest.split(",")[0])
        raise DomainFileError(file, (Problem(line, "toml", f"not TOML: {message}"),)) from None
    return doc


def build(text: str, file: str, functions: Mapping[str, object]) -> Domain:
    """The domain the file's `text` declares, with `functions` (the module beside it, by name)."""
    doc = parse(text, file)
    r = _Reader()
    r.table(doc, (), _TOP_ALL_DETAILS)
    menu = r.get(doc, (), "menu", dict, None) or {}
    r.table(menu, ("menu",), _MENU)
    facts = [_fact(r, data, place, functions) for place, data in _details(r, doc, "fact")]
    hooks = _hooks(r, doc, functions, facts)
    if not facts:
        r.fail(("fact",), "missing: a domain declares its facts as [[fact]] tables")
    docs = r.get(doc, (), "docs", dict, {}) or {}
    r.table(docs, ("docs",), ("notes", "pairs_below_target"))
    r.text(docs, ("docs",), "pairs_below_target", "")  # read by `domains check`, not a Domain's
    fields: dict[str, Any] = {
        name: r.text(doc, (), name, None) for name in ("name", "code", "area", "title")
    }
    for name, pattern, what in _FORMS:
        if fields[name] and not re.fullmatch(pattern, fields[name]):
            r.fail((name,), what)
    fields |= {name: r.text(menu, ("menu",), name, None) for name in _MENU}
    domain = dict(
        fields,
        facts=tuple(facts),
        thresholds=tuple(_threshold(r, p, d) for p, d in _details(r, doc, "threshold")),
        openers=r.say(doc, (), "openers"),
        questions=r.say(doc, (), "questions"),
        distractors=tuple(_detail(r, p, d) for p, d in _details(r, doc, "distractor")),
        red_flags=tuple(_red_flag(r, p, d) for p, d in _details(r, doc, "red_flag")),
        benign_flags=tuple(_detail(r, p, d) for p, d in _details(r, doc, "benign_flag")),
        doubt=r.text(doc, (), "doubt", ""),
        notes=r.texts(docs, ("docs",), "notes"),
        **hooks,
    )
    if r.found:
        raise DomainFileError(file, r.problems(text))
    return Domain(**domain)


def read_domain(path: Path, functions: Mapping[str, object], data: bytes | None = None) -> Domain:
    """The domain declared in the file at `path`, its functions taken from `functions`; `data`:
    the file's bytes, when the caller has read them already (read here otherwise)."""
    file = str(path)
    if data is None:
        data = read_bounded(path, MAX_DOMAIN_FILE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"not UTF-8 text: {error.reason} at byte {error.start}", file=file
        ) from None
    return build(text, file, functions)


def load_file(path: Path) -> Domain:
    """A domain written as data only: the file at `path`, with no module beside it."""
    return read_domain(path, {})


def load(module: ModuleType) -> Domain:
    """The domain of the file beside `module` (`<module>.toml`), with the module's functions; the
    domain is bound in the module as DOMAIN, so its functions and its importers reach the data."""
    if module.__file__ is None:
        raise InputError(f"{module.__name__} has no file, so no domain file beside it")
    domain = read_domain(Path(module.__file__).with_suffix(".toml"), vars(module))
    vars(module)["DOMAIN"] = domain
    return domain
