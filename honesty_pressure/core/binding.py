"""Exported ids bind a packet to its packet set, so a reply to another seed's packets is rejected.

An exported id is `<packet_id>_<packet_set>` (and `_s<k>` for the k-th extra sample), which fits
Anthropic's `^[A-Za-z0-9_-]{1,64}$`. Packet ids never contain `_`, so the split is unambiguous.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

ID_RE: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_BOUND: Final = re.compile(
    r"^(?P<packet>[A-Za-z0-9-]+)_(?P<set>[0-9a-f]{12})(?:_s(?P<sample>[1-9][0-9]{0,3}))?$"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class BoundId:
    packet_id: str
    packet_set: str | None
    sample: int | None


def bind(packet_id: str, packet_set: str, sample: int = 0) -> str:
    suffix = f"_s{sample}" if sample else ""
    out = f"{packet_id}_{packet_set}{suffix}"
    if not ID_RE.match(out):
        raise ValueError(f"exported id {out!r} does not fit {ID_RE.pattern}")
    return out


def split_ref(ref: str) -> tuple[str, str | None, int | None]:
    """(packet id, packet set, sample) of an id read from a reply file: `unbind` without building
    an object, for the scorer's inner loop. A bare packet id (never holding "_") has neither."""
    match = _BOUND.match(ref) if "_" in ref else None
    if match is None:
        return ref, None, None
    sample = match.group("sample")
    return match.group("packet"), match.group("set"), int(sample) if sample else 0


def unbind(ref: str) -> BoundId:
    """Split an id read from a reply file; a bare packet id has no set and no sample."""
    packet_id, packet_set, sample = split_ref(ref)
    return BoundId(packet_id=packet_id, packet_set=packet_set, sample=sample)
