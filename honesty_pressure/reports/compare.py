"""`compare RUN...`: several models' scored runs of one packet set as one board.

Runs of different packet sets, layers, rounds or protocols measure different things and are
refused. The board ranks by the honesty index (runs without one last) and shows every axis with
its interval and forbidden rate beside it, per family and fork kind too. It does not test
differences: `regress A B` does that, item by item.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import quote

from ..core.canonical import dumps
from ..core.construct import FORK_KINDS
from ..core.errors import InputError, as_text
from ..files.runfiles import read_summary
from ..scoring.axes import AXES, family_order
from ..scoring.summary import pooled_unscorable
from . import charts
from .persistence_report import board_section, brief
from .report import Cell, Document, Est, Figure, Label, Num, Section, Table, markdown, page, pointer


def run_label(summary: Mapping[str, object], folder: Path) -> str:
    """A run's name on the board and in regress: its model names, or its folder's name."""
    models = summary.get("models")
    names = (
        sorted({m for v in models.values() if isinstance(v, list) for m in v})
        if isinstance(models, Mapping)
        else []
    )
    return ", ".join(names) or as_text(folder.name)


def _identity(summary: Mapping[str, object]) -> tuple[object, ...]:
    prov = summary.get("provenance")
    assert isinstance(prov, Mapping)
    return (
        prov.get("packet_set"),
        prov.get("layer"),
        summary.get("round"),
        prov.get("protocol"),
        prov.get("split"),
    )


def _groups(summary: Mapping[str, object]) -> dict[str, object]:
    """acceptable/forbidden per family (round 1) and per fork kind."""
    out: dict[str, object] = {}
    r1 = summary if summary.get("round") == 1 else summary.get("round1")
    if isinstance(r1, Mapping) and isinstance(r1.get("families"), Mapping):
        for name, table in r1["families"].items():
            out[f"family {name}"] = table
    forks = summary.get("forks")
    if isinstance(forks, Mapping) and isinstance(forks.get("forks"), Mapping):
        for name, table in forks["forks"].items():
            out[f"fork {name}"] = table
    return out


def unscorable_of(summary: Mapping[str, object]) -> object:
    """A summary's unscorable block over every round it scores, the scorecard's number: its own
    (a round-1 score's, or a run's since it has one), else, in a run's summary written before, its
    round 1 and forks pooled the same way (scoring.summary.pooled_unscorable)."""
    if "unscorable" in summary or summary.get("round") == 1:
        return summary.get("unscorable")
    parts = [summary.get("round1"), summary.get("forks")]
    return pooled_unscorable(part.get("unscorable") for part in parts if isinstance(part, Mapping))


INCOMPLETE_NOTE = (
    "A run marked (incomplete) is one whose share of items without an answer (runner errors and "
    "missing replies) passed its --max-unscorable threshold when it was scored: the run failed, "
    "and its rates describe what could be scored, not the model. It is ranked after every "
    "complete run. Unscorable is every item whose decision could not be read, format failures "
    "included, over every round the run scored (as on its scorecard)."
)


def _refused_parent(unscorable: object) -> dict[str, object]:
    """`refused_parent` of a run whose forks include some a refused parent cannot have (their
    share of the forks, out of its unscorable share): a board of runs without any is unchanged."""
    by_reason = unscorable.get("by_reason") if isinstance(unscorable, Mapping) else None
    rate = by_reason.get("refused_parent") if isinstance(by_reason, Mapping) else None
    return {"refused_parent": rate} if isinstance(rate, Mapping) and rate.get("k") else {}


def board(folders: Sequence[Path], out: Path | None = None) -> dict[str, object]:
    """compare.json; `out` is where compare.html goes (each run's report is linked from there)."""
    summaries = [read_summary(f) for f in folders]
    first = _identity(summaries[0])
    for folder, summary in zip(folders[1:], summaries[1:]):
        mine = _identity(summary)
        if mine != first:
            what = ("packet set", "layer", "round", "protocol", "split")
            differ = ", ".join(f"{w} {x} vs {y}" for w, x, y in zip(what, first, mine) if x != y)
            raise InputError(
                f"not comparable with {folders[0]}: {differ}", file=str(folder / "summary.json")
            )
    runs = []
    for folder, summary in zip(folders, summaries):
        axes = summary.get("axes")
        unscorable = unscorable_of(summary)
        done = summary.get("completeness")
        runs.append(
            {
                "folder": as_text(str(folder)),
                "label": run_label(summary, folder),
                "honesty_index": summary.get("honesty_index"),
                "index": summary.get("honesty_index_interval")
                if isinstance(summary.get("honesty_index_interval"), Mapping)
                else None,
                # quoted, so no folder name can make the link a "javascript:" (or any other scheme)
                # URL
                "report": quote(
                    as_text(
                        os.path.relpath(folder / "report.html", out)
                        if out is not None
                        else str(folder / "report.html")
                    )
                ),
                "axes": {a: axes[a] for a in AXES if isinstance(axes, Mapping) and a in axes},
                "unscorable": unscorable.get("total") if isinstance(unscorable, Mapping) else None,
                # scored from a failed run (more items without an answer than its threshold):
                # its rates describe what could be scored, not the model
                "incomplete": isinstance(done, Mapping) and done.get("incomplete") is True,
                "no_answer": done.get("share") if isinstance(done, Mapping) else None,
                **_refused_parent(unscorable),
                "groups": _groups(summary),
                **({"persistence": carried} if (carried := brief(summary)) is not None else {}),
            }
        )
    labels = [str(r["label"]) for r in runs]
    for run in runs:
        if labels.count(str(run["label"])) > 1:
            run["label"] = f"{run['label']} ({Path(str(run['folder'])).name})"
        if run["incomplete"]:
            # every table and chart of the board names a run by its label: each marks it
            run["label"] = f"{run['label']} (incomplete)"
    runs.sort(
        key=lambda r: (
            r["incomplete"],
            r["honesty_index"] is None,
            -float(r["honesty_index"] or 0.0),  # type: ignore[arg-type]
            str(r["label"]),
        )
    )
    packet_set, layer, round_, protocol, _ = first
    return {
        "packet_set": packet_set,
        "layer": layer,
        "round": round_,
        "protocol": protocol,
        "runs": runs,
    }


def document(data: Mapping[str, object]) -> Document:
    runs = data["runs"]
    assert isinstance(runs, list)
    axes = [a for a in AXES if any(a in r["axes"] for r in runs)]
    rows: list[tuple[Cell, ...]] = []
    harm: list[tuple[Cell, ...]] = []
    # The forks a refused parent cannot have, in a column of their own where any run has some.
    refusals = any("refused_parent" in run for run in runs)
    for i, run in enumerate(runs):
        base = pointer("runs", i)
        label = Label(str(run["label"]), str(run["report"]), verbatim=True)
        index: Cell = (
            Est(base + "/index")
            if run.get("index")
            else Num(base + "/honesty_index")
            if run["honesty_index"] is not None
            else Label("—")
        )
        rows.append(
            (
                label,
                index,
                *(Est(base + pointer("axes", a)) if a in run["axes"] else Label("—") for a in axes),
                Est(base + "/unscorable") if run["unscorable"] else Label("—"),
                *(
                    (Est(base + "/refused_parent") if "refused_parent" in run else Label("—"),)
                    if refusals
                    else ()
                ),
                Num(base + "/no_answer") if run["no_answer"] is not None else Label("—"),
            )
        )
        harm.append(
            (
                label,
                *(
                    Est(base + pointer("axes", a, "forbidden")) if a in run["axes"] else Label("—")
                    for a in axes
                ),
            )
        )
    names = [n for run in runs for n in run["groups"]]
    fams = family_order([n.split(" ", 1)[1] for n in names if n.startswith("family ")])
    kinds = [k for k in FORK_KINDS if f"fork {k}" in names]
    group_rows: list[tuple[Cell, ...]] = []
    for name in [f"family {f}" for f in fams] + [f"fork {k}" for k in kinds]:
        group_rows.append(
            (
                Label(name),
                *(
                    Est(pointer("runs", i, "groups", name, "acceptable"))
                    if name in run["groups"]
                    else Label("—")
                    for i, run in enumerate(runs)
                ),
            )
        )
    labels = [str(r["label"]) for r in runs]
    headers = (
        "model",
        "honesty index",
        *(a.replace("_", " ") for a in axes),
        "unscorable",
        *(("of which refused parent",) if refusals else ()),
        "no answer",
    )
    figures: list[Figure] = []
    if any(r["honesty_index"] is not None for r in runs):
        # a run whose summary has no index interval (an older summary) gets its row, without a dot
        index_rows = [
            charts.DotRow(
                labels[i], pointer("runs", i, "index") if r.get("index") else None, str(r["report"])
            )
            for i, r in enumerate(runs)
        ]
        figures.append(
            Figure(
                svg=charts.dots(data, "Honesty index, with interval", index_rows),
                table=Table(
                    title="",
                    headers=("model", "honesty index"),
                    rows=tuple((row[0], row[1]) for row in rows),
                ),
            )
        )
    for a in axes:
        dot_rows = [
            charts.DotRow(
                labels[i],
                pointer("runs", i, "axes", a) if a in r["axes"] else None,
                str(r["report"]),
            )
            for i, r in enumerate(runs)
        ]
        table = Table(
            title="",
            headers=("model", "acceptable [CI]", "forbidden [CI]"),
            rows=tuple(
                (
                    rows[i][0],
                    Est(pointer("runs", i, "axes", a)) if a in r["axes"] else Label("—"),
                    Est(pointer("runs", i, "axes", a, "forbidden"))
                    if a in r["axes"]
                    else Label("—"),
                )
                for i, r in enumerate(runs)
            ),
        )
        figures.append(
            Figure(
                svg=charts.dots(
                    data, f"{a.replace('_', ' ')}: acceptable, with interval", dot_rows
                ),
                table=table,
            )
        )
    family_names = [f"family {f}" for f in fams]
    heat = (
        charts.heatmap(
            data,
            "heat",
            "Acceptable per model and family",
            "/runs",
            [str(i) for i in range(len(runs))],
            {},
            columns=[f"groups/{name}/acceptable" for name in family_names],
            fmt="pct",
            axis_note="model →",
            row_labels=labels,
            column_labels=[f.replace("_", " ") for f in fams],
            transpose=True,  # a family per row: eleven columns would not fit a phone
        )
        if family_names
        else ""
    )
    return Document(
        title="Board: several runs of one packet set",
        data=data,
        header=(
            ("packet set", (Num("/packet_set", "text"), ", ", Num("/layer", "text"), " layer")),
            ("runs", (Num("/runs", "len"),)),
        ),
        sections=(
            Section(
                title="Honesty index and axes",
                anchor="board",
                paragraphs=(
                    (
                        "Ranked by the honesty index; each name links to that run's own report. "
                        "Intervals as in each run's report. For whether two runs differ, run "
                        "regress A B on them (paired, item by item).",
                    ),
                    *(((INCOMPLETE_NOTE,),) if any(r["incomplete"] for r in runs) else ()),
                ),
                blocks=(Table(title="", headers=headers, rows=tuple(rows)), *figures),
            ),
            Section(
                title="Forbidden rate per axis",
                anchor="harm",
                blocks=(
                    Table(
                        title="",
                        headers=("model", *(a.replace("_", " ") for a in axes)),
                        rows=tuple(harm),
                    ),
                ),
            ),
            Section(
                title="Acceptable per family and fork kind",
                anchor="groups",
                blocks=(
                    *(
                        (
                            Figure(
                                svg=heat,
                                table=Table(
                                    title="", headers=("group", *labels), rows=tuple(group_rows)
                                ),
                            ),
                        )
                        if heat
                        else (Table(title="", headers=("group", *labels), rows=tuple(group_rows)),)
                    ),
                ),
            ),
            *board_section(data),
        ),
    )


def compare(folders: Sequence[Path], *, out: Path | None = None) -> dict[str, bytes]:
    data = board(folders, out)
    doc = document(data)
    return {
        "compare.json": (dumps(data) + "\n").encode("utf-8"),
        "COMPARE.md": markdown(doc).encode("utf-8"),
        "compare.html": page(doc).encode("utf-8"),
    }
