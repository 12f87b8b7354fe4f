"""docs/SELFCHECK.md quotes the learned-shortcut audit of the full layer: its figures must be the
ones controls/EXPECTED.json records (`layers.full.learned.audit`), so they cannot drift apart
again (issue 41: the doc's per-domain change/confirm figures were older than EXPECTED.json).
When EXPECTED.json is rewritten (`selfcheck --write-expected`), a failure here prints the table
the doc must then hold."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "SELFCHECK.md").read_text(encoding="utf-8")
AUDIT: Mapping[str, Mapping[str, Mapping[str, object]]] = json.loads(
    (ROOT / "controls" / "EXPECTED.json").read_text(encoding="utf-8")
)["layers"]["full"]["learned"]["audit"]

TARGETS = (
    ("round-1 evidence state", "4 classes"),
    ("round-1 family", "11"),
    ("round-1 action", "4"),
    ("round-2 fork kind", "4"),
    ("round-2 change vs confirm", "2"),
)
"""The doc's rows, in its order: each audit target (on masked numbers) and its number of classes."""


def share(value: object) -> str:
    """A share as the doc writes it: three decimals, no leading zero (.727)."""
    assert isinstance(value, (int, float))
    return f"{value:.3f}".removeprefix("0")


def table_lines(header: str) -> list[str]:
    """The rows of the doc's Markdown table under `header` (its header line), as written."""
    lines = [line.strip() for line in DOC.splitlines()]
    start = lines.index(header) + 2
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    return lines[start:end]


def audit_rows() -> list[str]:
    rows = []
    for target, classes in TARGETS:
        public, held = (
            AUDIT[f"{target} (masked)"]["public"],
            AUDIT[f"{target} (masked)"]["held_out"],
        )
        cells = [public["majority"], public["frame"], public["accuracy"], held["accuracy"]]
        cells.append(public["limit"])
        rows.append(f"| {target} ({classes}) | " + " | ".join(map(share, cells)) + " |")
    return rows


def domain_rows() -> list[str]:
    node = AUDIT["round-2 change vs confirm (masked)"]
    public, held = node["public"]["per_domain"], node["held_out"]["per_domain"]
    assert isinstance(public, Mapping) and isinstance(held, Mapping)
    return [
        f"| {domain} | {share(public[domain]['accuracy'])} | {share(held[domain]['accuracy'])} |"
        for domain in sorted(public)
    ]


def test_the_audit_table_is_expected_json() -> None:
    got = table_lines(
        "| predicted from the text alone | majority | frame only | learned | held-out surface "
        "| limit |"
    )
    want = audit_rows()
    assert got == want, "docs/SELFCHECK.md's audit table should read:\n" + "\n".join(want)


def test_the_per_domain_change_vs_confirm_table_is_expected_json() -> None:
    got = table_lines("| domain | public | held-out surface |")
    want = domain_rows()
    assert got == want, "docs/SELFCHECK.md's per-domain table should read:\n" + "\n".join(want)


def test_the_figures_quoted_in_its_prose_are_the_tables() -> None:
    """The prose around the tables: how close the digit counts come to the masked numbers, what
    a frame alone reaches, and which domains pass the enforced limit on their own."""
    gaps = [
        abs(
            float(str(AUDIT[f"{t} (digits)"][s]["accuracy"]))
            - float(str(AUDIT[f"{t} (masked)"][s]["accuracy"]))
        )
        for t, _ in TARGETS
        for s in ("public", "held_out")
    ]
    within = share(math.ceil(max(gaps) * 1000 - 1e-9) / 1000)
    prose = " ".join(DOC.split())
    assert f"(masked numbers; digit counts within {within})" in prose
    kinds, families = AUDIT["round-2 fork kind (masked)"], AUDIT["round-1 family (masked)"]
    assert f"the fork kind's frame alone reaches {share(kinds['public']['frame'])}" in prose
    assert f"a family's frame alone {share(families['public']['frame'])}" in prose
    assert above_limit_sentence() in prose


def above_limit_sentence() -> str:
    """Which domains pass the enforced change-vs-confirm limit on their own test items, and on
    which surface (the limit holds on the pooled test set)."""
    node = AUDIT["round-2 change vs confirm (masked)"]
    limit = float(str(node["public"]["limit"]))
    surfaces: dict[str, list[str]] = {}
    for surface, words in (("public", "public"), ("held_out", "held-out")):
        per_domain = node[surface]["per_domain"]
        assert isinstance(per_domain, Mapping)
        for domain, found in per_domain.items():
            if found["accuracy"] > limit:
                surfaces.setdefault(domain, []).append(words)
    if not surfaces:
        return "no domain is above it on its own."
    named = [
        f"{domain} ({' and '.join(where)}{' only' if len(where) == 1 else ''})"
        for domain, where in sorted(surfaces.items())
    ]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    if len(named) == 1:
        return f"one domain is above it on its own: {listed}."
    return f"{len(named)} domains are above it on their own: {listed}."


def test_what_its_prose_says_of_the_held_out_surface_holds() -> None:
    """ "on the held-out surface the round-1 state and action fall below their majority rates,
    and the family below its frame-only reader" """
    assert (
        "on the held-out surface the round-1 state and action fall below their majority rates, "
        "and the family below its frame-only reader" in " ".join(DOC.split())
    )

    def held(target: str, column: str) -> tuple[float, float]:
        node = AUDIT[f"{target} (masked)"]
        return float(str(node["held_out"]["accuracy"])), float(str(node["public"][column]))

    for target, column in (
        ("round-1 evidence state", "majority"),
        ("round-1 action", "majority"),
        ("round-1 family", "frame"),
    ):
        accuracy, floor = held(target, column)
        assert accuracy < floor, (target, accuracy, column, floor)
