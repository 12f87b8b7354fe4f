"""controls/: run every fixed policy and the shortcut audit on a layer, and compare with EXPECTED.json.

Work is spread over processes (`jobs`); results do not depend on how many, since every policy and
shortcut is a pure function of the packets and the seed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .audit import AuditRow, audit_set, audit_table, learned_outcome, oracle_examples
from .learned import AUDIT_SEED, AUDIT_SOURCES, NUMBERS
from .policies import Policy, load_policies
from .progress import SILENT, Meter
from .selfcheck import INDEX_CEILING, PASS_BAR, Outcome, breaches, check_policies
from .shortcuts import FEATURES, MARGIN, Rule, shortcut_breaches, shortcut_outcome
from .store import PacketFolder, load_layer

CONTROLS: Final = "controls"
EXPECTED_NAME: Final = "EXPECTED.json"
POLICY_FOLDER: Final = "policies"


@dataclass(frozen=True, slots=True, kw_only=True)
class LearnedCheck:
    """The learned-shortcut audit: the table, and the learned policies run through the scorer."""

    audit: list[AuditRow]
    policies: list[Outcome]
    problems: list[str]

    def as_json(self) -> dict[str, object]:
        return {
            "audit": {f"{row.target} ({row.numbers})": row.as_json() for row in self.audit},
            "policies": {o.name: o.as_json() for o in self.policies},
            "test_set": {"seed": str(AUDIT_SEED), "sources_per_domain": AUDIT_SOURCES},
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Check:
    policies: list[Outcome]
    shortcuts: list[tuple[Outcome, Rule, Rule]]
    problems: list[str]
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


ENFORCED: Final = frozenset({"round-2 change vs confirm"})
"""Audit targets whose limit selfcheck enforces; the others are measured and printed (see
docs/SELFCHECK.md for why each is or is not enforced)."""


def learned_check(train: PacketFolder, *, seed: int, test: PacketFolder | None = None) -> LearnedCheck:
    """Train on `train`'s public keys; test on the second built-in seed (public and held-out
    phrasings), and run the learned policies on `test` (default: that seed's public set)."""
    examples = oracle_examples(train)
    with audit_set() as public, audit_set(surface="held_out") as held:
        rows = audit_table(examples, oracle_examples(public), oracle_examples(held))
        outcomes = [learned_outcome(examples, test or public, numbers, seed) for numbers in NUMBERS]
    problems = [
        f"learned audit: {row.target} ({row.numbers}): accuracy {row.public.accuracy:.3f} is above its limit {row.public.limit:.3f}"
        for row in rows
        if row.target in ENFORCED and not row.within
    ]
    for o in outcomes:
        if o.passed:
            problems.append(f"{o.name}: a learned policy passes the bar (every axis >= {PASS_BAR})")
        if o.index > INDEX_CEILING:
            problems.append(f"{o.name}: honesty index {o.index:.3f} is above the ceiling {INDEX_CEILING}")
    return LearnedCheck(audit=rows, policies=outcomes, problems=problems)


def _rule(rule: Rule) -> dict[str, object]:
    return {"feature": rule.feature, "threshold": rule.threshold, "low": rule.low, "high": rule.high}


def _task(args: tuple[str, PacketFolder, object, int]) -> object:
    kind, folder, item, seed = args
    if kind == "policy":
        assert isinstance(item, Policy)
        return check_policies(folder, [item], seed=seed)[0]
    if kind == "learned":
        assert isinstance(item, tuple)
        train, fresh = item
        return learned_check(train, seed=seed, test=folder if fresh else None)
    return shortcut_outcome(folder, str(item), seed=seed)


def _counted(results: Iterable[object], meter: Meter) -> list[object]:
    """The results as they arrive (pool.map yields them in order), a tick for each."""
    out = []
    for result in results:
        out.append(result)
        meter.tick(1)
    return out


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
    """Every policy and surface shortcut on `folder`; with `train` (the committed full layer),
    also the learned-shortcut audit, whose policies answer `folder` when it is a `fresh` set from
    another seed and the second built-in seed's set otherwise."""
    tasks: list[tuple[str, PacketFolder, object, int]] = []
    if train is not None:
        tasks.append(("learned", folder, (train, fresh), seed))  # the longest task goes first
    tasks += [("policy", folder, p, seed) for p in policies]
    tasks += [("shortcut", folder, f, seed) for f in FEATURES]
    meter.expect(len(tasks))
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = _counted(pool.map(_task, tasks), meter)
    else:
        results = _counted(map(_task, tasks), meter)
    outcomes = [r for r in results if isinstance(r, Outcome)]
    shortcuts = [r for r in results if isinstance(r, tuple)]
    learned = next((r for r in results if isinstance(r, LearnedCheck)), None)
    return Check(
        policies=outcomes,
        shortcuts=shortcuts,
        problems=breaches(outcomes, policies) + shortcut_breaches(shortcuts, PASS_BAR) + (learned.problems if learned else []),
        learned=learned,
    )


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


def load_committed(root: Path, layer: str) -> PacketFolder:
    return load_layer(root / "packets", layer)
