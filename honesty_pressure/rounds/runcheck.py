"""Check a run folder's chain: every round rebuilt byte for byte (docs/AUDIT.md, DESIGN.md section
4).

A run folder is evidence. `check_run` rebuilds each round of its chain with advance's own `build`
(round 2 from its frozen replies and the packets, each later round from its frozen replies and
the round before it, which the run carries in parents/) and refuses a run whose files differ.
`from_run` reads a checked run's latest round back as the parents of the next. Building a round is
advance.py; playing a whole chain in memory is chain.py. Nothing here is remembered between calls:
a caller that has just built rounds of the run passes those `Built` values in (`built=`), and the
check compares each such round with them instead of building it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..core.arguments import path
from ..core.canonical import sha256_hex
from ..core.construct import LAYERS, PROTOCOLS, Envelope
from ..core.errors import InputError
from ..core.limits import MAX_PACKET_FILE_BYTES, MAX_SAMPLES
from ..files.layer import PacketFolder, load_checked_layer
from ..files.store import JsonObject, is_dir, jsonl_bytes, read_bounded, read_json
from ..runners.envelopes import USAGE_PAST_LIMIT, usage_of, usage_within
from .advance import (
    CHAIN_FOLDER,
    FROZEN_FILE,
    RUN_FILE,
    Built,
    ParentSet,
    build,
    from_layer,
    made_from,
    parents_of_files,
    run_files,
)

MAX_ROUND: Final = 99


def frozen_records(data: bytes, name: str) -> list[Envelope]:
    """The frozen parent replies of a run, as envelopes (a missing reply has none). Every field
    is checked, so a hand-made frozen.jsonl is an error naming its line, never a traceback."""
    out = []
    for number, line in jsonl_bytes(data, name):
        pid, sample = line.get("packet_id"), line.get("sample")
        if not isinstance(pid, str) or not pid:
            raise InputError("missing string field 'packet_id'", file=name, line=number)
        if not isinstance(sample, int) or isinstance(sample, bool) or not 0 <= sample < MAX_SAMPLES:
            raise InputError(
                f"'sample' must be a whole number from 0 to {MAX_SAMPLES - 1}",
                file=name,
                line=number,
            )
        fields: dict[str, str | None] = {}
        for key in ("reply", "error", "model"):
            value = line.get(key)
            if value is not None and not isinstance(value, str):
                raise InputError(f"'{key}' must be a string or null", file=name, line=number)
            fields[key] = value
        if fields["error"] == "missing reply":
            continue
        usage = None
        if "usage" in line:
            raw = line["usage"]
            usage = usage_of(raw)
            if (
                usage is None
                or not isinstance(raw, dict)
                or set(raw) != {"input_tokens", "output_tokens"}
            ):
                raise InputError(
                    '\'usage\' must be {"input_tokens": N, "output_tokens": N} with whole numbers '
                    ">= 0",
                    file=name,
                    line=number,
                )
            if not usage_within(usage):
                raise InputError(USAGE_PAST_LIMIT, file=name, line=number, field="usage")
        out.append(
            Envelope(
                ref=pid,
                reply=fields["reply"],
                error=fields["error"],
                request_sha256=None,
                request_messages=None,
                model=fields["model"],
                sample=sample,
                file=name,
                line=number,
                usage=usage,
            )
        )
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """One round of a chain as read: its run.json and its four files."""

    round: int
    folder: Path
    info: JsonObject
    files: dict[str, bytes]


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckedChain:
    """A run whose every round came out byte for byte: the rounds as read (round 2 first), the
    round-1 packets they were rebuilt from, and the latest round as advance rebuilt it."""

    levels: list[Level]
    packets: PacketFolder
    latest: Built

    @property
    def top(self) -> Level:
        return self.levels[-1]

    @property
    def round1(self) -> PacketFolder | None:
        """The round-1 packets, for a round-2 run (its forks' parents); None for later rounds."""
        return self.packets if self.top.round == 2 else None


def read_level(folder: Path, expect: int | None) -> Level:
    """One round's run.json and files (`expect`: the round it must say it is)."""
    info = read_json(folder / RUN_FILE)
    k = info.get("round")
    if not isinstance(k, int) or isinstance(k, bool) or not 2 <= k <= MAX_ROUND:
        raise InputError(
            f"'round' must be a whole number from 2 to {MAX_ROUND}", file=str(folder / RUN_FILE)
        )
    if expect is not None and k != expect:
        raise InputError(
            f"says round {k}, but it sits in the chain as round {expect}",
            file=str(folder / RUN_FILE),
        )
    files = {name: read_bounded(folder / name, MAX_PACKET_FILE_BYTES) for name in run_files(k)}
    return Level(round=k, folder=folder, info=info, files=files)


def parents_of_level(level: Level) -> ParentSet:
    """A checked level's round-k forks as parents (for round k+1)."""
    return parents_of_files(level.info, level.files, level.folder)


def check_chain(run: Path, packets: Path, *, built: Sequence[Built] = ()) -> CheckedChain:
    """Every round of the run's chain, each rebuilt byte for byte from its frozen replies and
    the rebuilt round before it (round 1: the packets, checked against their manifest). A round
    whose inputs are the very ones one of `built` was made from (`Built.made_from`: the same
    parent files and ids, protocol and frozen replies) is compared with that one instead: advance
    is a pure function of those inputs, so building it again would give the same bytes."""
    top = read_level(run, None)
    if top.round > 2 and not is_dir(run / CHAIN_FOLDER):
        raise InputError(
            f"a round-{top.round} run carries its earlier rounds in {CHAIN_FOLDER}/, and this one "
            "has none (made by an older version? advance its parent run again)",
            file=str(run),
        )
    levels = [read_level(run / CHAIN_FOLDER / f"round{j}", j) for j in range(2, top.round)] + [top]
    first = levels[0]
    layer = first.info.get("layer")
    if layer not in LAYERS:
        raise InputError(
            f"'layer' must be one of {', '.join(LAYERS)}", file=str(first.folder / RUN_FILE)
        )
    folder = load_checked_layer(packets, str(layer))
    if folder.packet_set != first.info.get("packet_set"):
        raise InputError(
            f"run is for packet set {first.info.get('packet_set')}, {folder.folder} holds "
            f"{folder.packet_set}",
            file=str(first.folder / RUN_FILE),
        )
    parents = from_layer(folder)
    rebuilt: Built | None = None
    for level in levels:
        frozen = level.folder / FROZEN_FILE
        frozen_sha256 = sha256_hex(level.files[FROZEN_FILE])
        if frozen_sha256 != level.info.get("frozen_sha256"):
            raise InputError(
                "does not match the frozen_sha256 recorded in run.json (edited after advance?)",
                file=str(frozen),
            )
        protocol = next((p for p in PROTOCOLS if p == level.info.get("protocol")), None)
        if protocol is None:
            raise InputError(
                f"'protocol' must be one of {', '.join(PROTOCOLS)}",
                file=str(level.folder / RUN_FILE),
            )
        inputs = made_from(parents, protocol, frozen_sha256) if built else None
        known = next((b for b in built if inputs is not None and b.made_from == inputs), None)
        if known is not None:
            rebuilt = known
        else:
            rebuilt = build(
                parents,
                frozen_records(level.files[FROZEN_FILE], str(frozen)),
                protocol=protocol,
                where=str(frozen),
            )
        before = (
            "the packets" if level.round == 2 else f"the round-{level.round - 1} run it carries"
        )
        for name in run_files(level.round):
            if level.files[name] != rebuilt.files.get(name):
                raise InputError(
                    f"differs from what advance makes from the frozen replies and {before} "
                    "(edited?)",
                    file=str(level.folder / name),
                )
        if level is not top:
            parents = parents_of_level(level)
    assert rebuilt is not None
    return CheckedChain(levels=levels, packets=folder, latest=rebuilt)


def check_run(
    run: Path, packets: Path, *, built: Sequence[Built] = ()
) -> tuple[JsonObject, PacketFolder | None]:
    """A run folder is evidence: refuse one whose files were edited after `advance` wrote them.

    Every round of the chain is rebuilt and must come out byte for byte: round 2 from its frozen
    replies and the packets (themselves checked against their MANIFEST.sha256), each later round
    from its frozen replies and the rebuilt round before it, which the run carries in parents/.
    So no frozen reply, request, key or run.json of any round can be edited, relabelled or
    swapped. Returns run.json and, for a round-2 run, the round-1 packets it was rebuilt from.
    `built`: rounds the caller has just built (see `check_chain`).
    """
    checked = check_chain(run, packets, built=built)
    return checked.top.info, checked.round1


def from_run(run: Path, packets: Path) -> tuple[ParentSet, dict[str, bytes]]:
    """A run's round-k forks as parents (for round k+1), once the whole run has passed
    `check_run`; and the files that carry its chain into the child run (`parents/roundJ/...`)."""
    checked = check_chain(path(run, "run"), path(packets, "packets"))
    chain = {
        f"{CHAIN_FOLDER}/round{level.round}/{name}": data
        for level in checked.levels
        for name, data in level.files.items()
    }
    return parents_of_level(checked.top), chain


__all__ = [
    "MAX_ROUND",
    "CheckedChain",
    "Level",
    "check_chain",
    "check_run",
    "frozen_records",
    "from_run",
    "parents_of_level",
    "read_level",
]
