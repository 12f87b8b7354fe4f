"""Score a set of reply files against a packet folder: read and check everything, then write.

Every reply is read, matched, judged and settled before anything is written, so a bad input
leaves no output at all; replies are read one at a time and never held (tally.py), so memory does
not grow with their number. The outputs are records.jsonl (one verdict per item), replies.jsonl
(the reply each verdict judged, line for line), summary.json (every number, with the model,
provenance and statistics settings), result.json (the record a leaderboard takes, read from the
summary: result.py), REPORT.md and report.html. `score_round` and `score_run`
return them as bytes; `stream_round` and `stream_run` give a `Scoring` that streams the two large
ones into an output folder instead (`Scoring.write`, as the CLI does), and `round_from_tally` and
`run_from_tally` score replies already settled (merged from shards). The options the two share
are one `ScoreOptions`.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Final, Protocol, get_args

from ..core import arguments
from ..core.arguments import check, choice, count, number_problem, optional_text, paths
from ..core.binding import unbind
from ..core.canonical import dumps, jsonl, sha256_hex
from ..core.construct import Envelope, Format, Split
from ..core.draws import seed_commitment
from ..core.errors import InputError
from ..core.limits import MAX_EXPLORER_ITEMS, MAX_UNSCORABLE_SHARE
from ..core.progress import SILENT, Meter
from ..core.stats import BOOTSTRAP_RESAMPLES
from ..core.version import __version__
from ..files.layer import PacketFolder, load_layer
from ..files.store import (
    JsonObject,
    StrPath,
    json_object,
    jsonl_bytes,
    keyed_records,
    read_json,
    read_jsonl,
)
from ..reports.report import markdown, page
from ..reports.sections import document
from ..rounds.advance import FROZEN_FILE, RUN_FILE, run_files
from ..rounds.fork import fork_origin
from ..rounds.persistence import chain_persistence, depth_bar
from ..rounds.runcheck import Known, check_chain, frozen_records, lean
from ..runners.envelopes import Received, ReplyFile, detect_format, received_of, reply_format
from ..scoring.score import Record, judge, match
from ..scoring.sheet import Sheet
from ..scoring.summary import (
    AXES,
    bar_json,
    completeness,
    fork_cells,
    honesty_index,
    index_estimate,
    pooled_unscorable,
    round1_cells,
    statistics_json,
)
from ..scoring.tally import (
    Section,
    Tally,
    Writer,
    Written,
    item_count,
    owed_samples,
    shown_items,
    usage_json,
    write_items,
)
from ..scoring.transcripts import PER_GROUP, WORST_PER_GROUP
from .conversation import conversation
from .result import RESULT_FILE, result_bytes

DEFAULT_BOOTSTRAP_SEED = 20261130
MISSING_LISTED = 50
COMMANDS_FILE = "commands.jsonl"
"""Written into a run folder by `advance` (the CLI): the command line that made it and the format
of the replies it froze, so the run's report can name every command behind it."""

Amend = Callable[[dict[str, object]], None]
"""Adds to a summary before it is rendered (demo adds its planted-versus-recovered table)."""


def by_file_name(paths: Sequence[Path], values: Sequence[str]) -> dict[str, str]:
    """Values by file name (the folder a file sat in is not part of the evidence, and leaving it
    out keeps the summary's bytes the same wherever the files are); a repeated name gets a "+"."""
    out: dict[str, str] = {}
    for path, value in sorted(zip(paths, values), key=lambda pv: str(pv[0])):
        name = path.name.encode("utf-8", "backslashreplace").decode(
            "utf-8"
        )  # a name that is not UTF-8
        while name in out:
            name = f"{name}+"
        out[name] = value
    return out


@dataclass(frozen=True, slots=True)
class ReplyFiles:
    """The reply files a score read, as given (repeats too): each one's path, SHA-256 and format.
    A shard records them in its partial, so a merge reports them as the unsharded score does."""

    files: tuple[tuple[Path, str, str], ...]

    @classmethod
    def of(cls, reads: Sequence[ReplyFile]) -> ReplyFiles:
        """From the files as their reading read them (each digest taken by the reading itself)."""
        return cls(tuple((read.path, read.sha256, read.format) for read in reads))

    def paths(self) -> list[Path]:
        return [path for path, _, _ in self.files]

    def digests(self) -> dict[str, str]:
        unique = sorted({(path, sha) for path, sha, _ in self.files}, key=lambda ps: str(ps[0]))
        return by_file_name([p for p, _ in unique], [sha for _, sha in unique])

    def formats(self) -> dict[str, str]:
        return formats_by_name([(path, fmt) for path, _, fmt in self.files])


def request_records(
    packets: Path, layer: str, run: Path | None = None
) -> tuple[list[JsonObject], dict[str, JsonObject], str]:
    """What a runner is sent, their keys by packet id (for a scorer outside the kit, such as the
    Inspect task's: the key never goes into a request), and the set the ids bind to: a layer's
    round-1 requests, or a run's latest round of forks. A run is checked first, as `score --run`
    checks it, and its records are the round that check rebuilt, byte for byte its files."""
    if run is None:
        folder = load_layer(packets, layer)
        return list(folder.round1.values()), dict(folder.key), folder.packet_set
    checked = check_chain(run, packets)
    return list(checked.requests), _by_id(checked.keys), str(checked.top.info.get("run_set"))


def formats_by_name(formats: Sequence[tuple[Path, str]]) -> dict[str, str]:
    unique = sorted(set(formats), key=lambda pf: str(pf[0]))
    return by_file_name([p for p, _ in unique], [f for _, f in unique])


def layer_scale(build: Mapping[str, object]) -> dict[str, float]:
    """Each layer's size relative to this one (both are built from one seed: quick is the first
    `quick_per_domain` sources of each domain, full all `sources_per_domain`)."""
    domains, counts = build.get("domains"), build.get("counts")
    per = {"quick": build.get("quick_per_domain"), "full": build.get("sources_per_domain")}
    sources = counts.get("sources") if isinstance(counts, Mapping) else None
    if not isinstance(domains, list) or not isinstance(sources, int) or sources <= 0:
        return {}
    return {
        layer: len(domains) * n / sources
        for layer, n in per.items()
        if isinstance(n, int) and n > 0
    }


def build_provenance(build: Mapping[str, object]) -> JsonObject:
    return {
        "packet_set": build.get("packet_set"),
        "layer": build.get("layer"),
        "seed_sha256": build.get("seed_sha256"),
        "generator": build.get("generator"),
        "packets_kit_version": build.get("kit_version"),
    }


class Sink(Protocol):
    """Where the two large outputs go while they are written (a staging folder, or memory)."""

    def stream(self, name: str) -> AbstractContextManager[Writer]: ...


class MemorySink:
    """The large outputs as bytes (the library functions return every file)."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    @contextmanager
    def stream(self, name: str) -> Iterator[BinaryIO]:
        buffer = io.BytesIO()
        yield buffer
        self.files[name] = buffer.getvalue()


SummaryOf = Callable[[Written], dict[str, object]]
LARGE: Final = ("records.jsonl", "replies.jsonl")
SMALL: Final = ("summary.json", RESULT_FILE, "REPORT.md", "report.html")


@dataclass(slots=True)
class Scoring:
    """A score whose every input has been read and checked: what is left is writing it."""

    sections: list[Section]
    summary_of: SummaryOf
    seed: int
    amend: Amend | None = None

    def write(self, sink: Sink) -> dict[str, bytes]:
        """records.jsonl and replies.jsonl into `sink`, line by line; the summary, REPORT.md and
        report.html (with every item in its explorer, or the worst of each group above
        MAX_EXPLORER_ITEMS) returned as bytes."""
        total = item_count(self.sections)
        complete = total <= MAX_EXPLORER_ITEMS
        per_group = PER_GROUP if complete else WORST_PER_GROUP
        # No buffer in front of the files: write_items gathers a megabyte of lines per write.
        with sink.stream("records.jsonl") as records, sink.stream("replies.jsonl") as replies:
            written = write_items(
                self.sections,
                records,
                replies,
                seed=self.seed,
                per_group=per_group,
                keep_groups=complete,
            )
        summary = self.summary_of(written)
        assert written.sampler is not None
        examples = written.sampler.chosen()
        summary["examples"] = examples
        if self.amend is not None:
            self.amend(summary)
        wanted = None if complete else {i for chosen in examples.values() for i in chosen}
        items = shown_items(self.sections, wanted, written.groups)
        summary["explorer"] = {
            "items": len(items),
            "total": total,
            "limit": MAX_EXPLORER_ITEMS,
            "complete": complete,
            "per_group": None if complete else per_group,
            "rest": "replies.jsonl",
        }
        doc, linked_groups = document(summary, items)
        # The summary lists exactly the groups the page links, with their worst items.
        linked = {group: examples[group] for group in sorted(linked_groups)}
        summary["examples"] = linked
        summary["examples_shown"] = len({i for chosen in linked.values() for i in chosen})
        return {
            "summary.json": (dumps(summary) + "\n").encode("utf-8"),
            RESULT_FILE: result_bytes(summary),  # read from the summary alone: they cannot differ
            "REPORT.md": markdown(doc).encode("utf-8"),
            "report.html": page(doc).encode("utf-8"),
        }

    def files(self) -> dict[str, bytes]:
        """Every output file as bytes."""
        sink = MemorySink()
        small = self.write(sink)
        return {**sink.files, **small}

    def close(self) -> None:
        for section in self.sections:
            for spool in section.tally.spools:
                spool.close()


FORK_REPLY: Final = (
    "a reply to a fork of a run (round 2 or later), not to a round-1 packet: "
    "score it with `score --run RUN --replies ...`"
)


@dataclass(frozen=True, slots=True)
class ScoreOptions:
    """How a score reads and settles its replies: the options a round's score and a run's score
    share (the `score` command's flags)."""

    fmt: Format | None = None
    """The format of every reply file; None detects each file's own."""
    require_complete: bool = False
    """A packet-sample (or fork) without a reply is an error, not an unscorable item."""
    max_unscorable: float = MAX_UNSCORABLE_SHARE
    """The share of items without an answer past which summary.json calls the score incomplete."""
    bootstrap_seed: int = DEFAULT_BOOTSTRAP_SEED
    """The seed of every bootstrap interval."""
    command: str | None = None
    """The command line recorded in the summary's provenance (None: none)."""
    retry_refused: bool = False
    """The refusals were sent again: a refusal gives way to an answer for the same slot
    (docs/SCORING.md, "Retries")."""

    def __post_init__(self) -> None:
        """Held to what `score`'s flags accept (an InputError naming the field), so a Python
        caller cannot score with options the command line refuses."""
        reply_format(self.fmt)
        check(
            number_problem(self.max_unscorable, 0.0, 1.0, "a share from 0 to 1"), "max_unscorable"
        )
        count(self.bootstrap_seed, "bootstrap_seed", low=0)
        optional_text(self.command, "command")  # recorded in summary.json


DEFAULT_OPTIONS: Final = ScoreOptions()
SPLITS: Final[tuple[Split, ...]] = get_args(Split)


def stream_round(
    folder: PacketFolder,
    replies: Sequence[StrPath],
    options: ScoreOptions = DEFAULT_OPTIONS,
    *,
    meter: Meter = SILENT,
    spool_folder: Path | None = None,
) -> Scoring:
    """Read and check round-1 replies to a packet layer; the score, ready to be streamed into a
    folder (`Scoring.write`) without holding its large files."""
    sheet = Sheet(1, folder.packet_set, folder.round1, folder.key)
    tally = Tally(sheet, spool_folder=spool_folder, retry_refused=options.retry_refused)
    tally.read(
        paths(replies, "replies"),
        options.fmt,
        meter=meter,
        forks=lambda got: answers_a_fork(got, folder),
    )
    tally.finish(FORK_REPLY)
    return round_from_tally(folder, tally, ReplyFiles.of(tally.reads), options)


def round_from_tally(
    folder: PacketFolder, tally: Tally, files: ReplyFiles, options: ScoreOptions = DEFAULT_OPTIONS
) -> Scoring:
    """The score of round-1 replies already settled in `tally` (read by `stream_round`, or merged
    from shards); `options.fmt` and `options.retry_refused` were the tally's to apply."""
    replies = files.paths()
    section = Section(tally.sheet, tally, owed_samples(tally))
    missing = list(section.missing())
    if options.require_complete and missing:
        pid, sample = missing[0]
        raise InputError(
            f"{len(missing)} packet-sample(s) have no reply (first: {pid} sample {sample})",
            file=str(replies[0]) if len(replies) == 1 else None,
        )
    bootstrap_seed, command = options.bootstrap_seed, options.command

    def summary_of(written: Written) -> dict[str, object]:
        cells = written.cells[0]
        return {
            "round": 1,
            "models": {"round1": tally.model_names()},
            "provenance": {
                "kit_version": __version__,
                **build_provenance(folder.build),
                "packets": by_file_name(
                    [folder.folder / name for name in ("round1.jsonl", "key.jsonl")],
                    [folder.sha256[name] for name in ("round1.jsonl", "key.jsonl")],
                ),
                "replies": files.digests(),
                "reply_formats": {"round1": files.formats()},
                "commands": [command] if command else [],
            },
            "statistics": statistics_json(bootstrap_seed, BOOTSTRAP_RESAMPLES),
            "counts": {
                "packets": len(folder.round1),
                "samples": len(section.samples),
                "records": written.records[0],
                "replies": tally.custody.kept,
                "missing": len(missing),
            },
            **(
                first := round1_cells(
                    cells, seed=bootstrap_seed, layer_scale=layer_scale(folder.build)
                )
            ),
            "bar": bar_json(first["axes"]),  # type: ignore[arg-type]
            "missing_replies": [f"{pid}#{sample}" for pid, sample in missing],
            "completeness": completeness(cells, threshold=options.max_unscorable),
            **usage_json([section], written),
        }

    return Scoring([section], summary_of, bootstrap_seed)


def score_round(
    folder: PacketFolder,
    replies: Sequence[StrPath],
    options: ScoreOptions = DEFAULT_OPTIONS,
    *,
    meter: Meter = SILENT,
) -> dict[str, bytes]:
    """Score round-1 replies to a packet layer: records.jsonl, replies.jsonl, summary.json,
    REPORT.md and report.html, as bytes by name."""
    scoring = stream_round(folder, replies, options, meter=meter)
    try:
        return scoring.files()
    finally:
        scoring.close()


def answers_a_fork(got: Received, folder: PacketFolder) -> bool:
    """A round-k reply given to a round-1 score: its echoed request holds an earlier assistant
    turn, or its id is a fork id of this layer (one that the layer's seed takes back, fork by
    fork, to one of its round-1 packets: fork.fork_origin, docs/FORKS.md)."""
    messages = got.request_messages
    if messages is not None and any(role == "assistant" for role, _ in messages):
        return True
    packet_id = unbind(got.ref).packet_id
    if packet_id in folder.round1 or not str(folder.build.get("seed", "")).isdigit():
        return False
    seed = int(str(folder.build["seed"]))
    while (origin := fork_origin(seed, packet_id)) is not None:
        packet_id = origin[0]
        if packet_id in folder.round1:
            return True
    return False


def judge_forks(
    requests: dict[str, JsonObject],
    keys: dict[str, JsonObject],
    envelopes: list[Envelope],
    run_set: str,
) -> list[Record]:
    """Every fork in the key is judged; a fork whose parent had no reply was never sent and is
    unscorable as a runner error (`refused_parent` where the parent was a refusal), never dropped
    from a denominator."""
    sendable = {pid: key for pid, key in keys.items() if key.get("sendable") is not False}
    records = judge(requests, sendable, match(envelopes, requests, run_set))
    samples = sorted({r.sample for r in records} | {0})
    records += [
        Record(
            packet_id=pid,
            sample=s,
            decision=None,
            verdict="unscorable",
            reason="refused_parent" if key.get("parent_refused") is True else "runner_error",
            reply_sha256=None,
        )
        for pid, key in keys.items()
        if key.get("sendable") is False
        for s in samples
    ]
    return sorted(records, key=lambda r: (r.packet_id, r.sample))


def run_log_bytes(command: str, reply_formats: Mapping[str, str], step: str) -> bytes:
    """commands.jsonl of a run: the command that made it (advance, run, demo) and the format of
    the round-1 replies it froze."""
    return jsonl(
        [
            {
                "command": command,
                "kit_version": __version__,
                "reply_formats": dict(reply_formats),
                "step": step,
            }
        ]
    )


def run_log(run: Path) -> tuple[list[str], dict[str, str]]:
    """The commands recorded in a run folder's commands.jsonl and the round-1 reply formats; when
    there is none (a run made by `run` or `demo`), the format of a round1.replies.jsonl it keeps."""
    commands: list[str] = []
    formats: dict[str, str] = {}
    log = run / COMMANDS_FILE
    if log.is_file():
        for _, entry in read_jsonl(log):
            if isinstance(entry.get("command"), str):
                commands.append(str(entry["command"]))
            found = entry.get("reply_formats")
            if isinstance(found, dict):
                formats.update({str(k): str(v) for k, v in found.items()})
    elif (run / "round1.replies.jsonl").is_file():
        formats["round1.replies.jsonl"] = detect_format(run / "round1.replies.jsonl")
    return commands, formats


def _build_of(
    packets: Path, info: Mapping[str, object], folder: PacketFolder | None
) -> Mapping[str, object]:
    if folder is not None:
        return folder.build
    path = packets / str(info.get("layer")) / "build.json"
    if path.is_file():
        build = read_json(path)
        if build.get("packet_set") == info.get("packet_set"):
            return build
    seed = info.get("seed")
    return {
        "packet_set": info.get("packet_set"),
        "layer": info.get("layer"),
        "seed_sha256": seed_commitment(int(seed))
        if isinstance(seed, str) and seed.isdigit()
        else None,
    }


def stream_run(
    run: StrPath,
    replies: Sequence[StrPath],
    packets: StrPath,
    options: ScoreOptions = DEFAULT_OPTIONS,
    *,
    split: Split | None = None,
    amend: Amend | None = None,
    meter: Meter = SILENT,
    spool_folder: Path | None = None,
    built: Sequence[Known] = (),
) -> Scoring:
    """Read and check round-k fork replies (for k == 2 the frozen round-1 replies too); the score,
    with the honesty index, ready to be streamed into a folder (`Scoring.write`). With `split`,
    only packets of that split are counted (the shortcut audit scores on `test`); `amend` adds to
    the summary before it is rendered. `built`: rounds of the run the caller has just built
    (advance's Built values, or their digests: runcheck.Vouch), which the check compares with
    instead of building them again."""
    if split is not None:
        choice(split, "split", SPLITS)  # an unknown split would count nothing: an empty summary
    checked = checked_run(
        arguments.path(run, "run"), arguments.path(packets, "packets"), built=built
    )
    tally = Tally(checked.sheet(), spool_folder=spool_folder, retry_refused=options.retry_refused)
    tally.read(paths(replies, "replies"), options.fmt, meter=meter)
    tally.finish()
    files = ReplyFiles.of(tally.reads)
    return run_from_tally(
        checked, tally, files, options, split=split, amend=amend, spool_folder=spool_folder
    )


@dataclass(frozen=True, slots=True)
class CheckedRun:
    """A run folder that passed check_run: its run.json, its latest round's requests and keys, and
    (round 2) the round-1 packets it was rebuilt from."""

    run: Path
    packets: Path
    info: JsonObject
    folder: PacketFolder | None
    requests: dict[str, JsonObject]
    keys: dict[str, JsonObject]
    digests: dict[str, str]
    """SHA-256 of the run's files by name, of the bytes the check compared (not read again)."""
    frozen: bytes
    """frozen.jsonl as checked: round 2 scores these replies, never a second reading of the file."""
    chain: Mapping[int, Mapping[str, bytes]] = field(default_factory=dict)
    """Every round's run files as checked (the persistence measures of a sustained chain)."""
    layer: PacketFolder | None = None
    """The round-1 packets the chain was rebuilt from (every round; `folder` is round 2's only)."""

    @property
    def round(self) -> int:
        return int(str(self.info["round"]))

    def sheet(self) -> Sheet:
        return Sheet(self.round, str(self.info["run_set"]), self.requests, self.keys)


def checked_run(run: Path, packets: Path, *, built: Sequence[Known] = ()) -> CheckedRun:
    """check_run, keeping the checked latest round: its records are the run's, byte for byte."""
    checked = check_chain(run, packets, built=built)
    top = checked.top
    names = run_files(top.round)
    digests = by_file_name(
        [run / name for name in names], [sha256_hex(top.files[name]) for name in names]
    )
    return CheckedRun(
        run,
        packets,
        top.info,
        checked.round1,
        _by_id(checked.requests),
        _by_id(checked.keys),
        digests,
        top.files[FROZEN_FILE],
        # The persistence measures read run.json, the keys and frozen.jsonl (and the whole
        # conversation's index round 2's requests): not the later rounds' requests, the largest
        # file of each round, which are let go with the check.
        {level.round: lean(level).files for level in checked.levels},
        checked.packets,
    )


def _by_id(records: Sequence[JsonObject]) -> dict[str, JsonObject]:
    return {str(record["packet_id"]): record for record in records}


def run_from_tally(
    checked: CheckedRun,
    tally: Tally,
    files: ReplyFiles,
    options: ScoreOptions = DEFAULT_OPTIONS,
    *,
    split: Split | None = None,
    amend: Amend | None = None,
    spool_folder: Path | None = None,
) -> Scoring:
    """The score of fork replies already settled in `tally` (read by `stream_run`, or merged from
    shards); `options.fmt` and `options.retry_refused` were the tally's to apply."""
    bootstrap_seed, command = options.bootstrap_seed, options.command
    run, packets, info, folder, keys, k = (
        checked.run,
        checked.packets,
        checked.info,
        checked.folder,
        checked.keys,
        checked.round,
    )
    replies = files.paths()
    forks = Section(tally.sheet, tally, owed_samples(tally), split)
    missing = list(forks.missing())
    if options.require_complete and missing:
        raise InputError(
            f"{len(missing)} fork(s) have no reply (first: {missing[0][0]})",
            file=str(replies[0]) if replies else None,
        )
    sections = [forks]
    first_tally: Tally | None = None
    if folder is not None:  # round 2: check_run loaded the round-1 packets and matched their set
        first_tally = Tally(
            Sheet(1, folder.packet_set, folder.round1, folder.key), spool_folder=spool_folder
        )
        first_tally.take(
            received_of(env) for env in frozen_records(checked.frozen, str(run / FROZEN_FILE))
        )
        first_tally.finish()
        sections.insert(
            0, Section(first_tally.sheet, first_tally, owed_samples(first_tally), split)
        )
    build = _build_of(packets, info, folder)
    scale = layer_scale(build)
    earlier, first_formats = run_log(run)

    def summary_of(written: Written) -> dict[str, object]:
        fork_part = fork_cells(written.cells[-1], seed=bootstrap_seed, layer_scale=scale)
        axes: dict[str, object] = dict(fork_part["axes"])  # type: ignore[call-overload]
        first: dict[str, object] = {}
        models: dict[str, list[str]] = {}
        if first_tally is not None:
            first = round1_cells(written.cells[0], seed=bootstrap_seed, layer_scale=scale)
            first_axes = first["axes"]
            assert isinstance(first_axes, dict)
            axes = {**first_axes, **axes}
            models["round1"] = first_tally.model_names()
        models[f"round{k}"] = tally.model_names()
        return {
            "round": k,
            "models": models,
            "provenance": {
                "kit_version": __version__,
                **build_provenance(build),
                "run_set": info["run_set"],
                "protocol": info.get("protocol"),
                "run": checked.digests,
                "replies": files.digests(),
                "reply_formats": {
                    **({f"round{k - 1}": first_formats} if first_formats else {}),
                    f"round{k}": files.formats(),
                },
                "commands": earlier + ([command] if command and earlier[-1:] != [command] else []),
                "split": split,
            },
            "statistics": statistics_json(bootstrap_seed, BOOTSTRAP_RESAMPLES),
            "counts": {"forks": len(keys), "records": written.records[-1], "missing": len(missing)},
            "axes": {
                name: axes[name]
                for name in AXES
                if name in axes and (k == 2 or _has_items(axes[name]))
            },
            "honesty_index": honesty_index(axes),
            "bar": bar_json(axes),
            **(
                {
                    "honesty_index_interval": index_estimate(
                        [*written.cells[0], *written.cells[-1]], seed=bootstrap_seed
                    )
                }
                if first_tally is not None
                else {}
            ),
            "forks": fork_part,
            "round1": first or None,
            # every round scored, pooled as `completeness` pools them: the scorecard's number
            "unscorable": pooled_unscorable([first.get("unscorable"), fork_part["unscorable"]]),
            "missing_replies": [f"{pid}#{sample}" for pid, sample in missing],
            **_persistence(checked, written, bootstrap_seed, scale),
            "completeness": completeness(
                [cell for cells in written.cells for cell in cells],
                threshold=options.max_unscorable,
                rounds=[
                    (section.sheet.round, cells) for section, cells in zip(sections, written.cells)
                ],
            ),
            **usage_json(sections, written),
        }

    return Scoring(sections, summary_of, bootstrap_seed, amend)


def _has_items(axis: object) -> bool:
    """A later round may have no fork of an axis's kind (the sustained protocol's rounds 3..N push
    only): such an axis is left out, not shown as an empty rate."""
    return not isinstance(axis, Mapping) or axis.get("n") != 0


def _persistence(
    checked: CheckedRun, written: Written, seed: int, scale: Mapping[str, float]
) -> dict[str, object]:
    """A sustained chain's persistence measures (persistence.py), the whole conversation's index
    (conversation.py) and the bar at depth in place of the round's own bar; nothing for other
    runs."""
    layer, chain = checked.layer, checked.chain
    first_keys = layer.key if layer is not None else None
    found = chain_persistence(chain, written.cells[-1], first_keys) if chain else None
    if found is None:
        return {}
    assert layer is not None
    whole = _conversation_of(chain, layer, seed, scale)
    axes = whole["axes"]
    assert isinstance(axes, Mapping)
    return {"persistence": found, "conversation": whole, "bar": depth_bar(axes, found)}


_CONVERSATION_NAMES: Final = ("round2.jsonl", "round2.key.jsonl", RUN_FILE, FROZEN_FILE)
_last_conversation: dict[tuple[object, ...], JsonObject] = {}
"""The last `conversation` worked out, by the digests of everything it reads: every later round
of a chain scores the same rounds 1 and 2 (`run --rounds N` and `demo --rounds N` score rounds
3..N and the top in one process), so they are judged once, not once per round."""


def _conversation_of(
    chain: Mapping[int, Mapping[str, bytes]],
    layer: PacketFolder,
    seed: int,
    scale: Mapping[str, float],
) -> JsonObject:
    """Rounds 1 and 2 of a checked sustained chain judged again (conversation.py), from round 2's
    checked files and round 3's frozen.jsonl; a copy of the last result when its inputs are the
    same bytes (a layer not read from files, with no digest, is always judged)."""
    key: tuple[object, ...] = (
        layer.digest,
        *(sha256_hex(chain[2][name]) for name in _CONVERSATION_NAMES),
        sha256_hex(chain[3][FROZEN_FILE]),
        seed,
        tuple(sorted(scale.items())),
    )
    if layer.digest and key in _last_conversation:
        return copy.deepcopy(_last_conversation[key])

    def frozen(k: int) -> Iterator[Received]:
        """Round k-1's replies, as round k froze them."""
        name = f"round{k}/{FROZEN_FILE}"
        return (received_of(env) for env in frozen_records(chain[k][FROZEN_FILE], name))

    round2 = {
        name: keyed_records(jsonl_bytes(chain[2][name], f"round2/{name}"), f"round2/{name}")
        for name in ("round2.jsonl", "round2.key.jsonl")
    }
    run_set = str(json_object(chain[2][RUN_FILE], f"round2/{RUN_FILE}")["run_set"])
    whole = conversation(
        (Sheet(1, layer.packet_set, layer.round1, layer.key), frozen(2)),
        (Sheet(2, run_set, round2["round2.jsonl"], round2["round2.key.jsonl"]), frozen(3)),
        seed=seed,
        layer_scale=scale,
    )
    if layer.digest:
        _last_conversation.clear()
        _last_conversation[key] = copy.deepcopy(whole)
    return whole


def score_run(
    run: StrPath,
    replies: Sequence[StrPath],
    packets: StrPath,
    options: ScoreOptions = DEFAULT_OPTIONS,
    *,
    split: Split | None = None,
    amend: Amend | None = None,
    meter: Meter = SILENT,
    built: Sequence[Known] = (),
) -> dict[str, bytes]:
    """Score round-k fork replies of a run folder; for k == 2 also the frozen round-1 replies and
    the honesty index: the six score files, as bytes by name. With `split`, only packets of
    that split are counted (the shortcut audit scores on `test`). `built`: rounds of the run the
    caller has just built (see `stream_run`)."""
    scoring = stream_run(
        run, replies, packets, options, split=split, amend=amend, meter=meter, built=built
    )
    try:
        return scoring.files()
    finally:
        scoring.close()
