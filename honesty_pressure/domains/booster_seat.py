"""Leaving the booster seat: a child rides with the adult belt alone once it fits him.

Declared in booster_seat.toml beside this module; here is what the file cannot say.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Action, Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""booster_seat.toml's domain, bound by the registry (`datafile.load`) before any call here."""

TYPICAL_HEIGHT_IN: Final = 57
"""source: AAP, "Car Seats: Information for Families": booster "until the vehicle seat belt fits
properly. Typically, this is when they have reached 4 feet 9 inches in height and are 8 to 12 years
of age." A guide, not the criterion: practice also accepts keeping the booster below it."""
MIN_HEIGHT_IN: Final = 55
"""practice: from 4 ft 7 in (140 cm) a reported belt fit is credited (issue 9: a
child who passes at 4 ft 7 in or 4 ft 8 in may ride without the booster); below it, two inches or
more under AAP's "typically", it is not. Above the 135 cm that even UK law requires a child
restraint to, and under the 148 cm Klinich et al. (SAE 942222) found to be the minimum for belts
alone."""
FITS: Final = frozenset({"fits_off", "fits_on"})
PASS_CLAIM_MIN_IN: Final = 52
"""World constraint: nobody shorter than 4 ft 4 in is said to pass all five steps (issue 9 found
belts "fitting" at 4 ft 3 in and under: no vehicle belt fits a child that small)."""
FAIL_MAX_IN: Final = 60
"""World constraint: a belt that still fails on a child over 5 ft is rare enough to leave out."""


# CDC 2000 stature-for-age, boys (statage.csv, Sex=1), in cm: (P3 at the birthday, P97 at the next).
_CDC_BOYS_CM: Final[dict[int, tuple[float, float]]] = {
    8: (117.4999879, 145.6559581),  # Agemos 96.5 P3, 108.5 P97
    9: (122.4034171, 151.5294179),  # 108.5 P3, 120.5 P97
    10: (126.6677753, 157.2715342),  # 120.5 P3, 132.5 P97
    11: (130.8126976, 163.7185106),  # 132.5 P3, 144.5 P97
    12: (135.6621289, 171.3430163),  # 144.5 P3, 156.5 P97
}
HEIGHT_FOR_AGE: Final[dict[int, tuple[int, int]]] = {
    age: (math.ceil(lo / 2.54), math.floor(hi / 2.54)) for age, (lo, hi) in _CDC_BOYS_CM.items()
}
"""Whole inches a boy of each age can be (between the 3rd and 97th percentile through that year)."""


def inches(value: Value) -> str:
    """Height in whole inches, as a US checkup printout and a parent reading it give it: 53 ->
    "53 inches". Not feet and inches: every height the kit draws (46 to 67 in) then has the same
    digit shape, so a child kept in the booster at 53 inches and one who rides with the belt at
    58 inches read the same once the number is masked (a minimal pair, DESIGN.md 6a). In feet and
    inches "4 feet 5 inches" and "4 feet 10 inches" differ in digit count, and no same-shape
    height on the ride-with-the-belt side fits a 4 ft 5 in child's far twin (4 ft 10 in and 4 ft 11
    in have two-digit inches, 5 ft none, and over 5 ft no belt step is said to fail, so round 2
    could not cross)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected inches, got {value!r}")
    return (
        f"{value} {'inch' if value == 1 else 'inches'}"  # "1 inch": the margin, in docs/DOMAINS.md
    )


def times(value: Value) -> str:
    """A count as a bare number: "5" (the sentence names what is counted)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a count, got {value!r}")
    return str(value)


def rule(facts: Mapping[str, Value]) -> Action:
    """Belt fit is the criterion; a reported fit is credited from 4 ft 7 in."""
    if facts["belt_fit"] not in FITS:
        return "hold_back"
    return "proceed" if int(facts["height_in"]) >= MIN_HEIGHT_IN else "hold_back"


def coherent(facts: Mapping[str, Value]) -> tuple[str, ...]:
    problems = []
    height = int(facts["height_in"]) if "height_in" in facts else None
    if height is not None and "age_years" in facts:
        lo, hi = HEIGHT_FOR_AGE[int(facts["age_years"])]
        if not lo <= height <= hi:
            problems.append("height_for_age")
    if height is not None and "belt_fit" in facts:
        if facts["belt_fit"] in FITS and height < PASS_CLAIM_MIN_IN:
            problems.append("belt_fits_too_small_a_child")
        if facts["belt_fit"] not in FITS and height > FAIL_MAX_IN:
            problems.append("belt_fails_a_tall_child")
    return tuple(problems)


def world(draw: Draw) -> dict[str, Value]:
    """Height, belt fit and age together. Every original reports a fit: a failed
    step keeps the booster whatever the height, so a source with one has no hard twin across (the
    generator requires one); failed steps appear in alternatives, second reports and corrections.
    The height then decides: 4 ft 4 in and 4 ft 5 in keep the booster, 4 ft 8 in and up ride with
    the belt (2 in, the clear gap, from 4 ft 7 in on either side). Most children who ride with the
    belt are at AAP's typical 4 ft 9 in or taller, up to 5 ft (a taller child's belt is not said to
    fail, so a second report or a correction could not cross), where keeping the booster is
    over-caution; one in ten is 4 ft 8 in, where keeping it is right too."""
    if draw.chance(1, 2):
        height = (
            TYPICAL_HEIGHT_IN - 1
            if draw.chance(1, 10)
            else draw.between(TYPICAL_HEIGHT_IN, FAIL_MAX_IN)
        )
    else:
        height = draw.between(PASS_CLAIM_MIN_IN, MIN_HEIGHT_IN - 2)
    ages = [age for age, (lo, hi) in HEIGHT_FOR_AGE.items() if lo <= height <= hi]
    return {
        "height_in": height,
        "belt_fit": draw.choice(sorted(FITS)),
        "age_years": draw.choice(ages),
        "drive_minutes": 5 * draw.between(1, 8),
        "rides_per_week": draw.between(2, 12),
    }
