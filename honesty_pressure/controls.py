"""controls/: run every fixed policy and the shortcut audit on a layer, and compare with EXPECTED.json.

Work is spread over processes (`jobs`); results do not depend on how many, since every policy and
shortcut is a pure function of the packets and the seed.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .audit import AuditRow, audit_set, audit_table, learn, learned_outcome, oracle_examples
from .pairs import PremiseCheck, check_layer
from .learned import AUDIT_SEED, AUDIT_SOURCES, ENFORCED, NUMBERS, TRAIN_ROUND2_SOURCES
from .policies import Policy, load_policies
from .progress import SILENT, Meter
from .selfcheck import INDEX_CEILING, PASS_BAR, Outcome, breaches, check_policies, decider, scored
from .shortcuts import FEATURES, MARGIN, Rule, shortcut_breaches, shortcut_outcome
from .rehearse import Rehearsal
from .store import PacketFolder

CONTROLS: Final = "controls"
EXPECTED_NAME: Final = "EXPECTED.json"
POLICY_FOLDER: Final = "policies"


@dataclass(frozen=True, slots=True, kw_only=True)
class LearnedCheck:
    """The learned-shortcut audit: the table, and the learned policies run through the scorer."""

    audit: list[AuditRow]
    policies: list[Outcome]
    floor: Outcome
    problems: list[str]

    def as_json(self) -> dict[str, object]:
        return {
            "audit": {f"{row.target} ({row.numbers})": row.as_json() for row in self.audit},
            "policies": {o.name: o.as_json() for o in self.policies},
            "best_fixed_policy": {"name": self.floor.name, **self.floor.as_json()},
            "test_set": {"seed": str(AUDIT_SEED), "sources_per_domain": AUDIT_SOURCES},
            "training": {"round1": "every committed packet", "round2_sources_per_domain": TRAIN_ROUND2_SOURCES},
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Check:
    policies: list[Outcome]
    shortcuts: list[tuple[Outcome, Rule, Rule]]
    problems: list[str]
    premise: PremiseCheck
    learned: LearnedCheck | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "policies": {o.name: o.as_json() for o in self.policies},
            "shortcuts": {
                o.name: {**o.as_json(), "round1_rule": _rule(r1), "round2_rule": _rule(r2)} for o, r1, r2 in self.shortcuts
            },
        }
        if self.learned is not None:
            out["learned"] = self.learned.as_json()
        return out




def learned_check(train: PacketFolder, fixed: Sequence[Policy], *, seed: int, test: PacketFolder | None = None) -> LearnedCheck:
    """Train on `train`'s public keys; test on the second built-in seed (public and held-out
    phrasings), and run the learned policies on `test` (default: that seed's public set)."""
    examples = oracle_examples(Rehearsal(train, seed), TRAIN_ROUND2_SOURCES)
    learned = [learn(examples, numbers) for numbers in NUMBERS]
    with audit_set() as public, audit_set(surface="held_out") as held:
        on_public = Rehearsal(public, AUDIT_SEED)
        rows = audit_table(learned, oracle_examples(on_public), oracle_examples(Rehearsal(held, AUDIT_SEED)))
        played = Rehearsal(test, seed) if test is not None else on_public
        outcomes = [learned_outcome(known, played) for known in learned]
        # The floor a learned policy must not beat: the best policy that reads nothing, on the
        # same packets.
        floor = max((scored(p.name, played.play(decider(p, seed))) for p in fixed if not p.reads_key and not p.expect_pass), key=lambda o: o.index)
    problems = [
        f"learned audit: {row.target} ({row.numbers}): accuracy {row.public.accuracy:.3f} is above its limit {row.public.limit:.3f}"
        for row in rows
        if row.target in ENFORCED and not row.within
    ]
    for o in outcomes:
        if o.passed:
            problems.append(f"{o.name}: a learned policy passes the bar (every axis >= {PASS_BAR})")
        if o.index > floor.index:
            problems.append(f"{o.name}: honesty index {o.index:.3f} beats the best policy that reads nothing ({floor.name}, {floor.index:.3f})")
    return LearnedCheck(audit=rows, policies=outcomes, floor=floor, problems=problems)


def _rule(rule: Rule) -> dict[str, object]:
    return {"feature": rule.feature, "threshold": rule.threshold, "low": rule.low, "high": rule.high}


def _learned(args: tuple[PacketFolder, Sequence[Policy], int, PacketFolder | None]) -> LearnedCheck:
    train, fixed, seed, test = args
    return learned_check(train, fixed, seed=seed, test=test)


def run_checks(
    folder: PacketFolder,
    policies: Sequence[Policy],
    *,
    seed: int,
    jobs: int = 2,
    meter: Meter = SILENT,
    train: PacketFolder | None = None,
    fresh: bool = False,
) -> Check:
    """Every policy and surface shortcut on `folder`, in one rehearsal of it; with `train` (the
    committed full layer), also the learned-shortcut audit, whose policies answer `folder` when it
    is a `fresh` set from another seed and the second built-in seed's set otherwise. With more
    than one job the learned audit runs in a second process beside the rest."""
    meter.expect(len(policies) + len(FEATURES) + (train is not None))
    with contextlib.ExitStack() as stack:
        pending = None
        if train is not None and jobs > 1:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=1))
            pending = pool.submit(_learned, (train, policies, seed, folder if fresh else None))
        rehearsal = Rehearsal(folder, seed)
        premise = premise_check(rehearsal)
        outcomes = []
        for policy in policies:
            outcomes += check_policies(rehearsal, [policy], seed=seed)
            meter.tick(1)
        shortcuts = []
        for feature in FEATURES:
            shortcuts.append(shortcut_outcome(rehearsal, feature, seed=seed))
            meter.tick(1)
        learned = None
        if train is not None:
            learned = pending.result() if pending is not None else learned_check(train, policies, seed=seed, test=folder if fresh else None)
            meter.tick(1)
    return Check(
        policies=outcomes,
        shortcuts=shortcuts,
        problems=list(premise.problems) + breaches(outcomes, policies) + shortcut_breaches(shortcuts, PASS_BAR) + (learned.problems if learned else []),
        premise=premise,
        learned=learned,
    )


def premise_check(rehearsal: Rehearsal) -> PremiseCheck:
    """The minimal-pair premise on every pair of the layer and of its forks. A fork's follow-up
    depends on the first decision only through the push, which both members of a pair share, so
    the forks after the key's own first answer stand for every first answer."""
    first = {pid: str(key["acceptable"][0]) for pid, key in rehearsal.parents.keys.items() if isinstance(key.get("acceptable"), list) and key["acceptable"]}  # type: ignore[index]
    return check_layer(rehearsal.folder.round1, rehearsal.folder.key, rehearsal.round2(first), where=str(rehearsal.folder.folder))


def expected_json(checks: dict[str, Check], packet_set: str) -> dict[str, object]:
    return {
        "bar": {"every_axis_at_least": PASS_BAR, "index_ceiling": INDEX_CEILING, "shortcut_margin": MARGIN},
        "packet_set": packet_set,
        "layers": {layer: check.as_json() for layer, check in checks.items()},
    }


def default_policies(root: Path) -> list[Policy]:
    return load_policies(root / CONTROLS / POLICY_FOLDER)


def compare_expected(root: Path, layer: str, check: Check) -> list[str]:
    """Differences between a fresh selfcheck and controls/EXPECTED.json for one layer."""
    path = root / CONTROLS / EXPECTED_NAME
    if not path.is_file():
        return [f"{CONTROLS}/{EXPECTED_NAME}: missing"]
    recorded = json.loads(path.read_text(encoding="utf-8"))
    want = recorded.get("layers", {}).get(layer)
    got = json.loads(json.dumps(check.as_json()))
    if want == got:
        return []
    differing = [
        name
        for section in ("policies", "shortcuts", "learned")
        for name in sorted(set((want or {}).get(section, {})) | set(got.get(section, {})))
        if (want or {}).get(section, {}).get(name) != got.get(section, {}).get(name)
    ]
    return [f"{CONTROLS}/{EXPECTED_NAME}: {layer}: selfcheck no longer reproduces {', '.join(differing) or 'the layer'}"]
