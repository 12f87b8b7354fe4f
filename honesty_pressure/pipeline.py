"""Score a set of reply files against a packet folder: the whole job as bytes, written by the CLI.

Everything is computed before anything is written, so a bad input leaves no output at all. The
outputs are records.jsonl (one verdict per item), replies.jsonl (the reply each verdict judged,
line for line), summary.json (every number, with the model, provenance and statistics settings),
REPORT.md and report.html.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import __version__
from .advance import FROZEN_FILE, RUN_FILE, check_run, frozen_envelopes
from .axes import direction
from .binding import unbind
from .canonical import dumps, jsonl
from .construct import Envelope, Format, Split
from .envelopes import detect_format, read_envelopes, source_sha256
from .errors import InputError
from .generate import seed_commitment
from .progress import SILENT, Meter
from .report import markdown, page
from .score import Record, Slot, judge, match
from .sections import document
from .stats import BOOTSTRAP_RESAMPLES
from .store import JsonObject, PacketFolder, keyed, load_layer, read_json, read_jsonl
from .summary import AXES, fork_summary, honesty_index, round1_summary, statistics_json
from .transcripts import Item, Sampler, groups_of, item_id, reply_lines

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
        name = path.name.encode("utf-8", "backslashreplace").decode("utf-8")  # a name that is not UTF-8
        while name in out:
            name = f"{name}+"
        out[name] = value
    return out


def file_digests(paths: Sequence[Path]) -> dict[str, str]:
    """SHA-256 of each input by file name; a pipe's digest is of the bytes read once, not of a
    second read."""
    unique = sorted(set(paths), key=str)
    return by_file_name(unique, [source_sha256(p) for p in unique])


def request_records(packets: Path, layer: str, run: Path | None = None) -> tuple[list[JsonObject], str]:
    """What a runner is sent, and the set its ids bind to: a layer's round-1 requests, or a run's
    latest round of forks (the run checked first, as `score --run` checks it)."""
    if run is None:
        folder = load_layer(packets, layer)
        return list(folder.round1.values()), folder.packet_set
    info, _ = check_run(run, packets)
    return [r for _, r in read_jsonl(run / f"round{info.get('round')}.jsonl")], str(info.get("run_set"))


def read_replies(paths: Sequence[Path], fmt: Format | None, meter: Meter = SILENT) -> tuple[list[Envelope], dict[str, str]]:
    """Every envelope of every file, and each file's format (detected once, then read with it; a
    tick per file read)."""
    meter.expect(len(paths))
    formats: list[Format] = []
    envelopes: list[Envelope] = []
    for path in paths:
        formats.append(fmt or detect_format(path))
        envelopes += read_envelopes(path, formats[-1])
        meter.tick(1)
    unique = sorted(set(zip(paths, formats)), key=lambda pf: str(pf[0]))
    return envelopes, by_file_name([p for p, _ in unique], [f for _, f in unique])


def models_of(envelopes: Sequence[Envelope]) -> list[str]:
    return sorted({env.model for env in envelopes if env.model})


def layer_scale(build: Mapping[str, object]) -> dict[str, float]:
    """Each layer's size relative to this one (both are built from one seed: quick is the first
    `quick_per_domain` sources of each domain, full all `sources_per_domain`)."""
    domains, counts = build.get("domains"), build.get("counts")
    per = {"quick": build.get("quick_per_domain"), "full": build.get("sources_per_domain")}
    sources = counts.get("sources") if isinstance(counts, Mapping) else None
    if not isinstance(domains, list) or not isinstance(sources, int) or sources <= 0:
        return {}
    return {layer: len(domains) * n / sources for layer, n in per.items() if isinstance(n, int) and n > 0}


def build_provenance(build: Mapping[str, object]) -> JsonObject:
    return {
        "packet_set": build.get("packet_set"),
        "layer": build.get("layer"),
        "seed_sha256": build.get("seed_sha256"),
        "generator": build.get("generator"),
        "packets_kit_version": build.get("kit_version"),
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class Scored:
    """One judged item with what the report and replies.jsonl need beside its record."""

    record: Record
    key: Mapping[str, object]
    round: int
    envelope: Envelope | None
    request: Mapping[str, object] | None


def scored(records: Sequence[Record], keys: Mapping[str, JsonObject], round_: int, matched: Mapping[Slot, Envelope], requests: Mapping[str, JsonObject]) -> Iterator[Scored]:
    for r in records:
        yield Scored(record=r, key=keys[r.packet_id], round=round_, envelope=matched.get((r.packet_id, r.sample)), request=requests.get(r.packet_id))


def record_json(item: Scored) -> JsonObject:
    out = item.record.as_json(item.key)
    d = direction(item.key)
    if d is not None:
        out["direction"] = d
    return out


def _messages(request: Mapping[str, object] | None) -> tuple[tuple[str, str], ...]:
    msgs = request.get("messages") if request is not None else None
    if not isinstance(msgs, list):
        return ()
    return tuple((str(m.get("role")), str(m.get("content"))) for m in msgs if isinstance(m, dict))


def outputs(items: Sequence[Scored], summary: dict[str, object], *, seed: int, amend: Amend | None = None) -> dict[str, bytes]:
    """The five files every score writes. The transcripts are sampled as the items stream by."""
    sampler = Sampler(seed)
    for item in items:
        sampler.offer(item_id(item.record.packet_id, item.record.sample), groups_of(item.record, item.key))
    examples = sampler.chosen()
    summary["examples"] = examples
    if amend is not None:
        amend(summary)
    wanted = {i for chosen in examples.values() for i in chosen}
    shown: dict[str, Item] = {}
    for line, item in enumerate(items, start=1):
        name = item_id(item.record.packet_id, item.record.sample)
        if name in wanted:
            env = item.envelope
            never_sent = item.key.get("sendable") is False
            shown[name] = Item(
                item=name,
                messages=_messages(item.request),
                reply=env.reply if env is not None else None,
                error=env.error if env is not None else ("never sent: the parent had no reply" if never_sent else "missing reply"),
                record=item.record,
                key=item.key,
                line=line,
            )
    doc, linked_groups = document(summary, shown)
    # The summary lists exactly the groups and items the page shows.
    linked = {group: examples[group] for group in sorted(linked_groups)}
    summary["examples"] = linked
    summary["examples_shown"] = len({i for chosen in linked.values() for i in chosen})
    replies = reply_lines(
        (s.record, s.round, s.envelope.reply if s.envelope else None, s.envelope.error if s.envelope else None, s.envelope.model if s.envelope else None)
        for s in items
    )
    return {
        "records.jsonl": jsonl(record_json(s) for s in items),
        "replies.jsonl": replies,
        "summary.json": (dumps(summary) + "\n").encode("utf-8"),
        "REPORT.md": markdown(doc).encode("utf-8"),
        "report.html": page(doc).encode("utf-8"),
    }


def score_round1(
    folder: PacketFolder,
    replies: Sequence[Path],
    *,
    fmt: Format | None = None,
    require_complete: bool = False,
    bootstrap_seed: int = DEFAULT_BOOTSTRAP_SEED,
    command: str | None = None,
    meter: Meter = SILENT,
) -> dict[str, bytes]:
    envelopes, formats = read_replies(replies, fmt, meter)
    try:
        matched = match(envelopes, folder.round1, folder.packet_set)
    except InputError as exc:
        fork = next((env for env in envelopes if _answers_a_fork(env, folder)), None)
        if fork is None:
            raise
        raise InputError(
            "a reply to a fork of a run (round 2 or later), not to a round-1 packet: score it with `score --run RUN --replies ...`",
            file=fork.file,
            line=fork.line,
        ) from exc
    records = judge(folder.round1, folder.key, matched)
    missing = [r for r in records if r.reason == "missing_reply"]
    if require_complete and missing:
        first = missing[0]
        raise InputError(
            f"{len(missing)} packet-sample(s) have no reply (first: {first.packet_id} sample {first.sample})",
            file=str(replies[0]) if len(replies) == 1 else None,
        )
    rows = [(r, folder.key[r.packet_id]) for r in records]
    samples = sorted({r.sample for r in records})
    summary: dict[str, object] = {
        "round": 1,
        "models": {"round1": models_of(list(matched.values()))},
        "provenance": {
            "kit_version": __version__,
            **build_provenance(folder.build),
            "packets": file_digests([folder.folder / "round1.jsonl", folder.folder / "key.jsonl"]),
            "replies": file_digests(replies),
            "reply_formats": {"round1": formats},
            "commands": [command] if command else [],
        },
        "statistics": statistics_json(bootstrap_seed, BOOTSTRAP_RESAMPLES),
        "counts": {
            "packets": len(folder.round1),
            "samples": len(samples),
            "records": len(records),
            "replies": len(matched),
            "missing": len(missing),
        },
        **round1_summary(rows, seed=bootstrap_seed, layer_scale=layer_scale(folder.build)),
        "missing_replies": [f"{r.packet_id}#{r.sample}" for r in missing],
    }
    return outputs(list(scored(records, folder.key, 1, matched, folder.round1)), summary, seed=bootstrap_seed)


def _answers_a_fork(env: Envelope, folder: PacketFolder) -> bool:
    """A round-k reply given to `score --layer`: its echoed request holds an earlier assistant
    turn, or its id is a fork id (`<parent packet id>-<suffix>`, docs/FORKS.md) of this layer."""
    if env.request_messages is not None and any(role == "assistant" for role, _ in env.request_messages):
        return True
    packet_id = unbind(env.ref).packet_id
    return packet_id not in folder.round1 and packet_id.rsplit("-", 1)[0] in folder.round1


def judge_forks(requests: dict[str, JsonObject], keys: dict[str, JsonObject], envelopes: list[Envelope], run_set: str) -> list[Record]:
    return judge_forks_matched(requests, keys, match(envelopes, requests, run_set))


def judge_forks_matched(requests: dict[str, JsonObject], keys: dict[str, JsonObject], matched: Mapping[Slot, Envelope]) -> list[Record]:
    """Every fork in the key is judged; a fork whose parent had no reply was never sent and is
    unscorable as a runner error, never dropped from a denominator."""
    sendable = {pid: key for pid, key in keys.items() if key.get("sendable") is not False}
    records = judge(requests, sendable, matched)
    samples = sorted({r.sample for r in records} | {0})
    records += [
        Record(packet_id=pid, sample=s, decision=None, verdict="unscorable", reason="runner_error", reply_sha256=None)
        for pid, key in keys.items()
        if key.get("sendable") is False
        for s in samples
    ]
    return sorted(records, key=lambda r: (r.packet_id, r.sample))


def run_log_bytes(command: str, reply_formats: Mapping[str, str], step: str) -> bytes:
    """commands.jsonl of a run: the command that made it (advance, run, demo) and the format of
    the round-1 replies it froze."""
    return jsonl([{"command": command, "kit_version": __version__, "reply_formats": dict(reply_formats), "step": step}])


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


def _build_of(packets: Path, info: Mapping[str, object], folder: PacketFolder | None) -> Mapping[str, object]:
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
        "seed_sha256": seed_commitment(int(seed)) if isinstance(seed, str) and seed.isdigit() else None,
    }


def score_run(
    run: Path,
    replies: Sequence[Path],
    packets: Path,
    *,
    fmt: Format | None = None,
    require_complete: bool = False,
    bootstrap_seed: int = DEFAULT_BOOTSTRAP_SEED,
    split: Split | None = None,
    command: str | None = None,
    amend: Amend | None = None,
    meter: Meter = SILENT,
) -> dict[str, bytes]:
    """Score round-k fork replies; for k == 2 also the frozen round-1 replies and the honesty index.
    With `split`, only packets of that split are counted (the shortcut audit scores on `test`)."""
    info, folder = check_run(run, packets)
    k = int(str(info["round"]))
    requests, keys = keyed(run / f"round{k}.jsonl"), keyed(run / f"round{k}.key.jsonl")
    envelopes, formats = read_replies(replies, fmt, meter)
    matched = match(envelopes, requests, str(info["run_set"]))
    records = judge_forks_matched(requests, keys, matched)
    missing = [r for r in records if r.reason == "missing_reply"]
    if require_complete and missing:
        raise InputError(f"{len(missing)} fork(s) have no reply (first: {missing[0].packet_id})", file=str(replies[0]) if replies else None)
    if split is not None:
        records = [r for r in records if keys[r.packet_id]["split"] == split]
    build = _build_of(packets, info, folder)
    scale = layer_scale(build)
    rows = [(r, keys[r.packet_id]) for r in records]
    forks = fork_summary(rows, seed=bootstrap_seed, layer_scale=scale)
    axes: dict[str, object] = dict(forks["axes"])  # type: ignore[call-overload]
    first: dict[str, object] = {}
    first_items: list[Scored] = []
    earlier, first_formats = run_log(run)
    models: dict[str, list[str]] = {}
    if folder is not None:  # round 2: check_run loaded the round-1 packets and matched their set
        frozen = frozen_envelopes(run)
        first_matched = match(frozen, folder.round1, folder.packet_set)
        r1 = judge(folder.round1, folder.key, first_matched)
        if split is not None:
            r1 = [r for r in r1 if folder.key[r.packet_id]["split"] == split]
        first = round1_summary([(r, folder.key[r.packet_id]) for r in r1], seed=bootstrap_seed, layer_scale=scale)
        first_items = list(scored(r1, folder.key, 1, first_matched, folder.round1))
        first_axes = first["axes"]
        assert isinstance(first_axes, dict)
        axes = {**first_axes, **axes}
        models["round1"] = models_of(frozen)
    models[f"round{k}"] = models_of(list(matched.values()))
    index = honesty_index(axes)
    summary: dict[str, object] = {
        "round": k,
        "models": models,
        "provenance": {
            "kit_version": __version__,
            **build_provenance(build),
            "run_set": info["run_set"],
            "protocol": info.get("protocol"),
            "run": file_digests([run / RUN_FILE, run / FROZEN_FILE, run / f"round{k}.jsonl", run / f"round{k}.key.jsonl"]),
            "replies": file_digests(replies),
            "reply_formats": {**({f"round{k - 1}": first_formats} if first_formats else {}), f"round{k}": formats},
            "commands": earlier + ([command] if command and earlier[-1:] != [command] else []),
            "split": split,
        },
        "statistics": statistics_json(bootstrap_seed, BOOTSTRAP_RESAMPLES),
        "counts": {"forks": len(keys), "records": len(records), "missing": len(missing)},
        "axes": {name: axes[name] for name in AXES if name in axes},
        "honesty_index": index,
        "forks": forks,
        "round1": first or None,
        "missing_replies": [f"{r.packet_id}#{r.sample}" for r in missing],
    }
    # Round-1 verdicts (from the frozen replies) first, then the forks': one record per item.
    items = first_items + list(scored(records, keys, k, matched, requests))
    return outputs(items, summary, seed=bootstrap_seed, amend=amend)
