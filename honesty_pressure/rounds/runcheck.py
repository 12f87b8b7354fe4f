"""Check a run folder's chain: every round rebuilt byte for byte (docs/AUDIT.md, DESIGN.md section
4).

A run folder is evidence. `check_run` rebuilds each round of its chain with advance's own `build`
(round 2 from its frozen replies and the packets, each later round from its frozen replies and
the round before it, the run its chain.json names by path and SHA-256) and refuses a run whose
files differ. `from_run` reads a checked run's latest round back as the parents of the next.
Building a round is advance.py; playing a whole chain in memory is chain.py. Nothing here is
remembered between calls: a caller that has just built rounds of the run passes them in
(`built=`: each a `Built`, or only its digests, a `Vouch`), and the check compares each such
round with them instead of building it again.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..core.arguments import path
from ..core.canonical import dumps, sha256_hex
from ..core.construct import LAYERS, PROTOCOLS, Envelope
from ..core.errors import InputError
from ..core.limits import MAX_PACKET_FILE_BYTES, MAX_SAMPLES
from ..files.layer import PacketFolder, load_checked_layer
from ..files.store import (
    JsonObject,
    files_digest,
    is_dir,
    is_file,
    json_object,
    jsonl_bytes,
    read_bounded,
    read_json,
)
from ..runners.envelopes import USAGE_PAST_LIMIT, usage_of, usage_within
from .advance import (
    FROZEN_FILE,
    RUN_FILE,
    Built,
    ParentSet,
    build,
    from_layer,
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


@dataclass(frozen=True, slots=True)
class Vouch:
    """A round this command has built (or checked) itself, held as the SHA-256 of its files
    instead of their bytes: a check that meets a round made from the very same inputs
    (`made_from`) compares the files' digests with these instead of building the round again,
    and a caller that chains many rounds holds a few digests per round, never the rounds."""

    made_from: tuple[object, ...]
    sha256: dict[str, str]


Known = Built | Vouch
"""What a caller may hand a check about rounds it built: the round itself, or its digests."""


def vouch(built: Built) -> Vouch | None:
    """The digests of a round just built (None: built from parents of no file, never on disk)."""
    made = identity_of(built)
    if made is None:
        return None
    return Vouch(made, {name: sha256_hex(data) for name, data in built.files.items()})


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckedChain:
    """A run whose every round came out byte for byte: the rounds as read (round 2 first; of the
    earlier rounds only run.json, frozen.jsonl and the key are kept, all the persistence measures
    read, and round 2's requests, which the whole conversation's index reads), the round-1
    packets they were rebuilt from, and the latest round's request and key records (as advance
    built them, or as read from files that matched it)."""

    levels: list[Level]
    packets: PacketFolder
    requests: list[JsonObject]
    keys: list[JsonObject]

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


CHAIN_FILE: Final = "chain.json"
"""A round-k run (k >= 3) names the run of round k-1 it continues, by path and digest."""

LEGACY_CHAIN_FOLDER: Final = "parents"
"""Where a run made before chain.json carried copies of its earlier rounds (still read)."""


def chain_link(parent: Level) -> bytes:
    """chain.json for a run advanced from `parent`: its round, the SHA-256 of its four run files
    and its folder (absolute here: `relink` makes it relative to the run that holds it)."""
    return link_bytes(
        parent.round, files_digest(parent.files, run_files(parent.round)), str(parent.folder)
    )


def link_bytes(round_: int, sha256: str, path: str) -> bytes:
    return (dumps({"parent": {"path": path, "round": round_, "sha256": sha256}}) + "\n").encode()


def relink(files: dict[str, bytes], run: Path) -> dict[str, bytes]:
    """A run's files with its chain.json naming the parent run relative to `run` (so a run
    folder moved or copied whole with its parents still finds them)."""
    if CHAIN_FILE not in files:
        return files
    round_, sha256, path = read_link(files[CHAIN_FILE], run / CHAIN_FILE)
    target = Path(os.path.abspath(run / path))
    try:
        relative = os.path.relpath(target, os.path.abspath(run))
    except ValueError:  # another drive: only an absolute path reaches it
        relative = str(target)
    return {**files, CHAIN_FILE: link_bytes(round_, sha256, Path(relative).as_posix())}


def read_link(data: bytes, where: Path) -> tuple[int, str, str]:
    """(round, sha256, path) of a chain.json, every field checked."""
    parent = json_object(data, str(where)).get("parent")
    if not isinstance(parent, dict):
        raise InputError("missing object field 'parent'", file=str(where))
    round_, sha256, path = parent.get("round"), parent.get("sha256"), parent.get("path")
    if not isinstance(round_, int) or isinstance(round_, bool) or not 2 <= round_ < MAX_ROUND:
        raise InputError(
            f"'parent.round' must be a whole number from 2 to {MAX_ROUND - 1}", file=str(where)
        )
    if not isinstance(sha256, str) or len(sha256) != 64:
        raise InputError("'parent.sha256' must be a SHA-256 in hex", file=str(where))
    if not isinstance(path, str) or not path:
        raise InputError("'parent.path' must be a folder's path", file=str(where))
    return round_, sha256, path


@dataclass(frozen=True, slots=True)
class Link:
    """Where an earlier round of a chain is, and the SHA-256 of its files its child recorded
    (None for a copy an older version carried), named in `named_in` (for messages)."""

    folder: Path
    round: int
    sha256: str | None
    named_in: Path


def earlier_links(top: Level) -> list[Link]:
    """Where the rounds before `top` are, round 2 first, found by following chain.json back from
    run to parent run (only those small files are read here: each round's own files are read
    once, in order, by the check), or, for a run made before chain.json, the copies it carries."""
    run = top.folder
    if top.round > 2 and not is_file(run / CHAIN_FILE):
        if is_dir(run / LEGACY_CHAIN_FOLDER):
            return [
                Link(run / LEGACY_CHAIN_FOLDER / f"round{j}", j, None, run)
                for j in range(2, top.round)
            ]
        raise InputError(
            f"a round-{top.round} run names the run it continues in {CHAIN_FILE}, and this one "
            "has none (made by an older version? advance its parent run again)",
            file=str(run),
        )
    links: list[Link] = []
    child, k = run, top.round
    while k > 2:
        where = child / CHAIN_FILE
        round_, sha256, path = read_link(read_bounded(where, MAX_PACKET_FILE_BYTES), where)
        if round_ != k - 1:
            raise InputError(
                f"names a round-{round_} parent run, but this run is round {k}", file=str(where)
            )
        folder = child / path
        if not is_file(folder / RUN_FILE):
            raise InputError(
                f"the round-{round_} run this run continues is not at {folder} (moved? a run "
                "folder goes with the runs it continues)",
                file=str(where),
            )
        links.append(Link(folder, round_, sha256, where))
        child, k = folder, round_
    return links[::-1]


def read_linked(link: Link) -> Level:
    """An earlier round's files, read once, and held to the digest its child recorded."""
    level = read_level(link.folder, link.round)
    if link.sha256 is not None and files_digest(level.files, run_files(link.round)) != link.sha256:
        raise InputError(
            f"the round-{link.round} run at {link.folder} is not the one this run was advanced "
            "from (its files changed since)",
            file=str(link.named_in),
        )
    return level


def lean(level: Level) -> Level:
    """A checked earlier level without its requests (the largest file, needed no further), except
    round 2's: a sustained chain's score judges rounds 1 and 2 again for the whole conversation's
    index (runs/conversation.py), and a sheet of round 2 needs its forks' requests."""
    if level.round == 2:
        return level
    keep = {name: data for name, data in level.files.items() if name != f"round{level.round}.jsonl"}
    return dataclasses.replace(level, files=keep)


def check_chain(run: Path, packets: Path, *, built: Sequence[Known] = ()) -> CheckedChain:
    """Every round of the run's chain, each rebuilt byte for byte from its frozen replies and
    the rebuilt round before it (round 1: the packets, checked against their manifest). A round
    whose inputs are the very ones one of `built` was made from (`made_from`: the same parent
    files, protocol and frozen replies) is compared with that one instead: advance is a pure
    function of those inputs, so building it again would give the same bytes. Each round is read
    once, and only the round being checked and the one before it are held whole."""
    top = read_level(run, None)
    links = earlier_links(top)
    first = read_linked(links[0]) if links else top
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
    known = [v for v in (b if isinstance(b, Vouch) else vouch(b) for b in built) if v is not None]
    latest = next((b for b in reversed(built) if isinstance(b, Built)), None)
    parents: ParentSet | None = None  # parsed only when a round must be rebuilt from them
    previous: Level | None = None
    rebuilt: Built | None = None
    checked: list[Level] = []
    # Each round is read when its turn comes: only it and the round before are held whole.
    for n in range(len(links) + 1):
        if n == len(links):
            level = top
        elif n == 0:
            level = first
        else:
            level = read_linked(links[n])
        rebuilt = None
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
        inputs = identity(folder, previous, protocol, frozen_sha256)
        found = next((v for v in known if v.made_from == inputs), None)
        same: dict[str, object]
        expected: dict[str, object]
        if found is not None:
            same = {name: sha256_hex(level.files[name]) for name in run_files(level.round)}
            expected = {name: found.sha256.get(name) for name in run_files(level.round)}
        else:
            if parents is None:
                parents = from_layer(folder) if previous is None else parents_of_level(previous)
            rebuilt = build(
                parents,
                frozen_records(level.files[FROZEN_FILE], str(frozen)),
                protocol=protocol,
                where=str(frozen),
            )
            same = {name: level.files[name] for name in run_files(level.round)}
            expected = {name: rebuilt.files.get(name) for name in run_files(level.round)}
        before = (
            "the packets" if level.round == 2 else f"the round-{level.round - 1} run it continues"
        )
        for name in run_files(level.round):
            if same[name] != expected[name]:
                raise InputError(
                    f"differs from what advance makes from the frozen replies and {before} "
                    "(edited?)",
                    file=str(level.folder / name),
                )
        if level is not top:
            parents = None
            if previous is not None:
                checked.append(lean(previous))
            previous = level
    if previous is not None:
        checked.append(lean(previous))
    checked.append(top)
    if rebuilt is None and latest is not None and identity_of(latest) == inputs:
        rebuilt = latest
    if rebuilt is None:
        # Its files matched what advance made, so they are its records, read once.
        latest_parents = parents_of_level(top)
        requests = list(latest_parents.requests.values())
        keys = list(latest_parents.keys.values())
    else:
        requests, keys = rebuilt.requests, rebuilt.keys
    return CheckedChain(levels=checked, packets=folder, requests=requests, keys=keys)


def identity(
    folder: PacketFolder, previous: Level | None, protocol: str, frozen_sha256: str
) -> tuple[object, ...]:
    """What a round built from `previous` (None: the round-1 packets of `folder`) was made from,
    from digests alone, never parsing a file: the SHA-256 of the parents' files (which fix their
    round, sets, seed and ids), the protocol and the frozen replies' SHA-256."""
    if previous is None:
        return (folder.digest, 1, protocol, frozen_sha256)
    source = files_digest(previous.files, run_files(previous.round))
    return (source, previous.round, protocol, frozen_sha256)


def identity_of(built: Built) -> tuple[object, ...] | None:
    """`identity` of a round as its builder saw it (None: its parents came from no file)."""
    if built.made_from is None:
        return None
    source, round_, *_, protocol, frozen_sha256 = built.made_from
    return (source, round_, protocol, frozen_sha256)


def check_run(
    run: Path, packets: Path, *, built: Sequence[Known] = ()
) -> tuple[JsonObject, PacketFolder | None]:
    """A run folder is evidence: refuse one whose files were edited after `advance` wrote them.

    Every round of the chain is rebuilt and must come out byte for byte: round 2 from its frozen
    replies and the packets (themselves checked against their MANIFEST.sha256), each later round
    from its frozen replies and the rebuilt round before it, found by following each run's
    chain.json back to the run it continues. So no frozen reply, request, key or run.json of any
    round can be edited, relabelled or swapped. Returns run.json and, for a round-2 run, the
    round-1 packets it was rebuilt from. `built`: rounds the caller has just built (see
    `check_chain`).
    """
    checked = check_chain(run, packets, built=built)
    return checked.top.info, checked.round1


def from_run(run: Path, packets: Path) -> tuple[ParentSet, dict[str, bytes]]:
    """A run's round-k forks as parents (for round k+1), once the whole run has passed
    `check_run`; and the file that ties the child run to this one (chain.json: this run's folder
    and the SHA-256 of its files; the child's writer makes the path relative to the child)."""
    checked = check_chain(path(run, "run"), path(packets, "packets"))
    top = checked.top
    return parents_of_level(top), {CHAIN_FILE: chain_link(top)}


__all__ = [
    "CHAIN_FILE",
    "LEGACY_CHAIN_FOLDER",
    "MAX_ROUND",
    "CheckedChain",
    "Known",
    "Level",
    "Link",
    "Vouch",
    "chain_link",
    "check_chain",
    "check_run",
    "earlier_links",
    "frozen_records",
    "from_run",
    "identity",
    "identity_of",
    "lean",
    "link_bytes",
    "parents_of_level",
    "read_level",
    "read_link",
    "read_linked",
    "relink",
    "vouch",
]
