"""Chains that read like people (issue 45, item 4): after a reply that gives in the next turn is a
check, not a push for what the assistant just chose; a sign-off ends its message (docs/FORKS.md,
point 9)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import lru_cache

from honesty_pressure.checks.policies import reply_text
from honesty_pressure.files.store import JsonObject
from honesty_pressure.rounds.chain import Chain, play
from honesty_pressure.rounds.followups import CLOSING, NEUTRAL
from tests.rounds.test_sustained import keep, quick


def _mixed(request: JsonObject, key: Mapping[str, object], round_: int) -> str:
    """A model of four habits, chosen per packet by a hash: gives in to the push, answers as the
    key says, repeats its last answer, or answers the other action. Round 1: as the key says."""
    acceptable = key["acceptable"]
    assert isinstance(acceptable, list)
    habit = hashlib.sha256(str(request["packet_id"]).encode()).digest()[0] % 4
    push, last = key.get("push"), key.get("parent_decision")
    if round_ == 1 or habit == 1 or not isinstance(push, str):
        return reply_text(str(acceptable[0]))
    if habit == 0:
        return reply_text(push)
    if habit == 2 and isinstance(last, str):
        return reply_text(last)
    return reply_text("B" if push == "A" else "A")


@lru_cache(maxsize=1)
def mixed_chain() -> Chain:
    """One small chain to round 5 (about one source in eight of the quick layer), shared by the
    tests below: its model gives in often, so checks, flips and flip-backs all occur."""
    return play(quick(), _mixed, 5, keep=keep)


def _keys(k: int) -> list[dict[str, object]]:
    return [
        json.loads(line) for line in mixed_chain().rounds[k][f"round{k}.key.jsonl"].splitlines()
    ]


def _last_messages(k: int) -> dict[str, str]:
    out = {}
    for line in mixed_chain().rounds[k][f"round{k}.jsonl"].splitlines():
        request = json.loads(line)
        out[str(request["packet_id"])] = str(request["messages"][-1]["content"])
    return out


def test_no_push_of_rounds_3_to_5_asks_for_what_the_previous_reply_chose() -> None:
    checks = pushes = 0
    for k in (3, 4, 5):
        for key in _keys(k):
            assert key["fork"] in ("pressure", "neutral"), key["packet_id"]
            if key["fork"] == "pressure":
                pushes += 1
                assert key["push"] != key["parent_decision"], key["packet_id"]
            else:
                # A check comes only where the parent reply chose the thread's pushed action.
                checks += 1
                assert key["push"] == key["parent_decision"], key["packet_id"]
    assert checks > 50 and pushes > 500, (checks, pushes)


def test_a_check_is_the_neutral_check_in_under_the_rules_key() -> None:
    every_neutral = set(NEUTRAL.every)
    checked = 0
    for k in (3, 4, 5):
        parents = {str(key["packet_id"]): key for key in _keys(k - 1)}
        said = _last_messages(k)
        for key in _keys(k):
            if key["fork"] != "neutral":
                continue
            parent = parents[str(key["parent"])]
            assert key["pressure"] is None and key["edit"] is None
            # The thread keeps its direction and its key: the ledger does not change after round 2.
            assert key["direction"] == parent["direction"]
            assert key["push_back"] == parent["push_back"]
            assert key["acceptable"] == parent["acceptable"]
            assert key["thread"] == parent.get("thread", parent["fork"])
            assert said[str(key["packet_id"])] in every_neutral
            checked += 1
    assert checked > 50


def test_a_sign_off_ends_its_message_from_round_3_and_round_2_is_as_it_was() -> None:
    closings = set(CLOSING.every)
    seen = 0
    for k in (3, 4, 5):
        said = _last_messages(k)
        for key in _keys(k):
            pid = str(key["packet_id"])
            if key["fork"] != "pressure" or pid not in said:
                continue
            text = said[pid]
            if key["pressure"] == "polite_disengagement" and key["direction"] == "risk":
                seen += 1
                assert "?" not in text and not any(c in text for c in closings), text
            else:
                assert any(text.endswith(c) for c in closings), text
    assert seen > 10
    # Round 2 keeps the closing question after a sign-off (its forks do not change).
    said = _last_messages(2)
    signed = [
        said[str(key["packet_id"])]
        for key in _keys(2)
        if key["pressure"] == "polite_disengagement"
        and key["direction"] == "risk"
        and str(key["packet_id"]) in said
    ]
    assert signed and all(any(t.endswith(c) for c in closings) for t in signed)
