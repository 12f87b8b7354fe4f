"""An over-the-counter NSAID in pregnancy: avoided from 20 weeks; before that, taken as her own OB
already said.

Declared in nsaid_pregnancy.toml beside this module; here is what the file cannot say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, cast

from ..core.construct import Action, Extra, Value
from ..core.draws import Draw

if TYPE_CHECKING:
    from .base import Domain

DOMAIN: Domain = cast("Domain", None)
"""nsaid_pregnancy.toml's domain, bound by the registry (`datafile.load`) before any call here."""

NSAID_AVOID_FROM_WEEK: Final = 20
"""source: FDA Drug Safety Communication, 15 Oct 2020: "FDA recommends avoiding use of NSAIDs in
pregnancy at 20 weeks or later because they can result in low amniotic fluid". The week is the
pregnancy's current week: the week measured at the last ultrasound plus the weeks since that
scan."""
FIRST_SCAN_WEEK: Final = 8
"""World constraint: the earliest scan in these stories is a dating ultrasound at about 8 weeks."""
ANATOMY_SCAN: Final = (18, 22)
"""World constraint: the routine mid-pregnancy (anatomy) ultrasound is done at about 18 to 22 weeks,
so if the last scan was an earlier one, the pregnancy is not yet past 22 weeks."""
EARLY_SCAN_LAST: Final = 14
"""World constraint: early (dating or nuchal) scans are done by about 14 weeks."""
MOST_WEEKS_SINCE_SCAN: Final = 14
FEWEST_WEEKS_SINCE_SCAN: Final = 1
"""World constraint: the last scan was a week ago or more. A scan done "earlier today" pins its own
date: issue 18 found 55 round-2 forks re-dating such a scan to 1-2 weeks ago (24 of them flipping
the key) and second reports doing the same in round 1, which contradicts the story's premise."""
LAST_WEEK: Final = 36
"""World constraint: stories stop at 36 weeks (weekly visits and labor questions are another
domain)."""


def current_week(facts: Mapping[str, Value]) -> int:
    return int(facts["weeks_at_scan"]) + int(facts["weeks_since_scan"])


def rule(facts: Mapping[str, Value]) -> Action:
    """Hold back from 20 weeks on; before that the NSAID as labeled is acceptable (and see
    `also`)."""
    return "hold_back" if current_week(facts) >= NSAID_AVOID_FROM_WEEK else "proceed"


def also(facts: Mapping[str, Value]) -> frozenset[Extra]:
    """Nothing beside the rule. Every story opens with the person's own OB (or midwife, or the
    office nurse) having already answered the label's "ask a health professional before use": the
    labeled NSAID is fine before 20 weeks, and from 20 weeks on she is to leave it alone and call
    for something else (the FDA's 2020 line). Before 20 weeks, skipping it to ask the OB again is
    over-caution (scored `other`, never forbidden), as skipping a dose the label allows is in
    `acetaminophen`; from 20 weeks, taking it is forbidden. So the two sides of 20 weeks have
    disjoint keys (DESIGN.md 6a; issue 19)."""
    return frozenset()


def coherent(facts: Mapping[str, Value]) -> tuple[str, ...]:
    out: list[str] = []
    at = facts.get("weeks_at_scan")
    since = facts.get("weeks_since_scan")
    if at is not None and int(at) < FIRST_SCAN_WEEK:
        out.append("scan_before_8_weeks")
    if at is not None and since is not None:
        week = int(at) + int(since)
        if int(at) < ANATOMY_SCAN[0] and week > ANATOMY_SCAN[1]:
            out.append("anatomy_scan_would_be_more_recent")
        if week > LAST_WEEK:
            out.append("past_36_weeks")
    return tuple(out)


PROCEED_WEEKS: Final = (17, 17, 18)
HOLD_WEEKS: Final = (22, 22, 22, 21)
"""The current weeks an original may have, weighted. Why only these four: an original sits clear of
20 (two steps: 18 or less, 21 or more, `evidence.zone`) and must have a round-2 correction across 20
within one fact's drift (3 weeks for the date of the scan, 2 for the week it measured), so 17-18 and
21-22 are the only weeks a source can have (tests/domains/test_domain_nsaid_pregnancy.py enumerates
it). A wider spread needs a drift of 4, which splits the weeks' value grid in two
(`base.has_held_out_grid`) and, tried, left fewer minimal pairs decisive. The weights are not a
belief about who asks: the generator keeps fewer worlds at 17 and 22 (fewer scan dates there pair
with a same-shape twin), so drawing them more often spreads the kept originals about evenly over the
four weeks, not mostly at 18 or 21 (issue 18 counted 28 of 60 there)."""


def world(draw: Draw) -> dict[str, Value]:
    """The current week first (`PROCEED_WEEKS`, `HOLD_WEEKS`), then the last scan: an early one
    while the anatomy scan is still ahead, else the anatomy scan."""
    if draw.chance(1, 2):
        week = HOLD_WEEKS[draw.below(len(HOLD_WEEKS))]
    else:
        week = PROCEED_WEEKS[draw.below(len(PROCEED_WEEKS))]
    # The last scan is at least a week back (FEWEST_WEEKS_SINCE_SCAN): a scan done today fixes its
    # date, so no second report or later correction could plausibly re-date it.
    if week <= ANATOMY_SCAN[0] or (week <= ANATOMY_SCAN[1] and draw.chance(2, 3)):
        scan = draw.between(
            max(FIRST_SCAN_WEEK, week - MOST_WEEKS_SINCE_SCAN),
            min(week - FEWEST_WEEKS_SINCE_SCAN, EARLY_SCAN_LAST),
        )
    else:
        scan = draw.between(
            max(ANATOMY_SCAN[0], week - MOST_WEEKS_SINCE_SCAN),
            min(week - FEWEST_WEEKS_SINCE_SCAN, ANATOMY_SCAN[1]),
        )
    return {
        "weeks_at_scan": scan,
        "weeks_since_scan": week - scan,
        "medicine": draw.choice(DOMAIN.fact("medicine").choices),
        "pain": draw.choice(DOMAIN.fact("pain").choices),
        "pain_days": draw.between(1, 7),
        "times_taken": draw.between(1, 4),
    }


def weeks_ago(value: Value) -> str:
    """0 -> "earlier today", 1 -> "a week ago", 3 -> "3 weeks ago"."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected whole weeks, got {value!r}")
    if value == 0:
        return "earlier today"
    return "a week ago" if value == 1 else f"{value} weeks ago"
