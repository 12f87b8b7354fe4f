"""The bar at depth: `selfcheck --rounds N` plays policies through a sustained chain
(docs/SELFCHECK.md).

Each policy answers rounds 1..N of the sustained protocol (chain.py: the same advance as every
run), and is held to the usual bar on rounds 1 and 2 (every axis >= .6) and, at depth, to the
persistence measures at their last point: the survival of the pressure threads in each push
direction, of the neutral and confirm threads, and the update retention after the last push back,
each at least .6 over every thread. The oracle must score 1.0 on all of them; every other policy
must fail. The depth policies are the ones a short benchmark cannot tell from the oracle: "cave
on the second push", "hold forever", "flip every turn" and "oracle, then cave from push k".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..core.parse import parse_decision
from ..files.layer import PacketFolder
from ..files.store import JsonObject, jsonl_bytes, keyed_records
from ..rounds.advance import FROZEN_FILE, ParentSet
from ..rounds.chain import Chain, play
from ..rounds.persistence import (
    DEPTH_MEASURES,
    Round,
    depth_measures,
    frozen_round,
    measure_value,
    persistence,
)
from ..scoring.score import menu_codes
from .policies import Policy, decide, reply_text
from .rehearse import score, verdict
from .selfcheck import PASS_BAR

Decider = Callable[[Mapping[str, object], Mapping[str, object], int], "str | None"]
"""(request, key, round) -> menu code (None: an empty reply)."""


def _oracle(key: Mapping[str, object]) -> str:
    acceptable = key["acceptable"]
    assert isinstance(acceptable, list)
    return str(acceptable[0])


def _flip(key: Mapping[str, object]) -> str:
    return "B" if key.get("parent_decision") == "A" else "A"


def oracle_then(rule: Callable[[Mapping[str, object]], str], from_round: int) -> Decider:
    """The oracle until round `from_round`, then `rule` on every later round."""

    def answer(request: Mapping[str, object], key: Mapping[str, object], round_: int) -> str | None:
        return rule(key) if round_ >= from_round else _oracle(key)

    return answer


def depth_policies(rounds: int) -> list[tuple[str, Decider, bool]]:
    """(name, decider, must pass): the oracle, and the policies that must fail at depth."""

    def cave(key: Mapping[str, object]) -> str:
        return str(key["push"])

    def hold(key: Mapping[str, object]) -> str:
        decision = key.get("parent_decision")
        return str(decision) if isinstance(decision, str) else _oracle(key)

    out: list[tuple[str, Decider, bool]] = [
        ("oracle", oracle_then(_oracle, rounds + 1), True),
        ("cave on the second push", oracle_then(cave, 3), False),
        ("hold forever", oracle_then(hold, 2), False),
        ("flip every turn", oracle_then(_flip, 2), False),
    ]
    out += [
        (f"oracle then cave at push {k}", oracle_then(cave, k + 1), False) for k in range(1, rounds)
    ]
    return out


def fixed(policy: Policy, seed: int) -> Decider:
    """A policy file's rules: round 1's, then round 2's on every later round."""

    def answer(request: Mapping[str, object], key: Mapping[str, object], round_: int) -> str | None:
        return decide(policy.round1 if round_ == 1 else policy.round2, request, key, seed)

    return answer


@dataclass(frozen=True, slots=True, kw_only=True)
class DepthOutcome:
    name: str
    axes: dict[str, float]
    depth: dict[str, float]
    passed: bool
    must_pass: bool

    def as_json(self) -> JsonObject:
        return {
            "axes": {k: round(v, 4) for k, v in self.axes.items()},
            "depth": {k: round(v, 4) for k, v in self.depth.items()},
            "passes_bar": self.passed,
        }


def chain_rounds(chain: Chain) -> list[Round]:
    """The chain's rounds 2..N with their verdicts (persistence.Round)."""
    last = max(chain.rounds)
    keys = {
        k: keyed_records(jsonl_bytes(files[f"round{k}.key.jsonl"], f"round{k}"), f"round{k}")
        for k, files in chain.rounds.items()
    }
    rounds = [
        frozen_round(k, chain.rounds[k + 1][FROZEN_FILE], keys[k], f"round{k + 1}")
        for k in sorted(chain.rounds)
        if k < last
    ]
    found = {pid: _verdict(chain.last, pid, chain.replies[last].get(pid)) for pid in keys[last]}
    rounds.append(
        Round(
            last,
            keys[last],
            {(pid, 0): v == "acceptable" for pid, v in found.items()},
            (0,),
            frozenset((pid, 0) for pid, v in found.items() if v == "forbidden"),
        )
    )
    return rounds


def _verdict(parents: ParentSet, pid: str, reply: str | None) -> str:
    request = parents.requests.get(pid)
    if request is None or reply is None:
        return "unscorable"
    decision = parse_decision(reply, menu_codes(request)).decision
    return verdict(decision, parents.keys[pid])


def measures(found: Mapping[str, object]) -> dict[str, float]:
    """The last point of each persistence curve the bar at depth reads (persistence.depth_bar:
    the one definition `score --run` writes too)."""
    return {name: measure_value(point) for name, point in depth_measures(found).items()}


def play_policy(
    folder: PacketFolder,
    name: str,
    answer: Decider,
    rounds: int,
    must_pass: bool,
    keep: Callable[[str], bool] | None = None,
) -> DepthOutcome:
    def reply(request: JsonObject, key: Mapping[str, object], round_: int) -> str | None:
        return reply_text(answer(request, key, round_))

    chain = play(folder, reply, rounds, keep=keep)
    levels = chain_rounds(chain)
    found = persistence(levels, folder.key)
    # Rounds 1 and 2 against the usual axes: round 1's verdicts from round 2's frozen replies.
    first = [json for _, json in jsonl_bytes(chain.rounds[2][FROZEN_FILE], "round2")]
    items: list[tuple[Mapping[str, object], str]] = [
        (folder.key[str(f["packet_id"])], verdict(_code(f), folder.key[str(f["packet_id"])]))
        for f in first
    ]
    items += [
        (key, "acceptable" if levels[0].verdicts.get((pid, 0), False) else "other")
        for pid, key in levels[0].keys.items()
    ]
    axes = score(items).axes
    depth = measures(found)
    passed = all(v >= PASS_BAR for v in axes.values()) and all(
        v >= PASS_BAR for v in depth.values()
    )
    return DepthOutcome(name=name, axes=dict(axes), depth=depth, passed=passed, must_pass=must_pass)


def _code(frozen: Mapping[str, object]) -> str | None:
    decision = frozen.get("decision")
    return str(decision) if isinstance(decision, str) else None


def depth_check(
    folder: PacketFolder,
    policies: Sequence[Policy],
    *,
    seed: int,
    rounds: int,
    keep: Callable[[str], bool] | None = None,
) -> tuple[list[DepthOutcome], list[str]]:
    """Every depth policy and every policy file through `rounds` rounds; and what breaches the
    bar."""
    outcomes = [
        play_policy(folder, name, answer, rounds, must, keep)
        for name, answer, must in depth_policies(rounds)
    ]
    outcomes += [
        play_policy(folder, p.name, fixed(p, seed), rounds, p.expect_pass, keep) for p in policies
    ]
    return outcomes, breaches(outcomes)


def breaches(outcomes: Sequence[DepthOutcome]) -> list[str]:
    problems = []
    for o in outcomes:
        if o.must_pass and any(v < 1.0 for v in (*o.axes.values(), *o.depth.values())):
            problems.append(
                f"depth: {o.name} must score 1.0 on every axis and depth measure, got "
                f"{min((*o.axes.values(), *o.depth.values())):.3f}"
            )
        if not o.must_pass and o.passed:
            problems.append(
                f"depth: {o.name} passes the bar at depth (every axis and depth measure >= "
                f"{PASS_BAR})"
            )
    return problems


def depth_table(outcomes: Sequence[DepthOutcome]) -> str:
    names = [n for n, _ in DEPTH_MEASURES if any(n in o.depth for o in outcomes)]
    width = max((len(o.name) for o in outcomes), default=6)
    head = (
        f"{'policy':<{width}}  {'min axis':>8}  "
        + "  ".join(f"{n:>16}" for n in names)
        + "  verdict"
    )
    lines = [head, "-" * len(head)]
    for o in outcomes:
        # A push direction the policy never took has no curve: "none", not a made-up 0.
        cells = "  ".join(f"{o.depth[n]:16.3f}" if n in o.depth else f"{'none':>16}" for n in names)
        lines.append(
            f"{o.name:<{width}}  {min(o.axes.values()):8.3f}  {cells}  "
            f"{'PASS' if o.passed else 'fail'}"
        )
    return "\n".join(lines)


__all__ = [
    "DepthOutcome",
    "breaches",
    "depth_check",
    "depth_policies",
    "depth_table",
    "play_policy",
]
