"""The fast decision parser and the per-packet summary give exactly what the row-by-row versions
gave (tests/reference holds them, verbatim): same decisions, same reasons, same JSON."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.core.construct import REASONS
from honesty_pressure.core.parse import parse_decision
from honesty_pressure.scoring.score import Record
from honesty_pressure.scoring.summary import fork_summary, round1_summary
from tests.reference import parse_v1, summary_v1

MENU = ["A", "B", "ASK minutes_out", "ASK room_temp_f", "ESCALATE", "DECLINE"]

# Text built from the pieces that matter to the parser: decision words in any case, markup, colons
# (the ASCII path looks only at lines with one), every line break `splitlines` knows, reasoning
# tags, non-ASCII look-alikes, and codes from the menu and off it.
pieces = st.sampled_from(
    [
        "DECISION",
        "decision",
        "Decision",
        "dEcIsIoN",
        "DECİSION",
        "deciſion",
        ":",
        "：",
        " ",
        "**",
        "`",
        "_",
        "__",
        "> ",
        "# ",
        "- ",
        "1. ",
        "2) ",
        "\n",
        "\r\n",
        "\r",
        "\v",
        "\f",
        "\x1c",
        "\x1d",
        "\x1e",
        "\x85",
        "\u2028",
        "\u2029",
        "<think>",
        "</think>",
        "<THINKING>",
        "</reasoning>",
        "A",
        "b",
        "ASK minutes_out",
        "ask Room_Temp_F",
        "ASK colour",
        "ESCALATE",
        "decline",
        "C",
        "A - keep it",
        ".",
        "!",
        "<",
        ">",
        "(",
        ")",
        "é",
        "ß",
        "Some advice here.",
        "\t",
        "  ",
    ]
)
texts = st.one_of(st.lists(pieces, max_size=14).map("".join), st.text(max_size=120))


@given(texts, st.booleans())
def test_the_fast_parser_reads_every_text_as_before(text: str, error: bool) -> None:
    new, old = (
        parse_decision(text, MENU, runner_error=error),
        parse_v1.parse_decision(text, MENU, runner_error=error),
    )
    assert (new.decision, new.reason) == (old.decision, old.reason)


# ---- summaries ----------------------------------------------------------------------------------

FAMILIES = [
    "original",
    "paraphrase",
    "distractor",
    "missing",
    "alternative",
    "alternative_hard",
    "conflicting",
    "red_flag",
    "benign_flag",
    "brand_new",
]
OUTCOMES: list[tuple[str | None, str, str | None]] = [
    ("A", "acceptable", None),
    ("B", "forbidden", None),
    ("ASK minutes_out", "other", None),
    ("ESCALATE", "other", None),
    ("DECLINE", "forbidden", None),
    *((None, "unscorable", reason) for reason in REASONS),
]
outcome_codes = st.integers(0, len(OUTCOMES) - 1)


def _rows(
    packets: list[tuple[dict[str, object], list[int]]],
) -> list[tuple[Record, Mapping[str, object]]]:
    rows: list[tuple[Record, Mapping[str, object]]] = []
    for index, (key, codes) in enumerate(packets):
        pid = f"p{index:03d}"
        for sample, code in enumerate(codes):
            decision, verdict, reason = OUTCOMES[code]
            record = Record(
                packet_id=pid,
                sample=sample,
                decision=decision,
                verdict=verdict,
                reason=reason,
                reply_sha256=None,
            )  # type: ignore[arg-type]
            rows.append((record, key))
    return rows


@st.composite
def round1_packets(draw: st.DrawFn) -> list[tuple[dict[str, object], list[int]]]:
    samples = draw(st.integers(1, 4))
    count = draw(st.integers(1, 40))
    out: list[tuple[dict[str, object], list[int]]] = []
    for _ in range(count):
        key: dict[str, object] = {
            "source_id": f"s{draw(st.integers(0, 7))}",
            "family": draw(st.sampled_from(FAMILIES)),
            "domain": draw(st.sampled_from(["d1", "d2"])),
            "state": draw(st.sampled_from(["sufficient", "insufficient", "escalation"])),
        }
        out.append((key, draw(st.lists(outcome_codes, min_size=samples, max_size=samples))))
    return out


@st.composite
def fork_packets(draw: st.DrawFn) -> list[tuple[dict[str, object], list[int]]]:
    samples = draw(st.integers(1, 3))
    count = draw(st.integers(1, 40))
    out: list[tuple[dict[str, object], list[int]]] = []
    for _ in range(count):
        parent = draw(st.integers(0, 9))
        key: dict[str, object] = {
            "source_id": f"s{parent % 4}",
            "fork": draw(
                st.sampled_from(
                    ["neutral", "pressure", "evidence_change", "evidence_confirm", "odd_kind"]
                )
            ),
            "pressure": draw(
                st.sampled_from(["social_pressure", "authority_trust", "provider_trust", None])
            ),
            "push": draw(st.sampled_from(["A", "B"])),
            "proceed_code": "A",
            "parent": f"q{parent}",
            "parent_sample": draw(st.integers(0, 1)),
            "parent_decision": draw(st.sampled_from(["A", "B", None, "ESCALATE"])),
            "parent_acceptable": draw(st.sampled_from([["A"], ["B"], ["ESCALATE", "B"]])),
            "domain": draw(st.sampled_from(["d1", "d2"])),
            "state": draw(st.sampled_from(["sufficient", "insufficient"])),
            "family": "original",
        }
        out.append((key, draw(st.lists(outcome_codes, min_size=samples, max_size=samples))))
    return out


@given(round1_packets(), st.integers(0, 3))
def test_round1_summary_is_as_before(
    packets: list[tuple[dict[str, object], list[int]]], seed: int
) -> None:
    rows = _rows(packets)
    scale = {"quick": 0.5, "full": 2.0}
    assert round1_summary(rows, seed=seed, layer_scale=scale) == summary_v1.round1_summary(
        rows, seed=seed, layer_scale=scale
    )


@given(fork_packets(), st.integers(0, 3))
def test_fork_summary_is_as_before(
    packets: list[tuple[dict[str, object], list[int]]], seed: int
) -> None:
    rows = _rows(packets)
    assert fork_summary(rows, seed=seed) == summary_v1.fork_summary(rows, seed=seed)
