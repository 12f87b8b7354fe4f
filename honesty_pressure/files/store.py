"""Read JSON and JSONL safely: the one strict reader every file of the kit goes through.

Every read is bounded (honesty_pressure/core/limits.py) and strict: a duplicate key in one object,
an integer of more than 4300 digits, nesting deeper than Python can parse, a lone surrogate escape
(`"\\ud800"`, text that is not Unicode) or a line longer than 16 MiB is an InputError naming the
file and line, never a silently different value or a traceback. A packet folder's layer is read
back on top of these readers in layer.py; this module imports nothing else of the kit's files.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO, Final, TypeAlias

from ..core.errors import InputError
from ..core.limits import MAX_INT_DIGITS, MAX_LINE_BYTES, MAX_SMALL_JSON_BYTES, MIB

JsonObject = dict[str, object]
StrPath: TypeAlias = str | os.PathLike[str]
"""A path as a Python caller may give it: a string or a path object (the API takes either)."""
ID_PATTERN: Final = "^[A-Za-z0-9_-]{1,64}$"
LAYER_FILES: Final = ("build.json", "ledgers.jsonl", "round1.jsonl", "key.jsonl")

_BOM: Final = b"\xef\xbb\xbf"
# A JSON text can only produce a surrogate through a \uD800-\uDFFF escape; only then is the
# parsed value walked (a valid pair is joined by the parser, so what remains is a lone one).
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


class _LongInt(Exception):
    def __init__(self, digits: int) -> None:
        self.digits = digits


class _Constant(ValueError):
    def __init__(self, name: str) -> None:
        self.name = name


def _constant(name: str) -> object:
    """NaN, Infinity and -Infinity are not JSON (Python's parser takes them unless told)."""
    raise _Constant(name)


def _object(pairs: list[tuple[str, object]]) -> JsonObject:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return out


def _integer(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise _LongInt(digits)
    return int(text)


_DECODER: Final = json.JSONDecoder(
    object_pairs_hook=_object, parse_int=_integer, parse_constant=_constant
)


def _lone_surrogate(value: object) -> str | None:
    """The first lone surrogate in any string of a parsed value (keys included), or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                return found.group()
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def loads(text: str, *, file: str, line: int | None = None) -> object:
    """One JSON text, strictly: the errors above name `file` (and `line`)."""
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg})", file=file, line=line) from None
    except _Constant as exc:
        raise InputError(
            f"not valid JSON ({exc.name} is not a JSON number)", file=file, line=line
        ) from None
    except RecursionError:
        raise InputError("JSON nested too deeply", file=file, line=line) from None
    except _Duplicate as exc:
        raise InputError(
            f"the key {exc.key!r} appears twice in one object (which one counts is ambiguous)",
            file=file,
            line=line,
        ) from None
    except _LongInt as exc:
        raise InputError(
            f"an integer of {exc.digits} digits (at most {MAX_INT_DIGITS})", file=file, line=line
        ) from None
    if _SURROGATE_ESCAPE.search(text):
        lone = _lone_surrogate(value)
        if lone is not None:
            raise InputError(
                f"holds a lone surrogate \\u{ord(lone):04x}, which is not Unicode text (a runner "
                "bug?); replace it, for example by \\ufffd, and run again",
                file=file,
                line=line,
            )
    return value


def is_file(path: Path) -> bool:
    """A regular file (links followed); False, never an exception, for anything odd."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def open_regular(path: Path) -> BinaryIO:
    """Open a file the kit reads whole, refusing anything but a regular file. The open does not
    block: a FIFO left where a packet or run file should be is an error, not a hang."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    except (OSError, ValueError) as exc:
        raise InputError(
            f"cannot read: {getattr(exc, 'strerror', None) or exc}", file=str(path)
        ) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise InputError(
            "is a folder, not a file" if stat.S_ISDIR(mode) else "is not a regular file",
            file=str(path),
        )
    return os.fdopen(fd, "rb")


_open = open_regular


# A line is read by the C scanner directly; anything unusual about it (an error, a duplicate key,
# leading or trailing blanks, a \\u escape of a surrogate) goes through `loads`, which says what is
# wrong in the same words. The hook on integers is needed only where the interpreter does not
# refuse overlong integers itself (Python before 3.10.7, or the limit switched off).
Scan = Callable[[str, int], "tuple[object, int]"]
# getattr, because typeshed does not declare the C scanner's scan_once.
_SCAN_OBJECTS: Final[Scan] = getattr(  # noqa: B009
    json.JSONDecoder(object_pairs_hook=_object, parse_constant=_constant), "scan_once"
)
_SCAN_STRICT: Final[Scan] = getattr(_DECODER, "scan_once")  # noqa: B009


def _scanner() -> Scan:
    limit = getattr(sys, "get_int_max_str_digits", None)
    return _SCAN_OBJECTS if limit is not None and 0 < limit() <= MAX_INT_DIGITS else _SCAN_STRICT


_LINE_ENDS: Final = ("\n", "\r\n")


class LineCount:
    """How many non-empty lines a stream held, selected or not (filled in as it is read)."""

    __slots__ = ("nonempty",)

    def __init__(self) -> None:
        self.nonempty = 0


def iter_jsonl(
    handle: BinaryIO,
    name: str,
    select: Callable[[int], bool] | None = None,
    count: LineCount | None = None,
) -> Iterator[tuple[int, JsonObject]]:
    """(line number, object) for each non-empty line of a binary stream.

    Lines are read as bytes and decoded one at a time, so a bad byte is reported on its own line
    (a text stream decodes ahead in chunks and would blame an earlier one). A UTF-8 byte order
    mark at the start is allowed, as editors on some systems write one. With `select`, only the
    lines whose number it accepts are decoded and parsed (a shard's slice: the others are only
    counted, and held to the line length limit, which every line must meet for numbering to hold).
    """
    number = 0
    scan = _scanner()
    surrogate_escape = _SURROGATE_ESCAPE.search
    readline = handle.readline
    while True:
        try:
            raw = readline(MAX_LINE_BYTES + 1)
        except OSError as exc:
            raise InputError(
                f"cannot read: {exc.strerror or exc}", file=name, line=number + 1
            ) from None
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise InputError(
                f"line longer than {MAX_LINE_BYTES // MIB} MiB", file=name, line=number
            )
        if number == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM) :]
        if select is not None and not select(number):
            if count is not None and not count.nonempty and raw.decode("utf-8", "replace").strip():
                count.nonempty += 1  # only "any at all?" is asked of a line not read
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("not valid UTF-8", file=name, line=number) from None
        if not line or line.isspace():  # `not line.strip()`, without copying the line
            continue
        if count is not None:
            count.nonempty += 1
        # `loads(line)`, taking the C scanner's fast road where it gives the same value (written
        # out here, not called: this runs once per reply of a million-reply score).
        try:
            value, end = scan(line, 0)
        except (ValueError, StopIteration, _Duplicate, _LongInt, RecursionError):
            value = loads(line, file=name, line=number)
        else:
            # (The regex alone, with no `"\\u" in line` before it: its search for the literal
            # prefix is the faster of the two on text full of letters.)
            if (end != len(line) and line[end:] not in _LINE_ENDS) or surrogate_escape(line):
                value = loads(line, file=name, line=number)
        if not isinstance(value, dict):
            raise InputError("expected a JSON object", file=name, line=number)
        yield number, value


def read_jsonl(path: Path) -> Iterator[tuple[int, JsonObject]]:
    """(line number, object) for each non-empty line of a JSONL file; any malformed line is an
    InputError naming the file and line."""
    with _open(path) as handle:
        yield from iter_jsonl(handle, str(path))


def jsonl_bytes(data: bytes, name: str) -> Iterator[tuple[int, JsonObject]]:
    """The same, from bytes already read (`name` is the file they came from)."""
    return iter_jsonl(io.BytesIO(data), name)


def read_bounded(path: Path, limit: int) -> bytes:
    """A whole file, refused past `limit` bytes (without reading more than that). Read in pieces:
    `read(limit + 1)` would ask the allocator for the whole limit up front."""
    chunks: list[bytes] = []
    total = 0
    with _open(path) as handle:
        try:
            while total <= limit and (chunk := handle.read(min(1 << 24, limit + 1 - total))):
                chunks.append(chunk)
                total += len(chunk)
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    if len(data) > limit:
        raise InputError(f"larger than {limit // MIB} MiB", file=str(path))
    return data


def json_object(data: bytes, name: str) -> JsonObject:
    """One JSON object from a whole file's bytes."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("not valid UTF-8", file=name) from None
    value = loads(text, file=name)
    if not isinstance(value, dict):
        raise InputError("expected a JSON object", file=name)
    return value


def read_json(path: Path) -> JsonObject:
    """One of the kit's small JSON files (build.json, run.json, summary.json)."""
    return json_object(read_bounded(path, MAX_SMALL_JSON_BYTES), str(path))


def keyed_records(
    records: Iterator[tuple[int, JsonObject]], name: str, field: str = "packet_id"
) -> dict[str, JsonObject]:
    """Records by their id field; a missing or repeated id names its line."""
    out: dict[str, JsonObject] = {}
    for number, record in records:
        ident = record.get(field)
        if not isinstance(ident, str):
            raise InputError(f"missing string field {field!r}", file=name, line=number)
        if ident in out:
            raise InputError(f"{field} {ident} appears twice", file=name, line=number)
        out[ident] = record
    return out


def keyed(path: Path, field: str = "packet_id") -> dict[str, JsonObject]:
    """A JSONL file's records by their id field; a missing or repeated id names its line."""
    return keyed_records(read_jsonl(path), str(path), field)


def files_digest(files: dict[str, bytes], names: Sequence[str]) -> str:
    """One SHA-256 naming a set of files' contents (in the given order)."""
    return digest_of_files({name: hashlib.sha256(files[name]).hexdigest() for name in names}, names)


def digest_of_files(sha256: Mapping[str, str], names: Sequence[str]) -> str:
    """`files_digest` from the files' own SHA-256s (hex, by name)."""
    return hashlib.sha256("".join(sha256[name] for name in names).encode("ascii")).hexdigest()
