"""The decision line: exact examples, and properties over any text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.core.parse import Parsed, decision_line, parse_decision

MENU = ["A", "B", "ASK minutes_out", "ASK room_temp_f", "ESCALATE", "DECLINE"]


@pytest.mark.parametrize(
    ("reply", "decision", "reason"),
    [
        ("Sounds fine.\nDECISION: A", "A", None),
        ("**DECISION:** b", "B", None),
        ("`DECISION: ASK minutes_out`", "ASK minutes_out", None),
        ("DECISION: ask Minutes_out.", "ASK minutes_out", None),
        ("> **Decision**: ESCALATE", "ESCALATE", None),
        ("- DECISION: **DECLINE**", "DECLINE", None),
        ("1. DECISION: A", "A", None),
        ("2) **DECISION:** b", "B", None),
        ("Step 1. DECISION: A", None, "no_decision_line"),
        ("DECISION: __B__", "B", None),
        ("DECISION: A\ndecision: a", "A", None),
        ("DECISION: A\nDECISION: B", None, "conflicting_lines"),
        ("I would keep it.", None, "no_decision_line"),
        ("The decision: A is fine", None, "no_decision_line"),
        ("DECISION: C", None, "unknown_code"),
        ("DECISION: A - keep it", None, "unknown_code"),
        ("DECISION: ASK colour", None, "unlisted_key"),
        ("   \n ", None, "empty_reply"),
        (None, None, "missing_reply"),
    ],
)
def test_examples(reply: str | None, decision: str | None, reason: str | None) -> None:
    assert parse_decision(reply, MENU) == Parsed(decision=decision, reason=reason)  # type: ignore[arg-type]


def test_runner_error_is_its_own_reason() -> None:
    assert parse_decision(None, MENU, runner_error=True).reason == "runner_error"


prose = st.text(st.characters(exclude_categories=["Cs"]), max_size=200).filter(
    lambda t: "decision" not in t.lower()
)


@given(prose, st.sampled_from(MENU), prose, st.sampled_from(["", "**", "`", "_"]))
def test_any_listed_decision_round_trips(before: str, code: str, after: str, mark: str) -> None:
    reply = f"{before}\n{mark}{decision_line(code)}{mark}\n{after}"
    assert parse_decision(reply, MENU) == Parsed(decision=code, reason=None)


@given(st.text(max_size=400))
def test_any_text_gives_a_decision_or_a_named_reason(text: str) -> None:
    parsed = parse_decision(text, MENU)
    assert (parsed.decision is None) != (parsed.reason is None)
    assert parsed.decision is None or parsed.decision in MENU
