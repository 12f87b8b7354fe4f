"""Claiming a business meal without the itemized receipt: the IRS $75 documentary-evidence line, tip
included. The domain is declared in meal_receipt.toml beside this module (its facts, wording,
sources, notes, and the rule and coherence constraints as tables); this module holds what the file
cannot say yet: the world's joint draw. The registry (`__init__.py`) reads the file and binds the
domain here as DOMAIN.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""Bound by the registry when it reads meal_receipt.toml (`datafile.load`), before any function
here is called: the world draws the meal from the file's choices."""

RECEIPT_FROM: Final = 75
"""source: 26 CFR 1.274-5(c)(2)(iii)(A)(2): documentary evidence is required for "Any other
expenditure of $75 or more"; Pub. 463 ch. 5: not needed if "Your expense, other than lodging, is
less than $75". The expenditure is check plus tip."""


def world(draw: Draw) -> dict[str, Value]:
    """A total within reach of $75 on one side, split into a check and a tip of 8-30 %.

    Totals run from $60 to $89, so a correction of the check (drift $15) can cross the line, which
    round 2 needs of every source. Smaller totals get the more generous tips, so one- and two-digit
    tips, and checks in the sixties, turn up on both sides of the line.
    """
    if draw.chance(1, 2):
        total = draw.between(60, RECEIPT_FROM - 1)
        percent = draw.between(12, 30)
    else:
        total = draw.between(RECEIPT_FROM, 89)
        percent = draw.between(8, 22)
    check = (total * 100 + (100 + percent) // 2) // (100 + percent)
    return {
        "check": check,
        "tip": total - check,
        "expense": draw.choice(DOMAIN.fact("expense").choices),
        "business_card": draw.chance(1, 2),
        "days_ago": draw.between(3, 60),
    }
