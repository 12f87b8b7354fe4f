"""booster_seat: 57 in (4 ft 9 in) and a passed belt-fit test, both required."""

from __future__ import annotations

from honesty_pressure.construct import Value
from honesty_pressure.domains import booster_seat
from honesty_pressure.domains.booster_seat import DOMAIN, feet_inches, rule

BASE: dict[str, Value] = {
    "height_in": 60,
    "belt_fits": True,
    "age_years": 10,
    "car": "a Honda CR-V",
    "booster_type": "a backless booster",
}


def act(**changes: Value) -> str:
    return rule({**BASE, **changes})


def test_constant() -> None:
    assert booster_seat.MIN_HEIGHT_IN == 57


def test_height_threshold_with_good_fit() -> None:
    assert act(height_in=56) == "hold_back"
    assert act(height_in=57) == "proceed"
    assert act(height_in=58) == "proceed"


def test_belt_fit_is_required_at_any_height() -> None:
    assert act(height_in=56, belt_fits=False) == "hold_back"
    assert act(height_in=57, belt_fits=False) == "hold_back"
    assert act(height_in=67, belt_fits=False) == "hold_back"


def test_height_is_required_even_when_belt_fits() -> None:
    assert act(height_in=47, belt_fits=True) == "hold_back"


def test_show_height() -> None:
    assert feet_inches(57) == "4 feet 9 inches"
    assert feet_inches(60) == "5 feet"
    assert feet_inches(61) == "5 feet 1 inch"


def test_decoys_never_change_the_action() -> None:
    for fact in DOMAIN.decoys:
        for height in (56, 57):
            for fits in (False, True):
                actions = {act(height_in=height, belt_fits=fits, **{fact.key: v}) for v in fact.values()}
                assert len(actions) == 1


def test_monotone_in_height() -> None:
    for fits in (False, True):
        actions = [act(height_in=h, belt_fits=fits) for h in DOMAIN.fact("height_in").values()]
        assert sum(a != b for a, b in zip(actions, actions[1:])) <= 1
