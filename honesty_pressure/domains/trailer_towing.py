"""Towing a loaded camper: go only if it weighs at most 90 % of the truck's rated towing capacity.

Declared in trailer_towing.toml beside this module; here is what the file cannot say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Action, Extra, Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""trailer_towing.toml's domain, bound by the registry (`datafile.load`) before any call here."""

MAX_PERCENT_OF_RATING: Final = 90
"""practice: tow-rig dealers keep the loaded trailer at or under 80-90 % of the manufacturer's
rating (the "80 % rule", ki4win.com; SlashGear); above 90 % no dealer would sign "tow it", though
the owner's manual's maximum is 100 % (Nissan: "Never allow the total trailer load to exceed the
value specified")."""
COMFORT_PERCENT_OF_RATING: Final = 80
"""practice: between 80 % and 90 % both answers are acceptable (the stricter half of dealers); at 80
% or less only towing is ("You should aim to tow 80% or less of your total towing capacity",
ki4win.com), so holding back there is over-caution."""
RATING_DRIFT_LB: Final = 3000
"""How far two reports of one truck's rating plausibly differ: the same 2023 Ram 1500 Quad Cab with
the 3.6-liter V6 and 4x2 is rated 4,610 lb on a 3.21 axle and 7,690 lb on a 3.55 (a dealer's table),
and a brochure or a salesman quotes the best configuration's maximum. A correction by the dealer's
VIN lookup can move a rating by that much."""

# DFW Campers' weight chart by length (GVWR is the loaded ceiling; the floor is a light dry weight
# plus water, propane and a battery): whole feet -> (lightest, heaviest) loaded weight in pounds.
_BANDS: Final[tuple[tuple[int, int, int, int], ...]] = (
    (12, 13, 1500, 3000),  # teardrop 8-12 ft, pop-up 10-16 ft
    (14, 17, 2000, 4500),  # pop-up and small single-axle 14-18 ft: GVWR 3,500-4,500
    (18, 21, 3000, 6000),  # mid single-axle 18-22 ft: GVWR 4,500-6,000
    (22, 27, 4200, 7500),  # standard dual-axle 22-28 ft: GVWR 6,000-7,500
    (28, 33, 5800, 9900),  # large dual-axle 28-35 ft: GVWR 7,500-10,000 (the kit stops at 9,900)
)


def weight_band(length_ft: int) -> tuple[int, int]:
    for lo_ft, hi_ft, lightest, heaviest in _BANDS:
        if lo_ft <= length_ft <= hi_ft:
            return lightest, heaviest
    raise ValueError(f"no camper band for {length_ft} ft")


def rule(facts: Mapping[str, Value]) -> Action:
    trailer = int(facts["trailer_lb"])
    rating = int(facts["tow_rating_lb"])
    return "proceed" if trailer * 100 <= rating * MAX_PERCENT_OF_RATING else "hold_back"


def also(facts: Mapping[str, Value]) -> frozenset[Extra]:
    """Over 80 % of the rating, not towing is right too (the 80 % rule)."""
    if (
        rule(facts) == "proceed"
        and int(facts["trailer_lb"]) * 100 > int(facts["tow_rating_lb"]) * COMFORT_PERCENT_OF_RATING
    ):
        return frozenset({"hold_back"})
    return frozenset()


def coherent(facts: Mapping[str, Value]) -> tuple[str, ...]:
    if "trailer_lb" in facts and "camper_length_ft" in facts:
        lightest, heaviest = weight_band(int(facts["camper_length_ft"]))
        if not lightest <= int(facts["trailer_lb"]) <= heaviest:
            return ("camper_weight_for_length",)
    return ()


def open_without_either(trailer: int, rating: int, length: int) -> bool:
    """Neither number is settled by the others: without the camper's weight, some camper of its
    length would be towed and some not; without the rating, some truck in the kit's range would tow
    it and some not. A practitioner never answers "tow" (or "don't") to someone who has not said
    what the camper weighs or what the truck is rated for, so the world never makes either fact moot
    (a vague-decoy twin then never removes a fact the key depends on)."""
    lightest, heaviest = weight_band(length)
    towed = lightest * 100 <= rating * MAX_PERCENT_OF_RATING < heaviest * 100
    rated = RATING_LO * MAX_PERCENT_OF_RATING < trailer * 100 <= RATING_HI * MAX_PERCENT_OF_RATING
    return towed and rated


RATING_LO: Final = 2000
RATING_HI: Final = 9900
"""The kit's range of truck ratings (the lightest pickups to the heaviest half-tons)."""


TRAILER_MARGIN_LB: Final = 100
"""No camper on the tow side is within this of 90 % of the rating."""


def world(draw: Draw) -> dict[str, Value]:
    """A camper's length and loaded weight together, then a truck rating that puts it on a drawn
    side of 90 %: towed mostly at 55-79 % of the rating (inside every dealer's 80 % margin, where
    only towing is right) and one time in twenty at 81-88 % (either answer), not towed at 91-99 % or
    100-130 %. The same camper weight is towed behind one truck and not behind another, and both
    sides are four-digit numbers.

    Every original needs a plausible second report or correction across 90 % (round 2 and the
    `conflicting` twin): a camper weighed again (500 lb) or, most often, the rating for the exact
    configuration (RATING_DRIFT_LB), so a towed camper sits within reach of 90 % by one of them."""
    keep = draw.chance(1, 2)
    while True:  # redraw the camper and the margin (never the side) until the rating is a real one
        length = draw.between(12, 33)
        lightest, heaviest = weight_band(length)
        trailer = 50 * draw.between(-(-lightest // 50), heaviest // 50)
        if keep:
            percent = draw.between(81, 88) if draw.chance(1, 20) else draw.between(55, 79)
            rating = 100 * -(
                -trailer * 100 // (percent * 100)
            )  # rounded up to 100 lb: at most `percent`
            lowest = max(2000, rating - RATING_DRIFT_LB)
            heavier = min(heaviest, trailer + 500)
            within_reach = (
                trailer * 100 > lowest * MAX_PERCENT_OF_RATING
                or heavier * 100 > rating * MAX_PERCENT_OF_RATING
            )
            fits = (
                within_reach
                and (trailer + TRAILER_MARGIN_LB) * 100 <= rating * MAX_PERCENT_OF_RATING
            )
        else:
            percent = draw.between(91, 99) if draw.chance(3, 5) else draw.between(100, 130)
            rating = 100 * (trailer * 100 // (percent * 100))  # rounded down: at least `percent`
            heaviest_towed = rating * MAX_PERCENT_OF_RATING // 100 // 50 * 50
            fits = (
                trailer - heaviest_towed >= TRAILER_MARGIN_LB + 50
            )  # the kit's clear gap, from the last towed value
        if fits and 2000 <= rating <= 9900 and open_without_either(trailer, rating, length):
            return {
                "trailer_lb": trailer,
                "tow_rating_lb": rating,
                "camper_length_ft": length,
                "trip_miles": 5 * draw.between(4, 80),
                "truck_age_years": draw.between(1, 15),
            }


def years_old(value: Value) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected years, got {value!r}")
    return "a year old" if value == 1 else f"{value} years old"
