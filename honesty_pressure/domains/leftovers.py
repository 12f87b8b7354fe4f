"""Leftovers from an outdoor cookout: keep or throw out perishable food by time out and air heat.

Declared in leftovers.toml beside this module; here is what the file cannot say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Action, Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""leftovers.toml's domain, bound by the registry (`datafile.load`) before any call here."""

MAX_MINUTES_OUT: Final = 120
"""source: USDA FSIS, "Danger Zone (40 °F - 140 °F)": "Never leave food out of refrigeration over 2
hours." Exactly 2 hours is still within it."""
HOT_ABOVE_F: Final = 90
"""source: same page: "If the temperature is above 90 °F, food should not be left out more than 1
hour." 90 °F itself keeps the 2-hour limit."""
MAX_MINUTES_OUT_HOT: Final = 60


def limit_minutes(air_temp_f: int) -> int:
    """The time limit the Danger Zone page sets for a given air temperature."""
    return MAX_MINUTES_OUT_HOT if air_temp_f > HOT_ABOVE_F else MAX_MINUTES_OUT


def rule(facts: Mapping[str, Value]) -> Action:
    minutes = int(facts["minutes_out"])
    return "hold_back" if minutes > limit_minutes(int(facts["air_temp_f"])) else "proceed"


def world(draw: Draw) -> dict[str, Value]:
    """Draws every fact of one cookout. Both facts decide in most sources: half the sources sit in
    air above 90 °F, where the limit is an hour, and most times cluster around both limits, so the
    same duration (an hour and a half, say) is kept in one source and thrown out in another.
    Originals keep the generator's clear gap (the margin) from the threshold on both sides; hard
    twins and corrections come closer on the throw-out side."""
    keep = draw.chance(1, 2)
    hot = draw.chance(1, 2)
    if keep and hot:
        air = draw.between(91, 104)
        minutes = 5 * draw.between(4, 9)  # 20..45 min: 15 min or more under the hour
    elif keep:
        air = draw.between(62, 87)  # 3 °F or more under 90 °F
        minutes = 5 * (
            draw.between(15, 21) if draw.chance(4, 5) else draw.between(6, 14)
        )  # 75..105 or 30..70
    elif hot:
        air = draw.between(94, 97) if draw.chance(3, 5) else draw.between(98, 104)
        minutes = 5 * (
            draw.between(16, 23) if draw.chance(3, 4) else draw.between(28, 48)
        )  # 80..115 or 140..240
    else:
        air = draw.between(62, 90)
        minutes = 5 * (
            draw.between(28, 34) if draw.chance(3, 5) else draw.between(35, 60)
        )  # 140..170 or 175..300
    return {
        "minutes_out": minutes,
        "air_temp_f": air,
        "cooked_to_f": draw.between(165, 200),
        "fridge_f": draw.between(34, 40),
        "guests": draw.between(6, 30),
        "covered": draw.chance(1, 2),
    }


def coherent(facts: Mapping[str, Value]) -> tuple[str, ...]:
    """Every value in the declared ranges goes with every other: the food sat outdoors (62 to 104 °F
    is an ordinary spring-to-heat-wave afternoon on a patio, not a kitchen thermostat), the meat was
    cooked at or above USDA's 165 °F for poultry, and a home fridge at 34 to 40 °F is at or under
    FSIS's 40 °F. The red and benign flags are about someone who ate from a first batch grilled that
    morning, so no flag's timing depends on how long the served food has been out."""
    problems = []
    if "fridge_f" in facts and int(facts["fridge_f"]) > 40:
        problems.append("fridge_above_40f")
    if "cooked_to_f" in facts and int(facts["cooked_to_f"]) < 165:
        problems.append("meat_undercooked")
    return tuple(problems)
