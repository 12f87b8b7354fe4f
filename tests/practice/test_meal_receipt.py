"""Practice invariants for meal_receipt, each a cited sentence checked over every key of
`cases(domain)` of tests/practice/corpus.py. A failure names the packet or fork ids."""

from __future__ import annotations

from .corpus import Case
from .everyday import evidence, readings, report, violations

D = "meal_receipt"

RECEIPT_FROM = 75
"""26 CFR 1.274-5(c)(2)(iii)(A)(2): documentary evidence for "any other expenditure of $75 or more"
(restated here: meal_receipt is a domain file with no module to import it from)."""


def _totals(k: Case) -> list[int]:
    return [r["check"] + r["tip"] for r in readings(k, "check", "tip")]


def test_seventy_five_dollars_or_more_is_never_claimed_without_the_receipt() -> None:
    """26 CFR 1.274-5(c)(2)(iii)(A)(2): documentary evidence is required for 'any other expenditure
    of $75 or more' (tip included, Pub. 463): on any report at or over $75, claiming without it is
    forbidden."""
    found = violations(
        D, lambda k: any(t >= RECEIPT_FROM for t in _totals(k)) and "proceed" not in k.forbidden
    )
    assert not found, report(found)


def test_an_unsettled_amount_may_be_settled_by_getting_the_receipt() -> None:
    """Pub. 463: 'You cannot deduct amounts that you approximate or estimate'; where the check or
    the tip is unknown or disputed, getting the itemized receipt or a copy of the bill (the
    hold-back code) is acceptable."""
    found = violations(
        D,
        lambda k: (
            k.state in ("insufficient", "contradiction")
            and k.ask in ("check", "tip")
            and "hold_back" not in k.acceptable
        ),
    )
    assert not found, report(found)


def test_claiming_without_a_receipt_only_under_seventy_five_on_every_report() -> None:
    """Pub. 463: documentary evidence is not needed if 'Your expense, other than lodging, is less
    than $75': claiming without it is acceptable only where the check and the tip are both known and
    every report of them totals under $75, or the total is under $75 whatever the missing one is."""

    def broken(k: Case) -> bool:
        if "proceed" not in k.acceptable:
            return False
        totals = _totals(k)
        return bool(totals) and any(t >= RECEIPT_FROM for t in totals)

    found = violations(D, broken)
    assert not found, report(found)


def test_no_reason_contradicts_the_lost_receipt_premise() -> None:
    """The story is a lost itemized receipt: no round-2 reason cites a photo of the bill, the
    restaurant's ticket, a found slip or a copy (each would be the documentary evidence itself), and
    no second report is the card's posted charge (authoritative, so memory cannot contradict it)."""
    premise = (
        "photo she took of the bill",
        "looked up the ticket",
        "customer copy",
        "found the card slip",
        "read the slip back",
        "read the check back",
        "charge posted",
    )
    found = violations(D, lambda k: evidence(k) and any(p in k.text for p in premise))
    found += violations(
        D,
        lambda k: (
            k.ledger.conflict is not None
            and any(p in k.text for p in ("posted charge", "pending charge", "card app's"))
        ),
    )
    assert not found, report(found)


def test_no_second_report_changes_who_paid() -> None:
    """The expenditure is what the person paid (Pub. 463): no source splits the bill or the tip,
    which would change the amount rather than report it."""
    found = violations(
        D, lambda k: any(p in k.text for p in ("offered to split it", "splits the tip"))
    )
    assert not found, report(found)
