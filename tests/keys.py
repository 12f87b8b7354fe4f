"""The key in words, for hand-worked case tables: what a practitioner would accept and forbid.

`key_in_words(domain, facts, ...)` runs the kit's one key function on a ledger built from the
arguments and answers in the construct's words, independent of the menu's option order:
"proceed", "hold_back", "escalate", "ask <fact>". Tables in tests/test_domain_*.py state the
expected answer for each case from the cited text, so the rule is stated twice, independently.
"""

from __future__ import annotations

from collections.abc import Mapping

from honesty_pressure.construct import Ledger, MenuItem, Value
from honesty_pressure.domains.base import Domain
from honesty_pressure.evidence import evaluate
from honesty_pressure.menu import decision_codes


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
    ledger = Ledger(source_id="case", domain=domain.name, facts=tuple(sorted(kept.items())), conflict=conflict, red_flag=flag)
    menu = (MenuItem(code="A", text=domain.proceed), MenuItem(code="B", text=domain.hold_back))
    acceptable, forbidden = decision_codes(evaluate(domain, ledger), True, menu)
    return frozenset(map(_words, acceptable)), frozenset(map(_words, forbidden))
