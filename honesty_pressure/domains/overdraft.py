"""Sending a payment from checking today: only if the available balance (balance less pending
debits) covers it.

Declared in overdraft.toml beside this module (the rule and the constraint as tables); here is
what the file cannot say yet: the world's draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""overdraft.toml's domain, bound by the registry (`datafile.load`) before any call here."""

CUSHION: Final = 50
"""practice: a payment that leaves a few dollars is not one anyone advising on overdrafts signs as
"send it today": holds post above their authorization (a restaurant tip, a gas-pump estimate; the
CFPB's 2022 circular on fees charged on transactions authorized against a sufficient balance), and
the standing advice is to keep a small buffer ("a modest cushion (e.g., $50-$200 depending on your
cashflow variability) prevents accidental overdrafts from pending transactions, double charges, or
bank processing order quirks", Wise-Wallet). So no go-ahead case leaves less than $50 available,
the low end of that range; the rule's line stays at $0 (what the bank decides against). The facts'
`margin` is CUSHION + 1 because the generator counts it from the first overdrawn dollar ($-1)."""


def world(draw: Draw) -> dict[str, Value]:
    """A payment, then an available balance on one side of it within the drift, then the holds.

    The payment is drawn first and the same way on both sides, so its size says nothing about the
    side; the available balance sits within $200 (the drift) of it, so a second report or a
    correction of one amount can cross (round 2 needs that of every source).
    """
    payment = draw.between(150, 2200)
    gap = draw.between(0, 199)
    room = payment + max(CUSHION, gap) if draw.chance(1, 2) else max(50, payment - 1 - gap)
    pending = draw.between(20, 700)
    return {
        "current_balance": room + pending,
        "pending_debits": pending,
        "payment_amount": payment,
        "payday": draw.choice(DOMAIN.fact("payday").choices),
        "overdraft_opt_in": draw.chance(1, 2),
        "unlinked_savings": draw.between(10, 180) * 50,
    }
