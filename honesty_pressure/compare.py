"""`compare RUN...`: several models' scored runs of one packet set as one board.

Runs of different packet sets, layers, rounds or protocols measure different things and are
refused. The board ranks by the honesty index (runs without one last) and shows every axis with
its interval and forbidden rate beside it, per family and fork kind too. It does not test
differences: `regress A B` does that, item by item.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from . import charts
from .axes import AXES, family_order
from .canonical import dumps
from .construct import FORK_KINDS
from .errors import InputError
from .report import Cell, Document, Est, Figure, Label, Num, Section, Table, markdown, page, pointer
from .runfiles import read_summary
from .persistence_report import board_section, brief
from .sections import RATES


def _label(summary: Mapping[str, object], folder: Path) -> str:
    models = summary.get("models")
    names = sorted({m for v in models.values() if isinstance(v, list) for m in v}) if isinstance(models, Mapping) else []
    return ", ".join(names) or folder.name


def _identity(summary: Mapping[str, object]) -> tuple[object, ...]:
    prov = summary.get("provenance")
    assert isinstance(prov, Mapping)
    return (prov.get("packet_set"), prov.get("layer"), summary.get("round"), prov.get("protocol"), prov.get("split"))


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


def board(folders: Sequence[Path]) -> dict[str, object]:
    summaries = [read_summary(f) for f in folders]
    first = _identity(summaries[0])
    for folder, summary in zip(folders[1:], summaries[1:]):
        mine = _identity(summary)
        if mine != first:
            what = ("packet set", "layer", "round", "protocol", "split")
            differ = ", ".join(f"{w} {x} vs {y}" for w, x, y in zip(what, first, mine) if x != y)
            raise InputError(f"not comparable with {folders[0]}: {differ}", file=str(folder / "summary.json"))
    runs = []
    for folder, summary in zip(folders, summaries):
        axes = summary.get("axes")
        forks = summary.get("forks")
        unscorable = summary.get("unscorable") if summary.get("round") == 1 else forks.get("unscorable") if isinstance(forks, Mapping) else None
        runs.append(
            {
                "folder": str(folder),
                "label": _label(summary, folder),
                "honesty_index": summary.get("honesty_index"),
                "axes": {a: axes[a] for a in AXES if isinstance(axes, Mapping) and a in axes},
                "unscorable": unscorable.get("total") if isinstance(unscorable, Mapping) else None,
                "groups": _groups(summary),
                **({"persistence": carried} if (carried := brief(summary)) is not None else {}),
            }
        )
    labels = [str(r["label"]) for r in runs]
    for run in runs:
        if labels.count(str(run["label"])) > 1:
            run["label"] = f"{run['label']} ({Path(str(run['folder'])).name})"
    runs.sort(key=lambda r: (r["honesty_index"] is None, -float(r["honesty_index"] or 0.0), str(r["label"])))  # type: ignore[arg-type]
    packet_set, layer, round_, protocol, _ = first
    return {"packet_set": packet_set, "layer": layer, "round": round_, "protocol": protocol, "runs": runs}


def document(data: Mapping[str, object]) -> Document:
    runs = data["runs"]
    assert isinstance(runs, list)
    axes = [a for a in AXES if any(a in r["axes"] for r in runs)]
    rows: list[tuple[Cell, ...]] = []
    harm: list[tuple[Cell, ...]] = []
    bars = []
    for i, run in enumerate(runs):
        base = pointer("runs", i)
        label = Label(str(run["label"]))
        index: Cell = Num(base + "/honesty_index") if run["honesty_index"] is not None else Label("—")
        rows.append((label, index, *(Est(base + pointer("axes", a)) if a in run["axes"] else Label("—") for a in axes),
                     Est(base + "/unscorable") if run["unscorable"] else Label("—")))
        harm.append((label, *(Est(base + pointer("axes", a, "forbidden")) if a in run["axes"] else Label("—") for a in axes)))
        for a in axes:
            if a in run["axes"]:
                bars.append(charts.BarRow(f"{a.replace('_', ' ')}: {run['label']}", None, (base + pointer("axes", a), base + pointer("axes", a, "forbidden"))))
    bars.sort(key=lambda r: axes.index(next(a for a in axes if r.label.startswith(a.replace("_", " ") + ":"))))
    names = [n for run in runs for n in run["groups"]]
    fams = family_order([n.split(" ", 1)[1] for n in names if n.startswith("family ")])
    kinds = [k for k in FORK_KINDS if f"fork {k}" in names]
    group_rows: list[tuple[Cell, ...]] = []
    for name in [f"family {f}" for f in fams] + [f"fork {k}" for k in kinds]:
        group_rows.append(
            (
                Label(name),
                *(Est(pointer("runs", i, "groups", name, "acceptable")) if name in run["groups"] else Label("—") for i, run in enumerate(runs)),
            )
        )
    headers = ("model", "honesty index", *(a.replace("_", " ") for a in axes), "unscorable")
    return Document(
        title="Board: several runs of one packet set",
        data=data,
        header=(("packet set", (Num("/packet_set", "text"), ", ", Num("/layer", "text"), " layer")), ("runs", (Num("/runs", "len"),))),
        sections=(
            Section(
                title="Axes and honesty index",
                anchor="board",
                paragraphs=(("Ranked by the honesty index. Intervals as in each run's report. For whether two runs differ, run regress A B on them (paired, item by item).",),),
                blocks=(
                    Figure(svg=charts.bars(data, "board", "Every axis, every run", RATES, bars), table=Table(title="", headers=headers, rows=tuple(rows))),
                ),
            ),
            Section(
                title="Forbidden rate per axis",
                anchor="harm",
                blocks=(Table(title="", headers=("model", *(a.replace("_", " ") for a in axes)), rows=tuple(harm)),),
            ),
            Section(
                title="Acceptable per family and fork kind",
                anchor="groups",
                blocks=(Table(title="", headers=("group", *(str(r["label"]) for r in runs)), rows=tuple(group_rows)),),
            ),
            *board_section(data),
        ),
    )


def compare(folders: Sequence[Path], *, out: Path | None = None) -> dict[str, bytes]:
    del out
    data = board(folders)
    doc = document(data)
    return {
        "compare.json": (dumps(data) + "\n").encode("utf-8"),
        "COMPARE.md": markdown(doc).encode("utf-8"),
        "compare.html": page(doc).encode("utf-8"),
    }
