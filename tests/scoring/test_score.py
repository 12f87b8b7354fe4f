"""Matching replies to packets, verdicts, and the round-1 summary."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.core.errors import InputError
from honesty_pressure.files.layer import load_layer
from honesty_pressure.scoring.score import judge, match
from honesty_pressure.scoring.summary import round1_summary
from tests.replies import constant, envelopes, oracle

ROOT = Path(__file__).resolve().parents[2]
QUICK = load_layer(ROOT / "packets", "quick")


def summary_for(envs: list) -> dict:  # type: ignore[type-arg]
    matched = match(envs, QUICK.round1, QUICK.packet_set)
    records = judge(QUICK.round1, QUICK.key, matched)
    return round1_summary([(r, QUICK.key[r.packet_id]) for r in records], seed=1)


def test_oracle_scores_one_on_both_axes() -> None:
    summary = summary_for(envelopes(QUICK.round1, QUICK.key, oracle))
    axes = summary["axes"]
    assert axes["evidence_tracking"]["value"] == 1.0
    assert axes["control_stability"]["rate"] == 1.0
    assert summary["unscorable"]["total"]["k"] == 0
    assert all(f["acceptable"]["rate"] == 1.0 for f in summary["families"].values())


def test_always_escalate_gets_only_red_flags() -> None:
    summary = summary_for(envelopes(QUICK.round1, QUICK.key, constant("ESCALATE")))
    fam = summary["families"]
    assert fam["red_flag"]["acceptable"]["rate"] == 1.0
    assert fam["original"]["acceptable"]["k"] == 0
    assert summary["axes"]["control_stability"]["rate"] == 0.0


def test_missing_replies_stay_in_the_denominator() -> None:
    envs = envelopes(QUICK.round1, QUICK.key, oracle)[10:]
    summary = summary_for(envs)
    assert summary["unscorable"]["by_reason"]["missing_reply"]["k"] == 10
    total = sum(f["n"] for f in summary["families"].values())
    assert total == len(QUICK.round1)


def test_reply_to_another_packet_set_is_rejected() -> None:
    env = envelopes(QUICK.round1, QUICK.key, oracle)[0]
    other = dataclasses.replace(env, ref=f"{env.ref}_0123456789ab")
    with pytest.raises(InputError) as err:
        match([other], QUICK.round1, QUICK.packet_set)
    assert (
        err.value.one_line()
        == "replies.jsonl:1: reply to packet set 0123456789ab, but these packets are set "
        f"{QUICK.packet_set}"
    )


def test_unknown_packet_and_bad_hash_and_conflicting_duplicate() -> None:
    env = envelopes(QUICK.round1, QUICK.key, oracle)[0]
    with pytest.raises(InputError, match="reply to unknown packet 'zzz-000-abcdef'"):
        match([dataclasses.replace(env, ref="zzz-000-abcdef")], QUICK.round1, QUICK.packet_set)
    with pytest.raises(InputError, match="request_sha256 does not match"):
        match([dataclasses.replace(env, request_sha256="0" * 64)], QUICK.round1, QUICK.packet_set)
    twin = dataclasses.replace(env, reply="DECISION: DECLINE", line=9)
    with pytest.raises(InputError) as err:
        match([env, twin], QUICK.round1, QUICK.packet_set)
    assert "replies.jsonl:9: a different reply for packet" in err.value.one_line()
    assert len(match([env, dataclasses.replace(env, line=2)], QUICK.round1, QUICK.packet_set)) == 1


@settings(max_examples=5)
@given(st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_reply_order(rng) -> None:  # type: ignore[no-untyped-def]
    envs = envelopes(QUICK.round1, QUICK.key, constant("A")) + envelopes(
        QUICK.round1, QUICK.key, oracle, sample=1
    )
    shuffled = list(envs)
    rng.shuffle(shuffled)
    assert summary_for(shuffled) == summary_for(envs)


def test_samples_all_count_and_all_acceptable_share() -> None:
    envs = envelopes(QUICK.round1, QUICK.key, oracle) + envelopes(
        QUICK.round1, QUICK.key, constant("DECLINE"), sample=1
    )
    summary = summary_for(envs)
    n = len(QUICK.round1)
    assert sum(f["n"] for f in summary["families"].values()) == 2 * n
    assert summary["all_samples_acceptable"]["k"] == 0
