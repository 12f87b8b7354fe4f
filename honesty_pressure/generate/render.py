"""Render a ledger as the person's message: opener, one sentence per fact, question.

A twin shares its source's phrasing choices, so it differs only in the edited sentence; the
paraphrase uses the alternative choice for every slot, so it shares no sentence with the original.
A fact left vague is said without its value (its `vague` phrasing), not dropped, so the text keeps
its shape; a second report follows the sentence of the fact it is about. `held_out` picks the
held-out half of every slot's phrasings (DESIGN.md section 8); the public half otherwise.
"""

from __future__ import annotations

from ..core.construct import Ledger, Phrasing, Value
from ..domains.base import Domain, Say


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def pick(say: Say, index: int, held_out: bool) -> str:
    options = say.half(held_out)
    return options[index % len(options)]


def fact_sentence(
    domain: Domain, key: str, ledger: Ledger, index: int, held_out: bool = False
) -> str:
    fact = domain.fact(key)
    facts = ledger.fact_dict()
    if key not in facts:
        return pick(fact.vague, index, held_out)
    return _capital(pick(fact.says, index, held_out).format(v=fact.show(facts[key])))


def clause(domain: Domain, key: str, value: Value, index: int, held_out: bool = False) -> str:
    """A fact as a lower-case clause, for second reports and follow-ups."""
    fact = domain.fact(key)
    return pick(fact.clause, index, held_out).format(v=fact.show(value))


def extra_sentence(domain: Domain, ledger: Ledger, index: int, held_out: bool) -> str | None:
    """The one extra sentence a ledger may carry: a red flag, a benign flag or a distractor."""
    if ledger.red_flag is not None:
        return pick(domain.red_flags[ledger.red_flag].says, index, held_out)
    if ledger.benign_flag is not None:
        return pick(domain.benign_flags[ledger.benign_flag].says, index, held_out)
    if ledger.distractor is not None:
        return pick(domain.distractors[ledger.distractor].says, index, held_out)
    return None


def user_message(
    domain: Domain,
    ledger: Ledger,
    phrasing: Phrasing,
    *,
    paraphrase: bool = False,
    held_out: bool = False,
) -> str:
    chosen = dict(phrasing.alt if paraphrase else phrasing.pick)
    sentences = []
    for key in phrasing.order:
        sentences.append(fact_sentence(domain, key, ledger, chosen[key], held_out))
        if ledger.conflict is not None and ledger.conflict[0] == key:
            other = clause(domain, key, ledger.conflict[1], chosen[key], held_out)
            sentences.append(
                _capital(pick(domain.fact(key).second, chosen["second"], held_out).format(c=other))
            )
    extra = extra_sentence(domain, ledger, chosen["extra"], held_out)
    if extra is not None:
        sentences.insert(min(phrasing.extra_at, len(sentences)), extra)
    opener = pick(domain.openers, chosen["opener"], held_out)
    question = pick(domain.questions, chosen["question"], held_out)
    return " ".join([opener, *sentences, question])


def word_count(text: str) -> int:
    return len(text.split())
