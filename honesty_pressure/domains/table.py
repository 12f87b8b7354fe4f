"""A rule and its coherence constraints as data: a decision table over facts (docs/CONTRIBUTING.md).

    [rule]
    table = [
        { when = "check + tip >= 75", action = "hold_back" },
        { action = "proceed" },
    ]

    [[constraint]]
    name = "a tip above 35 % of the check"
    broken_when = "tip * 100 > 35 * check"

    [also]
    table = [
        { when = "action == 'proceed' and height_in < 57", codes = ["hold_back"] },
        { codes = [] },
    ]

    [once_seen]
    when = "age_weeks <= 12 and rectal_temp >= 380"

The first row whose `when` holds gives the action (a row without `when` always holds). A
constraint is broken where its test holds, and is only asked when every fact it names is known
(a ledger may leave facts out); so is a row of `also` (the codes practice accepts beside the
rule's action, which its tests read as `action`) and `once_seen`. A test is one expression over
the facts' keys: integers, texts, True and False, `+ - * //`, comparisons (`in` a tuple too),
`and`, `or`, `not` and `x if c else y`; nothing else (no names but the facts, no calls, no
attributes). It is checked once and then compiled, so a table rule costs about what a
hand-written one does: the generator asks it millions of times.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import CodeType
from typing import Final, get_args

from ..core.construct import Action, Extra, Value
from ..core.draws import Draw

_NODES: Final = (
    ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.BinOp,
    ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE,
    ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.IfExp, ast.Name, ast.Load, ast.Constant, ast.Tuple,
)  # fmt: skip
"""The only syntax a test may use."""

_NO_BUILTINS: Final[dict[str, object]] = {"__builtins__": {}}


class TableError(ValueError):
    """A test that is not one the table allows; the message says why."""


@dataclass(frozen=True, slots=True)
class Test:
    """One compiled test and the facts it reads."""

    source: str
    code: CodeType
    names: frozenset[str]

    def holds(self, facts: Mapping[str, Value]) -> bool:
        # compile_test let through nothing but the facts' names and plain operators
        return bool(eval(self.code, _NO_BUILTINS, facts))


def compile_test(source: str, keys: Sequence[str]) -> Test:
    """`source` checked against the allowed syntax and the domain's fact keys, then compiled."""
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as error:
        raise TableError(f"not an expression: {error.msg}") from None
    names = set()
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            raise TableError(f"{type(node).__name__} is not allowed in a test")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (bool, int, str)):
            raise TableError(f"{node.value!r} is not an integer, a text or a truth value")
        if isinstance(node, ast.Name):
            if node.id not in keys:
                raise TableError(f"{node.id!r} is no fact of this domain")
            names.add(node.id)
    return Test(source, compile(tree, "<domain table>", "eval"), frozenset(names))


@dataclass(frozen=True, slots=True)
class Row:
    test: Test | None
    action: Action


def table_rule(rows: Sequence[Row]) -> Callable[[Mapping[str, Value]], Action]:
    """The rule a table gives: the first row that holds (the last row must always hold)."""
    if not rows or rows[-1].test is not None:
        raise TableError("the last row needs no `when`: it is the action when no other holds")

    def rule(facts: Mapping[str, Value]) -> Action:
        for row in rows:
            if row.test is None or row.test.holds(facts):
                return row.action
        raise AssertionError("unreachable: the last row always holds")

    return rule


def action_of(text: object) -> Action:
    if text not in get_args(Action):
        raise TableError(f"the action should be proceed or hold_back, not {text!r}")
    return text  # type: ignore[return-value]


def table_coherence(
    constraints: Sequence[tuple[str, Test]],
) -> Callable[[Mapping[str, Value]], tuple[str, ...]]:
    """The names of the constraints a (possibly partial) ledger breaks, in the file's order."""

    def coherent(facts: Mapping[str, Value]) -> tuple[str, ...]:
        return tuple(
            name for name, test in constraints if test.names <= facts.keys() and test.holds(facts)
        )

    return coherent


ACTION: Final = "action"
"""The name an `also` test reads the rule's action by (no fact may be called this)."""


@dataclass(frozen=True, slots=True)
class CodeRow:
    test: Test | None
    codes: frozenset[Extra]


def codes_of(value: object) -> frozenset[Extra]:
    if not isinstance(value, list) or not all(v in get_args(Extra) for v in value):
        raise TableError(f"codes should be a list of hold_back and escalate, not {value!r}")
    return frozenset(value)


def _known(test: Test, facts: Mapping[str, Value]) -> bool:
    return test.names <= facts.keys() and test.holds(facts)


def table_also(
    rows: Sequence[CodeRow], rule: Callable[[Mapping[str, Value]], Action]
) -> Callable[[Mapping[str, Value]], frozenset[Extra]]:
    """The codes practice accepts beside the rule's action: the first row that holds."""
    if not rows or rows[-1].test is not None:
        raise TableError("the last row needs no `when`: it is the codes when no other holds")

    def also(facts: Mapping[str, Value]) -> frozenset[Extra]:
        known = {**facts, ACTION: rule(facts)}
        for row in rows:
            if row.test is None or _known(row.test, known):
                return row.codes
        raise AssertionError("unreachable: the last row always holds")

    return also


def table_once_seen(test: Test) -> Callable[[Mapping[str, Value]], bool]:
    """Whether the facts reported make the rule's urgent codes acceptable for good (base.Domain)."""

    def once_seen(facts: Mapping[str, Value]) -> bool:
        return _known(test, facts)

    return once_seen


# ---- a world as data --------------------------------------------------------------------------

DRAWS: Final = ("between", "chance", "choice", "below")
"""The draws a world step may call: between(lo, hi), chance(n, d), choice("fact"), below(n)."""


def compile_step(source: str, known: Sequence[str]) -> CodeType:
    """One world step: a test's syntax, plus calls of the draws; names only the steps before it."""
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as error:
        raise TableError(f"not an expression: {error.msg}") from None
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in DRAWS or node.keywords:
                raise TableError(f"a step may call only {', '.join(DRAWS)}, without keywords")
            continue
        if isinstance(node, (ast.Mod, ast.Div)) or not isinstance(node, _NODES):
            raise TableError(f"{type(node).__name__} is not allowed in a world step")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (bool, int, str)):
            raise TableError(f"{node.value!r} is not an integer, a text or a truth value")
        if isinstance(node, ast.Name) and id(node) not in calls and node.id not in known:
            raise TableError(f"{node.id!r} is not drawn by an earlier step")
    return compile(tree, "<domain world>", "eval")


def table_world(
    steps: Sequence[tuple[str, CodeType]],
    keys: Sequence[str],
    choices: Mapping[str, tuple[str, ...]],
) -> Callable[[Draw], dict[str, Value]]:
    """The world the steps draw, in the file's order (so the same seed draws the same values);
    the facts' values are the steps named after them, the other steps are working values."""

    def world(draw: Draw) -> dict[str, Value]:
        def choice(key: str) -> str:
            return draw.choice(choices[key])

        names: dict[str, object] = {
            "between": draw.between,
            "chance": draw.chance,
            "choice": choice,
            "below": draw.below,
        }
        for name, code in steps:
            names[name] = eval(code, _NO_BUILTINS, names)
        return {key: names[key] for key in keys}  # type: ignore[misc]

    return world
