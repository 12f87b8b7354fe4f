"""`regress A B`: two scored runs of the same packet set, item by item, with paired statistics.

Fork ids depend only on the parent packet and the fork kind, never on the first reply, so two
models' runs of one packet set pair up fork for fork as well as packet for packet. Per axis the
exact McNemar test on the discordant items (Holm-adjusted over the five axes), the change in the
honesty index with a paired bootstrap interval over sources, and the items that got worse with
both runs' replies. Only a significant worsening makes `--fail-on-worse` exit 1.
"""

from __future__ import annotations

import html
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..core.canonical import dumps
from ..core.errors import InputError, as_text
from ..core.stats import ALPHA, holm, mcnemar_exact, percentile, resample_indices, rounded
from ..files.runfiles import Slot, Verdicts, read_summary, read_verdicts, replies_for, requests_for
from ..scoring.axes import AXES, component, paired_tally
from ..scoring.index import axis_values, group_counts, honesty_index
from ..scoring.summary import significant
from ..scoring.transcripts import anchor
from . import charts
from .compare import run_label
from .persistence_report import change as persistence_change
from .persistence_report import regress_section, worsened
from .report import (
    Cell,
    Collapsed,
    Document,
    Est,
    Figure,
    Inline,
    Label,
    Num,
    Raw,
    Section,
    Table,
    markdown,
    page,
    pointer,
    resolve,
)

LISTED: Final = 20
CLIP: Final = 2000


def _group(record: Mapping[str, object]) -> str:
    return str(record.get("fork") or record.get("family"))


def _ok(record: Mapping[str, object]) -> bool:
    return record.get("verdict") == "acceptable"


def _same_set(a: Path, b: Path, sa: Mapping[str, object], sb: Mapping[str, object]) -> None:
    def ident(s: Mapping[str, object]) -> tuple[object, object]:
        prov = s.get("provenance")
        return (
            (prov.get("packet_set"), prov.get("layer"))
            if isinstance(prov, Mapping)
            else (None, None)
        )

    if ident(sa) != ident(sb):
        (set_a, layer_a), (set_b, layer_b) = ident(sa), ident(sb)
        raise InputError(
            f"the runs score different packet sets ({set_a} {layer_a} in {a}, {set_b} {layer_b} "
            "here)",
            file=str(b / "summary.json"),
        )


def _table(slots: Sequence[Slot], va: Verdicts, vb: Verdicts) -> dict[str, object]:
    n = len(slots)
    ka = sum(_ok(va.records[s]) for s in slots)
    kb = sum(_ok(vb.records[s]) for s in slots)
    worse = sum(1 for s in slots if _ok(va.records[s]) and not _ok(vb.records[s]))
    better = sum(1 for s in slots if _ok(vb.records[s]) and not _ok(va.records[s]))
    return {
        "n": n,
        "acceptable_a": rounded(ka / n) if n else None,
        "acceptable_b": rounded(kb / n) if n else None,
        "worse": worse,
        "better": better,
        "p": significant(mcnemar_exact(worse, better)),
    }


def _adjust(tables: Mapping[str, dict[str, object]]) -> None:
    names = list(tables)
    for name, adjusted in zip(names, holm([float(str(tables[n]["p"])) for n in names])):
        tables[name]["p_holm"] = significant(adjusted)


# ---- the honesty index of each run and its paired bootstrap --------------------------------------


@dataclass(frozen=True, slots=True)
class _Counts:
    """Per source, per (axis, group): acceptable count and n, for one run."""

    k: dict[tuple[str, str], list[int]]
    n: dict[tuple[str, str], list[int]]


def _axes(k: Mapping[tuple[str, str], int], n: Mapping[tuple[str, str], int]) -> dict[str, float]:
    """Each axis present, as index.axis_values defines it (the mean of its groups' rates)."""
    return {
        axis: v for axis, v in axis_values({c: (k[c], n[c]) for c in n}).items() if v is not None
    }


def _index(values: Mapping[str, float]) -> float | None:
    """index.honesty_index: the one definition summary.json, the report and compare use."""
    return honesty_index(values)


def _interval(value: float | None, diffs: list[float], clusters: int) -> dict[str, object]:
    diffs.sort()
    return {
        "value": rounded(value),
        "low": rounded(percentile(diffs, 0.025)) if diffs and value is not None else None,
        "high": rounded(percentile(diffs, 0.975)) if diffs and value is not None else None,
        "clusters": clusters,
    }


def index_change(slots: Sequence[Slot], va: Verdicts, vb: Verdicts, seed: int) -> dict[str, object]:
    """Each run's honesty index from its records, and B minus A with a paired percentile
    bootstrap: sources are resampled, and both runs' items of a source move together. Each
    axis's change gets its interval from the same resamples (`axes`)."""
    sources = sorted({str(va.records[s].get("source_id")) for s in slots})
    at = {name: i for i, name in enumerate(sources)}
    runs = []
    for verdicts in (va, vb):
        counts = _Counts(k={}, n={})
        by_source: dict[int, list[tuple[Mapping[str, object], tuple[bool, ...]]]] = {}
        for slot in slots:
            record = verdicts.records[slot]
            i = at[str(va.records[slot].get("source_id"))]
            by_source.setdefault(i, []).append((record, (_ok(record),)))
            part = component(record)
            if part is None:
                continue
            counts.k.setdefault(part, [0] * len(sources))[i] += _ok(record)
            counts.n.setdefault(part, [0] * len(sources))[i] += 1
        # A pair's members share a source, so its counts resample with the source. One record is
        # one sample: its pair partner is the record of the same sample.
        for i, rows in by_source.items():
            for sample in sorted({r.get("sample") for r, _ in rows}, key=str):
                mine = [(r, ok) for r, ok in rows if r.get("sample") == sample]
                for paired, groups in paired_tally(mine).items():
                    for group, pairs in groups.items():
                        counts.k.setdefault((paired, group), [0] * len(sources))[i] += sum(
                            a for a, _ in pairs
                        )
                        counts.n.setdefault((paired, group), [0] * len(sources))[i] += sum(
                            b for _, b in pairs
                        )
        runs.append(counts)

    def axes_of(chosen: Sequence[int] | None) -> list[dict[str, float]]:
        out = []
        for counts in runs:
            pick = (
                (lambda xs: sum(xs))
                if chosen is None
                else (lambda xs: sum(map(xs.__getitem__, chosen)))
            )  # noqa: E731
            out.append(
                _axes(
                    {c: pick(v) for c, v in counts.k.items()},
                    {c: pick(v) for c, v in counts.n.items()},
                )
            )
        return out

    whole_a, whole_b = axes_of(None)
    a, b = _index(whole_a), _index(whole_b)
    diffs: list[float] = []
    axis_diffs: dict[str, list[float]] = {axis: [] for axis in whole_a if axis in whole_b}
    for idx in resample_indices(seed, "regress:index", len(sources)):
        xa, xb = axes_of(idx)
        x, y = _index(xa), _index(xb)
        if x is not None and y is not None:
            diffs.append(y - x)
        for axis, found in axis_diffs.items():
            if axis in xa and axis in xb:
                found.append(xb[axis] - xa[axis])
    return {
        "a": rounded(a),
        "b": rounded(b),
        "change": _interval(
            b - a if a is not None and b is not None else None, diffs, len(sources)
        ),
        "axes": {
            axis: _interval(whole_b[axis] - whole_a[axis], found, len(sources))
            for axis, found in axis_diffs.items()
        },
    }


# ---- the comparison -----------------------------------------------------------------------------


def samples_of(verdicts: Verdicts) -> int:
    """Samples per packet of a scored folder: the most any of its packets has, a round-1 item's
    own or a fork's parent's (a fork of a run with several samples is sample 0 of its own)."""
    most = 0
    for (_, sample), record in verdicts.records.items():
        parent = record.get("parent_sample")
        most = max(most, sample + 1, parent + 1 if isinstance(parent, int) else 0)
    return most


def shared_items(
    a: Path, va: Verdicts, vb: Verdicts
) -> tuple[list[Slot], dict[str, object] | None]:
    """The items to pair: all of them when both runs hold the same ones. Runs with different
    numbers of samples per packet are paired on the items both hold (a packet's first samples;
    the forks whose id is in both: a run with more samples deals its triads' pressure types over
    more parents, so most of its forks are other items), and `shared` says what was left out.
    Other differences (a round-1 score against a run, another protocol) are refused."""
    ka, kb = va.records.keys(), vb.records.keys()
    if ka == kb:
        return sorted(ka), None
    na, nb = samples_of(va), samples_of(vb)
    common = ka & kb
    if na == nb or not common:
        raise InputError(
            f"the runs hold different items ({len(ka - kb)} only in {a}, {len(kb - ka)} only "
            "here)"
            + ("" if na == nb else f"; {na} and {nb} samples per packet, and no item in common"),
            file=str(vb.path),
        )
    by_round: dict[str, int] = {}
    for slot in common:
        name = f"round{va.records[slot].get('round')}"
        by_round[name] = by_round.get(name, 0) + 1
    return sorted(common), {
        "samples_a": na,
        "samples_b": nb,
        "items": len(common),
        "by_round": dict(sorted(by_round.items())),
        "left_out_a": len(ka - kb),
        "left_out_b": len(kb - ka),
    }


def _side(
    folder: Path,
    out: Path | None,
    summary: Mapping[str, object],
    record: Mapping[str, object],
    line: int,
    reply: tuple[int, str | None, str | None] | None,
) -> dict[str, object]:
    examples, explorer = summary.get("examples"), summary.get("explorer")
    item = f"{record['packet_id']}#{record['sample']}"
    # the run's explorer holds every item, or (a run too large to embed) the worst per group
    shown = (isinstance(explorer, Mapping) and explorer.get("complete") is True) or (
        isinstance(examples, Mapping)
        and any(isinstance(v, list) and item in v for v in examples.values())
    )
    report = None
    if shown and out is not None:
        report = os.path.relpath(folder / "report.html", out) + "#" + anchor(item)
    return {
        "decision": record.get("decision"),
        "verdict": record.get("verdict"),
        "reason": record.get("reason"),
        "records_line": line,
        "replies_line": reply[0] if reply else None,
        "report": report,
    }


Replies = dict[Slot, tuple[int, str | None, str | None]]
Side = tuple[Path, Mapping[str, object], Replies]
"""A run as the report read it: its folder, its summary.json, and the listed items' replies."""


def compare_runs(
    a: Path, b: Path, *, seed: int, listed: int = LISTED, out: Path | None = None
) -> dict[str, object]:
    """regress.json: everything the regression report shows."""
    return _compared(a, b, seed=seed, listed=listed, out=out)[0]


def _compared(
    a: Path, b: Path, *, seed: int, listed: int, out: Path | None
) -> tuple[dict[str, object], tuple[Side, Side]]:
    """regress.json, and both runs as read for it (the transcripts show the same replies: each
    replies.jsonl, which may be large, is streamed once)."""
    sa, sb = read_summary(a), read_summary(b)
    _same_set(a, b, sa, sb)
    va, vb = read_verdicts(a), read_verdicts(b)
    slots, shared = shared_items(a, va, vb)
    axes: dict[str, dict[str, object]] = {}
    for axis in AXES:
        mine = [
            s for s in slots if (part := component(va.records[s])) is not None and part[0] == axis
        ]
        if mine:
            axes[axis] = _table(mine, va, vb)
            # The axis as the summary defines it (index.py: its groups' mean), not the pooled
            # share of its items: the push directions weigh equally however many items each has.
            for side, verdicts in (("acceptable_a", va), ("acceptable_b", vb)):
                counts = group_counts(
                    (verdicts.records[s], int(_ok(verdicts.records[s])), 1) for s in mine
                )
                axes[axis][side] = rounded(axis_values(counts)[axis])
    _adjust(axes)
    groups: dict[str, list[Slot]] = {}
    for s in slots:
        groups.setdefault(_group(va.records[s]), []).append(s)
    group_tables = {name: _table(members, va, vb) for name, members in sorted(groups.items())}
    _adjust(group_tables)
    index = index_change(slots, va, vb, seed)
    changes = index.pop("axes")
    assert isinstance(changes, dict)
    for name, table in axes.items():
        table["change"] = changes.get(
            name, {"value": None, "low": None, "high": None, "clusters": 0}
        )
    worse = [s for s in slots if _ok(va.records[s]) and not _ok(vb.records[s])]
    better = sum(1 for s in slots if _ok(vb.records[s]) and not _ok(va.records[s]))
    shown = worse[:listed]
    ra, rb = replies_for(a, set(shown)), replies_for(b, set(shown))
    why = [
        f"{axis}: {t['worse']} worse, {t['better']} better, Holm-adjusted p {t['p_holm']}"
        for axis, t in axes.items()
        if float(str(t["p_holm"])) < ALPHA and int(str(t["worse"])) > int(str(t["better"]))
    ]
    change = index["change"]
    assert isinstance(change, dict)
    if isinstance(change.get("high"), float) and change["high"] < 0:
        why.append(f"honesty index: change {change['value']}, whole 95 % interval below zero")

    carried = persistence_change(sa, sb)
    if carried is not None:
        why += worsened(carried)

    def names(s: Mapping[str, object]) -> list[str]:
        models = s.get("models")
        return (
            sorted({m for v in models.values() if isinstance(v, list) for m in v})
            if isinstance(models, Mapping)
            else []
        )

    prov = sa.get("provenance")
    assert isinstance(prov, Mapping)
    data: dict[str, object] = {
        "a": {
            "folder": as_text(str(a)),
            "label": run_label(sa, a),
            "models": names(sa),
            "summary_index": sa.get("honesty_index"),
        },
        "b": {
            "folder": as_text(str(b)),
            "label": run_label(sb, b),
            "models": names(sb),
            "summary_index": sb.get("honesty_index"),
        },
        "packet_set": prov.get("packet_set"),
        "layer": prov.get("layer"),
        "items": len(slots),
        **({"shared": shared} if shared is not None else {}),
        "worse_total": len(worse),
        "better_total": better,
        "axes": axes,
        "index": index,
        "groups": group_tables,
        "worse_items": [
            {
                "item": f"{pid}#{sample}",
                "group": _group(va.records[(pid, sample)]),
                "a": _side(
                    a,
                    out,
                    sa,
                    va.records[(pid, sample)],
                    va.line_of[(pid, sample)],
                    ra.get((pid, sample)),
                ),
                "b": _side(
                    b,
                    out,
                    sb,
                    vb.records[(pid, sample)],
                    vb.line_of[(pid, sample)],
                    rb.get((pid, sample)),
                ),
            }
            for pid, sample in shown
        ],
        **({"persistence": carried} if carried is not None else {}),
        "significant_worsening": bool(why),
        "why": why,
        "statistics": {
            "alpha": ALPHA,
            "bootstrap_seed": seed,
            "bootstrap_resamples": 1000,
            "confidence": 0.95,
        },
    }
    return data, ((a, sa, ra), (b, sb, rb))


# ---- the report ----------------------------------------------------------------------------------

HEADERS = ("n", "acceptable in A", "acceptable in B", "got worse", "got better", "p", "p (Holm)")


def _rows(
    data: Mapping[str, object], section: str, *, differ: bool = False
) -> tuple[tuple[Cell, ...], ...]:
    """The rows of a table of paired tests; with `differ`, only those whose Holm-adjusted p is
    below alpha."""
    node = data[section]
    assert isinstance(node, Mapping)
    return tuple(
        (
            Label(name.replace("_", " ") if section == "axes" else name),
            Num(pointer(section, name, "n"), "int"),
            Num(pointer(section, name, "acceptable_a")),
            Num(pointer(section, name, "acceptable_b")),
            Num(pointer(section, name, "worse"), "int"),
            Num(pointer(section, name, "better"), "int"),
            Num(pointer(section, name, "p"), "p"),
            Num(pointer(section, name, "p_holm"), "p"),
        )
        for name in node
        if not differ or float(str(node[name]["p_holm"])) < ALPHA
    )


def _clip(text: str | None) -> str:
    if text is None:
        return "[no reply]"
    return (
        text
        if len(text) <= CLIP
        else text[:CLIP] + f"\n[… {len(text) - CLIP:,} more characters in replies.jsonl]"
    )


def transcripts_html(
    data: Mapping[str, object], runs: tuple[Side, Side], packets_round1: Path | None
) -> str:
    """Both runs' conversations for each listed item: the request each run sent, and its reply."""
    items = data["worse_items"]
    assert isinstance(items, list)
    slots = {
        (str(i["item"]).rsplit("#", 1)[0], int(str(i["item"]).rsplit("#", 1)[1])) for i in items
    }
    ids = {pid for pid, _ in slots}
    parts = []
    sides = []
    for label, (folder, summary, replies) in zip("AB", runs):
        files = [folder / f"round{summary.get('round')}.jsonl"] if summary.get("round") != 1 else []
        if packets_round1 is not None:
            files.append(packets_round1)
        sides.append((label, folder, requests_for(files, ids), replies))
    for entry in items:
        item = str(entry["item"])
        pid, sample = item.rsplit("#", 1)
        slot = (pid, int(sample))
        parts.append(
            f'<div class="item verbatim" id="{anchor(item)}"><h4>{html.escape(item)} '
            f"({html.escape(str(entry['group']))})</h4>"
        )
        for (label, folder, requests, replies), side in zip(sides, (entry["a"], entry["b"])):
            assert isinstance(side, Mapping)
            link = (
                f' · <a href="{html.escape(str(side["report"]))}">in {label}\'s report</a>'
                if side.get("report")
                else ""
            )
            parts.append(
                f'<div class="role">{label} ({html.escape(as_text(str(folder)))}): decision '
                f"{html.escape(str(side['decision']))}, "
                f"{html.escape(str(side['verdict']))}; replies.jsonl line "
                f"{html.escape(str(side['replies_line']))}{link}</div>"
            )
            request = requests.get(pid)
            msgs = request.get("messages") if request else None
            if isinstance(msgs, list):
                for m in msgs[1:] if len(msgs) > 1 else msgs:
                    if isinstance(m, dict):
                        parts.append(
                            "<div "
                            f'class="role">{html.escape(str(m.get("role")))}</div><pre>{html.escape(_clip(str(m.get("content"))))}</pre>'
                        )
            reply = replies.get(slot)
            parts.append(
                '<div class="role">reply</div>'
                f"<pre>{html.escape(_clip(reply[1] if reply else None))}</pre>"
            )
        parts.append("</div>")
    return "".join(parts)


def change_figure(data: Mapping[str, object]) -> Figure:
    """B minus A per axis and for the index, each with its paired bootstrap interval, on one
    scale in percentage points with a line at zero."""
    axes = data["axes"]
    assert isinstance(axes, Mapping)
    rows = [charts.DotRow(name.replace("_", " "), pointer("axes", name, "change")) for name in axes]
    rows.append(charts.DotRow("honesty index", "/index/change"))
    ends = [
        abs(float(str(v)))
        for r in rows
        if r.base
        for k in ("low", "high", "value")
        if isinstance(v := resolve(data, r.base).get(k), (int, float))  # type: ignore[attr-defined]
    ]
    reach = max(0.1, math.ceil(max(ends, default=0.0) * 20) / 20)
    table = Table(
        title="",
        headers=("", "change B − A [CI]", "A", "B", "got worse", "got better", "p (Holm)"),
        rows=(
            *(
                (
                    Label(name.replace("_", " ")),
                    Est(pointer("axes", name, "change"), "pp"),
                    Num(pointer("axes", name, "acceptable_a")),
                    Num(pointer("axes", name, "acceptable_b")),
                    Num(pointer("axes", name, "worse"), "int"),
                    Num(pointer("axes", name, "better"), "int"),
                    Num(pointer("axes", name, "p_holm"), "p"),
                )
                for name in axes
            ),
            (
                Label("honesty index"),
                Est("/index/change", "pp"),
                Num("/index/a"),
                Num("/index/b"),
                Label("—"),
                Label("—"),
                Label("—"),
            ),
        ),
    )
    svg = charts.dots(
        data,
        "Change B − A per axis, with paired interval (percentage points)",
        rows,
        fmt="pp",
        span=(-reach, reach),
    )
    return Figure(svg=svg, table=table)


def _shared_note(data: Mapping[str, object]) -> tuple[tuple[Inline, ...], ...]:
    """What two runs with different numbers of samples were compared on (shared_items)."""
    shared = data.get("shared")
    if not isinstance(shared, Mapping):
        return ()
    rounds = list(shared["by_round"])
    parts: list[Inline] = []
    for name in rounds:
        parts += [
            *([", "] if parts else []),
            f"{name.replace('round', 'round ')}: ",
            Num(pointer("shared", "by_round", name), "int"),
        ]
    return (
        (
            "A has ",
            Num("/shared/samples_a", "int"),
            " sample(s) per packet and B ",
            Num("/shared/samples_b", "int"),
            ": compared on the ",
            Num("/shared/items", "int"),
            " items both runs hold (",
            *parts,
            "); left out: ",
            Num("/shared/left_out_a", "int"),
            " of A's items and ",
            Num("/shared/left_out_b", "int"),
            " of B's (the other samples, and the forks dealt another pressure type for another "
            "number of samples). Every number below is over the shared items only.",
        ),
    )


def document(data: Mapping[str, object], transcripts: str) -> Document:
    worse = data["worse_items"]
    assert isinstance(worse, list)
    listed: list[tuple[Inline, ...]] = []
    for i, entry in enumerate(worse):
        base = pointer("worse_items", i)
        listed.append(
            (
                Label(str(entry["item"]), "#" + anchor(str(entry["item"])), verbatim=True),
                f" ({entry['group']}): A ",
                Num(base + "/a/decision", "text"),
                " (",
                Num(base + "/a/verdict", "text"),
                ") → B ",
                Num(base + "/b/decision", "text"),
                " (",
                Num(base + "/b/verdict", "text"),
                "); replies.jsonl line ",
                Num(base + "/a/replies_line", "text"),
                " in A, ",
                Num(base + "/b/replies_line", "text"),
                " in B",
            )
        )
    verdict: tuple[Inline, ...] = (
        "Significant worsening: ",
        Label("yes" if data["significant_worsening"] else "no"),
        " (an axis whose Holm-adjusted exact McNemar p is below ",
        Num("/statistics/alpha", "pct0"),
        " with more items worse than better, or an index change whose whole interval is below "
        "zero)",
        *(
            ("; ", Label("; ".join(str(w) for w in data["why"]), verbatim=True))  # type: ignore[attr-defined]
            if data["why"]
            else ()
        ),
        ".",
    )
    sections = (
        Section(
            title="Axes, paired",
            anchor="axes",
            paragraphs=(
                *_shared_note(data),
                (
                    Num("/items", "int"),
                    " items of packet set ",
                    Num("/packet_set", "text"),
                    " (",
                    Num("/layer", "text"),
                    " layer); ",
                    Num("/worse_total", "int"),
                    " went from acceptable to not, ",
                    Num("/better_total", "int"),
                    " the other way.",
                ),
                verdict,
            ),
            blocks=(
                change_figure(data),
                Collapsed(
                    summary="Every axis's paired test (the full table)",
                    blocks=(
                        Table(
                            title="",
                            headers=("axis", *HEADERS),
                            rows=_rows(data, "axes"),
                            note=(
                                "Exact McNemar test on the items whose verdict changed; Holm's "
                                "adjustment over the axes.",
                            ),
                        ),
                    ),
                ),
            ),
        ),
        Section(
            title="Honesty index",
            anchor="index",
            paragraphs=(
                (
                    "A ",
                    Num("/index/a"),
                    ", B ",
                    Num("/index/b"),
                    "; change ",
                    Est("/index/change", "pp"),
                    " (paired percentile bootstrap over sources: both runs' items of a source are "
                    "resampled together).",
                ),
            ),
        ),
        Section(
            title="Per family and fork kind",
            anchor="groups",
            paragraphs=(
                (
                    "Holm's adjustment over the rows; shown: the rows that differ at ",
                    Num("/statistics/alpha", "pct0"),
                    " after it.",
                ),
            ),
            blocks=(
                Table(
                    title="",
                    headers=("family / fork", *HEADERS),
                    rows=_rows(data, "groups", differ=True),
                ),
                Collapsed(
                    summary="Every family and fork kind (the full table)",
                    blocks=(
                        Table(
                            title="",
                            headers=("family / fork", *HEADERS),
                            rows=_rows(data, "groups"),
                        ),
                    ),
                ),
            ),
        ),
        Section(
            title="Got worse",
            anchor="worse",
            paragraphs=(
                (
                    "The first ",
                    Num("/worse_items", "len"),
                    " of ",
                    Num("/worse_total", "int"),
                    " (every one is in records.jsonl of both folders):",
                ),
                *listed,
            ),
            blocks=(Raw(html=transcripts),) if transcripts else (),
        ),
        *regress_section(data),
    )
    header = (
        ("A", (Num("/a/label", "text"), " (", Num("/a/folder", "text"), ")")),
        ("B", (Num("/b/label", "text"), " (", Num("/b/folder", "text"), ")")),
    )
    return Document(
        title="Regression: B against A", data=data, header=header, sections=sections, lead=0
    )


def regress(
    a: Path,
    b: Path,
    *,
    seed: int,
    listed: int = LISTED,
    out: Path | None = None,
    packets: Path | None = None,
) -> tuple[dict[str, object], dict[str, bytes]]:
    """regress.json, REGRESS.md and regress.html (the last with both runs' transcripts)."""
    data, runs = _compared(a, b, seed=seed, listed=listed, out=out)
    round1 = packets / str(data["layer"]) / "round1.jsonl" if packets is not None else None
    doc = document(data, transcripts_html(data, runs, round1) if out is not None else "")
    files = {
        "regress.json": (dumps(data) + "\n").encode("utf-8"),
        "REGRESS.md": markdown(doc).encode("utf-8"),
        "regress.html": page(doc).encode("utf-8"),
    }
    return data, files
