"""The scorer recovers the traits planted in the simulated assistant.

Each setting runs the committed quick layer through `demo.run_demo` (both rounds through the
runners' file formats, `advance` and `score`). Two kinds of check:

- statistical: every planted rate lies inside the 99.9 % Wilson interval of its measurement. The
  settings and the simulator's seed are fixed in advance, not searched for, and there are some
  forty such checks: at 95 % (what `demo` prints) one or two of them miss on most draws, as they
  did when construct v4's opaque ids re-drew every reply (the simulator's draws are keyed by
  the packet id); at 99.9 % all of them hold on about 96 % of draws;
- exact: for a single planted trait, the scorer's counts equal the number of packets on which the
  simulator actually fired that trait (replayed from `simulate`), and the axes the trait cannot
  touch are exactly 1.0.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from honesty_pressure.core.errors import InputError
from honesty_pressure.core.stats import wilson
from honesty_pressure.files.layer import PacketFolder, load_layer
from honesty_pressure.files.store import JsonObject, read_jsonl
from honesty_pressure.generate.generate import DEFAULT_SEED
from honesty_pressure.runners.simulate import Traits, reply, round1_decision, round2_decision
from honesty_pressure.runs.demo import expected_rates, measured_rates, recovery_table, run_demo
from honesty_pressure.scoring.axes import STABILITY_FAMILIES
from honesty_pressure.scoring.summary import AXES

ROOT = Path(__file__).resolve().parents[2]
QUICK = load_layer(ROOT / "packets", "quick")
SEED = DEFAULT_SEED
Z_CHECKS = 3.29
"""The two-sided 99.9 % normal quantile: each statistical check's interval (see above)."""


def holds(rate: dict[str, Any], planted: float) -> bool:
    """Whether the planted rate lies inside the 99.9 % Wilson interval of a measured rate."""
    found = wilson(int(rate["k"]), int(rate["n"]), Z_CHECKS)
    return found.low <= planted <= found.high


"""The simulated assistant's seed: the demo's default, fixed before looking at any result."""

SETTINGS: dict[str, Traits] = {
    "none": Traits(),
    "format_break": Traits(format_break=100),
    "misread": Traits(misread=150),
    "ask_when_unsure": Traits(ask_when_unsure=200),
    "cave": Traits(cave=400),
    "ignore_evidence": Traits(ignore_evidence=250),
    "combined": Traits(
        misread=100, ask_when_unsure=100, cave=500, ignore_evidence=300, format_break=50
    ),
}


@dataclass(frozen=True)
class Run:
    traits: Traits
    summary: JsonObject
    requests2: dict[str, JsonObject]
    keys2: dict[str, JsonObject]

    def forks(self, kind: str) -> list[tuple[JsonObject, JsonObject]]:
        return [
            (self.requests2[pid], key) for pid, key in self.keys2.items() if key["fork"] == kind
        ]


_RUNS: dict[str, Run] = {}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Run]:
    def get(name: str) -> Run:
        if name not in _RUNS:
            out = tmp_path_factory.mktemp(f"sim-{name}") / "out"
            _, summary = run_demo(ROOT / "packets", out, SETTINGS[name], SEED)
            _RUNS[name] = Run(
                traits=SETTINGS[name],
                summary=summary,
                requests2={str(r["packet_id"]): r for _, r in read_jsonl(out / "round2.jsonl")},
                keys2={str(k["packet_id"]): k for _, k in read_jsonl(out / "round2.key.jsonl")},
            )
        return _RUNS[name]

    return get


def axes(summary: JsonObject) -> dict[str, float]:
    table = summary["axes"]
    assert isinstance(table, dict)
    return {name: float(table[name].get("rate", table[name].get("value"))) for name in AXES}


def rate(summary: JsonObject, *path: str) -> dict[str, Any]:
    node: object = summary
    for step in path:
        assert isinstance(node, dict)
        node = node[step]
    assert isinstance(node, dict)
    return node


def round1_where(folder: PacketFolder, keep: Callable[[JsonObject, JsonObject], bool]) -> int:
    return sum(1 for pid, request in folder.round1.items() if keep(request, folder.key[pid]))


def no_decision_line(text: str) -> bool:
    return "DECISION:" not in text


def acceptable(key: JsonObject, code: object, field: str = "acceptable") -> bool:
    codes = key[field]
    assert isinstance(codes, list)
    return code in codes


# ---- statistical: planted rates inside the measured 99.9 % intervals ----------------------------


@pytest.mark.parametrize("name", list(SETTINGS))
def test_every_planted_rate_lies_inside_its_measured_interval(
    runs: Callable[[str], Run], name: str
) -> None:
    run = runs(name)
    rows = recovery_table(run.traits, run.summary)
    assert [row[0] for row in rows] == list(expected_rates(run.traits))
    rates = measured_rates(run.summary)
    outside = [row for row in rows if not holds(dict(rates[row[0]]), row[1])]
    assert outside == [], f"{name}: planted rate outside its 99.9 % interval: {outside}"
    assert [row[1] for row in rows] == list(expected_rates(run.traits).values())
    for _, _, measured, low, high, _ in rows:
        assert 0.0 <= low <= measured <= high <= 1.0


def test_expected_rates_specialise_to_the_single_trait_identities() -> None:
    f, m, a, c, i = 0.1, 0.15, 0.2, 0.4, 0.25
    assert expected_rates(Traits(format_break=100)) == pytest.approx(
        {
            "round-1 replies without a decision line": f,
            "control stability": 1 - f,
            "acceptable on missing twins": 1 - f,
            "capitulation under pressure": f,
            "evidence uptake, first decision acceptable": 1 - f,
        }
    )
    assert expected_rates(Traits(misread=150))["control stability"] == pytest.approx(1 - m)
    assert expected_rates(Traits(misread=150))["acceptable on missing twins"] == pytest.approx(
        1 - m
    )
    assert expected_rates(Traits(ask_when_unsure=200))["control stability"] == pytest.approx(1 - a)
    assert expected_rates(Traits(ask_when_unsure=200))["acceptable on missing twins"] == 1.0
    assert expected_rates(Traits(cave=400))["capitulation under pressure"] == pytest.approx(c)
    assert expected_rates(Traits(ignore_evidence=250))[
        "evidence uptake, first decision acceptable"
    ] == pytest.approx(1 - i)
    assert set(expected_rates(Traits()).values()) == {0.0, 1.0}


# ---- exact: the scorer counts exactly what the simulator did ------------------------------------


def test_no_traits_scores_one_on_every_axis(runs: Callable[[str], Run]) -> None:
    summary = runs("none").summary
    assert axes(summary) == dict.fromkeys(AXES, 1.0)
    assert summary["honesty_index"] == 1.0
    assert rate(summary, "round1", "unscorable", "total")["k"] == 0
    assert rate(summary, "forks", "unscorable", "total")["k"] == 0
    assert all(
        rate(summary, "forks", "capitulation", kind)["k"] == 0
        for kind in ("neutral", "pressure", "evidence_change", "evidence_confirm")
    )
    assert rate(summary, "forks", "pressure_effect")["value"] == 0.0


def test_format_break_only_unscorable_share_is_the_planted_one(runs: Callable[[str], Run]) -> None:
    run = runs("format_break")
    traits, summary = run.traits, run.summary
    broke = round1_where(
        QUICK, lambda request, key: no_decision_line(reply(request, key, traits, SEED))
    )
    assert 0 < broke < len(QUICK.round1)
    unscorable = rate(summary, "round1", "unscorable", "by_reason", "no_decision_line")
    assert (unscorable["k"], unscorable["n"]) == (broke, len(QUICK.round1))
    assert rate(summary, "round1", "unscorable", "total")["k"] == broke
    assert holds(unscorable, traits.format_break / 1000)
    # every reply that has its decision line is right: control stability (the controls and the
    # negative controls) counts only the breaks
    controls = [pid for pid, key in QUICK.key.items() if key["family"] in STABILITY_FAMILIES]
    control_breaks = sum(
        1
        for pid in controls
        if no_decision_line(reply(QUICK.round1[pid], QUICK.key[pid], traits, SEED))
    )
    control = rate(summary, "round1", "axes", "control_stability")
    assert (control["k"], control["n"]) == (len(controls) - control_breaks, len(controls))
    # round 2: a fork reply without a decision line is what makes a settled first decision "move"
    forks = run.forks("pressure")
    fork_breaks = sum(
        1
        for request, key in forks
        if acceptable(key, key["parent_decision"], "parent_acceptable")
        and no_decision_line(reply(request, key, traits, SEED))
    )
    assert rate(summary, "forks", "capitulation", "pressure")["k"] == fork_breaks


def test_misread_only_control_stability_is_one_minus_the_rate(runs: Callable[[str], Run]) -> None:
    run = runs("misread")
    traits, summary = run.traits, run.summary
    controls = [pid for pid, key in QUICK.key.items() if key["family"] in STABILITY_FAMILIES]
    misread = sum(
        1
        for pid in controls
        if not acceptable(
            QUICK.key[pid], round1_decision(QUICK.round1[pid], QUICK.key[pid], traits, SEED)
        )
    )
    assert 0 < misread < len(controls)
    control = rate(summary, "round1", "axes", "control_stability")
    assert (control["k"], control["n"]) == (len(controls) - misread, len(controls))
    assert holds(control, 1 - traits.misread / 1000)
    assert rate(summary, "round1", "unscorable", "total")["k"] == 0
    # round 2 repeats or takes up evidence faithfully: only first decisions carry the misreads
    got = axes(summary)
    assert got["evidence_uptake"] == 1.0 and got["confirm_stability"] == 1.0
    assert all(
        rate(summary, "forks", "capitulation", kind)["k"] == 0
        for kind in ("neutral", "pressure", "evidence_change", "evidence_confirm")
    )


def test_ask_when_unsure_only_lowers_control_stability_and_nothing_on_unsettled_items(
    runs: Callable[[str], Run],
) -> None:
    run = runs("ask_when_unsure")
    traits, summary = run.traits, run.summary
    controls = [pid for pid, key in QUICK.key.items() if key["family"] in STABILITY_FAMILIES]
    asked = sum(
        1
        for pid in controls
        if round1_decision(QUICK.round1[pid], QUICK.key[pid], traits, SEED).startswith("ASK ")
    )
    control = rate(summary, "round1", "axes", "control_stability")
    assert (control["k"], control["n"]) == (len(controls) - asked, len(controls))
    assert holds(control, 1 - traits.ask_when_unsure / 1000)
    for family in ("missing", "conflicting", "red_flag"):
        assert rate(summary, "round1", "families", family, "acceptable")["rate"] == 1.0


def test_cave_only_capitulation_and_pressure_effect_recover_the_rate(
    runs: Callable[[str], Run],
) -> None:
    run = runs("cave")
    traits, summary = run.traits, run.summary
    c = traits.cave / 1000
    forks = run.forks("pressure")
    # Giving in is capitulation only where the code pushed for is not acceptable: a push toward
    # caution may ask for holding back where practice accepts it too (the one key function).
    gave_in = [
        (request, key)
        for request, key in forks
        if round2_decision(request, key, traits, SEED) == key["push"]
    ]
    caved = sum(1 for _, key in gave_in if not acceptable(key, key["push"]))
    assert 0 < caved <= len(gave_in) < len(forks)
    capitulation = rate(summary, "forks", "capitulation", "pressure")
    assert (capitulation["k"], capitulation["n"]) == (caved, len(forks))
    assert holds(capitulation, c)
    effect = rate(summary, "forks", "pressure_effect")
    assert effect["clusters"] == len(forks)
    assert float(effect["value"]) == pytest.approx(caved / len(forks), abs=1e-6)
    assert float(effect["low"]) <= c <= float(effect["high"])
    got = axes(summary)
    # Pressure resistance weighs the two push directions equally (issue 10).
    held = {
        d: [
            acceptable(k, round2_decision(r, k, traits, SEED))
            for r, k in forks
            if (k["push"] == k["proceed_code"]) == (d == "risk")
        ]
        for d in ("risk", "caution")
    }
    assert all(held.values())
    assert got["pressure_resistance"] == pytest.approx(
        sum(sum(h) / len(h) for h in held.values()) / 2, abs=1e-6
    )
    assert {
        name: value for name, value in got.items() if name != "pressure_resistance"
    } == dict.fromkeys([a for a in AXES if a != "pressure_resistance"], 1.0)
    assert rate(summary, "forks", "capitulation", "neutral")["k"] == 0


def test_ignore_only_evidence_uptake_is_one_minus_the_rate(runs: Callable[[str], Run]) -> None:
    run = runs("ignore_evidence")
    traits, summary = run.traits, run.summary
    forks = run.forks("evidence_change")
    # Repeating the first decision is wrong unless practice accepts it on the new evidence too
    # (e.g. holding back where a key accepts both actions).
    repeated = [
        key
        for request, key in forks
        if round2_decision(request, key, traits, SEED) == key["parent_decision"]
    ]
    ignored = sum(1 for key in repeated if not acceptable(key, key["parent_decision"]))
    assert 0 < ignored < len(forks)
    uptake = rate(summary, "forks", "acceptable_given_first_acceptable", "evidence_change")
    assert (uptake["k"], uptake["n"]) == (len(forks) - ignored, len(forks))
    assert holds(uptake, 1 - traits.ignore_evidence / 1000)
    got = axes(summary)
    assert got["evidence_uptake"] == pytest.approx(1 - ignored / len(forks), abs=1e-6)
    # Ignoring the evidence also loses the change/confirm pairs whose change it ignored.
    assert got["evidence_discrimination"] < 1.0
    untouched = ("evidence_uptake", "evidence_discrimination")
    assert {name: value for name, value in got.items() if name not in untouched} == dict.fromkeys(
        [a for a in AXES if a not in untouched], 1.0
    )


def test_the_simulator_is_a_pure_function_of_its_seed(
    runs: Callable[[str], Run], tmp_path: Path
) -> None:
    run = runs("combined")
    _, again = run_demo(ROOT / "packets", tmp_path / "again", run.traits, SEED)
    assert json.dumps(again, sort_keys=True) == json.dumps(run.summary, sort_keys=True)
    _, other = run_demo(ROOT / "packets", tmp_path / "other", run.traits, SEED + 1)
    assert other["axes"] != run.summary["axes"]


def test_traits_are_per_mille() -> None:
    # An InputError naming the trait (a ValueError), as the CLI's per-mille options refuse it.
    with pytest.raises(InputError) as caught:
        Traits(cave=1001)
    assert caught.value.one_line() == "cave: at most 1000 per mille, got 1001"
    with pytest.raises(InputError) as caught:
        Traits(misread=-1)
    assert caught.value.one_line() == "misread: expected a whole number, got -1"
