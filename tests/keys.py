"""The key in words, for hand-worked case tables: what a practitioner would accept and forbid.

`key_in_words(domain, facts, ...)` runs the kit's one key function on a ledger built from the
arguments and answers in the construct's words, independent of the menu's option order:
"proceed", "hold_back", "escalate", "ask <fact>". Tables in tests/test_domain_*.py state the
expected answer for each case from the cited text, so the rule is stated twice, independently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

import pytest

from honesty_pressure.core.construct import Ledger, MenuItem, Value
from honesty_pressure.domains.base import Domain
from honesty_pressure.generate.evidence import evaluate
from honesty_pressure.generate.menu import decision_codes
from honesty_pressure.rounds.fork import Parent


def _words(code: str) -> str:
    if code == "A":
        return "proceed"
    if code == "B":
        return "hold_back"
    if code.startswith("ASK "):
        return f"ask {code[4:]}"
    return code.lower()


def key_in_words(
    domain: Domain,
    facts: Mapping[str, Value],
    *,
    missing: tuple[str, ...] = (),
    conflict: tuple[str, Value] | None = None,
    red_flag: str | None = None,
) -> tuple[frozenset[str], frozenset[str]]:
    """(acceptable, forbidden) in words for the ledger: `facts` minus `missing`, with an optional
    conflicting second report and an optional red flag named by its `name`."""
    kept = {k: v for k, v in facts.items() if k not in missing}
    flag = None
    if red_flag is not None:
        flag = next(i for i, f in enumerate(domain.red_flags) if f.name == red_flag)
    ledger = Ledger(
        source_id="case",
        domain=domain.name,
        facts=tuple(sorted(kept.items())),
        conflict=conflict,
        red_flag=flag,
    )
    acceptable, forbidden = decision_codes(evaluate(domain, ledger), True)
    return frozenset(map(_words, acceptable)), frozenset(map(_words, forbidden))


Key = tuple[frozenset[str], frozenset[str]]
"""(acceptable, forbidden) in words, as key_in_words answers."""
GO: Key = (frozenset({"proceed"}), frozenset())
STOP: Key = (frozenset({"hold_back"}), frozenset({"proceed"}))


def ask(key: str) -> Key:
    """Unsettled, and no cited text says doubt means holding back: asking is the one answer."""
    return frozenset({f"ask {key}"}), frozenset({"proceed"})


# A table row, in one of two spellings: (name, changes to BASE, {"missing": ..., "conflict": ...},
# key) or (name, changes to BASE, missing, conflict, red flag, key).
Case = (
    tuple[str, dict[str, Value], dict[str, object], Key]
    | tuple[str, dict[str, Value], tuple[str, ...], tuple[str, Value] | None, str | None, Key]
)


def case_key(domain: Domain, base: Mapping[str, Value], case: Case) -> Key:
    """The kit's key in words for one row: BASE with the row's changes, less what it leaves
    missing."""
    if len(case) == 4:
        how = case[2]
        missing, conflict, flag = how.get("missing", ()), how.get("conflict"), how.get("red_flag")
    else:
        missing, conflict, flag = case[2], case[3], case[4]
    assert (
        isinstance(missing, tuple)
        and (conflict is None or isinstance(conflict, tuple))
        and (flag is None or isinstance(flag, str))
    )
    return key_in_words(
        domain, {**base, **case[1]}, missing=missing, conflict=conflict, red_flag=flag
    )


def hand_worked(
    domain: Domain, base: Mapping[str, Value], cases: Sequence[Case]
) -> Callable[[Case], None]:
    """A test over a file's table, one case a test id: each row's key is the row's expected answer.
    Bind it to a test_ name in the file (`test_hand_worked_cases = hand_worked(DOMAIN, BASE,
    CASES)`)."""

    @pytest.mark.parametrize("case", cases, ids=[c[0] for c in cases])
    def test(case: Case) -> None:
        assert case_key(domain, base, case) == case[-1]

    return test


def id_parent(packet_id: str, sample: int) -> Parent:
    """A parent with nothing but its id and sample: what `fork_id` reads (the id tests)."""
    return Parent(
        packet_id=packet_id,
        sample=sample,
        messages=(),
        menu=(MenuItem(code="A", text="a"),),
        ledger=cast(Ledger, None),  # fork_id reads the id and the sample only
        proceed_is_a=True,
        reply="r",
        reply_sha256=None,
        decision=None,
    )
