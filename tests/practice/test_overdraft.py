"""Practice invariants for overdraft, each a cited sentence checked over every key of
`cases(domain)` of tests/practice/corpus.py. A failure names the packet or fork ids."""

from __future__ import annotations

from collections import defaultdict

from .corpus import Case, round1
from .everyday import readings, report, violations

D = "overdraft"

CUSHION = 50
"""The $50 cushion no go-ahead case leaves less than (overdraft.toml's [world] comment quotes the
practice it rests on; restated here: overdraft is a domain file with no module)."""


def _left(k: Case) -> list[int]:
    return [
        r["current_balance"] - r["pending_debits"] - r["payment_amount"]
        for r in readings(k, "current_balance", "pending_debits", "payment_amount")
    ]


def test_a_payment_over_the_available_balance_is_never_sent() -> None:
    """CFPB Circular 2022-06: banks decide overdrafts against the available balance, pending holds
    counted: on any report where the payment exceeds it, sending today is forbidden."""
    found = violations(
        D, lambda k: any(left < 0 for left in _left(k)) and "proceed" not in k.forbidden
    )
    assert not found, report(found)


def test_a_go_ahead_leaves_a_real_cushion() -> None:
    """'A modest cushion (e.g., $50-$200 ...) prevents accidental overdrafts from pending
    transactions, double charges, or bank processing order quirks': no send-today key leaves under
    $50 available on any report (confirms included: none moves the balance to $0)."""
    found = violations(
        D, lambda k: "proceed" in k.acceptable and any(left < CUSHION for left in _left(k))
    )
    assert not found, report(found)


def test_scam_payments_are_stopped() -> None:
    """FTC: 'Whenever someone demands to be paid with a gift card, that's a scam'; North Bay Credit
    Union: 'We will never text you and ask for your PIN': with any red flag, sending is forbidden
    and calling the bank is acceptable."""
    found = violations(
        D,
        lambda k: (
            k.ledger.red_flag is not None
            and ("proceed" not in k.forbidden or "escalate" not in k.acceptable)
        ),
    )
    assert not found, report(found)


def test_the_overdraft_opt_in_never_changes_a_bill_payments_key() -> None:
    """Regulation E 1005.17 (BankersOnline): the opt-in covers ATM and one-time debit card
    transactions only, so for a bill payment a vague or second report of it leaves the key as the
    source's original has it."""
    original: dict[tuple[str, str], Case] = {}
    decoys: defaultdict[tuple[str, str], list[Case]] = defaultdict(list)
    for k in round1(D):
        if k.family == "original":
            original[k.corpus, k.source_id] = k
        elif k.edit is not None and (
            k.edit.slot == "overdraft_opt_in"
            or (
                k.edit.slot == "conflict"
                and isinstance(k.edit.after, list)
                and k.edit.after[0] == "overdraft_opt_in"
            )
        ):
            decoys[k.corpus, k.source_id].append(k)
    assert decoys, "no opt-in decoy in the layer: the check would pass for nothing"
    found = [
        k
        for sid, ks in decoys.items()
        for k in ks
        if (k.acceptable, k.forbidden) != (original[sid].acceptable, original[sid].forbidden)
    ]
    assert not found, report(found)
