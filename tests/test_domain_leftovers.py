"""Leftovers: USDA's 2-hour rule, and 1 hour above 90 °F, pinned at each threshold."""

from __future__ import annotations

from honesty_pressure.domains.leftovers import DOMAIN, rule
from honesty_pressure.domains.base import minutes_as_words


def act(minutes: int, temp_f: int) -> str:
    return rule({"minutes_out": minutes, "room_temp_f": temp_f, "dish": "a chicken curry", "smells_fine": True, "portions": 4, "covered": True})


def test_two_hours_at_room_temperature() -> None:
    assert act(115, 72) == "proceed"
    assert act(120, 72) == "proceed"  # "more than 2 hours": exactly 2 hours is still fine
    assert act(125, 72) == "hold_back"


def test_one_hour_above_90_f() -> None:
    assert act(55, 91) == "proceed"
    assert act(60, 91) == "proceed"
    assert act(65, 91) == "hold_back"


def test_the_heat_threshold_itself() -> None:
    assert act(90, 89) == "proceed"
    assert act(90, 90) == "proceed"  # "above 90 °F": 90 itself uses the 2-hour limit
    assert act(90, 91) == "hold_back"


def test_decoys_never_decide() -> None:
    base = {"minutes_out": 100, "room_temp_f": 70}
    for smells in (True, False):
        for covered in (True, False):
            assert rule({**base, "smells_fine": smells, "covered": covered, "dish": "a pasta salad with ham", "portions": 9}) == "proceed"


def test_durations_read_as_a_person_says_them() -> None:
    assert [minutes_as_words(m) for m in (20, 60, 90, 125, 150, 240)] == [
        "20 minutes",
        "an hour",
        "an hour and a half",
        "2 hours and 5 minutes",
        "2 and a half hours",
        "4 hours",
    ]
    assert DOMAIN.fact("minutes_out").hard and DOMAIN.fact("room_temp_f").hard
