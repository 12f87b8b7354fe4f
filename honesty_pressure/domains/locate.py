"""Where a field of a domain file is: the line of every table, key and list item, found by reading
the TOML text line by line (the TOML reader keeps no positions).

It reads the kit's own plain style (docs/CONTRIBUTING.md): one `key = value` per line, `[table]`
and `[[array]]` headers, lists of strings one item a line. Anything else is still read right by
the TOML reader; a problem in it is then placed at the nearest line this finds (the key or table
it is in), never at a wrong one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

Path = tuple[str | int, ...]
"""A field's place in the document: table names, keys and list indexes, outermost first."""

_HEADER: Final = re.compile(r"\s*(\[\[?)\s*([A-Za-z0-9_.\- ]+?)\s*\]\]?\s*(#.*)?$")
_KEY: Final = re.compile(r"\s*([A-Za-z0-9_\-]+)\s*=\s*(.*)$")
_ITEM: Final = re.compile(r"\s*(\"|'|\{)")


@dataclass(slots=True)
class Lines:
    """The first line of every place found in one file (1-based)."""

    at: dict[Path, int] = field(default_factory=dict)

    def line(self, path: Path) -> int | None:
        """The line of `path`, else of the nearest enclosing place found, else None."""
        for end in range(len(path), 0, -1):
            found = self.at.get(path[:end])
            if found is not None:
                return found
        return None


def _quotes_open(text: str, inside: str | None) -> str | None:
    """Which multi-line string (''' or \"\"\") is still open after `text`, given the one open before
    it (None: none)."""
    pos = 0
    while True:
        if inside is not None:
            end = text.find(inside, pos)
            if end < 0:
                return inside
            pos, inside = end + 3, None
            continue
        starts = [(text.find(q, pos), q) for q in ("'''", '"""') if text.find(q, pos) >= 0]
        if not starts:
            return None
        start, quote = min(starts)
        pos, inside = start + 3, quote


def _within(names: list[str], counts: dict[str, int]) -> Path:
    """A [table]'s place: [fact.says] or [fact.show.words] after [[fact]] is in the latest fact."""
    for end in range(len(names) - 1, 0, -1):
        parent = ".".join(names[:end])
        if parent in counts:
            return (*names[:end], counts[parent], *names[end:])
    return tuple(names)


def locate(text: str) -> Lines:
    """The lines of the tables, keys and list items of a domain file's text."""
    lines = Lines()
    counts: dict[str, int] = {}
    table: Path = ()
    inside: str | None = None
    items: Path | None = None
    count = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if inside is not None:
            inside = _quotes_open(line, inside)
            continue
        header = _HEADER.match(line)
        key = _KEY.match(line)
        if header is not None and key is None:
            items = None
            names = [n.strip() for n in header.group(2).split(".")]
            if header.group(1) == "[[":
                name = ".".join(names)
                counts[name] = counts.get(name, -1) + 1
                table = (*names, counts[name])
            else:
                table = _within(names, counts)
            lines.at.setdefault(table, number)
            continue
        if key is not None:
            place = (*table, key.group(1))
            lines.at.setdefault(place, number)
            value = key.group(2)
            items, count = None, 0
            if value.startswith("[") and "]" not in value.split("#")[0]:
                items = place
            inside = _quotes_open(value, None)
            continue
        if items is not None:
            if line.strip().startswith("]"):
                items = None
            elif _ITEM.match(line):
                lines.at.setdefault((*items, count), number)
                count += 1
                inside = _quotes_open(line, None)
    return lines
