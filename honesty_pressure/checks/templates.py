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


@cache
def _code_by_ask(domains: tuple[Domain, ...]) -> dict[str, str]:
    """`ASK <fact>` -> the code of the one domain of `domains` that has the fact (facts two
    domains share are left out: they do not tell the domain)."""
    owners: dict[str, set[str]] = {}
    for domain in domains:
        for fact in domain.facts:
            owners.setdefault(f"ASK {fact.key}", set()).add(domain.code)
    return {ask: next(iter(codes)) for ask, codes in owners.items() if len(codes) == 1}


def domain_code(request: Mapping[str, object]) -> str:
    """The domain as a request shows it, with no id to read it from (ids are opaque): the domain
    of the first fact its menu offers to ask about that only one domain has ("" if none does).
    Every menu lists all of its domain's facts, and a domain's facts are its own but for one
    (`pain`), so this is the domain, in a few look-ups (the learners ask it of every request)."""
    menu = request.get("menu")
    owner = _code_by_ask(active())  # the running command's domains: the kit's, or a lab's
    for item in menu if isinstance(menu, list) else []:
        code = owner.get(str(item.get("code"))) if isinstance(item, dict) else None
        if code is not None:
            return code
    return ""


def vague_fact(code: str, text: str) -> str | None:
    return next((key for sentence, key in lookup(code).vague if sentence in text), None)


def second_fact(code: str, text: str) -> str | None:
    return next((key for pattern, key in lookup(code).second if pattern.search(text)), None)


def has_flag(code: str, text: str) -> bool:
    return any(sentence in text for sentence in lookup(code).flags)
