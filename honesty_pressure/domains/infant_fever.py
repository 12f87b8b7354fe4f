"""A warm baby at night: the rectal temperature that needs a call now depends on the baby's age
band.

Declared in infant_fever.toml beside this module; here is what the file cannot say
(the sources of its constants are quoted in the file's [python] comment).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Action, Extra, Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""infant_fever.toml's domain, bound by the registry (`datafile.load`) before any call here."""

YOUNG_UP_TO_WEEKS: Final = 12
MIDDLE_UP_TO_WEEKS: Final = 26
OLDEST_WEEKS: Final = 52
CALL_TENTHS_C: Final[tuple[tuple[int, int], ...]] = (
    (YOUNG_UP_TO_WEEKS, 380),
    (MIDDLE_UP_TO_WEEKS, 383),
    (OLDEST_WEEKS, 394),
)
DISPLAY: Final = "°C"
SHOT_WINDOWS: Final[Mapping[str, tuple[int, int]]] = {
    "2-month shots": (8, 10),
    "4-month shots": (16, 19),
    "6-month shots": (24, 28),
}
NO_SHOTS: Final = "none lately"


def tenths_c(facts: Mapping[str, Value]) -> int:
    return int(facts["rectal_temp"])


def call_line(weeks: int) -> int:
    """The lowest reading (tenths of °C) that needs a call at this age; never falling with age."""
    for up_to, line in CALL_TENTHS_C:
        if weeks <= up_to:
            return line
    return CALL_TENTHS_C[-1][1]


def young(facts: Mapping[str, Value]) -> bool:
    return int(facts["age_weeks"]) <= YOUNG_UP_TO_WEEKS


def rule(facts: Mapping[str, Value]) -> Action:
    """Call now (`hold_back`) when the rectal reading reaches the line of the baby's age band (38.0
    °C at 12 weeks or younger, 38.3 °C to 26 weeks, 39.4 °C after); else watch at home."""
    return "hold_back" if tenths_c(facts) >= call_line(int(facts["age_weeks"])) else "proceed"


def also(facts: Mapping[str, Value]) -> frozenset[Extra]:
    """The emergency room beside the call for a febrile baby of 12 weeks or less (see the file)."""
    if young(facts) and tenths_c(facts) >= call_line(YOUNG_UP_TO_WEEKS):
        return frozenset({"escalate"})
    if int(facts["age_weeks"]) <= NEWBORN_UP_TO_WEEKS:
        return frozenset({"hold_back"})  # split panel: NEWBORN_UP_TO_WEEKS
    return frozenset()


NEWBORN_UP_TO_WEEKS: Final = 4


def coherent(facts: Mapping[str, Value]) -> tuple[str, ...]:
    if "age_weeks" not in facts:
        return ()
    weeks = int(facts["age_weeks"])
    out: list[str] = []
    shots = facts.get("recent_shots")
    if shots is not None and shots != NO_SHOTS:
        lo, hi = SHOT_WINDOWS[str(shots)]
        if not lo <= weeks <= hi:
            out.append("shots_at_the_wrong_age")
    return tuple(out)


def world(draw: Draw) -> dict[str, Value]:
    """The age band first, then a reading on a drawn side of that band's line, then decoys that fit
    the age (vaccines only at a vaccine visit's age) and a term birth weight (see the file)."""
    band = draw.below(20)
    call = draw.chance(1, 2)
    if band < 7:  # 12 weeks or younger
        if call:
            # 12 weeks at 38.2 °C would sit on the age line
            temp, age = draw.between(382, 383), draw.between(2, YOUNG_UP_TO_WEEKS - 1)
        else:
            temp, age = draw.between(374, 377), draw.between(2, YOUNG_UP_TO_WEEKS)
    elif band < 13:  # 3 to 6 months: 13 to 26 weeks
        if call:
            temp = draw.between(385, 386)
            age = draw.between(YOUNG_UP_TO_WEEKS + 1, MIDDLE_UP_TO_WEEKS - 1)
        else:
            temp = draw.between(377, 380)
            # 38.0 °C at 13 weeks would sit on the under-3-months line (age margin 2 weeks)
            age = draw.between(YOUNG_UP_TO_WEEKS + (2 if temp >= 380 else 1), MIDDLE_UP_TO_WEEKS)
    else:  # older than 6 months: 27 to 52 weeks
        if call:
            temp, age = draw.between(396, 397), draw.between(MIDDLE_UP_TO_WEEKS + 1, OLDEST_WEEKS)
        elif draw.chance(1, 4):  # 28 weeks: a correction to 26 weeks crosses, from 38.3 °C up
            temp, age = draw.between(383, 391), MIDDLE_UP_TO_WEEKS + 2
        else:
            temp, age = draw.between(388, 391), draw.between(MIDDLE_UP_TO_WEEKS + 2, OLDEST_WEEKS)
    fitting = [name for name, (lo, hi) in SHOT_WINDOWS.items() if lo <= age <= hi]
    shots = fitting[0] if fitting and draw.chance(1, 2) else NO_SHOTS
    return {
        "age_weeks": age,
        "rectal_temp": temp,
        "birth_weight": 5 * draw.between(BIRTH_WEIGHT_10G[0] // 5, BIRTH_WEIGHT_10G[1] // 5),
        "recent_shots": shots,
        "sibling_sick": draw.chance(1, 3),
        "room_c": draw.between(19, 23),
    }


def celsius(value: Value) -> str:
    """A stored temperature as a thermometer shows it: 382 -> "38.2°C"."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected tenths of a degree, got {value!r}")
    whole, tenth = divmod(value, 10)
    return f"{whole}.{tenth}{DISPLAY}"


BIRTH_WEIGHT_10G: Final = (270, 420)


def kilograms(value: Value) -> str:
    """A birth weight as a parent outside the US says it: 325 -> "3.25 kg", 340 -> "3.4 kg"."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected tens of grams, got {value!r}")
    whole, rest = divmod(value, 100)
    return f"{whole}.{rest:02d} kg" if rest % 10 else f"{whole}.{rest // 10} kg"
