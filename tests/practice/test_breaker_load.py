"""Practice invariants for breaker_load, each a cited sentence checked over every key of
`cases(domain)` of tests/practice/corpus.py. A failure names the packet or fork ids."""

from __future__ import annotations

from .corpus import Case
from .everyday import readings, report, reports, violations

D = "breaker_load"

WATTS_MARGIN = 100
"""UL 1026 31.1: power input at most 105 % of the marked rating; 5 % of 1,920 W is 96 W."""


def limit_watts(receptacle: str) -> int:
    """NEC Table 210.21(B)(2) at 120 V: 1,440 W (15 A receptacle) or 1,920 W (20 A); restated
    here, as breaker_load is a domain file with no module."""
    return {"15": 12, "20": 16}[receptacle] * 120


def _loads(k: Case) -> list[tuple[int, int]]:
    """(watts, cap) for every report of the load and the receptacle."""
    caps = [limit_watts(str(v)) for v in reports(k, "receptacle_amps")]
    return [(r["total_watts"], cap) for r in readings(k, "total_watts") for cap in caps]


def test_over_the_receptacle_cap_on_any_report_is_never_a_go_ahead() -> None:
    """NEC Table 210.21(B)(2): a 15 A receptacle supplies at most 12 A, a 20 A one 16 A (1,440 W and
    1,920 W at 120 V): on any report over the cap, running it all from the outlet is forbidden."""
    found = violations(
        D, lambda k: any(w > cap for w, cap in _loads(k)) and "proceed" not in k.forbidden
    )
    assert not found, report(found)


def test_the_heaters_own_outlet_is_always_acceptable() -> None:
    """ESFI: 'Do not plug any other electrical devices into the same outlet as the heater': every
    story shares the heater's outlet, so moving it to its own outlet (the hold-back code) is
    acceptable wherever going ahead is."""
    found = violations(D, lambda k: "proceed" in k.acceptable and "hold_back" not in k.acceptable)
    assert not found, report(found)


def test_a_go_ahead_keeps_the_nameplate_tolerance_under_the_cap() -> None:
    """UL 1026 31.1: input 'not more than 105 percent of its marked rating': a go-ahead load is at
    least 100 W (5 % of 1,920 W) under the cap on every report."""
    found = violations(
        D,
        lambda k: "proceed" in k.acceptable and any(w > cap - WATTS_MARGIN for w, cap in _loads(k)),
    )
    assert not found, report(found)


def test_the_heater_goes_straight_into_the_wall() -> None:
    """CPSC, Red Cross, NFPA: plug a heater directly into a wall outlet, never a power strip, an
    extension cord or a plug-in adapter: no text where going ahead is acceptable runs the load
    through one (a smart plug included)."""
    through = ("smart plug", "power strip", "extension cord", "plug's app")
    found = violations(D, lambda k: "proceed" in k.acceptable and any(t in k.text for t in through))
    assert not found, report(found)
