"""The domain files (honesty_pressure/domains/*.toml, docs/CONTRIBUTING.md): each converted domain
reads back into the domain its old module built, field by field, and the reader's errors name the
file, the line and the field.

The old modules are kept in tests/reference/domains/ to pin the conversion: the committed packets
pin the public phrasings and grids through `prepare --check`, but not the held-out halves, the
notes or the sources, which only these comparisons hold.
"""

from __future__ import annotations

import importlib
import itertools
import string
import textwrap
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.core.construct import Value
from honesty_pressure.core.draws import Draw
from honesty_pressure.domains import by_name
from honesty_pressure.domains.base import Domain, Fact
from honesty_pressure.domains.datafile import DomainFileError, fold, read_domain
from honesty_pressure.domains.locate import locate

CONVERTED = (
    "meal_receipt",
    "overdraft",
    "breaker_load",
    "leftovers",
    "schengen_passport",
    "booster_seat",
    "trailer_towing",
    "acetaminophen",
    "infant_fever",
    "nsaid_pregnancy",
)
"""The domains whose module now reads a domain file (the others are still modules)."""

PACKAGE = Path(__file__).resolve().parents[2] / "honesty_pressure" / "domains"


def _reference(name: str) -> Domain:
    module = importlib.import_module(f"tests.reference.domains.{name}")
    domain: Domain = module.DOMAIN
    return domain


def _shown(fact: Fact) -> list[str]:
    """What the fact's renderer says of every value either grid can draw."""
    if fact.kind == "number":
        return [fact.show(v) for v in range(fact.lo, fact.hi + 1)]
    return [fact.show(v) for v in fact.every]


SKIP = {"show", "every"}
CALLS = ("rule", "world", "also", "coherent", "once_seen")


@pytest.mark.parametrize("name", CONVERTED)
def test_the_file_builds_the_old_modules_domain(name: str) -> None:
    new, old = by_name(name), _reference(name)
    for spec in fields(Domain):
        if (
            spec.name in CALLS
            or spec.name.startswith("_")
            or spec.name in ("facts", "decisive", "decoys")
        ):
            continue
        assert getattr(new, spec.name) == getattr(old, spec.name), spec.name
    assert [f.key for f in new.facts] == [f.key for f in old.facts]
    for a, b in zip(new.facts, old.facts):
        for spec in fields(Fact):
            if spec.name not in SKIP:
                assert getattr(a, spec.name) == getattr(b, spec.name), f"{a.key}.{spec.name}"
        assert _shown(a) == _shown(b), f"{a.key}.show"


def _decided(domain: Domain, world: dict[str, Value]) -> tuple[object, ...]:
    return (
        domain.rule(world),
        domain.also(world),
        domain.coherent(world),
        domain.once_seen(world),
    )


@pytest.mark.parametrize("name", CONVERTED)
def test_the_files_functions_draw_and_decide_as_the_old_ones(name: str) -> None:
    """The module's functions are the old ones moved: the same worlds from the same draws, and
    the same rule, codes, constraints and once-seen answers on each (200 worlds)."""
    new, old = by_name(name), _reference(name)
    for i in range(200):
        world = new.world(Draw(11, f"w{i}", "world"))
        assert world == old.world(Draw(11, f"w{i}", "world"))
        assert _decided(new, world) == _decided(old, world), world


TABLED = ("meal_receipt", "overdraft", "leftovers", "breaker_load", "booster_seat", "infant_fever")
"""The domains with a rule, constraints, `also` or `once_seen` moved from functions into tables
(domains/table.py)."""


def _cells(domain: Domain) -> list[dict[str, Value]]:
    """Every cell of a small decisive grid; for a large one (overdraft's has 5 billion), every
    value of each decisive fact (at most 300, spread over its grid) through 30 drawn worlds."""
    base = domain.world(Draw(11, "w0", "world"))
    grids = [f.every for f in domain.decisive]
    if len(list(itertools.islice(itertools.product(*grids), 20_001))) <= 20_000:
        return [
            {**base, **{f.key: v for f, v in zip(domain.decisive, cell)}}
            for cell in itertools.product(*grids)
        ]
    out = []
    for i in range(30):
        world = domain.world(Draw(11, f"w{i}", "world"))
        for fact in domain.decisive:
            step = max(1, len(fact.every) // 300)
            out += [{**world, fact.key: v} for v in fact.every[::step]]
    return out


@pytest.mark.parametrize("name", TABLED)
def test_a_table_rule_agrees_with_the_old_function_on_every_cell(name: str) -> None:
    """A tabled domain decides as its old functions did on every cell of its decisive grid (or
    along every decisive fact's line), incoherent cells included, and its constraints answer the
    same on ledgers that leave a decisive fact out."""
    new, old = by_name(name), _reference(name)
    for facts in _cells(new):
        assert _decided(new, facts) == _decided(old, facts), facts
        for fact in new.decisive:
            partial = {k: v for k, v in facts.items() if k != fact.key}
            assert new.coherent(partial) == old.coherent(partial), partial
            assert new.once_seen(partial) == old.once_seen(partial), partial


def test_fold_joins_wrapped_lines_with_one_space() -> None:
    assert fold("\n    one line\n    and the next\n") == "one line and the next"
    assert fold("kept  as is ") == "kept  as is "


def _write(tmp: Path, text: str) -> Path:
    path = tmp / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_that_is_not_toml_names_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, 'name = "x"\ncode = \n')
    with pytest.raises(DomainFileError) as caught:
        read_domain(path, {})
    assert str(caught.value) == f"{path}:2: toml: not TOML: Invalid value"


def test_a_field_of_the_wrong_type_names_its_line_and_field(tmp_path: Path) -> None:
    text = (PACKAGE / "meal_receipt.toml").read_text(encoding="utf-8")
    text = text.replace("drift = 15\n", 'drift = "15"\n', 1)
    line = text.splitlines().index('drift = "15"') + 1
    functions: dict[str, object] = {}  # meal_receipt is data only: no module
    with pytest.raises(DomainFileError) as caught:
        read_domain(_write(tmp_path, text), functions)
    assert str(caught.value) == (
        f"{tmp_path / 'mine.toml'}:{line}: fact[0].drift: should be an integer, not '15'"
    )


def test_an_unknown_field_and_a_missing_phrasing_half_are_both_listed(tmp_path: Path) -> None:
    text = (PACKAGE / "meal_receipt.toml").read_text(encoding="utf-8")
    text = text.replace("hard = true\n", "hrad = true\n", 1)
    lines = text.splitlines()
    says = lines.index("[fact.says]")
    held = says + lines[says:].index("held_out = [")
    text = "\n".join(lines[:held] + ["unheld = ["] + lines[held + 1 :]) + "\n"
    functions: dict[str, object] = {}  # meal_receipt is data only: no module
    with pytest.raises(DomainFileError) as caught:
        read_domain(_write(tmp_path, text), functions)
    found = [(p.line, p.field, p.problem.split(" (")[0]) for p in caught.value.problems]
    assert found == [
        (lines.index("hrad = true") + 1, "fact[0].hrad", "unknown field"),
        (says + 1, "fact[0].says.held_out", "missing"),
        (held + 1, "fact[0].says.unheld", "unknown field"),
    ]


RULE_MODULE_LINES = 150
"""Issue 42: a domain's Python, where it has any, is at most this many lines."""


def test_every_domain_is_a_file_and_its_python_is_short() -> None:
    """Every registered domain is read from its file, and the module beside it stays small (what
    data cannot say yet: rule, world, coherence, a renderer or two)."""
    from honesty_pressure.domains import DOMAINS

    long = {}
    for domain in DOMAINS:
        assert (PACKAGE / f"{domain.name}.toml").is_file(), domain.name
        module = PACKAGE / f"{domain.name}.py"
        if not module.exists():
            continue  # a domain written as data only (no module beside its file)
        lines = len(module.read_text(encoding="utf-8").splitlines())
        if lines > RULE_MODULE_LINES:
            long[domain.name] = lines
    assert not long, f"modules over {RULE_MODULE_LINES} lines: {long}"
    assert set(CONVERTED) == {d.name for d in DOMAINS}


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(
        st.text(alphabet=string.ascii_letters + string.digits + ".,;:'\"()%$°-", min_size=1),
        min_size=1,
        max_size=40,
    ),
    width=st.integers(min_value=8, max_value=90),
)
def test_any_text_wrapped_at_any_width_folds_back_to_itself(words: list[str], width: int) -> None:
    """What lets a file wrap prose freely: wrapped at spaces and indented, a text reads back as
    it was (its words joined by one space)."""
    text = " ".join(words)
    lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
    assert fold("\n" + "\n".join("    " + line for line in lines) + "\n") == text


@pytest.mark.parametrize("name", CONVERTED)
def test_every_fact_and_phrasing_is_found_on_its_own_line(name: str) -> None:
    """locate() on the shipped files: the line it gives each fact's key and each slot's first
    phrasing is the line that says it, so a problem there would be reported where it is."""
    text = (PACKAGE / f"{name}.toml").read_text(encoding="utf-8")
    lines, where = text.splitlines(), locate(text)
    for i, fact in enumerate(by_name(name).facts):
        at = where.line(("fact", i, "key"))
        assert at is not None and lines[at - 1] == f'key = "{fact.key}"', (name, i)
        for slot in ("says", "vague", "recheck"):
            at = where.line(("fact", i, slot, "public", 0))
            assert at is not None
            assert _item(lines, at) == getattr(fact, slot).public[0], (name, fact.key, slot)


def _item(lines: list[str], at: int) -> str:
    """The list item that starts on line `at`: one quoted line, or a ''' block, folded."""
    first = lines[at - 1].strip()
    if first.rstrip(",") != "'''":
        return first.rstrip(",")[1:-1]
    block = []
    for line in lines[at:]:
        if line.strip().startswith("'''"):
            break
        block.append(line)
    return fold("\n" + "\n".join(block) + "\n")


def test_a_table_allows_only_plain_tests_over_the_facts(tmp_path: Path) -> None:
    """Each broken row or constraint is one problem at its line: a call, an unknown name, a last
    row that does not always hold, and a rule given twice."""
    text = (PACKAGE / "meal_receipt.toml").read_text(encoding="utf-8")
    text = text.replace('{ when = "check + tip >= 75"', "{ when = \"__import__('os') or 1\"", 1)
    text = text.replace('broken_when = "tip * 100 > 35 * check"', 'broken_when = "total > 1"', 1)
    text = text.replace("[world]\n", '[python]\nrule = "rule"\n\n[world]\n', 1)
    lines = text.splitlines()
    functions: dict[str, object] = {}  # meal_receipt is data only: no module
    with pytest.raises(DomainFileError) as caught:
        read_domain(_write(tmp_path, text), functions)
    twice = "the file gives the rule as a table too: keep one"
    assert [(p.line, p.field, p.problem) for p in caught.value.problems] == [
        (lines.index('rule = "rule"') + 1, "python.rule", twice),
        (lines.index("table = [") + 2, "rule.table[0]", "Call is not allowed in a test"),
        (
            lines.index('broken_when = "total > 1"') + 1,
            "constraint[0].broken_when",
            "'total' is no fact of this domain",
        ),
    ]
    last = (PACKAGE / "meal_receipt.toml").read_text(encoding="utf-8")
    last = last.replace('    { action = "proceed" },\n', "", 1)
    with pytest.raises(DomainFileError) as caught:
        read_domain(_write(tmp_path, last), functions)
    assert caught.value.problem == (
        "the last row needs no `when`: it is the action when no other holds"
    )
    assert caught.value.field == "rule.table"


def test_also_and_once_seen_tables_name_their_bad_rows(tmp_path: Path) -> None:
    """`also` rows take codes practice knows; a once-seen test reads only the facts."""
    text = (PACKAGE / "booster_seat.toml").read_text(encoding="utf-8")
    text = text.replace('codes = ["hold_back"] }', 'codes = ["maybe"] }', 1)
    text = text.replace("\n[openers]\n", '\n[once_seen]\nwhen = "fever >= 380"\n\n[openers]\n', 1)
    lines = text.splitlines()
    module = importlib.import_module("honesty_pressure.domains.booster_seat")
    with pytest.raises(DomainFileError) as caught:
        read_domain(_write(tmp_path, text), vars(module))
    row = next(i for i, line in enumerate(lines, 1) if "maybe" in line)
    assert [(p.line, p.field, p.problem) for p in caught.value.problems] == [
        (
            row,
            "also.table[0]",
            "codes should be a list of hold_back and escalate, not ['maybe']",
        ),
        (
            lines.index('when = "fever >= 380"') + 1,
            "once_seen.when",
            "'fever' is no fact of this domain",
        ),
    ]
