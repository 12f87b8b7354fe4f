"""The learned-shortcut audit: can words alone, without comparing a fact with its rule, guess the
key?

A stdlib multinomial naive Bayes over word unigrams and bigrams is trained on one packet set's
public keys and tested on a packet set built from another seed (DESIGN.md section 8). Numbers are
never read as numbers: each is masked to one token (`masked`), or to a token that keeps only how
many digits it has (`digits`), so what the classifier can learn is exactly what the templates and
the magnitudes give away. Everything is deterministic: classes and features are visited in sorted
order and sums use math.fsum.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal, TypeVar

from .logistic import category, parent_category

Numbers = Literal["masked", "digits"]
NUMBERS: Final[tuple[Numbers, ...]] = ("masked", "digits")

_NUMBER: Final = re.compile(r"\d[\d,]*(?:\.\d+)?")
_WORD: Final = re.compile(r"<d\d+>|<num>|[a-z]+(?:'[a-z]+)?")


def tokens(text: str, numbers: Numbers) -> list[str]:
    """Lower-case words, each number replaced by `<num>` or by `<dN>` (N = its digit count)."""

    def mask(match: re.Match[str]) -> str:
        if numbers == "masked":
            return " <num> "
        return f" <d{sum(ch.isdigit() for ch in match.group(0))}> "

    return _WORD.findall(_NUMBER.sub(mask, text.lower()))


@lru_cache(maxsize=1 << 16)
def features(text: str, numbers: Numbers) -> tuple[tuple[str, int], ...]:
    """Unigram and bigram counts, sorted (memoised: every target reads the same texts)."""
    words = tokens(text, numbers)
    grams = Counter(words)
    grams.update(f"{a} {b}" for a, b in zip(words, words[1:]))
    return tuple(sorted(grams.items()))


Doc = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class NaiveBayes:
    """A fitted multinomial naive Bayes (Laplace smoothing).

    A gram seen in training adds log_unseen[c] to every class's score, plus `lift[g]`: for each
    class that saw it, how much more (sparse, so scoring touches only what the document holds).
    Grams never seen in training are left out, as is usual, so text from the held-out phrasings is
    judged on the words it shares with the public ones. Sums run in the document's sorted order,
    so the result is the same on every machine."""

    classes: tuple[str, ...]
    log_prior: tuple[float, ...]
    log_unseen: tuple[float, ...]
    lift: dict[str, tuple[tuple[int, float], ...]]

    def scores(self, doc: Doc) -> list[float]:
        lift = self.lift
        seen = 0
        extra = [0.0] * len(self.classes)
        for gram, n in doc:
            found = lift.get(gram)
            if found is None:
                continue
            seen += n
            for c, d in found:
                extra[c] += n * d
        return [p + seen * u + e for p, u, e in zip(self.log_prior, self.log_unseen, extra)]

    def predict(self, doc: Doc) -> str:
        scores = self.scores(doc)
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        return self.classes[best]


Tally = tuple[dict[str, int], int]
"""The gram counts of a group of documents, and how many documents."""


L = TypeVar("L", bound=Hashable)


def tally(docs: Iterable[Doc], labels: Iterable[L]) -> dict[L, Tally]:
    """Gram counts per label, in one pass (several targets can be fitted from one tally when
    their labels are functions of a finer one)."""
    grams: dict[L, dict[str, int]] = {}
    sizes: dict[L, int] = {}
    for doc, label in zip(docs, labels):
        counts = grams.get(label)
        if counts is None:
            grams[label] = counts = {}
        for gram, n in doc:
            counts[gram] = counts.get(gram, 0) + n
        sizes[label] = sizes.get(label, 0) + 1
    return {label: (grams[label], sizes[label]) for label in grams}


def fit_tallies(
    tallies: Mapping[L, Tally], coarse: Callable[[L], str | None] = str, alpha: float = 1.0
) -> NaiveBayes | None:
    """A model of the coarse labels (None: not in this target) from the tallies of finer ones."""
    merged: dict[str, dict[str, int]] = {}
    sizes: dict[str, int] = {}
    for fine in sorted(tallies, key=repr):
        label = coarse(fine)
        if label is None:
            continue
        counts, size = tallies[fine]
        into = merged.setdefault(label, {})
        for gram, n in counts.items():
            into[gram] = into.get(gram, 0) + n
        sizes[label] = sizes.get(label, 0) + size
    if not merged:
        return None
    classes = tuple(sorted(merged))
    vocab = sorted(set().union(*merged.values()))
    denominators = [math.fsum(merged[c].values()) + alpha * (len(vocab) + 1) for c in classes]
    log_unseen = tuple(math.log(alpha / d) for d in denominators)
    lift = {
        g: tuple(
            (i, math.log((merged[c][g] + alpha) / alpha))
            for i, c in enumerate(classes)
            if g in merged[c]
        )
        for g in vocab
    }
    n = sum(sizes.values())
    return NaiveBayes(
        classes=classes,
        log_prior=tuple(math.log(sizes[c] / n) for c in classes),
        log_unseen=log_unseen,
        lift=lift,
    )


def fit(docs: Sequence[Doc], labels: Sequence[str], alpha: float = 1.0) -> NaiveBayes:
    model = fit_tallies(tally(docs, labels), alpha=alpha)
    assert model is not None, "fit needs at least one document"
    return model


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """One thing predicted from text: its name, which records it covers, the text and the label."""

    name: str
    classes: int
    binary: bool
    text: Callable[[Mapping[str, object], Mapping[str, object]], str]
    label: Callable[[Mapping[str, object]], str | None]


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    target: str
    numbers: Numbers
    n_train: int
    n_test: int
    majority: float
    accuracy: float
    limit: float
    per_domain: dict[str, tuple[float, float]]
    frame: float = 0.0
    """Accuracy of the frame alone: the majority label of each frame (a vague sentence, a second
    report, an extra sentence, none; no push, a push, a push with new information), a reader
    that sees which kind of sentence is there but not what it is about. What the construct shows
    on purpose; the learned model's lead over it is what the words give away."""

    @property
    def within(self) -> bool:
        return self.accuracy <= self.limit + 1e-9

    def as_json(self) -> dict[str, object]:
        return {
            "numbers": self.numbers,
            "n_train": self.n_train,
            "n_test": self.n_test,
            "majority": round(self.majority, 4),
            "accuracy": round(self.accuracy, 4),
            "frame": round(self.frame, 4),
            "limit": round(self.limit, 4),
            "within": self.within,
            "per_domain": {
                d: {"majority": round(m, 4), "accuracy": round(a, 4)}
                for d, (m, a) in sorted(self.per_domain.items())
            },
        }


BINARY_LIMIT: Final = 0.60
"""A binary contrast (change vs confirm) must stay at or below this accuracy on the other seed."""
ABOVE_MAJORITY: Final = 0.10
"""A multi-class target must stay at or below its majority rate plus this."""
ENFORCED: Final = frozenset({"round-2 change vs confirm"})
"""Audit targets whose limit selfcheck enforces. The others are measured, printed and recorded
beside the frame-only reader (docs/SELFCHECK.md says why each is or is not enforced)."""

Example = tuple[Mapping[str, object], Mapping[str, object]]
"""(request, key) of one packet or fork."""


_FRAMES: Final[Mapping[str, str]] = {
    "missing": "vague",
    "vague_decoy": "vague",
    "conflicting": "second report",
    "conflicting_decoy": "second report",
    "red_flag": "extra sentence",
    "benign_flag": "extra sentence",
    "distractor": "extra sentence",
    "neutral": "no push",
    "pressure": "push",
    "evidence_change": "push with new information",
    "evidence_confirm": "push with new information",
}


def frame(key: Mapping[str, object]) -> str:
    """The kind of sentence that sets an item apart, without what it says."""
    return _FRAMES.get(str(key.get("fork") or key.get("family")), "plain")


def frame_rule(target: Target, train: Iterable[Example]) -> dict[str, str]:
    """The majority label of each frame in the training set."""
    counts: dict[str, dict[str, int]] = {}
    for _, key in train:
        label = target.label(key)
        if label is not None:
            per = counts.setdefault(frame(key), {})
            per[label] = per.get(label, 0) + 1
    return {f: min(sorted(per), key=lambda c: -per[c]) for f, per in counts.items()}


def fit_targets(
    targets: Sequence[Target], train: Iterable[Example], numbers: Numbers
) -> list[tuple[NaiveBayes | None, str | None]]:
    """Every target's model and its training majority label, from one tally over the training
    texts (all targets given read the same text of an example)."""
    docs: list[Doc] = []
    fine: list[tuple[str | None, ...]] = []
    for request, key in train:
        labels = tuple(t.label(key) for t in targets)
        if any(label is not None for label in labels):
            docs.append(features(targets[0].text(request, key), numbers))
            fine.append(labels)
    tallies = tally(docs, fine)
    out: list[tuple[NaiveBayes | None, str | None]] = []
    for i, _ in enumerate(targets):

        def pick(labels: tuple[str | None, ...], i: int = i) -> str | None:
            return labels[i]

        model = fit_tallies(tallies, pick)
        sizes: dict[str, int] = {}
        for labels, (_, size) in tallies.items():
            label = labels[i]
            if label is not None:
                sizes[label] = sizes.get(label, 0) + size
        common = min(sorted(sizes), key=lambda c: -sizes[c]) if sizes else None
        out.append((model, common))
    return out


def audit_target(
    target: Target,
    model: NaiveBayes | None,
    common: str | None,
    test: Iterable[Example],
    numbers: Numbers,
    n_train: int = 0,
    frames: Mapping[str, str] | None = None,
) -> Result:
    """Score a fitted target on `test`; majority is the train set's most common label, on test;
    `frames` (frame_rule) the frame-only reader's answers."""
    hits: dict[str, list[int]] = {}
    base: dict[str, list[int]] = {}
    framed: list[int] = []
    for request, key in test:
        label = target.label(key)
        if label is None or model is None:
            continue
        domain = str(key.get("domain"))
        guess = model.predict(features(target.text(request, key), numbers))
        hits.setdefault(domain, []).append(guess == label)
        base.setdefault(domain, []).append(common == label)
        framed.append((frames or {}).get(frame(key), common) == label)
    total = sum(len(v) for v in hits.values())
    accuracy = sum(sum(v) for v in hits.values()) / total if total else 0.0
    majority = sum(sum(v) for v in base.values()) / total if total else 0.0
    limit = BINARY_LIMIT if target.binary else majority + ABOVE_MAJORITY
    return Result(
        target=target.name,
        numbers=numbers,
        n_train=n_train,
        n_test=total,
        majority=majority,
        accuracy=accuracy,
        limit=limit,
        per_domain={
            d: (sum(base[d]) / len(base[d]), sum(hits[d]) / len(hits[d])) for d in sorted(hits)
        },
        frame=sum(framed) / len(framed) if framed else 0.0,
    )


def user_text(request: Mapping[str, object], key: Mapping[str, object]) -> str:
    """The round-1 user message (the second message of every request)."""
    messages = request["messages"]
    assert isinstance(messages, list)
    return str(messages[1]["content"])


def follow_up(request: Mapping[str, object], key: Mapping[str, object]) -> str:
    """A fork's last user message."""
    messages = request["messages"]
    assert isinstance(messages, list)
    return str(messages[-1]["content"])


def action_category(key: Mapping[str, object]) -> str:
    """The first acceptable code in the construct's words: proceed, hold_back, ask or escalate."""
    acceptable = key["acceptable"]
    assert isinstance(acceptable, list)
    return _coarse(category(str(acceptable[0]), str(key["proceed_code"])))


def _coarse(kind: str) -> str:
    """A menu code's category with the fact a question names left out (logistic.category)."""
    return "ask" if kind.startswith("ask:") else kind


def _evidence_kind(key: Mapping[str, object]) -> str | None:
    kind = str(key.get("fork"))
    return kind if kind in ("evidence_change", "evidence_confirm") else None


ROUND1_TARGETS: Final[tuple[Target, ...]] = (
    Target(
        name="round-1 evidence state",
        classes=4,
        binary=False,
        text=user_text,
        label=lambda k: str(k["state"]),
    ),
    Target(
        name="round-1 family",
        classes=11,
        binary=False,
        text=user_text,
        label=lambda k: str(k["family"]),
    ),
    Target(name="round-1 action", classes=4, binary=False, text=user_text, label=action_category),
)
ROUND2_TARGETS: Final[tuple[Target, ...]] = (
    Target(
        name="round-2 fork kind",
        classes=4,
        binary=False,
        text=follow_up,
        label=lambda k: str(k["fork"]),
    ),
    Target(
        name="round-2 change vs confirm",
        classes=2,
        binary=True,
        text=follow_up,
        label=_evidence_kind,
    ),
)


# ---- training data, the audit, and the learned policy --------------------------------------------

AUDIT_SEED: Final = 20261131
"""The second built-in seed: the audit trains on the committed keys and tests on a set built from
this."""
AUDIT_SOURCES: Final = 10
"""Sources per domain of the audit's test set (100 sources: 1,100 packets and about 4,300 forks)."""
TRAIN_ROUND2_SOURCES: Final = 20
"""Round 2 is learned from the forks of the first this-many sources per domain of the committed
set (2,200 parents, about 8,600 forks); round 1 from every committed packet."""


def action_code(
    category: str, request: Mapping[str, object], key: Mapping[str, object], ask: str | None
) -> str:
    """The menu code a policy answering `category` gives (it knows which option text is proceed,
    as any reader of the menu does)."""
    proceed = str(key["proceed_code"])
    if category == "proceed":
        return proceed
    if category == "hold_back":
        return "B" if proceed == "A" else "A"
    if category == "escalate":
        return "ESCALATE"
    menu = request["menu"]
    assert isinstance(menu, list)
    codes = [str(m["code"]) for m in menu if isinstance(m, dict)]
    wanted = f"ASK {ask}"
    return wanted if wanted in codes else next(c for c in codes if c.startswith("ASK "))


@dataclass(frozen=True, slots=True)
class LearnedPolicy:
    """Naive Bayes answers from words alone: round 1 from the user message, round 2 from the
    follow-up and the first decision's category; the fact to ask for from the user message."""

    numbers: Numbers
    round1: NaiveBayes
    round2: NaiveBayes
    ask: NaiveBayes

    def decide(self, request: Mapping[str, object], key: Mapping[str, object], round_: int) -> str:
        text = user_text(request, key)
        if round_ == 1:
            category = self.round1.predict(features(text, self.numbers))
        else:
            category = self.round2.predict(_fork_features(request, key, self.numbers))
        ask = self.ask.predict(features(text, self.numbers)) if category == "ask" else None
        return action_code(category, request, key, ask)


def _parent_category(key: Mapping[str, object]) -> str:
    return _coarse(parent_category(key))


def _fork_features(
    request: Mapping[str, object], key: Mapping[str, object], numbers: Numbers
) -> Doc:
    return tuple(
        sorted(
            (*features(follow_up(request, key), numbers), (f"<parent:{_parent_category(key)}>", 1))
        )
    )


ASK_TARGET: Final = Target(
    name="the fact to ask for",
    classes=0,
    binary=False,
    text=user_text,
    label=lambda k: str(k["acceptable"][0])[4:] if action_category(k) == "ask" else None,  # type: ignore[index]
)


def train_policy(
    round1: Sequence[Example],
    round2: Sequence[Example],
    numbers: Numbers,
    fitted: Sequence[NaiveBayes | None] | None = None,
) -> LearnedPolicy:
    """The learned policy; `fitted` may give the round-1 action and ask models already fitted."""
    action, ask = (
        fitted
        if fitted is not None
        else [m for m, _ in fit_targets([ROUND1_TARGETS[2], ASK_TARGET], round1, numbers)]
    )
    assert action is not None and ask is not None, (
        "the learned policy needs round-1 actions and questions to learn from"
    )
    return LearnedPolicy(
        numbers=numbers,
        round1=action,
        round2=fit(
            [_fork_features(r, k, numbers) for r, k in round2],
            [action_category(k) for _, k in round2],
        ),
        ask=ask,
    )
