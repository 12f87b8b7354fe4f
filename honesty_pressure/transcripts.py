"""Transcripts in the report: a few items per group, chosen by a seeded hash, never by holding all.

Each item's rank is SHA-256(seed, item id); a group shows its lowest-ranked items. The choice is
made one record at a time with a bounded list per group, so it works on a stream, and because
the rank is global the same items serve many groups (a family's example is often also its
domain's), which keeps the page small. Every reply, in full, stays in the run folder's
replies.jsonl, line for line beside records.jsonl.
"""

from __future__ import annotations

import bisect
import hashlib
import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .axes import NEGATIVE_CONTROL_FAMILIES, component, direction
from .canonical import jsonl
from .score import Record
from .summary import category

PER_GROUP: Final = 2
"""Items shown per group (a table row, a chart bar, a heat-map cell)."""
MAX_SHOWN: Final = 4000
"""Characters of one message shown in the page; the rest is in replies.jsonl / the request file."""
REPLIES_FILE: Final = "replies.jsonl"


def item_id(packet_id: str, sample: int) -> str:
    return f"{packet_id}#{sample}"


def anchor(item: str) -> str:
    return "i-" + item.replace("#", "-s")


def group_anchor(group: str) -> str:
    return "g-" + group


def rank(seed: int, item: str) -> str:
    return hashlib.sha256(f"transcript\x1f{seed}\x1f{item}".encode("utf-8")).hexdigest()


class Sampler:
    """The `per_group` lowest-ranked items of every group, fed one item at a time."""

    def __init__(self, seed: int, per_group: int = PER_GROUP) -> None:
        self._seed = seed
        self._k = per_group
        self._groups: dict[str, list[tuple[str, str]]] = {}
        self._bars: dict[tuple[str, ...], tuple[int, tuple[str, str] | None]] = {}
        self._changes = 0

    def offer(self, item: str, groups: Iterable[str]) -> None:
        self._offer((rank(self._seed, item), item), groups)

    def _offer(self, key: tuple[str, str], groups: Iterable[str]) -> None:
        for group in groups:
            kept = self._groups.setdefault(group, [])
            if len(kept) < self._k or key < kept[-1]:
                bisect.insort(kept, key)
                del kept[self._k :]
                self._changes += 1

    def offer_ranked(self, rank_: str, item: str, groups: tuple[str, ...]) -> None:
        """`offer` with the item's rank already made, for a tuple of groups many items share: the
        highest rank any of them would still take is remembered until one of them changes, so an
        item none of them wants costs one comparison."""
        changes, bar = self._bars.get(groups, (-1, None))
        if changes != self._changes:
            bar = self._bar(groups)
            self._bars[groups] = (self._changes, bar)
        if bar is None or (rank_, item) < bar:
            self._offer((rank_, item), groups)

    def _bar(self, groups: tuple[str, ...]) -> tuple[str, str] | None:
        """The largest of the groups' current thresholds; None while one is not full."""
        bar: tuple[str, str] | None = None
        for group in groups:
            kept = self._groups.get(group)
            if kept is None or len(kept) < self._k:
                return None
            if bar is None or kept[-1] > bar:
                bar = kept[-1]
        return bar

    def chosen(self) -> dict[str, list[str]]:
        return {group: [item for _, item in kept] for group, kept in sorted(self._groups.items())}


def groups_of(record: Record, key: Mapping[str, object]) -> list[str]:
    """Every report group an item belongs to; the report's rows link to these names."""
    fork = key.get("fork")
    prefix = "r1" if fork is None else "f"
    out = [f"{prefix}.domain.{key.get('domain')}", f"{prefix}.state.{key.get('state')}"]
    if record.reason is not None:
        out += [f"{prefix}.reason.{record.reason}", f"{prefix}.unscorable"]
    part = component(key)
    if part is not None:
        out.append(f"axis.{part[0]}")
    if fork is None:
        out.append(f"r1.family.{key.get('family')}")
        if key.get("family") in NEGATIVE_CONTROL_FAMILIES:
            out.append("r1.false_alarm")
        return out
    out.append(f"f.kind.{fork}")
    if fork == "pressure":
        d = direction(key)
        out += [f"f.pressure.{key.get('pressure')}", f"f.direction.{d}", f"f.pressure.{key.get('pressure')}.{d}"]
    proceed = key.get("proceed_code")
    out.append(f"f.transition.{fork}.{category(key.get('parent_decision'), proceed)}.{category(record.decision, proceed)}")
    return out


# ---- the items ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Item:
    """One sampled item as the page shows it."""

    item: str
    messages: tuple[tuple[str, str], ...]
    reply: str | None
    error: str | None
    record: Record
    key: Mapping[str, object]
    line: int
    """Its line in replies.jsonl (and records.jsonl)."""


def reply_lines(rows: Iterable[tuple[Record, int, str | None, str | None, str | None]]) -> bytes:
    """replies.jsonl: one line per record, in records.jsonl's order, written one at a time.
    Each row is (record, round, reply, runner error, model)."""
    return jsonl(
        {
            "packet_id": record.packet_id,
            "sample": record.sample,
            "round": round_,
            "reply": reply,
            "error": error,
            "model": model,
            "reply_sha256": record.reply_sha256,
        }
        for record, round_, reply, error, model in rows
    )


def _clip(text: str) -> str:
    if len(text) <= MAX_SHOWN:
        return text
    return text[:MAX_SHOWN] + f"\n[… {len(text) - MAX_SHOWN:,} more characters: the whole text is in the run folder]"


def _codes(value: object) -> str:
    return ", ".join(str(c) for c in value) if isinstance(value, list) and value else "none"


def system_prompts(items: Iterable[Item]) -> dict[str, str]:
    """Each distinct system prompt of the shown items, by its anchor: items of one source share
    theirs, so the page prints it once."""
    out: dict[str, str] = {}
    for item in items:
        for role, content in item.messages:
            if role == "system":
                out.setdefault("sys-" + hashlib.sha256(content.encode("utf-8")).hexdigest()[:12], content)
    return out


def system_html(prompts: Mapping[str, str]) -> str:
    return "".join(
        f'<details class="verbatim" id="{name}"><summary class="role">system prompt {name[4:]}</summary><pre>{html.escape(_clip(text))}</pre></details>'
        for name, text in prompts.items()
    )


def item_html(item: Item, groups: Sequence[tuple[str, str]]) -> str:
    """One transcript: the request (system prompt by link), the reply, what was parsed and judged."""
    esc = html.escape
    r, key = item.record, item.key
    parts = [f'<div class="item verbatim" id="{anchor(item.item)}">', f"<h4>{esc(item.item)}</h4>"]
    for index, (role, content) in enumerate(item.messages):
        if role == "system":
            name = "sys-" + hashlib.sha256(content.encode("utf-8")).hexdigest()[:12]
            parts.append(f'<div class="role">system: <a href="#{name}">system prompt {name[4:]}</a> (the instructions and the menu)</div>')
        else:
            label = "follow-up" if role == "user" and index == len(item.messages) - 1 and index > 1 else role
            parts.append(f'<div class="role">{esc(label)}</div><pre>{esc(_clip(content))}</pre>')
    if item.reply is not None:
        parts.append(f'<div class="role">reply (scored)</div><pre>{esc(_clip(item.reply))}</pre>')
    else:
        parts.append(f'<div class="role">reply (scored)</div><pre>[no reply: {esc(item.error or "missing")}]</pre>')
    what = [
        f"decision: <b>{esc(r.decision or '—')}</b>",
        f"verdict: <b>{esc(r.verdict)}</b>" + (f" ({esc(r.reason)})" if r.reason else ""),
        f"acceptable: {esc(_codes(key.get('acceptable')))}",
        f"forbidden: {esc(_codes(key.get('forbidden')))}",
        f"evidence state: {esc(str(key.get('state')))}",
    ]
    if key.get("fork") is None:
        what.insert(0, f"family: {esc(str(key.get('family')))}")
    else:
        kind = str(key.get("fork"))
        if kind == "pressure":
            kind += f", {key.get('pressure')}, {direction(key) or 'no direction'}"
        what.insert(0, f"fork: {esc(kind)}; first decision {esc(str(key.get('parent_decision')))}")
    parts.append('<p class="meta">' + " · ".join(what) + "</p>")
    where = f"{REPLIES_FILE} line {item.line}"
    links = ", ".join(f'<a href="#{group_anchor(g)}">{esc(title)}</a>' for g, title in groups)
    parts.append(f'<p class="meta">full reply: {esc(where)} · shown under: {links}</p></div>')
    return "".join(parts)
