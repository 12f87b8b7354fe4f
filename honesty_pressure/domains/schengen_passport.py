"""A U.S. passport for a short Schengen trip: valid 3 months past the flight home, and never
reported lost.

Declared in schengen_passport.toml beside this module; here is what the file cannot say.
"""

from __future__ import annotations

import calendar
import datetime
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Action, Extra, Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""schengen_passport.toml's domain, bound by the registry (`datafile.load`) before any call here."""

DAY_ZERO: Final = datetime.date(2026, 7, 1)
"""Dates are stored as whole days after this day, so they stay small integers (no floats, no
string dates in a ledger) and render as calendar dates."""

MIN_DAYS_AFTER_DEPARTURE: Final = 90
"""source: U.S. Department of State (2014 media note, 'Renew Early'): 'valid for at least 90 days
beyond the traveler's intended date of departure'; Regulation (EU) 2016/399 Art. 6(1)(a)(i): 'at
least three months after the intended date of departure'. The rule requires both readings."""

DATE_MARGIN: Final = 2
"""Three calendar months from a month's end can be read as the month's last day or as overflowing
into the next month (30 November -> 28 February or 2 March); no `proceed` date is drawn within
these 2 days of the threshold, so every reading agrees on it."""

DATE_MARGIN_STEPS: Final = DATE_MARGIN + 1
"""The facts' `margin`, which the generator counts from the last date on the other side (the last
date that is too early): 3 from there is 2 days past the line, so no go-ahead date, original, twin
or correction, sits inside the 2-day band (the review found hard twins 1 day past the line when the
margin was given as 2)."""

REPORTED: Final = "reported"


def date_of(day: int) -> datetime.date:
    return DAY_ZERO + datetime.timedelta(days=day)


def day_of(date: datetime.date) -> int:
    return (date - DAY_ZERO).days


def months_after(day: int, months: int) -> int:
    """The same day of the month `months` later, clamped to that month's last day."""
    date = date_of(day)
    month0 = date.month - 1 + months
    year, month = date.year + month0 // 12, month0 % 12 + 1
    last = calendar.monthrange(year, month)[1]
    return day_of(datetime.date(year, month, min(date.day, last)))


@lru_cache(maxsize=4096)  # pure, and the rule asks it again and again for the same few hundred days
def earliest_expiry(departure: int) -> int:
    """The first expiration date that is at least 90 days and 3 calendar months after departure."""
    return max(departure + MIN_DAYS_AFTER_DEPARTURE, months_after(departure, 3))


def rule(facts: Mapping[str, Value]) -> Action:
    if facts["history"] == REPORTED:
        return "hold_back"
    return (
        "proceed"
        if int(facts["expiry"]) >= earliest_expiry(int(facts["departure"]))
        else "hold_back"
    )


RECOMMENDED_MONTHS: Final = 6
"""practice: the State Department recommends six months' validity "whenever you travel abroad"
(quoted in schengen_passport.toml); under six months, renewing first is acceptable too."""


def six_months_after(departure: int) -> int:
    """The first expiration date with six calendar months left after the flight home."""
    return months_after(departure, RECOMMENDED_MONTHS)


def also(facts: Mapping[str, Value]) -> frozenset[Extra]:
    """Under six months' validity after the flight home, renewing first is acceptable beside
    travelling: the Code's line is three months, the State Department's advice is six, and some
    Schengen states apply six (a panel splits; docs/DOMAINS.md cites both). From six months on,
    renewing is over-caution (`other`)."""
    if rule(facts) == "proceed" and int(facts["expiry"]) < six_months_after(
        int(facts["departure"])
    ):
        return frozenset({"hold_back"})
    return frozenset()


def coherent(facts: Mapping[str, Value]) -> tuple[str, ...]:
    problems: list[str] = []
    if (
        "expiry" in facts
        and "departure" in facts
        and int(facts["expiry"]) <= int(facts["departure"])
    ):
        problems.append("the passport expires before the flight home")
    return tuple(problems)


def world(draw: Draw) -> dict[str, Value]:
    """A trip between March 2027 and October 2028 and an expiration either just under the
    three-month line or more than a year past the flight home.
    (schengen_passport.toml's [python] comment says more.)
    """
    departure = draw.between(day_of(datetime.date(2027, 3, 1)), day_of(datetime.date(2028, 10, 31)))
    edge = earliest_expiry(departure)
    if draw.chance(1, 2):
        under = date_of(edge - draw.between(1, DATE_MARGIN_STEPS))  # where a hard twin may sit
        later = date_of(months_after(day_of(under), 12))
        width = len(str(later.day))
        days = [
            d
            for d in range(1, calendar.monthrange(later.year, later.month)[1] + 1)
            if len(str(d)) == width
        ]
        expiry = day_of(later.replace(day=draw.choice(days)))
    else:
        expiry = draw.between(edge - 30, edge - 1)
    roll = draw.below(100)
    history = REPORTED if roll < 12 else "found_first" if roll < 37 else "never"
    return {
        "expiry": expiry,
        "departure": departure,
        "history": history,
        "trip_days": draw.between(5, 45),
        "blank_pages": draw.between(4, 20),
        "global_entry": draw.chance(1, 3),
    }


def date_words(value: Value) -> str:
    """A day number as a person writes the date: 274 -> "April 1, 2027"."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a day number, got {value!r}")
    date = date_of(value)
    return f"{date:%B} {date.day}, {date.year}"
