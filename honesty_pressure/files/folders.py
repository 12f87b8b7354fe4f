"""Output folders: which ones the kit may write, and how a whole set of files is swapped in.

- **Only a folder the kit made is ever replaced.** A kit folder holds the marker file
  `.honesty_pressure` (or, written by an older version, a kit `run.json` or `summary.json` and
  nothing but kit files); a packet folder holds only layer folders of packet files. Everything
  else is refused with one line and left as it was: a symbolic link, a regular file, a folder with
  files the kit did not make (the checkout, `$HOME`, the package), the committed `packets/` and
  `controls/` of a checkout and anything inside them, a packet layer, or a folder inside another
  kit folder. `may_write` is the one function every writing command asks.
- **A whole set or nothing.** The new set is written into a hidden staging folder beside the
  target and swapped in with one rename (Linux `renameat2(RENAME_EXCHANGE)`; elsewhere two
  renames, with the old set restored by the next writer if a crash falls between them), so a
  reader sees the old set or the new one, never a mix, and a failure before the swap changes
  nothing.
- **One writer at a time.** A writer holds an exclusive `flock` on the folder (and on its staging
  folder, which becomes the folder); a second writer fails at once with one line. A reader of a
  run holds a shared lock, so a run cannot be replaced while it is being checked and scored.
- **Nothing stale survives.** Staging and old folders left by a killed command are unlocked, so
  the next command writing the same folder removes them (or puts a lost old set back).

Nothing here follows a symbolic link: the target's own name is never resolved, trees are removed
with `shutil.rmtree` (which does not follow links), and files are created with O_EXCL|O_NOFOLLOW.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import BinaryIO, Final, Literal

from ..core.canonical import dumps
from ..core.errors import BusyError, InputError, OutputError, UsageError
from ..core.limits import MIB
from .manifest import MANIFEST_NAME
from .store import is_dir, is_file, json_object, open_regular, read_bounded

Kind = Literal["run", "score", "demo", "packets", "report", "partial"]
State = Literal["absent", "empty", "kit"]

MARKER: Final = ".honesty_pressure"
"""The file that says "the kit made this folder, and what for"."""
_KIT_NAMES: Final = re.compile(
    r"^(run\.json|request\.json|frozen\.jsonl|records\.jsonl|replies\.jsonl|commands\.jsonl|summary\.json|result\.json|REPORT\.md|report\.html|parents"
    r"|regress\.json|REGRESS\.md|regress\.html|compare\.json|COMPARE\.md|compare\.html|partial\.json|chain\.json|entries\.bin|lines\.bin|forks\.txt"
    r"|round[0-9]{1,3}\.(jsonl|key\.jsonl|requests\.jsonl|replies\.jsonl))$"
)
_LAYERS: Final = ("quick", "full")
_LAYER_FILES: Final = frozenset({"build.json", "ledgers.jsonl", "round1.jsonl", "key.jsonl"})
_PACKAGE: Final = Path(os.path.realpath(Path(__file__).parent.parent))  # honesty_pressure/
_LISTED: Final = 4


EntryKind = Literal["file", "dir", "appended"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry the kit wrote into a folder, as the marker lists it: a file (its SHA-256), a
    folder, or a file the kit appends to (a runner's replies: the SHA-256 of its first `size`
    bytes, which is what the kit had when it last recorded it; what follows is the runner's)."""

    kind: EntryKind
    sha256: str = ""
    size: int = 0

    def as_json(self) -> dict[str, object]:
        if self.kind == "dir":
            return {"kind": "dir"}
        if self.kind == "file":
            return {"kind": "file", "sha256": self.sha256}
        return {"kind": "appended", "sha256": self.sha256, "size": self.size}


Entries = dict[str, Entry]


def marker_bytes(kind: Kind, entries: Entries | None = None) -> bytes:
    """The marker: what the folder is for and every entry the kit wrote into it (with `entries`
    None, the marker of an older version, which listed nothing)."""
    body: dict[str, object] = {"kind": kind, "made_by": "honesty_pressure"}
    if entries is not None:
        body["entries"] = {rel: entries[rel].as_json() for rel in sorted(entries)}
    return (dumps(body) + "\n").encode("utf-8")


_STAGING_TOKEN: Final = "staging"


def _staging_marker(target: str) -> bytes:
    """What a staging folder holds from its first moment: proof that a leftover one is the
    kit's own debris (for this target), which the next writer may remove."""
    # A name's undecodable bytes (lone surrogates) as escapes: the token is text, the name any
    # bytes.
    shown = target.encode("utf-8", "backslashreplace").decode("utf-8")
    return (
        dumps({"kind": _STAGING_TOKEN, "made_by": "honesty_pressure", "target": shown}) + "\n"
    ).encode("utf-8")


def _step(name: str) -> None:
    """Called before every step that changes the disk; tests replace it to kill or fail there."""


# --- where a path points, without following its last component -----------------------------


def target_path(path: Path) -> Path:
    """The path with its folder resolved but its own name kept, so a link at the target is seen
    as a link (and refused) instead of being followed."""
    text = os.fspath(path)
    if not text:
        raise UsageError("an empty path is not a folder")
    plain = Path(text)
    if plain.name in ("", ".", ".."):
        return Path(os.path.realpath(plain))
    return Path(os.path.realpath(plain.parent)) / plain.name


def _is_checkout_part(folder: Path, name: str) -> bool:
    """`folder` is `<checkout>/<name>`: named so, in a folder with a MANIFEST.sha256 or with both
    packets/ and controls/ (a checkout whose manifest was deleted is still a checkout)."""
    if folder.name != name:
        return False
    root = folder.parent
    return is_file(root / MANIFEST_NAME) or (is_dir(root / "packets") and is_dir(root / "controls"))


def is_committed_packets(path: Path) -> bool:
    """The packets/ folder of a checkout (whatever spelling reached it)."""
    return _is_checkout_part(Path(os.path.realpath(path)), "packets")


def protected_reason(path: Path, *, committed_packets_ok: bool = False) -> str | None:
    """Why nothing may be written at or inside `path` (already a target_path), or None.
    `committed_packets_ok`: `prepare` with the committed seed may rewrite packets/ itself."""
    real = Path(os.path.realpath(path))
    for folder in (real, *real.parents):
        inside = folder != real
        if _is_checkout_part(folder, "packets") and not (committed_packets_ok and not inside):
            return (
                f"is {'inside ' if inside else ''}the committed packets of a checkout "
                f"({folder}); write elsewhere"
            )
        if _is_checkout_part(folder, "controls"):
            return (
                f"is {'inside ' if inside else ''}the committed controls of a checkout "
                f"({folder}); write elsewhere"
            )
        if folder == _PACKAGE:
            return f"is {'inside ' if inside else ''}the kit's own code ({folder}); write elsewhere"
        if folder.name == ".git":
            return (
                f"is {'inside ' if inside else ''}a git repository's own data ({folder}); "
                "write elsewhere"
            )
        if inside and all(
            is_file(folder / name) for name in ("build.json", "round1.jsonl", "key.jsonl")
        ):
            return f"is inside the packet layer {folder}; write elsewhere"
        if inside and is_file(folder / MARKER):
            return (
                f"is inside the kit folder {folder}, which holds only the kit's own files; "
                "write elsewhere"
            )
    return None


@dataclass(frozen=True, slots=True)
class Existing:
    """What is at a target now: nothing, an empty folder, or a kit folder of some kind."""

    path: Path
    state: State
    kind: Kind | None = None
    unknown: tuple[str, ...] = field(default=())
    """Entries of a kit folder that the kit did not write (kept by an update, never replaced)."""
    entries: Entries | None = None
    """What the marker lists (None: a folder an older version wrote, judged by names and kinds)."""

    def problem(self, rel: str) -> str | None:
        """Why `rel` may not be replaced (not provably the kit's), or None."""
        if self.entries is not None:
            return entry_problem(self.path, rel, self.entries.get(rel))
        top = rel.split("/")[0]
        return (
            f"{rel}, which the kit did not write"
            if rel in self.unknown or top in self.unknown
            else None
        )

    def first_problem(self) -> str | None:
        """The first entry (folders before what they hold) that is not provably the kit's; an
        older version's folder is judged by `unknown` alone (it listed nothing)."""
        if self.entries is None:
            return None
        for rel in _existing_entries(self.path):
            if rel not in _SCRATCH:
                problem = self.problem(rel)
                if problem is not None:
                    return problem
        return None


def _listing(names: Collection[str]) -> str:
    shown = sorted(names)[:_LISTED]
    more = f" and {len(names) - _LISTED} more" if len(names) > _LISTED else ""
    return ", ".join(shown) + more


_KINDS: Final[tuple[Kind, ...]] = ("run", "score", "demo", "packets", "report", "partial")
_SHA256: Final = re.compile(r"^[0-9a-f]{64}$")
MAX_MARKER_BYTES: Final = 4 * MIB
"""A marker: a few hundred entries of a hundred bytes each, far below this."""


@dataclass(frozen=True, slots=True)
class Marker:
    kind: Kind
    entries: Entries | None
    """None: an older version's marker, which lists nothing (ownership is judged by contents)."""


def _entry(value: object) -> Entry | None:
    if not isinstance(value, dict):
        return None
    kind, sha, size = value.get("kind"), value.get("sha256", ""), value.get("size", 0)
    if kind == "dir" and set(value) == {"kind"}:
        return Entry("dir")
    if (
        kind == "file"
        and set(value) == {"kind", "sha256"}
        and isinstance(sha, str)
        and _SHA256.match(sha)
    ):
        return Entry("file", sha)
    if (
        kind == "appended"
        and set(value) == {"kind", "sha256", "size"}
        and isinstance(sha, str)
        and _SHA256.match(sha)
        and isinstance(size, int)
        and not isinstance(size, bool)
        and size >= 0
    ):
        return Entry("appended", sha, size)
    return None


def read_marker(path: Path) -> Marker | None:
    """The folder's marker, strictly: anything not exactly a marker the kit writes is None."""
    try:
        data = read_bounded(path / MARKER, MAX_MARKER_BYTES)
    except InputError:
        return None
    for kind in _KINDS:
        if data == marker_bytes(kind):
            return Marker(kind, None)
    try:
        value = json_object(data, str(path / MARKER))
    except InputError:
        return None
    listed = value.get("entries")
    said: Kind | None = next((k for k in _KINDS if k == value.get("kind")), None)
    if (
        set(value) != {"kind", "made_by", "entries"}
        or value.get("made_by") != "honesty_pressure"
        or said is None
    ):
        return None
    if not isinstance(listed, dict):
        return None
    entries: Entries = {}
    for rel, item in listed.items():
        entry = _entry(item)
        if entry is None or not _safe_rel(rel):
            return None
        entries[rel] = entry
    marker = Marker(said, entries)
    return marker if data == marker_bytes(marker.kind, entries) else None


def _safe_rel(rel: str) -> bool:
    parts = rel.split("/")
    return bool(rel) and all(part not in ("", ".", "..") for part in parts) and rel != MARKER


def unchanged_problem(folder: Path, kind: Kind) -> str | None:
    """Why `folder` is not, byte for byte, a `kind` folder as the kit wrote it (its marker of that
    kind lists every entry, each unchanged), or None: how a partial proves itself to a merge."""
    marker = read_marker(folder)
    if marker is None or marker.entries is None or marker.kind != kind:
        return (
            f"has no {MARKER} marker of a {kind} folder listing its files (not written by this "
            "kit?)"
        )
    for rel in _existing_entries(folder):
        if rel not in _SCRATCH:
            problem = entry_problem(folder, rel, marker.entries.get(rel))
            if problem is not None:
                return f"holds {problem}"
    missing = [rel for rel in sorted(marker.entries) if not os.path.lexists(folder / rel)]
    if missing:
        return f"lacks {missing[0]}, which the kit wrote there"
    return None


def file_sha256(path: Path, limit: int | None = None) -> str | None:
    """SHA-256 of a regular file (of its first `limit` bytes), read without following a link;
    None if it is not a regular file or is shorter than `limit`."""
    try:
        fd = os.open(
            path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0)
        )
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        digest = hashlib.sha256()
        left = limit
        while left is None or left > 0:
            chunk = os.read(fd, 1 << 20 if left is None else min(1 << 20, left))
            if not chunk:
                break
            digest.update(chunk)
            if left is not None:
                left -= len(chunk)
        if left:
            return None
        return digest.hexdigest()
    except OSError:
        return None
    finally:
        os.close(fd)


def entry_problem(root: Path, rel: str, entry: Entry | None) -> str | None:
    """Why the entry `rel` of a kit folder is not provably the kit's, or None if it is: listed in
    the marker, of the listed kind, with the listed content."""
    path = root / rel
    if entry is None:
        return f"{rel}, which the kit did not write"
    try:
        info = os.lstat(path)
    except OSError:
        return None  # gone: nothing there to lose
    if entry.kind == "dir":
        return (
            None
            if stat.S_ISDIR(info.st_mode)
            else f"{rel}, which is no longer the folder the kit made"
        )
    if not stat.S_ISREG(info.st_mode):
        return f"{rel}, which is no longer the file the kit wrote"
    sha = file_sha256(path, entry.size if entry.kind == "appended" else None)
    if sha != entry.sha256:
        return f"{rel}, changed since the kit wrote it"
    return None


def _legacy_kind(path: Path, names: list[str]) -> Kind | None:
    """A folder an older version wrote (no marker): only kit file names, and a kit run.json or
    summary.json."""
    from .store import read_json

    visible = [n for n in names if not n.startswith(".")]
    if not visible or not all(_KIT_NAMES.match(n) for n in visible):
        return None
    try:
        if "run.json" in visible:
            info = read_json(path / "run.json")
            if not (isinstance(info.get("run_set"), str) and "kit_version" in info):
                return None
            return "demo" if _kind_fits(path, "demo", visible) else "run"
        if "summary.json" in visible:
            provenance = read_json(path / "summary.json").get("provenance")
            return "score" if isinstance(provenance, dict) and "kit_version" in provenance else None
    except Exception:  # noqa: BLE001 - any unreadable file means "not recognisably ours"
        return None
    return None


def _made_by(folder: Path) -> str | None:
    """The command that made a run folder, as its commands.jsonl records it first (`advance`,
    `run`, `demo`), or None when there is none to read (a run made in Python, an older one)."""
    try:
        with open_regular(folder / "commands.jsonl") as handle:
            first = json.loads(handle.readline(1 << 20))
    except (OSError, InputError, ValueError, RecursionError):
        return None
    step = first.get("step") if isinstance(first, dict) else None
    return step if isinstance(step, str) else None


def _simulated(replies: Path) -> bool:
    """A demo's round-1 replies come from the simulated assistant (how an older demo is known)."""
    try:
        with open_regular(replies) as handle:
            return b'"model":"simulated-assistant"' in handle.readline(1 << 20)
    except (OSError, InputError):
        return False


_CHAIN_ENTRY: Final = re.compile(
    r"^round[0-9]{1,3}(/(run\.json|frozen\.jsonl|round[0-9]{1,3}\.(jsonl|key\.jsonl)))?$"
)


def _unknown_entries(path: Path, names: list[str]) -> tuple[str, ...]:
    """Entries of a kit run or score folder the kit does not write (parents/ looked into too)."""
    unknown = [
        n
        for n in names
        if n not in _SCRATCH
        and not (_KIT_NAMES.match(n) and (n == "parents" or _lstat_regular(path / n)))
    ]
    chain = path / "parents"
    if "parents" in names:
        if chain.is_symlink() or not is_dir(chain):
            unknown.append("parents")
        else:
            for folder, dirs, files in os.walk(chain, followlinks=False):
                base = Path(folder).relative_to(chain)
                for name in dirs + files:
                    rel = (base / name).as_posix()
                    if not _CHAIN_ENTRY.match(rel) or (
                        name in files and not is_file(Path(folder) / name)
                    ):
                        unknown.append(f"parents/{rel}")
    return tuple(sorted(unknown))


def _lstat_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _content_kind(names: Collection[str]) -> tuple[Kind, ...]:
    """The kinds an older version's folder may be, judged by its files (a marker copied from
    another kind of folder does not make a run a score)."""
    if "run.json" in names:
        return ("run", "demo")
    if "round1.requests.jsonl" in names:
        return ("run",)  # a run `run` has started: its requests, perhaps replies, no run.json yet
    if "partial.json" in names:
        return ("partial",)
    if "regress.json" in names or "compare.json" in names:
        return ("report",)
    if "summary.json" in names:
        return ("score",)
    return ()


def _kind_fits(path: Path, kind: Kind, names: Collection[str]) -> bool:
    """A marker's kind is a claim; the folder's files must bear it out (a run is never taken for a
    demo, a score, a report or a partial because its marker was edited)."""
    if kind == "packets":
        return True
    if kind not in _content_kind(names):
        return False
    if kind == "demo" and "request.json" in names:
        return False  # written by `run` alone (runs/run.py's REQUEST_FILE), before its requests
    if kind == "demo" and _made_by(path) not in (None, "demo"):
        return False  # the kit recorded another command (run, advance) as the folder's maker
    if kind in ("run", "demo") and "round1.replies.jsonl" in names:
        return _simulated(path / "round1.replies.jsonl") == (kind == "demo")
    return kind != "demo"


def _unlisted(path: Path, entries: Entries) -> tuple[str, ...]:
    """Entries of the folder its marker does not list (a folder not listed is named, not
    looked into)."""
    out: list[str] = []
    for rel in _existing_entries(path):
        if rel in _SCRATCH or any(rel.startswith(f"{o}/") for o in out):
            continue
        if rel not in entries:
            out.append(rel)
    return tuple(out)


def _packets_kind(path: Path, names: list[str]) -> bool:
    """Only layer folders holding packet files (and a manifest): a folder `prepare` wrote."""
    visible = [n for n in names if not n.startswith(".")]
    layers = [n for n in visible if n in _LAYERS]
    if not layers or any(n not in (*_LAYERS, MANIFEST_NAME) for n in visible):
        return False
    for layer in layers:
        folder = path / layer
        if folder.is_symlink() or not is_dir(folder):
            return False
        inner = {n for n in os.listdir(folder) if not n.startswith(".")}
        if not inner or not inner <= _LAYER_FILES:
            return False
    return True


def inspect_target(path: Path) -> Existing:
    """What is at `path` (a target_path); a link, a file or a foreign folder is an OutputError."""
    where = str(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return Existing(path, "absent")
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=where) from None
    if stat.S_ISLNK(info.st_mode):
        raise OutputError(
            "is a symbolic link; the kit never writes through one (give a new folder)", file=where
        )
    if stat.S_ISREG(info.st_mode):
        raise OutputError("is a file, not a folder; the kit will not replace it", file=where)
    if not stat.S_ISDIR(info.st_mode):
        raise OutputError("is not a folder", file=where)
    try:
        names = os.listdir(path)
    except OSError as exc:
        raise OutputError(f"cannot list it: {exc.strerror or exc}", file=where) from None
    if not names:
        return Existing(path, "empty")
    marker = read_marker(path) if MARKER in names else None
    if marker is not None and marker.entries is not None:
        if not _kind_fits(path, marker.kind, names):
            raise OutputError(
                f"holds a {MARKER} marker saying {marker.kind}, which its files contradict (an "
                "edited or copied marker); the kit only replaces a folder it made: choose a new or "
                "empty folder",
                file=where,
            )
        return Existing(path, "kit", marker.kind, _unlisted(path, marker.entries), marker.entries)
    kind = marker.kind if marker is not None else None
    if kind is not None and not _kind_fits(path, kind, names):
        # An older marker (a kind, no entries) whose kind the files contradict proves nothing: a
        # run whose marker was replaced by a demo's is known by its files, not by the word.
        kind = None
    kind = kind or _legacy_kind(path, names) or ("packets" if _packets_kind(path, names) else None)
    if kind is None:
        raise OutputError(
            f"holds files the kit did not make ({_listing(names)}); the kit only replaces a folder "
            "it made: choose a new or empty folder",
            file=where,
        )
    unknown = _unknown_entries(path, names) if kind != "packets" else ()
    return Existing(path, "kit", kind, unknown)


_KIND_WORDS: Final[dict[Kind, str]] = {
    "run": "a run",
    "score": "round-1 scores",
    "demo": "a demo run",
    "packets": "a packet set",
    "report": "a regress or compare report",
    "partial": "a shard's partial",
}
"""Every kind has its words (a writer pointed at any kit folder says what it holds)."""


def may_write(
    path: Path,
    accept: Collection[str],
    *,
    replace: bool,
    what: str = "",
    committed_packets_ok: bool = False,
) -> Existing:
    """May the kit write this folder? The one check every writing command makes first.

    `accept`: the kinds of kit folder this command may write into; `replace`: the whole folder
    will be replaced, so files the kit did not write must not be in it. Returns what is there;
    anything else is an OutputError, and nothing has been touched.
    """
    target = target_path(path)
    reason = protected_reason(target, committed_packets_ok=committed_packets_ok)
    if reason is not None:
        raise OutputError(reason, file=str(path))
    existing = inspect_target(target)
    if existing.state == "kit" and existing.kind not in accept:
        holds = _KIND_WORDS[existing.kind or "run"]
        raise OutputError(f"holds {holds}{what}; choose another folder", file=str(path))
    if existing.state == "kit" and replace:
        refuse_foreign(existing, str(path))
    return existing


def refuse_foreign(existing: Existing, shown: str) -> None:
    """Refuse to replace a kit folder holding anything the kit cannot prove it wrote."""
    if existing.unknown:
        raise OutputError(
            f"also holds files the kit did not write ({_listing(existing.unknown)}); move them out "
            "first, or choose another folder",
            file=shown,
        )
    problem = existing.first_problem()
    if problem is not None:
        raise OutputError(
            f"holds {problem}; the kit replaces only what it wrote: move it out first, or choose "
            "another folder",
            file=shown,
        )


# --- locks ----------------------------------------------------------------------------------


def _open_dir(path: Path) -> int:
    return os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)


def _flock(fd: int, exclusive: bool) -> None:
    try:
        import fcntl
    except ImportError:  # not a POSIX system: the kit's writing commands need flock
        raise OutputError("writing needs a POSIX system (flock); this one has none") from None
    fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)


def lock_folder(path: Path, *, exclusive: bool, shown: str | None = None) -> int:
    """An open, locked descriptor of the folder now at `path`; BusyError if someone holds it."""
    for _ in range(5):
        try:
            fd = _open_dir(path)
        except OSError as exc:
            raise OutputError(
                f"cannot open the folder: {exc.strerror or exc}", file=shown or str(path)
            ) from None
        try:
            _flock(fd, exclusive)
        except OutputError:
            os.close(fd)
            raise
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                # A writer is refused by any holder; a reader only by a writer.
                holder = "writing or reading" if exclusive else "writing"
                raise BusyError(
                    f"another command is {holder} this folder right now; nothing was changed: try "
                    "again when it has finished",
                    file=shown or str(path),
                ) from None
            raise OutputError(
                f"cannot lock the folder: {exc.strerror or exc}", file=shown or str(path)
            ) from None
        # The folder may have been swapped between open and lock: hold the one at the path now.
        try:
            now = os.lstat(path)
        except OSError:
            now = None
        held = os.fstat(fd)
        if now is not None and (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
            return fd
        os.close(fd)
    raise BusyError(
        "another command keeps replacing this folder; try again later", file=shown or str(path)
    )


@contextlib.contextmanager
def reading(path: Path) -> Iterator[None]:
    """Hold a shared lock on a folder being read (a run being checked and scored), if it is one."""
    try:
        fd = lock_folder(target_path(path), exclusive=False, shown=str(path))
    except BusyError:
        raise
    except OutputError:
        yield  # not a folder we can open: the read itself will say what is wrong
        return
    try:
        yield
    finally:
        os.close(fd)


# --- staging and the swap -------------------------------------------------------------------


def _sibling_prefix(target: Path) -> str:
    """`.<name>.<hash>.hp-`: short enough for any name, and unique to this target."""
    name = target.name
    tag = hashlib.sha256(os.fsencode(name)).hexdigest()[:8]
    return f".{name[:40]}.{tag}.hp-"


_RENAMEAT2: Callable[[int, bytes, int, bytes, int], int] | None | bool = False


def _renameat2() -> Callable[[int, bytes, int, bytes, int], int] | None:
    global _RENAMEAT2
    if _RENAMEAT2 is False:
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            function = getattr(libc, "renameat2", None)
            if function is not None:
                function.argtypes = [
                    ctypes.c_int,
                    ctypes.c_char_p,
                    ctypes.c_int,
                    ctypes.c_char_p,
                    ctypes.c_uint,
                ]
                function.restype = ctypes.c_int
            _RENAMEAT2 = function
        except (ImportError, OSError, AttributeError):
            _RENAMEAT2 = None
    return _RENAMEAT2 if callable(_RENAMEAT2) else None


_AT_FDCWD: Final = -100
_RENAME_EXCHANGE: Final = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux); False where the system cannot."""
    function = _renameat2()
    if function is None:
        return False
    import ctypes

    if function(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err))


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_new(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _keep(source: Path, staging: Path, rel: str) -> None:
    """Carry one existing entry into the staging folder: a hard link (files are never changed in
    place, so sharing them is safe), a copy where links are not possible, a link as a link."""
    src, dst = source / rel, staging / rel
    info = os.lstat(src)
    if stat.S_ISLNK(info.st_mode):
        os.symlink(os.readlink(src), dst)
    elif stat.S_ISDIR(info.st_mode):
        os.mkdir(dst)
    else:
        try:
            os.link(src, dst, follow_symlinks=False)
        except OSError:
            shutil.copy2(src, dst, follow_symlinks=False)


def _existing_entries(root: Path) -> list[str]:
    """Relative paths of everything below root, folders before what they hold (no link followed)."""
    out = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        base = Path(folder).relative_to(root)
        out += [(base / d).as_posix() for d in sorted(dirs)]
        out += [(base / f).as_posix() for f in sorted(files)]
    return sorted(out, key=lambda rel: (rel.count("/"), rel))


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        shutil.rmtree(path)


class FolderWriter:
    """Writes whole sets of files into one folder, holding its lock from first to last commit.
    Made by `open_writer`, which checks the folder first."""

    def __init__(self, shown: Path, existing: Existing) -> None:
        self.shown = shown
        self.existing = existing
        self.target = existing.path
        self.parent = existing.path.parent
        self.prefix = _sibling_prefix(existing.path)
        self.fd: int | None = None
        if existing.state != "absent":
            self.fd = lock_folder(self.target, exclusive=True, shown=str(shown))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> FolderWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _oserror(self, exc: OSError) -> OutputError:
        return OutputError(
            f"cannot write here: {exc.strerror or exc}; nothing was changed", file=str(self.shown)
        )

    def own_appended(self, rel: str, upto: int | None = None) -> None:
        """Record in the marker that the kit appends to `rel` (a runner's replies), with what it
        holds now (its first `upto` bytes, never less than recorded before): what a runner adds
        is the kit's too, so `--force` may replace it, and what is recorded is checked before it
        is read back (`check_appended`). A file already there that the kit did not write stays
        the user's."""
        marker = read_marker(self.target)
        if marker is None or marker.entries is None:
            return
        listed = marker.entries.get(rel)
        path = self.target / rel
        if os.path.lexists(path) and (
            listed is None
            or listed.kind != "appended"
            or entry_problem(self.target, rel, listed) is not None
        ):
            return
        held = None if upto is None else max(upto, listed.size if listed is not None else 0)
        entry = (
            appended_entry(path, held)
            if os.path.lexists(path)
            else Entry("appended", hashlib.sha256(b"").hexdigest(), 0)
        )
        if entry is None or entry == listed:
            return
        entries = {**marker.entries, rel: entry}
        _replace_marker(self.target, marker_bytes(marker.kind, entries))
        self.existing = dataclass_replace(self.existing, entries=entries)

    def check_appended(self, rel: str) -> None:
        """`check_appended` of this folder (under its lock)."""
        check_appended(self.target, rel)

    def commit(self, files: dict[str, bytes], kind: Kind | None, *, keep: bool) -> None:
        """Make the folder hold `files` (plus, with `keep`, every entry it already holds that
        `files` does not replace), all at once. Nothing is changed if this raises."""
        with self.staged(files, kind, keep=keep):
            pass

    @contextlib.contextmanager
    def staged(
        self,
        files: dict[str, bytes],
        kind: Kind | None,
        *,
        keep: bool,
        streamed: Collection[str] = (),
    ) -> Iterator[Stage]:
        """The new set, built in a staging folder beside the target; the caller may add files
        computed from it (a score of the staged run) or stream them in (`streamed` names those,
        so a kept set does not keep the old ones), and leaving the block swaps it in. If the
        block or the swap fails, the staging folder is removed and nothing has changed."""
        made = _missing_parents(self.parent)
        try:
            _step("stage")
            if made:
                os.makedirs(self.parent, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f"{self.prefix}stage-", dir=self.parent))
        except OSError as exc:
            _unmake(made)
            raise self._oserror(exc) from None
        stage = Stage(staging, -1, self.shown)
        leftover: Path | None = staging  # what to remove at the end: the unfinished or the old set
        old_fd = self.fd
        swapped = False
        existing = self.existing
        try:
            try:
                _write_new(staging / MARKER, _staging_marker(self.target.name))
                os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes it private (0700)
                stage.fd = lock_folder(staging, exclusive=True)
                wanted = dict(files)
                wanted.pop(MARKER, None)
                replaced = {*wanted, *streamed}
                if old_fd is not None and existing.state == "kit" and not keep:
                    # Checked again under the lock: nothing the kit cannot prove it wrote is
                    # replaced.
                    refuse_foreign(
                        dataclass_replace(existing, unknown=_current_unknown(existing)),
                        str(self.shown),
                    )
                if keep and old_fd is not None:
                    for rel in _existing_entries(self.target):
                        if rel in _SCRATCH:
                            continue
                        if rel in replaced or any(rel.startswith(f"{w}/") for w in replaced):
                            problem = existing.problem(rel) if existing.state == "kit" else None
                            if problem is not None:
                                raise OutputError(
                                    f"holds {problem}; the kit replaces only what it wrote: move "
                                    "it out first, or choose another folder",
                                    file=str(self.shown),
                                )
                            continue
                        _step(f"keep:{rel}")
                        _keep(self.target, staging, rel)
                        carried = _carried(existing, rel)
                        if carried is not None:
                            stage.written[rel] = carried
                stage.add(wanted)
            except (BusyError, OutputError):
                raise
            except OSError as exc:
                raise self._oserror(exc) from None
            yield stage
            try:
                stage.seal(kind)
                _fsync_dir(staging)
                _step("swap")
                if old_fd is None:
                    try:
                        os.rename(staging, self.target)
                    except OSError as exc:
                        if exc.errno in (
                            errno.EEXIST,
                            errno.ENOTEMPTY,
                            errno.EISDIR,
                            errno.ENOTDIR,
                        ):
                            raise BusyError(
                                "was written by another command meanwhile; nothing of this one was "
                                "written",
                                file=str(self.shown),
                            ) from None
                        raise
                    leftover = None
                else:
                    now, held = os.lstat(self.target), os.fstat(old_fd)
                    if (now.st_dev, now.st_ino) != (held.st_dev, held.st_ino):
                        raise OutputError(
                            "was replaced by something else meanwhile; nothing of this command was "
                            "written",
                            file=str(self.shown),
                        )
                    if not _exchange(staging, self.target):
                        # No one-step swap here: two renames; a crash between them leaves the old
                        # set beside the folder, and the next writer puts it back.
                        old = Path(tempfile.mkdtemp(prefix=f"{self.prefix}old-", dir=self.parent))
                        os.rmdir(old)
                        os.rename(self.target, old)
                        _step("between")
                        try:
                            os.rename(staging, self.target)
                        except OSError:
                            os.rename(old, self.target)
                            raise
                        leftover = old
                self.fd, stage.fd, swapped = stage.fd, -1, True
                self.existing = _after_swap(self.target, self.existing)
            except (BusyError, OutputError):
                raise
            except OSError as exc:
                raise self._oserror(exc) from None
        finally:
            if leftover is not None:
                if swapped:
                    with contextlib.suppress(OSError):  # the new set is in place: never fail now
                        _step("remove-old")
                _remove(leftover)
            if stage.fd >= 0:
                os.close(stage.fd)
            if not swapped:
                _unmake(made)
        if old_fd is not None:
            os.close(old_fd)
        _fsync_dir(self.parent)


_MARKER_NEW: Final = f"{MARKER}.new"
_COPY: Final = f"{MARKER}.copy"
_SCRATCH: Final = (MARKER, _MARKER_NEW, _COPY)
"""The kit's own names in a kit folder that no marker lists: the marker, and the two scratch
files a kill can leave (a marker being replaced, a file being given a copy of its own)."""


def lstat_unlinked(path: Path, shown: str, doing: str = "write here") -> os.stat_result | None:
    """What is at a file target, never through a link: None if nothing; a link is refused."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(f"cannot {doing}: {exc.strerror or exc}", file=shown) from None
    if stat.S_ISLNK(info.st_mode):
        raise OutputError("is a symbolic link; the kit never writes through one", file=shown)
    return info


def unshared(path: Path) -> None:
    """Before the kit appends to or cuts a file: a symbolic link is refused, and a file with
    more than one hard link (a `cp -al` backup of a run) first gets a copy of its own, so the
    other names keep their bytes."""
    info = lstat_unlinked(path, str(path))
    if info is None:
        return
    if not stat.S_ISREG(info.st_mode):
        raise OutputError("is not a regular file; the kit appends only to a file", file=str(path))
    if info.st_nlink <= 1:
        return
    temporary = path.parent / _COPY
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        with open_regular(path) as source:
            fd = os.open(
                temporary,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o666,
            )
            with os.fdopen(fd, "wb") as copy:
                shutil.copyfileobj(source, copy, 1 << 20)
                copy.flush()
                os.fsync(copy.fileno())
        os.replace(temporary, path)
    except (OSError, InputError) as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise OutputError(
            "cannot give this file a copy of its own before appending: "
            f"{getattr(exc, 'strerror', None) or exc}",
            file=str(path),
        ) from None


def _replace_marker(folder: Path, data: bytes) -> None:
    """A new marker, in one rename (a reader sees the old one or the new one)."""
    temporary = folder / _MARKER_NEW
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temporary)
    _write_new(temporary, data)
    os.replace(temporary, folder / MARKER)


def _after_swap(target: Path, before: Existing) -> Existing:
    try:
        return inspect_target(target)
    except OutputError:
        return before


def _current_unknown(existing: Existing) -> tuple[str, ...]:
    """The unlisted entries now (the folder may have gained some since it was first looked at)."""
    if existing.entries is None:
        return existing.unknown
    return _unlisted(existing.path, existing.entries)


def _carried(existing: Existing, rel: str) -> Entry | None:
    """How a kept entry is listed in the new marker: as the old marker listed it (an appended
    file the kit still provably owns with what it holds now), an older version's kit file with
    its content now; None for what the kit did not write (kept, but never its own)."""
    if existing.state != "kit" or existing.kind == "packets":
        return None
    path = existing.path / rel
    if existing.entries is None:
        if existing.problem(rel) is not None:
            return None
        if is_dir(path) and not os.path.islink(path):
            return Entry("dir")
        sha = file_sha256(path)
        return None if sha is None else Entry("file", sha)
    entry = existing.entries.get(rel)
    if (
        entry is not None
        and entry.kind == "appended"
        and entry_problem(existing.path, rel, entry) is None
    ):
        return appended_entry(path) or entry
    return entry


def check_appended(folder: Path, rel: str) -> None:
    """Before the kit reads back a file it appends to (a runner's replies): what the marker
    recorded of it (the SHA-256 of its first `size` bytes, recorded after every call of the
    runner) is still there byte for byte, else an InputError naming the file. A runner error
    edited into an answer would otherwise be read as the model's reply."""
    marker = read_marker(folder)
    listed = None if marker is None or marker.entries is None else marker.entries.get(rel)
    if listed is None or listed.kind != "appended" or not _lstat_regular(folder / rel):
        return  # nothing recorded, or no file: a link or a folder there is refused by name
    if entry_problem(folder, rel, listed) is not None:
        raise InputError(
            f"its first {listed.size:,} bytes changed since the kit recorded what the runner "
            "wrote there (an edited reply is not the model's); put the runner's own lines back, "
            "or start the run over (run --force)",
            file=str(folder / rel),
        )


def appended_entry(path: Path, upto: int | None = None) -> Entry | None:
    """A file the kit appends to, listed with all it holds now (at most its first `upto` bytes)."""
    try:
        size = os.lstat(path).st_size
    except OSError:
        return None
    size = size if upto is None else min(size, upto)
    sha = file_sha256(path, size)
    return None if sha is None else Entry("appended", sha, size)


def _missing_parents(folder: Path) -> list[Path]:
    """The folders that must be made for `folder` to exist, outermost first."""
    missing = []
    while not os.path.lexists(folder) and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing[::-1]


def _unmake(made: list[Path]) -> None:
    """Remove the (still empty) parent folders a failed write made, innermost first."""
    for folder in reversed(made):
        with contextlib.suppress(OSError):
            os.rmdir(folder)


class HashedWriter:
    """The write end of a new file that hashes every byte it writes."""

    __slots__ = ("_handle", "_digest")

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle
        self._digest = hashlib.sha256()

    def write(self, data: bytes | bytearray | memoryview, /) -> int:
        self._digest.update(data)
        return self._handle.write(data)

    def sha256(self) -> str:
        return self._digest.hexdigest()


class Stage:
    """A staging folder being filled (owned by FolderWriter.staged)."""

    def __init__(self, path: Path, fd: int, shown: Path) -> None:
        self.path = path
        self.fd = fd
        self.shown = shown
        self.written: Entries = {}
        """Every entry the kit put here (kept ones that were provably its own included): what
        the marker will list."""

    def seal(self, kind: Kind | None) -> None:
        """Write the marker listing every entry the kit put here (the last step before the
        swap), or, for a folder without one (a packet set), remove the staging token."""
        if kind is None:
            os.unlink(self.path / MARKER)
            return
        _replace_marker(
            self.path,
            marker_bytes(
                kind,
                {rel: e for rel, e in self.written.items() if os.path.lexists(self.path / rel)},
            ),
        )

    @contextlib.contextmanager
    def stream(self, rel: str) -> Iterator[HashedWriter]:
        """A new file in the staging folder (a top-level name), written as it is produced: the
        output of a score too large to hold. Swapped in with the rest, or removed with it. Its
        digest is taken from the bytes as they are written (reading a million-reply score's
        1.3 GB back cost it about a second); the file was made here with O_EXCL in a folder only
        the kit writes to, so what it holds is what went through the writer."""
        try:
            _step(f"write:{rel}")
            fd = os.open(
                self.path / rel,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o666,
            )
            handle = os.fdopen(fd, "wb", buffering=1 << 20)
        except OSError as exc:
            raise OutputError(
                f"cannot write here: {exc.strerror or exc}; nothing was changed",
                file=str(self.shown),
            ) from None
        writer = HashedWriter(handle)
        try:
            with handle:
                yield writer
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise OutputError(
                f"cannot write here: {exc.strerror or exc}; nothing was changed",
                file=str(self.shown),
            ) from None
        self.written[rel] = Entry("file", writer.sha256())

    def add(self, files: dict[str, bytes]) -> None:
        """Write files (relative paths) into the staging folder; each is new, written whole."""
        try:
            for rel in sorted(files):
                parts = rel.split("/")[:-1]
                for depth in range(1, len(parts) + 1):
                    folder = "/".join(parts[:depth])
                    if not os.path.lexists(self.path / folder):
                        os.mkdir(self.path / folder)
                        self.written[folder] = Entry("dir")  # a folder the kit made for its files
            for rel, data in sorted(files.items()):
                _step(f"write:{rel}")
                _write_new(self.path / rel, data)
                self.written[rel] = Entry("file", hashlib.sha256(data).hexdigest())
        except OSError as exc:
            raise OutputError(
                f"cannot write here: {exc.strerror or exc}; nothing was changed",
                file=str(self.shown),
            ) from None


def _clear_stale(target: Path, shown: Path) -> None:
    """Remove what a killed writer left beside the target, or put back an old set it lost between
    two renames. A staging or old folder that is still locked belongs to a live writer."""
    prefix = _sibling_prefix(target)
    try:
        names = sorted(n for n in os.listdir(target.parent) if n.startswith(prefix))
    except OSError:
        return
    for name in names:
        path = target.parent / name
        try:
            fd = lock_folder(path, exclusive=True)
        except BusyError:
            raise BusyError(
                "another command is writing this folder right now; nothing was changed: try again "
                "when it has finished",
                file=str(shown),
            ) from None  # its staging folder is locked
        except OutputError:
            continue
        try:
            if not _provably_debris(path, target.name):
                # not provably the kit's: left exactly as it is (never moved, never removed)
                continue
            _step(f"stale:{name}")
            if name.startswith(f"{prefix}old-") and not os.path.lexists(target):
                os.rename(path, target)
            else:
                shutil.rmtree(path)
        except OSError:
            pass
        finally:
            os.close(fd)


def _provably_debris(path: Path, target: str) -> bool:
    """A staging folder holding the kit's staging token for this target, or a whole kit folder
    (an old set lost between two renames) every entry of which its marker lists, unchanged."""
    try:
        if read_bounded(path / MARKER, MAX_MARKER_BYTES) == _staging_marker(target):
            return True
    except InputError:
        pass  # no token (a packet set has no marker) or an odd one: judged as a folder below
    try:
        existing = inspect_target(path)
    except OutputError:
        return False
    if existing.state != "kit" or existing.entries is None:
        return existing.state == "kit" and not existing.unknown
    return not existing.unknown and existing.first_problem() is None


def open_writer(
    path: Path,
    accept: Collection[str],
    *,
    replace: bool,
    what: str = "",
    committed_packets_ok: bool = False,
) -> FolderWriter:
    """may_write, then lock: the writer for a folder this command may write."""
    target = target_path(path)
    reason = protected_reason(target, committed_packets_ok=committed_packets_ok)
    if reason is not None:
        raise OutputError(reason, file=str(path))
    _clear_stale(target, path)
    return FolderWriter(
        path,
        may_write(
            path, accept, replace=replace, what=what, committed_packets_ok=committed_packets_ok
        ),
    )


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
