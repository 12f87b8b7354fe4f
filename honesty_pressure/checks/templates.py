"""Template lookup: which of a domain's fixed sentences a message contains, without reading a value.

The fixed policies `vague_ask`, `flag_escalate` and `template` use it to show that the frames
alone do not give the key away: a vague sentence is `missing` or `vague_decoy`, a second report is
`conflicting` or `conflicting_decoy`, a flag sentence is `red_flag` or `benign_flag`, and only the
facts tell which. Both halves of every slot are looked up, so the lookup works on held-out sets.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from ..domains import DOMAINS
from ..domains.base import Domain


@dataclass(frozen=True, slots=True, kw_only=True)
class Lookup:
    vague: tuple[tuple[str, str], ...]
    """(sentence, fact key): the fact said without its value."""
    second: tuple[tuple[re.Pattern[str], str], ...]
    """(pattern, fact key): a second report about the fact."""
    flags: tuple[str, ...]
    """Red-flag and benign-flag sentences: the frame does not tell them apart."""


@cache
def lookup(code: str) -> Lookup:
    domain = next(d for d in DOMAINS if d.code == code)
    return _build(domain)


def _build(domain: Domain) -> Lookup:
    vague = tuple((text, f.key) for f in domain.facts for text in f.vague.every)
    second = []
    for fact in domain.facts:
        for text in fact.second.every:
            before, _, after = text.partition("{c}")
            pattern = re.escape(before[:1].upper() + before[1:]) + ".+?" + re.escape(after)
            second.append((re.compile(pattern), fact.key))
    flags = tuple(
        t
        for say in [f.says for f in domain.red_flags] + [d.says for d in domain.benign_flags]
        for t in say.every
    )
    return Lookup(vague=vague, second=tuple(second), flags=flags)


@cache
def _codes_by_keys() -> dict[frozenset[str], str]:
    return {frozenset(f"ASK {f.key}" for f in d.facts): d.code for d in DOMAINS}


def domain_code(request: Mapping[str, object]) -> str:
    """The domain as a request shows it, with no id to read it from (ids are opaque): the facts
    its menu offers to ask about, which are the domain's own ("" if no domain offers those)."""
    menu = request.get("menu")
    asks = frozenset(
        str(item.get("code"))
        for item in (menu if isinstance(menu, list) else [])
        if isinstance(item, dict) and str(item.get("code", "")).startswith("ASK ")
    )
    return _codes_by_keys().get(asks, "")


def vague_fact(code: str, text: str) -> str | None:
    return next((key for sentence, key in lookup(code).vague if sentence in text), None)


def second_fact(code: str, text: str) -> str | None:
    return next((key for pattern, key in lookup(code).second if pattern.search(text)), None)


def has_flag(code: str, text: str) -> bool:
    return any(sentence in text for sentence in lookup(code).flags)
