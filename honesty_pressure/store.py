"""Read a committed packet folder back: build.json, round1, key and ledgers of one layer.

Loading validates as it goes and names file and line on any problem, so a hand-edited or
truncated packet file is an error, never a silently smaller denominator.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .errors import InputError, UsageError

JsonObject = dict[str, object]
ID_PATTERN: Final = "^[A-Za-z0-9_-]{1,64}$"


def read_jsonl(path: Path) -> Iterator[tuple[int, JsonObject]]:
    """(line number, object) for each non-empty line; any malformed line is an InputError.

    Lines are read as bytes and decoded one at a time, so a bad byte is reported on its own line
    (a text stream decodes ahead in chunks and would blame an earlier one). A UTF-8 byte order
    mark at the start of the file is allowed, as editors on some systems write one.
    """
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", file=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError("not valid UTF-8", file=str(path), line=number) from None
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"not valid JSON ({exc.msg})", file=str(path), line=number) from None
            if not isinstance(value, dict):
                raise InputError("expected a JSON object", file=str(path), line=number)
            yield number, value


def read_json(path: Path) -> JsonObject:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"not valid JSON ({exc})", file=str(path)) from None
    if not isinstance(value, dict):
        raise InputError("expected a JSON object", file=str(path))
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class PacketFolder:
    """One layer's files, as read: records keyed by packet id, in file order."""

    folder: Path
    build: JsonObject
    round1: dict[str, JsonObject]
    key: dict[str, JsonObject]
    ledgers: dict[str, JsonObject]

    @property
    def packet_set(self) -> str:
        return str(self.build["packet_set"])


def keyed(path: Path, field: str = "packet_id") -> dict[str, JsonObject]:
    """A JSONL file's records by their id field; a missing or repeated id names its line."""
    out: dict[str, JsonObject] = {}
    for number, record in read_jsonl(path):
        ident = record.get(field)
        if not isinstance(ident, str):
            raise InputError(f"missing string field {field!r}", file=str(path), line=number)
        if ident in out:
            raise InputError(f"{field} {ident} appears twice", file=str(path), line=number)
        out[ident] = record
    return out


def load_layer(packets: Path, layer: str) -> PacketFolder:
    folder = packets / layer
    if not folder.is_dir():
        raise UsageError("no such layer folder (run prepare first?)", file=str(folder))
    loaded = PacketFolder(
        folder=folder,
        build=read_json(folder / "build.json"),
        round1=keyed(folder / "round1.jsonl"),
        key=keyed(folder / "key.jsonl"),
        ledgers=keyed(folder / "ledgers.jsonl", "source_id"),
    )
    if loaded.round1.keys() != loaded.key.keys():
        raise InputError("round1.jsonl and key.jsonl list different packets", file=str(folder / "key.jsonl"))
    return loaded
