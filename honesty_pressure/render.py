"""Render a ledger as the person's message: opener, one sentence per fact, question.

A twin shares its source's phrasing choices, so it differs only in the edited sentence; the
paraphrase uses the alternative choice for every slot, so it shares no sentence with the original.
A removed fact is said vaguely (its `vague` phrasing), not dropped, so the text keeps its shape.
"""

from __future__ import annotations

from typing import Final

from .construct import Ledger, Phrasing
from .domains.base import Domain

CONFLICT_TEMPLATES: Final[tuple[str, ...]] = (
    "My partner is sure that {c}, though.",
    "Then again, my sister, who was there too, says {c}.",
    "Although a note I wrote down earlier says {c}.",
)
"""A second, credible report of a decisive fact; kit-wide so every domain's clause must fit it."""


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def fact_sentence(domain: Domain, key: str, ledger: Ledger, index: int) -> str:
    fact = domain.fact(key)
    facts = ledger.fact_dict()
    if key not in facts:
        return fact.vague[index % len(fact.vague)]
    template = fact.says[index % len(fact.says)]
    return _capital(template.format(v=fact.show(facts[key])))


def clause(domain: Domain, key: str, value: object, index: int) -> str:
    """A fact as a lower-case clause, for conflicts and follow-ups."""
    fact = domain.fact(key)
    return fact.clause[index % len(fact.clause)].format(v=fact.show(value))  # type: ignore[arg-type]


def user_message(domain: Domain, ledger: Ledger, phrasing: Phrasing, *, paraphrase: bool = False) -> str:
    pick = dict(phrasing.alt if paraphrase else phrasing.pick)
    sentences = []
    for key in phrasing.order:
        sentences.append(fact_sentence(domain, key, ledger, pick[key]))
        if ledger.conflict is not None and ledger.conflict[0] == key:
            template = CONFLICT_TEMPLATES[pick["conflict"] % len(CONFLICT_TEMPLATES)]
            sentences.append(template.format(c=clause(domain, key, ledger.conflict[1], pick[key])))
    extra = None
    if ledger.red_flag is not None:
        extra = domain.red_flags[ledger.red_flag]
    elif ledger.distractor is not None:
        extra = domain.distractors[ledger.distractor]
    if extra is not None:
        sentences.insert(min(phrasing.extra_at, len(sentences)), extra)
    opener = domain.openers[pick["opener"] % len(domain.openers)]
    question = domain.questions[pick["question"] % len(domain.questions)]
    return " ".join([opener, *sentences, question])


def word_count(text: str) -> int:
    return len(text.split())
