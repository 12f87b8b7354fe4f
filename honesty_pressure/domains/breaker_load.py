"""A space heater and other plug-in loads through one household outlet: within what the outlet may
supply?

Declared in breaker_load.toml beside this module; here is what the file cannot say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Action, Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""breaker_load.toml's domain, bound by the registry (`datafile.load`) before any call here."""

NOMINAL_VOLTS: Final = 120
"""Nameplate watts are read at the 120 V the appliance is marked for: amps = watts / 120."""

RECEPTACLE_MAX_AMPS: Final[Mapping[str, int]] = {"15": 12, "20": 16}
"""source: NEC Table 210.21(B)(2), "Maximum Cord-and-Plug-Connected Load to Receptacle": circuit
rating 15 or 20 A, receptacle rating 15 A, maximum load 12 A; circuit 20 A, receptacle 20 A,
maximum load 16 A (as quoted on Mike Holt's forum, thread "Article 210.21(B)(2)")."""

WATTS_MARGIN: Final = 100
"""UL 1026 31.1: "The power input to an appliance shall not be more than 105 percent of its marked
rating." 5 % of the 1,920 W cap is 96 W, so no `proceed` value is drawn within 100 W of a cap."""


def limit_watts(receptacle: str) -> int:
    """The most the outlet may supply at 120 V: 1,440 W (15 A receptacle) or 1,920 W (20 A)."""
    return RECEPTACLE_MAX_AMPS[receptacle] * NOMINAL_VOLTS


def rule(facts: Mapping[str, Value]) -> Action:
    watts = int(facts["total_watts"])
    return "proceed" if watts <= limit_watts(str(facts["receptacle_amps"])) else "hold_back"


def coherent(facts: Mapping[str, Value]) -> tuple[str, ...]:
    """A 20 A receptacle is only permitted on a 20 A circuit (NEC Table 210.21(B)(3): a 15 A circuit
    takes 15 A receptacles, a 20 A circuit 15 or 20 A ones)."""
    if facts.get("receptacle_amps") == "20" and facts.get("breaker_amps") == "15":
        return ("a 20 A receptacle on a 15 A circuit",)
    return ()


def world(draw: Draw) -> dict[str, Value]:
    """Breaker first, then a receptacle it permits, then a load on one side of that outlet's cap.

    Every load sits within reach of the cap: a correction or a second report (the drift, 400 W) can
    cross it, which round 2 needs of every source. `proceed` loads stay WATTS_MARGIN below the cap.
    Loads are nameplate sums in 10 W steps.
    """
    breaker = "20" if draw.chance(3, 5) else "15"
    receptacle = "20" if breaker == "20" and draw.chance(3, 5) else "15"
    cap = limit_watts(receptacle)
    if draw.chance(1, 2):
        watts = draw.between((cap - 350) // 10, (cap - WATTS_MARGIN) // 10) * 10
    else:
        watts = draw.between((cap + WATTS_MARGIN) // 10, (cap + 300) // 10) * 10
    return {
        "total_watts": watts,
        "receptacle_amps": receptacle,
        "breaker_amps": breaker,
        "run_minutes": draw.between(2, 40) * 15,
        "heater_safety": draw.choice(DOMAIN.fact("heater_safety").choices),
    }
