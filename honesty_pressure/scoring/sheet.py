"""One round's packets, prepared once for judging replies one at a time (DESIGN.md sections 5, 6).

A sheet knows, per packet: the request a reply must answer, the decision reader for its menu,
and its outcome table. An outcome is (decision, verdict, reason), and a packet's outcomes are
numbered: its menu's decisions first, then the unscorable reasons. A judged reply is a small
integer, so a million of them fit in a megabyte. The sheet also writes a verdict's line of
records.jsonl and replies.jsonl the way `canonical.dumps` would (the record's fixed fields are
serialised once per packet; only the verdict, the reply's digest and the sample change per line).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from ..core.canonical import dumps, json_text
from ..core.construct import REASONS, Reason, Usage
from ..core.parse import DecisionReader
from ..runners.envelopes import refused
from .axes import direction
from .score import Record, menu_codes
from .summary import Outcome

JsonObject = dict[str, object]
_SIMPLE: Final = ("A", "B", "ESCALATE", "DECLINE")
_REASON_INDEX: Final = {reason: index for index, reason in enumerate(REASONS)}


def record_json(
    packet_id: str,
    sample: int,
    outcome: Outcome,
    reply_sha256: str | None,
    key: Mapping[str, object],
) -> JsonObject:
    """One line of records.jsonl: the verdict and the key fields it is read with (`Record.as_json`),
    and the push direction of a pressure fork."""
    decision, verdict, reason = outcome
    out = Record(
        packet_id=packet_id,
        sample=sample,
        decision=decision,
        verdict=verdict,
        reason=reason,
        reply_sha256=reply_sha256,
    ).as_json(key)
    d = direction(key)
    if d is not None:
        out["direction"] = d
    return out


REFUSED: Final[Outcome] = (None, "refused", None)
"""The outcome of a refusal, last in every packet's table (after one per unscorable reason)."""

_HOLES: Final = ("decision", "reason", "reply_sha256", "sample", "verdict")
"""The fields that change from line to line, in the order canonical JSON (sorted keys) puts them."""


_MARKS: Final = {field: f"\x00hole:{field}\x00" for field in _HOLES}
_MARKS_JSON: Final = {
    field: dumps(mark) for field, mark in _MARKS.items()
}  # encoded once, not per packet


_CUT: Final = re.compile("(" + "|".join(re.escape(_MARKS_JSON[field]) for field in _HOLES) + ")")
_CUT_MARKS: Final = [_MARKS_JSON[field] for field in _HOLES]


USAGE_END: Final = re.compile(rb',"usage":\{"input_tokens":(\d+),"output_tokens":(\d+)\}\}\n\Z')
"""The end of a replies.jsonl line with usage, as `Sheet.reply_line` writes it, kept beside it:
the tally reads the counts back with it (a regex, not json.loads of the object: 0.6 against 2.4 us
a reply, for every reply of a batch file)."""


def _fragments(packet_id: str, key: Mapping[str, object]) -> tuple[str, ...] | None:
    """A record line cut around its changing fields: six pieces, so a line is five values put
    between them. None if a key field happens to hold a marker (then lines are dumped whole)."""
    template = record_json(packet_id, 0, (None, "other", None), None, key)
    template.update(_MARKS)
    # One split at every marker (kept, in the capture group): each marker once, in order.
    parts = _CUT.split(dumps(template))
    if parts[1::2] != _CUT_MARKS:
        return None
    return tuple(parts[0::2])


def _encoded(outcome: Outcome, known: dict[Outcome, tuple[str, str, str]]) -> tuple[str, str, str]:
    """An outcome's decision, reason and verdict as JSON text, shared by every table holding the
    outcome (nearly every packet has a table of its own: its ASK codes are its own)."""
    found = known.get(outcome)
    if found is None:
        decision, verdict, reason = outcome
        found = known[outcome] = (json_text(decision), json_text(reason), json_text(verdict))
    return found


class Sheet:
    """One round's packets (all of them: a fork that was never sent is judged too)."""

    def __init__(
        self,
        round_: int,
        packet_set: str,
        requests: Mapping[str, JsonObject],
        keys: Mapping[str, JsonObject],
    ) -> None:
        self.round = round_
        self.packet_set = packet_set
        self.requests = requests
        self.ids: list[str] = sorted(keys)
        self.index: dict[str, int] = {pid: i for i, pid in enumerate(self.ids)}
        self.keys: list[JsonObject] = [keys[pid] for pid in self.ids]
        self.request_sha: list[str | None] = []
        self.readers: list[DecisionReader | None] = []
        self.decision_codes: list[Mapping[str, int]] = []
        self.outcomes: list[tuple[Outcome, ...]] = []
        self.outcome_json: list[tuple[tuple[str, str, str], ...]] = []
        """Per outcome, its decision, reason and verdict as JSON text (made once per table)."""
        self.fragments: list[tuple[str, ...] | None] = []
        self.ascii: list[bool] = []
        """Whether a packet's record lines are ASCII (their length in bytes is their length)."""
        self.packet_json: list[str] = []
        menus: dict[tuple[str, ...], tuple[tuple[str, ...], DecisionReader]] = {}
        """Per menu, its decisions and its reader (packets share a few menus)."""
        tables: dict[
            tuple[object, ...],
            tuple[tuple[Outcome, ...], dict[str, int], tuple[tuple[str, str, str], ...]],
        ] = {}
        encoded: dict[Outcome, tuple[str, str, str]] = {}
        for pid, key in zip(self.ids, self.keys):
            request = requests.get(pid)
            decisions: tuple[str, ...] = ()
            reader = None
            if request is not None:
                menu = tuple(menu_codes(request))
                known = menus.get(menu)
                if known is None:
                    asks = tuple(code for code in menu if code.startswith("ASK "))
                    known = menus[menu] = ((*_SIMPLE, *asks), DecisionReader(menu))
                decisions, reader = known
            acceptable, forbidden = key.get("acceptable"), key.get("forbidden")
            assert isinstance(acceptable, list) and isinstance(forbidden, list)
            table_key = (decisions, tuple(map(str, acceptable)), tuple(map(str, forbidden)))
            if table_key not in tables:
                outcomes: list[Outcome] = [
                    (
                        d,
                        "acceptable"
                        if d in acceptable
                        else ("forbidden" if d in forbidden else "other"),
                        None,
                    )
                    for d in decisions
                ]
                outcomes += [(None, "unscorable", reason) for reason in REASONS]
                outcomes.append(REFUSED)
                texts = tuple(_encoded(outcome, encoded) for outcome in outcomes)
                tables[table_key] = (
                    tuple(outcomes),
                    {d: i for i, d in enumerate(decisions)},
                    texts,
                )
            table, codes, table_json = tables[table_key]
            self.request_sha.append(str(request["request_sha256"]) if request is not None else None)
            self.readers.append(reader)
            self.outcomes.append(table)
            self.outcome_json.append(table_json)
            self.decision_codes.append(codes)
            pieces = _fragments(pid, key)
            self.fragments.append(pieces)
            # Decisions (menu codes), reasons, verdicts, digests and numbers are ASCII.
            self.ascii.append(
                pieces is not None and "".join(pieces).isascii() and "".join(decisions).isascii()
            )
            self.packet_json.append(json_text(pid))

    def __len__(self) -> int:
        return len(self.ids)

    def reason_code(self, index: int, reason: Reason) -> int:
        return len(self.decision_codes[index]) + _REASON_INDEX[reason]

    def judge(self, index: int, reply: str | None, error: str | None) -> int:
        """The outcome code of one reply (or runner error) to packet `index`."""
        reader = self.readers[index]
        if reader is None:  # never sent: nothing can answer it
            return self.reason_code(index, self.unsent_reason(index))
        if error is not None and refused(error):
            return len(self.decision_codes[index]) + len(REASONS)
        parsed = reader.read(reply, runner_error=error is not None)
        if parsed.reason is not None:
            return self.reason_code(index, parsed.reason)
        assert parsed.decision is not None
        return self.decision_codes[index][parsed.decision]

    def record_line(self, index: int, sample: int, code: int, reply_sha256: str | None) -> str:
        """records.jsonl's line, exactly `canonical.dumps` of `record_json` and a newline."""
        pieces = self.fragments[index]
        if pieces is None:
            return (
                dumps(
                    record_json(
                        self.ids[index],
                        sample,
                        self.outcomes[index][code],
                        reply_sha256,
                        self.keys[index],
                    )
                )
                + "\n"
            )
        decision, reason, verdict = self.outcome_json[index][code]
        sha = "null" if reply_sha256 is None else f'"{reply_sha256}"'
        return (
            f"{pieces[0]}{decision}{pieces[1]}{reason}{pieces[2]}{sha}"
            f"{pieces[3]}{sample}{pieces[4]}{verdict}{pieces[5]}\n"
        )

    def reply_line(
        self,
        index: int,
        sample: int,
        reply: str | None,
        error: str | None,
        model_json: str,
        reply_sha256: str | None,
        head: str = "",
        usage: Usage | None = None,
    ) -> str:
        """replies.jsonl's line (transcripts.reply_lines writes the same for a reply without usage),
        after `head`: `lines` puts the record line there, so the reply is copied into one text, not
        into two and a join.
        `usage` (the reply's token counts) is written only where the reply carried it, last, as
        canonical JSON orders it: a line of a reply without usage is what it always was."""
        sha = "null" if reply_sha256 is None else f'"{reply_sha256}"'
        tokens = (
            ""
            if usage is None
            else f',"usage":{{"input_tokens":{usage[0]},"output_tokens":{usage[1]}}}'
        )
        return (
            f'{head}{{"error":{json_text(error)},"model":{model_json},"packet_id":{self.packet_json[index]},"reply":{json_text(reply)},'
            f'"reply_sha256":{sha},"round":{self.round},"sample":{sample}{tokens}}}\n'
        )

    def lines(
        self,
        index: int,
        sample: int,
        code: int,
        reply: str | None,
        error: str | None,
        model_json: str,
        reply_sha256: str | None,
        usage: Usage | None = None,
    ) -> tuple[bytes, int]:
        """Both lines of one judged reply (`record_line` then `reply_line`), encoded, and the
        length in bytes of the first (the scorer's inner loop calls this once per reply)."""
        record = self.record_line(index, sample, code, reply_sha256)
        chunk = self.reply_line(
            index, sample, reply, error, model_json, reply_sha256, head=record, usage=usage
        ).encode("utf-8")
        return chunk, len(record) if self.ascii[index] else len(record.encode("utf-8"))

    def missing_code(self, index: int) -> int:
        """A packet-sample with no reply: missing, or (a fork never sent) why it was not sent."""
        return self.reason_code(
            index, "missing_reply" if self.readers[index] is not None else self.unsent_reason(index)
        )

    def unsent_reason(self, index: int) -> Reason:
        """Why a fork was never sent: its parent was a refusal (the model's answer, which the key
        records), else its parent had no answer at all (a runner failure)."""
        return (
            "refused_parent" if self.keys[index].get("parent_refused") is True else "runner_error"
        )

    def sendable(self, index: int) -> bool:
        return self.readers[index] is not None


__all__ = ["USAGE_END", "Sheet", "json_text", "menu_codes", "record_json"]
