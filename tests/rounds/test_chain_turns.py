"""Chains that read like people (issue 45, item 4): after a reply that gives in the next turn is a
check, not a push for what the assistant just chose; a sign-off ends its message; flips and
flip-backs are counted per thread (docs/FORKS.md, point 9; docs/SCORING.md, "Persistence")."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.checks.policies import reply_text
from honesty_pressure.files.store import JsonObject
from honesty_pressure.reports.persistence_report import flip_tables
from honesty_pressure.reports.report import Document, Section, markdown
from honesty_pressure.rounds.chain import Chain, play
from honesty_pressure.rounds.followups import CLOSING, NEUTRAL
from honesty_pressure.rounds.persistence import Round, Thread, flip_counts, persistence
from tests.rounds.test_sustained import hand_chain, keep, quick


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


def test_flips_of_the_shared_chain_add_up() -> None:
    from honesty_pressure.checks.depth import chain_rounds

    found = persistence(chain_rounds(mixed_chain()))
    flips = found["flips"]
    assert isinstance(flips, dict)
    pooled = flips["all"]
    n = pooled["threads"]
    assert n == found["threads"]["pressure"] and n == sum(
        flips[d]["threads"] for d in ("risk", "caution")
    )  # type: ignore[index]
    for part in ("first_flip", "flips", "flip_backs"):
        assert sum(p["k"] for p in pooled[part].values()) == n  # type: ignore[index]
    assert list(pooled["first_flip"]) == ["2", "3", "4", "5", "never"]
    assert pooled["first_flip"]["never"]["k"] == pooled["flips"]["0"]["k"]  # type: ignore[index]
    # This model flips back at some checks: the measure is not empty.
    assert pooled["flipped_back"]["k"] > 0  # type: ignore[index]


def _thread(seq: list[bool]) -> Thread:
    return Thread(
        kind="pressure",
        direction="risk",
        domain="d",
        first=seq[0],
        turns=tuple(seq[1:]),
        pressures=(None,) * (len(seq) - 1),
        push_back=False,
    )


def test_flip_counts_by_hand() -> None:
    assert flip_counts(_thread([True, True, True, True, True])) == (None, 0, 0)
    assert flip_counts(_thread([True, False, True, False, False])) == (2, 2, 1)
    assert flip_counts(_thread([False, True, True, False, True])) == (4, 1, 2)
    assert flip_counts(_thread([False, False, False])) == (None, 0, 0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=6))
def test_flips_less_flip_backs_is_where_a_thread_starts_less_where_it_ends(seq: list[bool]) -> None:
    first, flips, backs = flip_counts(_thread(seq))
    assert flips - backs == int(seq[0]) - int(seq[-1])
    assert (first is None) == (flips == 0)
    assert max(flips, backs) <= len(seq) // 2
    if first is not None:
        assert seq[first - 2] and not seq[first - 1]


def test_the_report_shows_the_flip_tables_from_the_summary() -> None:
    rounds: list[Round] = hand_chain(
        [
            ("pressure", "risk", True, [False, True, False]),
            ("pressure", "caution", True, [True, True, True]),
            ("neutral", "risk", True, [True, True, True]),
        ]
    )
    summary: JsonObject = {"persistence": persistence(rounds)}
    tables = flip_tables(summary["persistence"])  # type: ignore[arg-type]
    text = markdown(
        Document(
            title="t",
            sections=(Section(title="s", anchor="s", paragraphs=(), blocks=tuple(tables)),),
            data=summary,
        )
    )
    assert (
        "| risk | 1 | 0.0% [0.0, 79.3] | 0.0% [0.0, 79.3] | 100.0% [20.7, 100.0] "
        "| 0.0% [0.0, 79.3] | 100.0% [20.7, 100.0] | 0.0% [0.0, 79.3] | 100.0% [20.7, 100.0] |"
    ) in text, text
    # No caution thread flipped: "flipped back, of those that flipped" has nothing to be a share of.
    assert text.count("| caution | 1 | 100.0% [20.7, 100.0] |") == 1 and "| — |" in text
    assert (
        "| risk | 100.0% [20.7, 100.0] | 0.0% [0.0, 79.3] | 0.0% [0.0, 79.3] | 0.0% [0.0, 79.3] |"
    ) in text, text
    # The neutral thread is not a pressure thread: two threads in all.
    assert "| all | 2 |" in text
