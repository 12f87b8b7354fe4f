"""Issue 18, item 4: wording a person would write, checked over every packet and follow-up.

- No sentence or clause is said twice in one message (a round-1 user message, or a round-2
  follow-up).
- Units follow the story's locale: one message never mixes imperial and metric units (a US parent
  reads °F and pounds-and-ounces, a parent elsewhere °C and kilograms).
- Counts and durations agree with the words around them: "now and then" is not 11 times a week,
  "a short drive" is not 30-40 minutes.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

import pytest

from honesty_pressure.domains import DOMAINS

from .corpus import Case, cases, offenders

NAMES = [d.name for d in DOMAINS]
_SENTENCE: Final = re.compile(r"(?<=[.?!])\s+")


def sentences(text: str) -> list[str]:
    return [s.strip().lower() for s in _SENTENCE.split(text) if s.strip()]


_CLAUSE: Final = re.compile(r"[,;:]\s+|\s+(?:and|but|so)\s+(?!a half|\d)")
"""Clause breaks; "and" inside an amount ("8 and a half hours", "6 hours and 45 minutes") is not
one."""


def clauses(text: str) -> list[str]:
    """Each sentence's opening clause of three words or more ("I'm an adult" in "I'm an adult and
    I've been using Tylenol" and in "I'm an adult, around 240 pounds"). Only openings: a second
    report that restates the part it agrees on ("says the shoulder belt is on his neck and the lap
    belt stays on his hips") quotes, it does not repeat itself."""
    out = []
    for sentence in sentences(text):
        first = _CLAUSE.split(sentence)[0].strip(" .?!")
        if len(first.split()) >= 3:
            out.append(first)
    return out


def _said_twice(case: Case) -> bool:
    return any(n > 1 for n in Counter(sentences(case.text)).values()) or any(
        n > 1 for n in Counter(clauses(case.text)).values()
    )


def test_a_clause_said_twice_is_found() -> None:
    assert _repeats("I'm an adult and I use Tylenol. I'm an adult, around 240 pounds.")
    assert not _repeats("I'm an adult and I use Tylenol. I weigh about 240 pounds.")
    assert not _repeats("It went down 8 and a half hours ago. She says 7 and a half hours ago.")
    assert not _repeats(
        "It went down 6 hours and 45 minutes ago. She says 7 hours and 45 minutes ago."
    )


def _repeats(text: str) -> bool:
    return any(n > 1 for n in Counter(clauses(text)).values())


@pytest.mark.parametrize("domain", NAMES)
def test_no_sentence_is_said_twice_in_a_message(domain: str) -> None:
    bad = [c for c in cases(domain) if (c.round == 1 or c.policy == "oracle") and _said_twice(c)]
    assert not bad, offenders(bad)


IMPERIAL: Final = re.compile(
    r"°F|\b(pounds?|ounces?|lbs?|oz|inch(es)?|feet|foot|miles?|gallons?|fahrenheit)\b", re.I
)
METRIC: Final = re.compile(
    r"°C|\b(kg|kilo(gram)?s?|grams?|cm|centimet(re|er)s?|km|kilomet(re|er)s?|lit(re|er)s?|celsius)\b",
    re.I,
)


def mixed_units(text: str) -> bool:
    return bool(IMPERIAL.search(text)) and bool(METRIC.search(text))


def test_mixed_units_are_found() -> None:
    assert mixed_units("Her birth weight was 7 pounds 4 ounces. It reads 38.2°C.")
    assert not mixed_units("Her birth weight was 3.3 kg. It reads 38.2°C.")
    assert not mixed_units("She weighed 7 pounds 4 ounces. It reads 100.8°F.")


@pytest.mark.parametrize("domain", NAMES)
def test_units_follow_the_story_locale(domain: str) -> None:
    bad = [
        c
        for c in cases(domain)
        if (c.round == 1 or c.policy == "oracle") and mixed_units(c.story + "\n" + c.text)
    ]
    assert not bad, offenders(bad)


IMPLAUSIBLE: Final = (
    # a rare frequency with a count of several a week
    re.compile(
        r"\b(now and then|once in a while|occasionally|rarely|every so often|the odd "
        r"time)\b[^.?!]*?\b([4-9]|\d\d+) times a week",
        re.I,
    ),
    re.compile(
        r"\b([4-9]|\d\d+) times a week\b[^.?!]*?\b(now and then|once in a "
        r"while|occasionally|rarely|every so often)\b",
        re.I,
    ),
    # a short trip of half an hour or more, a long one of a few minutes
    re.compile(
        r"\b(short|quick|little)\b[^.?!]*?\b([3-9]\d|\d{3,})(\s*(-|–|to)\s*\d+)? minutes", re.I
    ),
    re.compile(r"\b(short|quick)\b[^.?!]*?\b(an hour|\d+ hours?)\b", re.I),
    re.compile(r"\blong\b[^.?!]*?\b([1-9]|1\d)(\s*(-|–|to)\s*\d+)? minutes", re.I),
)


def implausible(text: str) -> bool:
    return any(p.search(text) for p in IMPLAUSIBLE)


def test_implausible_counts_are_found() -> None:
    assert implausible("We ride now and then, 11 times a week.")
    assert implausible("It's a short one, about 30-40 minutes.")
    assert not implausible("It's a short one, about 10-15 minutes.")
    assert not implausible("We ride now and then, twice a week.")


@pytest.mark.parametrize("domain", NAMES)
def test_counts_and_durations_are_plausible(domain: str) -> None:
    bad = [
        c
        for c in cases(domain)
        if (c.round == 1 or c.policy == "oracle") and any(implausible(s) for s in sentences(c.text))
    ]
    assert not bad, offenders(bad)
