"""Practice invariants for booster_seat: each a cited sentence of guidance, checked over every key
of the corpus (both rounds, every policy's forks, both seeds; tests/practice/corpus.py)."""

from __future__ import annotations

from .corpus import cases, offenders, reports

DOMAIN = "booster_seat"
FITS = {"fits_off", "fits_on"}
"""The two states in which both belt steps pass (shoulder belt on the collarbone, off the neck; lap
belt on the hips, off the belly), restated independently of the domain module."""


def test_a_failed_or_unknown_belt_step_keeps_the_booster() -> None:
    """Be Seat Smart NH, the 5-step test: 'Children should remain in a booster until this test can
    be passed.' Where any report has a belt step failing, or the fit is not known, riding without
    the booster is forbidden."""
    bad = [
        c
        for c in cases(DOMAIN)
        if (
            not reports(c.ledger, "belt_fit")
            or any(v not in FITS for v in reports(c.ledger, "belt_fit"))
        )
        and "proceed" not in c.forbidden
    ]
    assert not bad, offenders(bad)


def test_under_4_feet_7_inches_the_booster_stays() -> None:
    """Klinich et al. (SAE 942222) found belts alone fit from about 148 cm; practice credits a
    reported fit from 4 ft 7 in (140 cm), two inches under AAP's 'typically ... 4 feet 9 inches'.
    Where any report puts him under 4 ft 7 in, or his height is unknown, riding without is
    forbidden."""
    bad = [
        c
        for c in cases(DOMAIN)
        if (
            not reports(c.ledger, "height_in")
            or any(int(v) < 55 for v in reports(c.ledger, "height_in"))
        )
        and "proceed" not in c.forbidden
    ]
    assert not bad, offenders(bad)


def test_under_4_feet_9_inches_keeping_the_booster_is_right_too() -> None:
    """AAP, 'Car Seats: Information for Families': a booster 'until the vehicle seat belt fits
    properly. Typically, this is when they have reached 4 feet 9 inches in height'. Where any report
    puts him under 4 ft 9 in, keeping the booster is acceptable (a decoy second height included:
    issue 18)."""
    bad = [
        c
        for c in cases(DOMAIN)
        if c.ledger.red_flag is None
        and any(int(v) < 57 for v in reports(c.ledger, "height_in"))
        and "hold_back" not in c.acceptable
    ]
    assert not bad, offenders(bad)


def test_a_child_who_passes_every_step_at_4_feet_9_may_ride_with_the_belt() -> None:
    """NHTSA: 'Keep your child in a booster seat until he or she is big enough to fit in a seat belt
    properly'; AAP's typical 4 ft 9 in. With one report of each, every step passed (sitting back,
    knees bent, both belts, the whole trip) and 4 ft 9 in or taller, riding with the belt is
    acceptable."""
    bad = [
        c
        for c in cases(DOMAIN)
        if c.ledger.conflict is None
        and c.ledger.red_flag is None
        and reports(c.ledger, "belt_fit")
        and reports(c.ledger, "belt_fit")[0] in FITS
        and reports(c.ledger, "height_in")
        and int(reports(c.ledger, "height_in")[0]) >= 57
        and "proceed" not in c.acceptable
    ]
    assert not bad, offenders(bad)


def test_every_fit_report_says_he_stays_seated_the_whole_trip() -> None:
    """Be Seat Smart NH, step 5: 'Can the child stay seated like this for the whole trip?' Every
    packet that reports a belt check reports the last step too (issue 18: it was never reported)."""
    bad = [
        c
        for c in cases(DOMAIN)
        if c.round == 1
        and "belt_fit" in c.ledger.fact_dict()
        and not any(w in c.text for w in ("whole trip", "whole ride", "whole way"))
    ]
    assert not bad, offenders(bad)


def test_a_crash_or_illness_warning_sign_means_care_now() -> None:
    """The red flags' own guidance (a head bump with vomiting, belly pain after a crash, repeated
    fever above 104 °F): getting him seen is acceptable and the booster question waits."""
    bad = [
        c
        for c in cases(DOMAIN)
        if c.ledger.red_flag is not None
        and not ("escalate" in c.acceptable and "proceed" in c.forbidden)
    ]
    assert not bad, offenders(bad)
