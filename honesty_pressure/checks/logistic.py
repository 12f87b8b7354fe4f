"""The kit's strongest attacker: a stdlib logistic regression over everything a request shows.

Issue 19 item 5 and DESIGN.md section 6a ("Second line"): outside attackers trained on the public
keys did better than the naive Bayes of learned.py, so the audit carries one as strong as they
were. A softmax over the request's own menu (each code read as what it does: proceed, hold back,
ask for a named fact, escalate, decline) is fitted to make the public key's *acceptable* set as
likely as possible (loss: minus the log of the summed probability of the acceptable codes), from
sparse binary features:

- word unigrams and bigrams of the user's message (round 1) or the follow-up (round 2),
  with each number masked (`masked`), kept as its digit shape (`shape`: "1,280" is `<d,ddd>`),
  or read as a word (`values`: the value-token learner of issue 25, which can learn a
  value-to-side table from the public keys);
- or, for the frame reader (`frames`), only the sentences with every number masked, whole and
  by their first and last three words: which templates a message is made of, nothing of what
  they say;
- the request's visible structure: its domain (the facts its menu offers to ask about: ids are
  opaque), its message count, the codes on its menu; in round 2 the first decision's category
  and, except for the frame reader, whether a corrected value is above, below or equal to the
  earlier value of the same unit (alone and crossed with the domain and the first decision),
  which is what a reader who compares two numbers without knowing the threshold sees.

Deterministic by construction: documents are visited in the order of the
SHA-256 of their packet id (the kit's only source of order that looks random and is not), the
learning rate and the number of epochs are fixed, and every sum is math.fsum (exactly rounded, so
the same on every Python: the builtin float `sum` changed in 3.12). Nothing here is hashed or
written except through rounded scores.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from typing import Final, Literal

from .templates import domain_code

Reading = Literal["masked", "shape", "values", "frames"]
READINGS: Final[tuple[Reading, ...]] = ("masked", "shape", "frames", "values")
MASKED: Final[frozenset[Reading]] = frozenset({"masked", "shape", "frames"})
"""Readings that never see a value: held to the fixed-policy margin and the bar."""

EPOCHS: Final = 3
RATE: Final = 0.05
"""A fixed step on binary features; three passes are enough for the training accuracy to settle
(tests/checks/test_learned.py checks it learns a planted rule)."""
SETTLED: Final = 1e-4
"""A gradient below this is not applied (it changes no prediction and costs a pass over the
document's features)."""

_NUMBER: Final = re.compile(r"\d[\d,]*(?:\.\d+)?")
_TOKEN: Final = re.compile(r"<[^>]+>|[a-z]+(?:'[a-z]+)?|°[a-z]")
_SENTENCE: Final = re.compile(r"(?<=[.?!])\s+")


def _shape(number: str) -> str:
    return re.sub(r"\d", "d", number)


def words(text: str, reading: Reading) -> list[str]:
    """Lower-case word tokens, each number masked, shaped or kept as one token."""

    def mark(match: re.Match[str]) -> str:
        number = match.group(0)
        if reading == "values":
            return f" <{number}> "
        if reading == "shape":
            return f" <{_shape(number)}> "
        return " <num> "

    return _TOKEN.findall(_NUMBER.sub(mark, text.lower()))


@lru_cache(maxsize=1 << 16)
def text_features(text: str, reading: Reading) -> tuple[str, ...]:
    """The text's features, sorted and without repeats (memoised: many forks share a follow-up)."""
    if reading == "frames":
        frames: set[str] = set()
        for sentence in _SENTENCE.split(text):
            masked = _NUMBER.sub("<num>", sentence.strip().lower())
            if masked:
                # The whole sentence, and its opening and closing words: a template's fixed ends
                # survive the words a story fills in between them.
                w = masked.split()
                frames.update(
                    ("s:" + masked, "open:" + " ".join(w[:3]), "close:" + " ".join(w[-3:]))
                )
        return tuple(sorted(frames))
    w = words(text, reading)
    grams = set(w)
    grams.update(f"{a} {b}" for a, b in zip(w, w[1:]))
    return tuple(sorted(grams))


def _messages(request: Mapping[str, object]) -> list[Mapping[str, object]]:
    messages = request["messages"]
    assert isinstance(messages, list)
    return messages


def _values(text: str) -> dict[str, float]:
    """Each number's value by the word after it (its unit, as the sentence says it); the first
    number of each unit wins."""
    out: dict[str, float] = {}
    for match in _NUMBER.finditer(text):
        after = _TOKEN.findall(text[match.end() : match.end() + 24].lower().replace("-", " "))
        unit = after[0] if after else ""
        out.setdefault(unit, float(match.group(0).replace(",", "")))
    return out


def direction(request: Mapping[str, object]) -> str:
    """Whether the follow-up's value is above, below or equal to the earlier value of the same
    unit in the user's first message (`none` when no unit matches)."""
    messages = _messages(request)
    if len(messages) < 4:
        return "none"
    earlier = _values(str(messages[1]["content"]))
    for unit, value in _values(str(messages[-1]["content"])).items():
        if unit in earlier:
            before = earlier[unit]
            return "up" if value > before else "down" if value < before else "same"
    return "none"


def category(code: str, proceed_code: str) -> str:
    """A menu code as what it does (any reader of the menu knows which option text proceeds)."""
    if code in ("A", "B"):
        return "proceed" if code == proceed_code else "hold_back"
    return "ask:" + code[4:] if code.startswith("ASK ") else code.lower()


def menu_codes(request: Mapping[str, object]) -> list[str]:
    menu = request["menu"]
    assert isinstance(menu, list)
    return [str(m["code"]) for m in menu if isinstance(m, dict)]


def parent_category(key: Mapping[str, object]) -> str:
    """The category of the policy's own first decision (it is in the conversation it answers)."""
    decision = key.get("parent_decision")
    return category(decision, str(key["proceed_code"])) if isinstance(decision, str) else "none"


def features(
    request: Mapping[str, object], key: Mapping[str, object], reading: Reading, round_: int
) -> tuple[str, ...]:
    """Everything the request shows, as binary features (each once)."""
    messages = _messages(request)
    text = str(messages[1 if round_ == 1 else -1]["content"])
    domain = domain_code(request)  # the facts its menu offers to ask about (ids are opaque)
    visible = [
        f"#domain={domain}",
        f"#messages={len(messages)}",
        *(f"#menu={c}" for c in menu_codes(request)),
    ]
    if round_ == 2:
        parent = parent_category(key)
        visible += [f"#parent={parent}", f"#parent={parent}|domain={domain}"]
        if reading != "frames":
            way = direction(request)
            visible += [
                f"#dir={way}",
                f"#dir={way}|domain={domain}",
                f"#dir={way}|parent={parent}",
                f"#dir={way}|parent={parent}|domain={domain}",
            ]
    # Text features never start with "#", and each visible one is said once: no repeats. The
    # order does not matter, since every sum over features is exact (math.fsum).
    return (*text_features(text, reading), *visible, "#bias")


@dataclass(frozen=True, slots=True)
class Logistic:
    """Per category, a weight for each feature seen in training (absent: zero)."""

    weights: Mapping[str, Mapping[str, float]]

    def score(self, doc: Sequence[str], choice: str) -> float:
        weights = self.weights.get(choice)
        return math.fsum(map(weights.get, doc, repeat(0.0))) if weights else 0.0

    def choose(self, doc: Sequence[str], choices: Sequence[str]) -> str:
        """The highest-scoring choice; ties go to the first in sorted order."""
        ordered = sorted(choices)
        scores = [self.score(doc, c) for c in ordered]
        return ordered[max(range(len(ordered)), key=lambda i: (scores[i], -i))]


Case = tuple[str, tuple[str, ...], tuple[str, ...], frozenset[str]]
"""(packet id, features, the menu's categories, the acceptable categories)."""


def _order(pid: str) -> bytes:
    return hashlib.sha256(pid.encode("utf-8")).digest()


def _groups(docs: Sequence[tuple[str, ...]]) -> tuple[list[list[int]], list[int], dict[str, int]]:
    """Features that occur in exactly the same training documents always receive the same
    updates, so each such group is fitted as one weight (its members' sum) and shared out after:
    the same model, several times faster on templated text. Returns each document's groups, each
    group's size, and each feature's group."""
    seen: dict[str, list[int]] = {}
    for i, doc in enumerate(docs):
        for f in doc:
            seen.setdefault(f, []).append(i)
    group: dict[str, int] = {}
    by_docs: dict[tuple[int, ...], int] = {}
    sizes: list[int] = []
    for f in sorted(seen):
        g = by_docs.setdefault(tuple(seen[f]), len(by_docs))
        if g == len(sizes):
            sizes.append(0)
        sizes[g] += 1
        group[f] = g
    return [list({group[f]: None for f in doc}) for doc in docs], sizes, group


def fit(cases: Iterable[Case], epochs: int = EPOCHS, rate: float = RATE) -> Logistic:
    """Stochastic gradient descent on minus the log of the acceptable codes' summed probability."""
    ordered = sorted((c for c in cases if c[3]), key=lambda c: (_order(c[0]), c[0]))
    docs, sizes, group = _groups([c[1] for c in ordered])
    choices_seen = sorted({choice for c in ordered for choice in c[2]})
    weights = {c: [0.0] * len(sizes) for c in choices_seen}
    steps = [[(g, sizes[g] * rate) for g in doc] for doc in docs]
    for _ in range(epochs):
        for (_, _, choices, acceptable), doc, step_of in zip(ordered, docs, steps):
            rows = [weights[c] for c in choices]
            scores = [math.fsum(map(row.__getitem__, doc)) for row in rows]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = math.fsum(exps)
            good = math.fsum(e for e, c in zip(exps, choices) if c in acceptable)
            for row, e, c in zip(rows, exps, choices):
                # d loss / d score_c = p_c - [c acceptable] * p_c / P(acceptable); a group of n
                # features moves its summed weight n times as far as one feature would move.
                gradient = e / total - (e / good if c in acceptable else 0.0)
                if abs(gradient) < SETTLED:
                    continue
                for g, n in step_of:
                    row[g] -= gradient * n
    return Logistic(
        weights={
            c: {f: weights[c][g] / sizes[g] for f, g in sorted(group.items()) if weights[c][g]}
            for c in choices_seen
        }
    )


def case(
    request: Mapping[str, object],
    key: Mapping[str, object],
    reading: Reading,
    round_: int,
    allowed: frozenset[str] | None = None,
) -> Case:
    """One request as the learner sees it; its choices are the menu's categories (only those in
    `allowed`, when given and when any is on the menu)."""
    proceed = str(key["proceed_code"])
    menu = {category(c, proceed) for c in menu_codes(request)}
    choices = tuple(sorted((menu & allowed) or menu if allowed is not None else menu))
    acceptable = key["acceptable"]
    assert isinstance(acceptable, list)
    return (
        str(request["packet_id"]),
        features(request, key, reading, round_),
        choices,
        frozenset(category(str(c), proceed) for c in acceptable),
    )


def code_for(choice: str, request: Mapping[str, object], key: Mapping[str, object]) -> str:
    """The menu code that does what `choice` says."""
    proceed = str(key["proceed_code"])
    return next(c for c in menu_codes(request) if category(c, proceed) == choice)


Example = tuple[Mapping[str, object], Mapping[str, object]]


@dataclass(frozen=True, slots=True)
class LogisticPolicy:
    """Answers both rounds from its two fitted models, choosing among the request's own menu the
    categories the public keys ever accept (DECLINE, and a question no key asks, never are)."""

    reading: Reading
    round1: Logistic
    round2: Logistic
    allowed: frozenset[str]

    @property
    def name(self) -> str:
        return f"logistic:{self.reading}"

    def decide(self, request: Mapping[str, object], key: Mapping[str, object], round_: int) -> str:
        _, doc, choices, _ = case(request, key, self.reading, round_, self.allowed)
        model = self.round1 if round_ == 1 else self.round2
        return code_for(model.choose(doc, choices), request, key)


def ever_acceptable(examples: Iterable[Example]) -> frozenset[str]:
    return frozenset(
        category(str(c), str(k["proceed_code"]))
        for _, k in examples
        for c in k["acceptable"]  # type: ignore[attr-defined]
    )


def train(round1: Sequence[Example], round2: Sequence[Example], reading: Reading) -> LogisticPolicy:
    """The policy fitted on public (request, key) pairs of both rounds."""
    allowed = ever_acceptable([*round1, *round2])
    return LogisticPolicy(
        reading=reading,
        round1=fit(case(r, k, reading, 1, allowed) for r, k in round1),
        round2=fit(case(r, k, reading, 2, allowed) for r, k in round2),
        allowed=allowed,
    )


def accuracy(policy: LogisticPolicy, examples: Sequence[Example], round_: int) -> float:
    """Share of examples whose chosen code is acceptable (a diagnostic; the audit scores runs)."""
    if not examples:
        return 0.0
    hits = 0
    for request, key in examples:
        acceptable = key["acceptable"]
        assert isinstance(acceptable, list)
        hits += policy.decide(request, key, round_) in acceptable
    return hits / len(examples)


__all__ = [
    "MASKED",
    "READINGS",
    "Logistic",
    "LogisticPolicy",
    "Reading",
    "accuracy",
    "direction",
    "features",
    "fit",
    "train",
]
