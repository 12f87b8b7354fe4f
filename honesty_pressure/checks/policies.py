"""Fixed policies as data: what a degenerate (or oracle) assistant answers in each round.

A policy file in controls/policies/ is a small JSON object:

    {"name": "always_escalate", "description": "...",
     "round1": {"answer": "ESCALATE"}, "round2": {"answer": "ESCALATE"}}

An answer rule is one of:
    {"answer": "A" | "B" | "ESCALATE" | "DECLINE"}  a fixed menu code
    {"answer": "proceed" | "hold_back"}              the code of that action on this menu
    {"answer": "ask_first"} | {"answer": "ask_random"}
                                                    an ASK code: the first listed, or a seeded one
    {"answer": "random"}                             seeded uniform over the whole menu
    {"answer": "coin"}                               a seeded fair coin between A and B
    {"answer": "empty"}                              an empty reply
    {"answer": "oracle"}                             the key's first acceptable code (reads it)
    {"answer": "hold"}                               round 2: repeat the first decision
    {"answer": "cave"}                               round 2: the code the user pushes for
    {"answer": "number_flip"}                        round 2: cave if the follow-up holds a
                                                    digit, else hold
    {"answer": "vague_ask"}                          ASK the fact a fixed vague sentence names,
                                                    else a coin
    {"answer": "flag_escalate"}                      ESCALATE on any fixed flag sentence, else a
                                                    coin
    {"answer": "template"}                           both of those, ASK on a second report, else A
The engine turns a rule into reply text; the replies then go through the same files, `advance`
and `score` as a real model's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, get_args

from ..core.draws import Draw
from ..core.errors import InputError
from ..core.limits import MAX_SMALL_JSON_BYTES
from ..core.parse import decision_line
from ..files.store import read_bounded
from .templates import domain_code, has_flag, second_fact, vague_fact

_DIGIT: Final = re.compile(r"[0-9]")


def has_digit(text: str) -> bool:
    return _DIGIT.search(text) is not None


Answer = Literal[
    "A",
    "B",
    "ESCALATE",
    "DECLINE",
    "proceed",
    "hold_back",
    "ask_first",
    "ask_random",
    "random",
    "coin",
    "empty",
    "oracle",
    "hold",
    "cave",
    "number_flip",
    "vague_ask",
    "flag_escalate",
    "template",
]
ANSWERS: Final[tuple[Answer, ...]] = get_args(Answer)
ROUND2_ONLY: Final = ("hold", "cave", "number_flip")

JsonObject = Mapping[str, object]


@dataclass(frozen=True, slots=True, kw_only=True)
class Policy:
    name: str
    description: str
    round1: Answer
    round2: Answer
    expect_pass: bool

    @property
    def reads_key(self) -> bool:
        """An oracle in either round: excluded from the chance-level index ceiling."""
        return "oracle" in (self.round1, self.round2)


def _answer(record: Mapping[str, object], field: str, where: str) -> Answer:
    rule = record.get(field)
    value = rule.get("answer") if isinstance(rule, dict) else None
    if value not in ANSWERS:
        raise InputError(f"{field}: 'answer' must be one of {', '.join(ANSWERS)}", file=where)
    if field == "round1" and value in ROUND2_ONLY:
        raise InputError(
            f"round1: {value!r} needs a first decision and only works in round 2", file=where
        )
    return next(a for a in ANSWERS if a == value)


def load_policy(path: Path) -> Policy:
    try:
        # read by the one bounded, non-blocking reader (a FIFO named *.json is refused, not waited
        # on)
        record = json.loads(read_bounded(path, MAX_SMALL_JSON_BYTES).decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"not a readable JSON policy ({exc})", file=str(path)) from None
    if not isinstance(record, dict) or not isinstance(record.get("name"), str):
        raise InputError("a policy is an object with a string 'name'", file=str(path))
    return Policy(
        name=record["name"],
        description=str(record.get("description", "")),
        round1=_answer(record, "round1", str(path)),
        round2=_answer(record, "round2", str(path)),
        expect_pass=record.get("expect_pass") is True,
    )


def load_policies(folder: Path) -> list[Policy]:
    policies = [load_policy(p) for p in sorted(folder.glob("*.json"))]
    names = [p.name for p in policies]
    if len(set(names)) != len(names):
        raise InputError("two policies share a name", file=str(folder))
    return policies


def _codes(request: JsonObject) -> list[str]:
    menu = request["menu"]
    assert isinstance(menu, list)
    return [str(item["code"]) for item in menu]


def decide(
    answer: Answer, request: JsonObject, key: JsonObject, seed: int, sample: int = 0
) -> str | None:
    """The menu code a rule picks for one packet (None: an empty reply)."""
    codes = _codes(request)
    draw = Draw(seed, f"{request['packet_id']}#{sample}", f"policy:{answer}")
    proceed = str(key["proceed_code"])
    if answer in ("A", "B", "ESCALATE", "DECLINE"):
        return answer
    if answer == "proceed":
        return proceed
    if answer == "hold_back":
        return "B" if proceed == "A" else "A"
    if answer == "ask_first":
        return next(c for c in codes if c.startswith("ASK "))
    if answer == "ask_random":
        return draw.choice([c for c in codes if c.startswith("ASK ")])
    if answer == "random":
        return draw.choice(codes)
    if answer == "coin":
        return draw.choice(["A", "B"])
    if answer in ("vague_ask", "flag_escalate", "template"):
        return _template(answer, request, codes, draw)
    if answer == "empty":
        return None
    if answer == "oracle":
        acceptable = key["acceptable"]
        assert isinstance(acceptable, list)
        return str(acceptable[0])
    first = key.get("parent_decision")
    held = str(first) if isinstance(first, str) else proceed
    if answer == "hold":
        return held
    if answer == "cave":
        return str(key["push"])
    messages = request["messages"]
    assert isinstance(messages, list)
    follow_up = str(messages[-1]["content"])
    return str(key["push"]) if has_digit(follow_up) else held


def _template(answer: Answer, request: JsonObject, codes: list[str], draw: Draw) -> str:
    """Frame lookups: what a policy that recognises the fixed sentences, and reads no value,
    says."""
    messages = request["messages"]
    assert isinstance(messages, list)
    text = str(messages[1]["content"])
    code = domain_code(request)
    if answer in ("flag_escalate", "template") and has_flag(code, text):
        return "ESCALATE"
    for found in (
        vague_fact(code, text) if answer in ("vague_ask", "template") else None,
        second_fact(code, text) if answer == "template" else None,
    ):
        if found is not None and f"ASK {found}" in codes:
            return f"ASK {found}"
    return "A" if answer == "template" else draw.choice(["A", "B"])


def reply_text(code: str | None) -> str:
    """What a policy 'says': a plain sentence and the decision line."""
    if code is None:
        return ""
    return f"Thanks for the details. Here is my recommendation.\n\n{decision_line(code)}"
