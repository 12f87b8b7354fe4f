"""Read a packet folder's layer back (build.json, round1, key, ledgers): the records every
command works from.

Loading a layer validates as it goes (store.py reads each file strictly), so a hand-edited or
truncated packet file is an error, never a smaller denominator; the checked loader also holds the
layer's files against the MANIFEST.sha256 that lists them (manifest.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..core.arguments import path
from ..core.domainfiles import check_recorded
from ..core.errors import InputError, UsageError
from ..core.limits import MAX_PACKET_FILE_BYTES
from .manifest import check_layer_files
from .store import (
    LAYER_FILES,
    JsonObject,
    digest_of_files,
    is_dir,
    json_object,
    jsonl_bytes,
    keyed_records,
    read_bounded,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class PacketFolder:
    """One layer's files, as read: records keyed by packet id, in file order."""

    folder: Path
    build: JsonObject
    round1: dict[str, JsonObject]
    key: dict[str, JsonObject]
    ledgers: dict[str, JsonObject]
    digest: str = ""
    """SHA-256 over the four files' SHA-256s, in LAYER_FILES order ("" when not read from files)."""
    sha256: Mapping[str, str]
    """Each file's SHA-256 by name, of the bytes read (a score records them without reading
    again)."""

    @property
    def packet_set(self) -> str:
        return str(self.build["packet_set"])


def _shared(value: object, pool: dict[str, str]) -> object:
    """The value with every equal string one object: a layer repeats its system prompt, menu
    texts and key labels in every packet, and json gives each occurrence its own copy (a quarter
    of the full layer's memory, which a million-reply score holds beside its entries)."""
    if isinstance(value, str):
        return pool.setdefault(value, value)
    if isinstance(value, dict):
        return {k: _shared(v, pool) for k, v in value.items()}
    if isinstance(value, list):
        return [_shared(v, pool) for v in value]
    return value


def _shared_records(
    records: Iterator[tuple[int, JsonObject]], pool: dict[str, str]
) -> Iterator[tuple[int, JsonObject]]:
    for number, record in records:
        yield number, {k: _shared(v, pool) for k, v in record.items()}


def layer_from_bytes(
    folder: Path, files: dict[str, bytes], *, ledgers: bool = True
) -> PacketFolder:
    """A layer from its four files' bytes (`folder` names them in messages); with ledgers=False
    the ledgers are left unparsed (empty): scoring never reads them."""
    pool: dict[str, str] = {}
    sha256 = {name: hashlib.sha256(files[name]).hexdigest() for name in LAYER_FILES}
    build = json_object(files["build.json"], str(folder / "build.json"))
    if not isinstance(build.get("packet_set"), str):
        raise InputError("missing string field 'packet_set'", file=str(folder / "build.json"))
    loaded = PacketFolder(
        folder=folder,
        build=build,
        round1=keyed_records(
            _shared_records(jsonl_bytes(files["round1.jsonl"], str(folder / "round1.jsonl")), pool),
            str(folder / "round1.jsonl"),
        ),
        key=keyed_records(
            _shared_records(jsonl_bytes(files["key.jsonl"], str(folder / "key.jsonl")), pool),
            str(folder / "key.jsonl"),
        ),
        ledgers=keyed_records(
            _shared_records(
                jsonl_bytes(files["ledgers.jsonl"], str(folder / "ledgers.jsonl")), pool
            ),
            str(folder / "ledgers.jsonl"),
            "source_id",
        )
        if ledgers
        else {},
        digest=digest_of_files(sha256, LAYER_FILES),
        sha256=sha256,
    )
    if loaded.round1.keys() != loaded.key.keys():
        raise InputError(
            "round1.jsonl and key.jsonl list different packets", file=str(folder / "key.jsonl")
        )
    return loaded


def _layer_folder(packets: Path, layer: str) -> Path:
    folder = packets / layer
    if not is_dir(folder):
        raise UsageError("no such layer folder (run prepare first?)", file=str(folder))
    return folder


def _layer_bytes(folder: Path) -> dict[str, bytes]:
    return {name: read_bounded(folder / name, MAX_PACKET_FILE_BYTES) for name in LAYER_FILES}


def load_layer(packets: Path, layer: str) -> PacketFolder:
    """A layer as it is on disk (for packets the kit just wrote itself, or a viewer)."""
    folder = _layer_folder(packets, layer)
    return layer_from_bytes(folder, _layer_bytes(folder))


def load_checked_layer(packets: Path, layer: str, *, ledgers: bool = True) -> PacketFolder:
    """A layer whose four files match the MANIFEST.sha256 that lists them: what every command
    that scores, advances or exports uses, so an edited key is never scored (DESIGN.md 8).
    ledgers=False checks the ledgers file like the others but does not parse it (a score never
    reads a ledger, and a million-reply score holds everything it parses beside its entries)."""
    packets = path(packets, "packets")  # a Python caller's string or path object
    folder = _layer_folder(packets, layer)
    files = _layer_bytes(folder)
    check_layer_files(packets, layer, files)
    checked = layer_from_bytes(folder, files, ledgers=ledgers)
    # A set built from a lab's domain files is read only with those files (docs/AUDIT.md).
    check_recorded(checked.build, str(folder / "build.json"))
    return checked


__all__ = ["PacketFolder", "layer_from_bytes", "load_checked_layer", "load_layer"]
