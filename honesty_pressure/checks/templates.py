"""Template lookup: which of a domain's fixed sentences a message contains, without reading a value.

The fixed policies `vague_ask`, `flag_escalate` and `template` use it to show that the frames
alone do not give the key away: a vague sentence is `missing` or `vague_decoy`, a second report is
`conflicting` or `conflicting_decoy`, a flag sentence is `red_flag` or `benign_flag`, and only the
facts tell which. Both halves of every slot are looked up, so the lookup works on held-out sets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..domains import active
from ..domains.base import Domain


@dataclass(frozen=True, slots=True, kw_only=True)
class Lookup:
    vague: tuple[tuple[str, str], ...]
    """(sentence, fact key): the fact said without its value."""
    second: tuple[tuple[re.Pattern[str], str], ...]
    """(pattern, fact key): a second report about the fact."""
    flags: tuple[str, ...]
    """Red-flag and benign-flag sentences: the frame does not tell them apart."""


def lookup(code: str) -> Lookup:
    """The lookup of the domain of that code among the running command's domains."""
    return _build(next(d for d in active() if d.code == code))


@cache
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


def domain_code(source_id: str) -> str:
    return source_id.rsplit("-", 1)[0] if source_id.count("-") == 1 else source_id.split("-", 1)[0]


def vague_fact(code: str, text: str) -> str | None:
    return next((key for sentence, key in lookup(code).vague if sentence in text), None)


def second_fact(code: str, text: str) -> str | None:
    return next((key for pattern, key in lookup(code).second if pattern.search(text)), None)


def has_flag(code: str, text: str) -> bool:
    return any(sentence in text for sentence in lookup(code).flags)
