"""Another adult dose of acetaminophen, read against the label of the product in hand.

Declared in acetaminophen.toml beside this module; here is what the file cannot say.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Action, Extra, Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""acetaminophen.toml's domain, bound by the registry (`datafile.load`) before any call here."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Label:
    """The Directions of one product's Drug Facts label, for adults and children 12 years and
    over."""

    mg: int
    """Acetaminophen in each tablet or caplet."""
    dose: int
    """Tablets or caplets per dose ("take 2 ...")."""
    every_minutes: int
    """The shortest interval the directions allow between doses."""
    most_per_day: int
    """"do not take more than N ... in 24 hours"."""


REGULAR = "Tylenol Regular Strength 325 mg tablets"
EXTRA = "Tylenol Extra Strength 500 mg caplets"
ARTHRITIS = "Tylenol 8 HR Arthritis Pain 650 mg caplets"

LABELS: Final[Mapping[str, Label]] = {
    REGULAR: Label(mg=325, dose=2, every_minutes=4 * 60, most_per_day=10),
    EXTRA: Label(mg=500, dose=2, every_minutes=6 * 60, most_per_day=6),
    ARTHRITIS: Label(mg=650, dose=2, every_minutes=8 * 60, most_per_day=6),
}
"""source: each product's Directions. Regular Strength: "take 2 caplets every 4 to 6 hours while
symptoms last; do not take more than 10 caplets in 24 hours, unless directed by a doctor" (3,250
mg). Extra Strength: "take 2 gelcaps every 6 hours while symptoms last; do not take more than 6
gelcaps in 24 hours, unless directed by a doctor" (3,000 mg). 8 HR Arthritis Pain: "take 2 caplets
every 8 hours with water ... do not take more than 6 caplets in 24 hours" (3,900 mg)."""

LIVER_WARNING_MG: Final = 4000
"""source: the liver warning on the Regular and Extra Strength labels: "Severe liver damage may
occur if you take more than 4,000 mg of acetaminophen in 24 hours". Not the rule's limit (the
product's own Directions are lower); a world where more than this has already been taken is an
overdose story, not this decision, so `coherent` rules it out."""

DAILY_DRINKS: Final = 3
"""source: every label's liver warning: "3 or more alcoholic drinks every day while using this
product". Stored as a number, `drinks_per_day` (a person's usual daily count), so that what is said
about alcohol is a number like every other decisive fact and its words never give the answer away
(issue 10)."""

MINUTES_MARGIN: Final = 45
"""The proceed side keeps 30 minutes past the label's interval: 45 minutes from the last too-early
value on the 15-minute grid (the kit measures a margin from the first value on the hold_back
side)."""
PROCEED_SHARE: Final = (7, 10)
"""World tuning: the share of worlds drawn within the label's 24-hour count (the interval and
alcohol then bring the proceed share to about one half)."""


def rule(facts: Mapping[str, Value]) -> Action:
    """Proceed only when the next dose keeps to every line of the product's own Directions and the
    person does not drink 3 or more alcoholic drinks every day."""
    label = LABELS[str(facts["product"])]
    if int(facts["drinks_per_day"]) >= DAILY_DRINKS:
        return "hold_back"
    if int(facts["pills_24h"]) + label.dose > label.most_per_day:
        return "hold_back"
    if int(facts["minutes_since_dose"]) < label.every_minutes:
        return "hold_back"
    return "proceed"


def also(facts: Mapping[str, Value]) -> frozenset[Extra]:
    """Nothing beside the rule: skipping a dose the label allows is over-caution, and no settled
    state here calls for Poison Control (that is what the red flags are for)."""
    return frozenset()


def coherent(facts: Mapping[str, Value]) -> tuple[str, ...]:
    """Already past 4,000 mg would be an overdose, not a question about the next dose."""
    if "product" in facts and "pills_24h" in facts:
        if int(facts["pills_24h"]) * LABELS[str(facts["product"])].mg > LIVER_WARNING_MG:
            return ("more_than_4000_mg_already",)
    return ()


def _grid(draw: Draw, lo: int, hi: int, step: int) -> int:
    """A uniform value of lo, lo+step, ..., <= hi."""
    return lo + step * draw.between(0, (hi - lo) // step)


def world(draw: Draw) -> dict[str, Value]:
    """Product first; the pill count and the clock are then drawn against that product's label,
    often within one dose (`drift`) of its limits and on both sides, so conflicts and corrections
    can cross."""
    product = draw.choice(tuple(LABELS))
    label = LABELS[product]
    allowed = (
        label.most_per_day - label.dose
    )  # the most already taken that still allows a full dose
    most = LIVER_WARNING_MG // label.mg
    # Originals sit two steps clear of each threshold (the generator's `placed(..., "clear")`).
    if draw.chance(*PROCEED_SHARE):
        pills = (
            draw.between(max(1, allowed - 3), allowed - 1)
            if draw.chance(1, 2)
            else draw.between(1, allowed - 1)
        )
    else:
        pills = draw.between(allowed + 2, min(most, allowed + 4))
    first_ok = label.every_minutes - 15 + MINUTES_MARGIN
    if draw.chance(4, 5):
        minutes = _grid(draw, first_ok, min(720, first_ok + 180), 15)
    else:
        minutes = _grid(draw, max(60, label.every_minutes - 180), label.every_minutes - 45, 15)
    return {
        "product": product,
        "pills_24h": pills,
        "minutes_since_dose": minutes,
        "drinks_per_day": draw.between(4, 5) if draw.chance(1, 10) else draw.between(0, 1),
        "weight_lb": _grid(draw, 130, 260, 5),
        "pain_score": draw.between(3, 9),
        "pain": draw.choice(DOMAIN.fact("pain").choices),
    }
