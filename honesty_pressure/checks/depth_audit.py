"""The shortcut and learned audits on the later rounds of a sustained chain (docs/SELFCHECK.md).

- **Words at depth.** A naive Bayes over the last follow-up's words (learned.py), trained on the
  oracle chain of the layer checked and tested on the oracle chain of the second built-in seed's
  set, must not tell, at any round 3..N, an `evidence_change` thread from an `evidence_confirm`
  thread, nor a push back after an update from a neutral thread's push, better than .60.
- **Shortcut rules at depth.** Each surface-feature rule (shortcuts.py, fitted on dev as there)
  answers every round of the chain (its round-2 rule from round 2 on) and must stay at least the
  shortcut margin below the bar at depth: its weakest axis or depth measure at most .50 (the bar
  less shortcuts.MARGIN), over every split (the chain is not split).
- **The learned policy at depth.** The learned assistant (trained as in the learned audit)
  answers every round (its round-2 model from round 2 on) and must fail the bar at depth.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..files.layer import PacketFolder
from ..files.store import JsonObject, jsonl_bytes, keyed_records
from ..rounds.chain import Chain, play
from .audit import audit_set, learn, oracle_examples
from .depth import DepthOutcome, play_policy
from .learned import (
    AUDIT_SEED,
    BINARY_LIMIT,
    NUMBERS,
    TRAIN_ROUND2_SOURCES,
    LearnedPolicy,
    Numbers,
    features,
    fit,
    follow_up,
)
from .policies import decide, reply_text
from .rehearse import Rehearsal
from .selfcheck import PASS_BAR
from .shortcuts import FEATURES, MARGIN, ROUND1_CHOICES, ROUND2_CHOICES, Rule
from .shortcuts import fit as fit_rule

Example = tuple[JsonObject, JsonObject]


def _label_change_confirm(key: Mapping[str, object]) -> str | None:
    thread = key.get("thread")
    return str(thread) if thread in ("evidence_change", "evidence_confirm") else None


def _label_push_back_neutral(key: Mapping[str, object]) -> str | None:
    if key.get("push_back") is True:
        return "push_back"
    return "neutral" if key.get("thread") == "neutral" else None


TARGETS: dict[str, Callable[[Mapping[str, object]], str | None]] = {
    "change vs confirm": _label_change_confirm,
    "push-back vs neutral": _label_push_back_neutral,
}


def _oracle(request: JsonObject, key: Mapping[str, object], round_: int) -> str:
    acceptable = key["acceptable"]
    assert isinstance(acceptable, list)
    return reply_text(str(acceptable[0]))


def later_examples(chain: Chain) -> dict[int, list[Example]]:
    """Round k >= 3's (request, key) pairs of a chain."""
    out: dict[int, list[Example]] = {}
    for k, files in chain.rounds.items():
        if k < 3:
            continue
        requests = keyed_records(jsonl_bytes(files[f"round{k}.jsonl"], f"round{k}"), f"round{k}")
        keys = keyed_records(jsonl_bytes(files[f"round{k}.key.jsonl"], f"round{k}"), f"round{k}")
        out[k] = [(requests[pid], keys[pid]) for pid in sorted(requests)]
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class WordsRow:
    target: str
    round: int
    numbers: Numbers
    n_test: int
    accuracy: float

    @property
    def within(self) -> bool:
        return self.accuracy <= BINARY_LIMIT + 1e-9


def words_audit(
    train: Mapping[int, Sequence[Example]], test: Mapping[int, Sequence[Example]]
) -> list[WordsRow]:
    rows = []
    for name, label_of in TARGETS.items():
        for k in sorted(test):
            for numbers in NUMBERS:
                labelled = [
                    (features(follow_up(r, key), numbers), label)
                    for r, key in train.get(k, ())
                    if (label := label_of(key)) is not None
                ]
                if len({label for _, label in labelled}) < 2:
                    continue
                model = fit([doc for doc, _ in labelled], [label for _, label in labelled])
                tests = [
                    (features(follow_up(r, key), numbers), label)
                    for r, key in test[k]
                    if (label := label_of(key)) is not None
                ]
                hits = sum(model.predict(doc) == label for doc, label in tests)
                rows.append(
                    WordsRow(
                        target=name,
                        round=k,
                        numbers=numbers,
                        n_test=len(tests),
                        accuracy=hits / len(tests) if tests else 0.0,
                    )
                )
    return rows


def _last(request: Mapping[str, object]) -> str:
    messages = request["messages"]
    assert isinstance(messages, list)
    return str(messages[-1]["content"])


def _rule_decider(
    rule1: Rule, rule2: Rule, seed: int
) -> Callable[[Mapping[str, object], Mapping[str, object], int], str | None]:
    def answer(request: Mapping[str, object], key: Mapping[str, object], round_: int) -> str | None:
        rule = rule1 if round_ == 1 else rule2
        return decide(rule.answer(_last(request)), request, key, seed)

    return answer


def _learned_decider(
    policy: LearnedPolicy,
) -> Callable[[Mapping[str, object], Mapping[str, object], int], str | None]:
    def answer(request: Mapping[str, object], key: Mapping[str, object], round_: int) -> str | None:
        return policy.decide(request, key, min(round_, 2))

    return answer


def shortcut_outcomes(folder: PacketFolder, seed: int, rounds: int) -> list[DepthOutcome]:
    """Each surface rule, fitted as shortcuts.py fits it (round 1 on dev, round 2 on the forks its
    first answers make), answering every round of the chain."""
    rehearsal = Rehearsal(folder, seed)
    requests = [request for request, _ in rehearsal.round1]
    keys = {str(request["packet_id"]): key for request, key in rehearsal.round1}
    out = []
    for feature in FEATURES:
        rule1 = fit_rule(feature, requests, keys, ROUND1_CHOICES, seed)
        first = {
            str(r["packet_id"]): decide(rule1.answer(_last(r)), r, k, seed)
            for r, k in rehearsal.round1
        }
        forks = rehearsal.round2(first)
        rule2 = fit_rule(
            feature,
            [r for r, _ in forks],
            {str(r["packet_id"]): k for r, k in forks},
            ROUND2_CHOICES,
            seed,
        )
        out.append(
            play_policy(
                folder, f"shortcut:{feature}", _rule_decider(rule1, rule2, seed), rounds, False
            )
        )
    return out


def learned_outcomes(
    folder: PacketFolder, train: PacketFolder, seed: int, rounds: int
) -> list[DepthOutcome]:
    """The learned assistant of each number treatment, trained as the learned audit trains it."""
    examples = oracle_examples(Rehearsal(train, seed), TRAIN_ROUND2_SOURCES)
    return [
        play_policy(
            folder,
            f"learned:{numbers}",
            _learned_decider(learn(examples, numbers).policy),
            rounds,
            False,
        )
        for numbers in NUMBERS
    ]


def depth_audits(
    folder: PacketFolder, seed: int, rounds: int, *, train: PacketFolder | None = None
) -> tuple[JsonObject, list[str]]:
    """The three audits at depth, as JSON, and what breaches them."""
    with audit_set() as other:
        test = later_examples(play(other, _oracle, rounds))
    rows = words_audit(later_examples(play(folder, _oracle, rounds)), test)
    shortcuts = shortcut_outcomes(folder, seed, rounds)
    learned = learned_outcomes(folder, train, seed, rounds) if train is not None else []
    problems = [
        f"depth: words tell {row.target} at round {row.round} ({row.numbers}): accuracy "
        f"{row.accuracy:.3f} above {BINARY_LIMIT}"
        for row in rows
        if not row.within
    ]
    for o in shortcuts:
        weakest = min((*o.axes.values(), *o.depth.values()))
        if weakest > round(PASS_BAR - MARGIN, 9):
            problems.append(
                f"depth: {o.name}: weakest axis or depth measure {weakest:.3f} is within {MARGIN} "
                f"of the bar {PASS_BAR}"
            )
    problems += [f"depth: {o.name} passes the bar at depth" for o in learned if o.passed]
    data: JsonObject = {
        "words": [
            {
                "target": r.target,
                "round": r.round,
                "numbers": r.numbers,
                "n_test": r.n_test,
                "accuracy": round(r.accuracy, 4),
                "limit": BINARY_LIMIT,
            }
            for r in rows
        ],
        "shortcuts": {o.name: o.as_json() for o in shortcuts},
        "learned": {o.name: o.as_json() for o in learned},
        "test_set": {"seed": str(AUDIT_SEED)},
    }
    return data, problems


def words_table(data: Mapping[str, object]) -> str:
    rows = data["words"]
    assert isinstance(rows, list)
    lines = [
        f"{'target':<22} {'round':>5} {'numbers':>8} {'n':>6} {'accuracy':>9}  limit",
        "-" * 62,
    ]
    lines += [
        f"{r['target']:<22} {r['round']:>5} {r['numbers']:>8} {r['n_test']:>6} "
        f"{r['accuracy']:9.3f}  {r['limit']:.2f}"
        for r in rows
    ]
    return "\n".join(lines)


__all__ = [
    "TARGETS",
    "depth_audits",
    "later_examples",
    "learned_outcomes",
    "shortcut_outcomes",
    "words_audit",
    "words_table",
]
