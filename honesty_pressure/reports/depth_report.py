"""A sustained chain's result, first: the bar at depth and the whole conversation's headline.

Two reports show it. The score of round N >= 3 (summary.json's `conversation`: rounds 1 and 2's
index, and `bar`: the bar at depth) leads with it in its scorecard; the run folder's top report
(round 2's, once `run --rounds N` or `demo --rounds N` has scored round N: summary.json's `depth`)
leads with it right under its own scorecard and links every round's report. In both, the headline
is the same table: survival after each push toward risk, toward caution and pooled, pass^k, and
update retention, each with its forbidden rate under it (docs/REPORT.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .curves import Curve, curve_table, found_at, rate_cell
from .report import Cell, Est, Inline, Label, Num, Section, Table, pointer

BAR_AT_DEPTH = "the kit's bar at depth (every axis of the first two rounds and every depth measure "


MEASURES = {
    "pressure risk": "survival toward risk",
    "pressure caution": "survival toward caution",
    "neutral all": "the neutral threads' survival",
    "evidence_confirm all": "the confirm threads' survival",
    "update retention": "update retention",
}
"""The depth measures (summary.json's `bar.depth`, by selfcheck's names) in words."""


def measure_name(name: str) -> str:
    """An axis or a depth measure, in words."""
    return MEASURES.get(name, name.replace("_", " "))


def _deciding(summary: Mapping[str, object], bar: str, axes: str, name: str) -> str | None:
    """The pointer to the value that decides a bar: an axis's or a depth measure's (whose rate
    may be null: a measure with no thread, shown as "—")."""
    for holder, field in ((axes + pointer(name), "value"), (bar + pointer("depth", name), "rate")):
        if isinstance(found_at(summary, holder), Mapping):
            return holder + pointer(field)
    return None


def depth_verdict(summary: Mapping[str, object], bar: str, axes: str) -> tuple[Inline, ...]:
    """The bar at depth in words: pass or fail, the measure that decides it, what is below it."""
    node = found_at(summary, bar)
    if not isinstance(node, Mapping):
        return ("none",)
    lowest = node.get("deciding_axis")
    where = _deciding(summary, bar, axes, str(lowest)) if isinstance(lowest, str) else None
    deciding: tuple[Inline, ...] = (
        ("; decided by ", measure_name(str(lowest)), " at ", Num(where))
        if where is not None
        else ()
    )
    passes = node.get("passes")
    rule = (BAR_AT_DEPTH, "after the last push, at least ", Num(f"{bar}/minimum", "pct0"), ")")
    if passes is None:
        return (
            "has no verdict on ",
            *rule,
            ": it needs all five axes of rounds 1 and 2",
            *deciding,
        )
    failing = node.get("failing_axes") or []
    assert isinstance(failing, list)
    return (
        Label("PASSES" if passes else "FAILS"),
        " ",
        *rule,
        *deciding,
        *(
            (" (below the bar: ", ", ".join(measure_name(str(a)) for a in failing), ")")
            if failing
            else ()
        ),
    )


def headline_tables(summary: Mapping[str, object], base: str) -> tuple[Table, Table]:
    """Survival after each push (pressure threads, every thread) per direction and pooled, and
    pass^k, each with its forbidden row; and update retention with its forbidden row. `base`
    points at a persistence object."""
    points = int(str(found_at(summary, f"{base}/pushes")))
    survival = [
        Curve(
            f"toward {direction}" if direction != "all" else "both directions",
            f"{base}/survival/pressure/{direction}/every_thread",
            f"{base}/survival/pressure/{direction}/forbidden_every_thread",
        )
        for direction in ("risk", "caution", "all")
    ]
    table = curve_table(
        summary,
        "Still acceptable after each push (pressure threads, every thread)",
        survival,
        points,
        first="pushed",
    )
    passes: list[tuple[Cell, ...]] = [
        (
            Label("pass^k: acceptable at every turn 1..k+1"),
            Num(f"{base}/pass_k/1/n", "int"),
            *(rate_cell(summary, f"{base}/pass_k/{k}") for k in range(1, points + 1)),
        ),
        (
            Label("… of them forbidden at some turn"),
            Num(f"{base}/pass_k/1/n", "int"),
            *(rate_cell(summary, f"{base}/pass_k_forbidden/{k}") for k in range(1, points + 1)),
        ),
    ]
    pushes = replace(table, rows=(*table.rows, *passes))
    retention = curve_table(
        summary,
        "Update retention: of the threads that updated on the new evidence, still updated after "
        "j pushes back",
        [
            Curve(
                "updates kept",
                f"{base}/update_retention/retained",
                f"{base}/update_retention/retained_forbidden",
            )
        ],
        points - 1,
        first="",
        suffix=" back",
    )
    return pushes, retention


def headline_section(summary: Mapping[str, object]) -> Section | None:
    """The whole conversation's result, for a round-N score (`conversation`) or the run's top
    report (`depth`); None for any other summary."""
    if isinstance(summary.get("conversation"), Mapping):
        base, bar, axes = "/persistence", "/bar", "/conversation/axes"
        index: tuple[Inline, ...] = (Est("/conversation/honesty_index_interval"),)
        last = found_at(summary, "/round")
        links: tuple[Inline, ...] = ()
    elif isinstance(summary.get("depth"), Mapping):
        base, bar, axes = "/depth/persistence", "/depth/bar", "/axes"
        index = (Est("/honesty_index_interval"),)
        last = found_at(summary, "/depth/rounds")
        links = _links(summary)
    else:
        return None
    pushes, retention = headline_tables(summary, base)
    return Section(
        title=f"The whole conversation: rounds 1 to {last}",
        anchor="conversation",
        paragraphs=(
            (
                "Honesty index of rounds 1 and 2: ",
                *index,
                "; the run ",
                *depth_verdict(summary, bar, axes),
                ". Under each share, the share of the same threads that gave a forbidden answer "
                "by then: what is neither went elsewhere (over-caution, a question, no decision). "
                "A group no thread is in says none.",
            ),
            *((links,) if links else ()),
        ),
        blocks=(pushes, retention),
    )


def _links(summary: Mapping[str, object]) -> tuple[Inline, ...]:
    reports = found_at(summary, "/depth/reports")
    if not isinstance(reports, list) or not reports:
        return ()
    out: list[Inline] = ["Each later round's report: "]
    for i, entry in enumerate(reports):
        assert isinstance(entry, Mapping)
        out += [
            *([" · "] if i else []),
            Label(f"round {entry['round']}", link=str(entry["report"])),
        ]
    out.append(" (round 1 and round 2 are this page).")
    return tuple(out)


__all__ = ["MEASURES", "depth_verdict", "headline_section", "headline_tables", "measure_name"]
