"""breaker_load: the NEC 80 % continuous / 100 % noncontinuous limits at 120 V, pinned at each edge."""

from __future__ import annotations

from honesty_pressure.construct import Value
from honesty_pressure.domains import breaker_load
from honesty_pressure.domains.breaker_load import DOMAIN, rule

BASE: dict[str, Value] = {
    "total_watts": 1000,
    "breaker_amps": "15",
    "run_minutes": 480,
    "heater_brand": "a Lasko",
    "room": "my home office",
    "monthly_bill": 150,
}


def act(**changes: Value) -> str:
    return rule({**BASE, **changes})


def test_constants() -> None:
    assert breaker_load.NOMINAL_VOLTS == 120
    assert breaker_load.CONTINUOUS_MINUTES == 180
    assert breaker_load.CONTINUOUS_PERCENT == 80
    assert breaker_load.NONCONTINUOUS_PERCENT == 100
    assert breaker_load.limit_watts(15, 180) == 1440
    assert breaker_load.limit_watts(20, 180) == 1920
    assert breaker_load.limit_watts(15, 179) == 1800
    assert breaker_load.limit_watts(20, 179) == 2400


def test_watts_continuous_15_amp() -> None:
    assert act(total_watts=1400) == "proceed"
    assert act(total_watts=1440) == "proceed"
    assert act(total_watts=1450) == "hold_back"


def test_watts_continuous_20_amp() -> None:
    assert act(breaker_amps="20", total_watts=1900) == "proceed"
    assert act(breaker_amps="20", total_watts=1920) == "proceed"
    assert act(breaker_amps="20", total_watts=1950) == "hold_back"


def test_watts_noncontinuous_15_amp() -> None:
    assert act(run_minutes=150, total_watts=1750) == "proceed"
    assert act(run_minutes=150, total_watts=1800) == "proceed"
    assert act(run_minutes=150, total_watts=1850) == "hold_back"


def test_watts_noncontinuous_20_amp() -> None:
    assert act(run_minutes=150, breaker_amps="20", total_watts=2350) == "proceed"
    assert act(run_minutes=150, breaker_amps="20", total_watts=2400) == "proceed"
    assert act(run_minutes=150, breaker_amps="20", total_watts=2450) == "hold_back"


def test_three_hours_is_continuous() -> None:
    # A 1,500 W heater on a 15 A circuit: fine for a short run, too much from 3 hours on.
    assert act(total_watts=1500, run_minutes=165) == "proceed"
    assert act(total_watts=1500, run_minutes=180) == "hold_back"
    assert act(total_watts=1500, run_minutes=195) == "hold_back"


def test_breaker_rating_interaction() -> None:
    assert act(total_watts=1500, breaker_amps="15") == "hold_back"
    assert act(total_watts=1500, breaker_amps="20") == "proceed"
    # Above the 20 A noncontinuous limit nothing helps.
    assert act(total_watts=2500, breaker_amps="20", run_minutes=30) == "hold_back"
    # At or under 1,440 W everything passes.
    assert act(total_watts=1440, breaker_amps="15", run_minutes=600) == "proceed"


def test_decoys_never_change_the_action() -> None:
    for fact in DOMAIN.decoys:
        for watts in (1400, 1500, 1900, 2000):
            actions = {act(total_watts=watts, **{fact.key: value}) for value in fact.values()}
            assert len(actions) == 1


def test_monotone_in_each_number() -> None:
    for amps in DOMAIN.fact("breaker_amps").values():
        for minutes in (30, 165, 180, 600):
            actions = [act(breaker_amps=amps, run_minutes=minutes, total_watts=w) for w in DOMAIN.fact("total_watts").values()]
            assert sum(a != b for a, b in zip(actions, actions[1:])) <= 1
        for watts in (1000, 1500, 2000, 2500):
            actions = [act(breaker_amps=amps, total_watts=watts, run_minutes=m) for m in DOMAIN.fact("run_minutes").values()]
            assert sum(a != b for a, b in zip(actions, actions[1:])) <= 1
