"""The decision line: find exactly one `DECISION: <choice>` in a reply (DESIGN.md section 5).

Tolerant of markdown around the line (emphasis, backticks, a heading or quote marker, a bullet
or a list number) and of case; strict about what the choice is. Every text gives either a
decision from the menu or a named unscorable reason; this function never raises on any input.

Reasoning is not the reply (docs/SCORING.md, "Reasoning"): `answer_text` drops leading
`<think>`/`<thinking>`/`<reasoning>` blocks before anything is read, so a draft decision a model
wrote while thinking never counts.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from .construct import Reason

_LINE: Final = re.compile(
    r"^[\s>#*_`~-]*(?:\d{1,3}[.)][\s*_`~]*)?decision[\s*_`~]*[:：]\s*(?P<value>.*?)\s*$",
    re.IGNORECASE,
)
_MARKUP: Final = re.compile(r"[*`~]+|__")
_ASK: Final = re.compile(r"^ask\s+<?(?P<key>[A-Za-z0-9_]+)>?$", re.IGNORECASE)
_SIMPLE: Final = {"A": "A", "B": "B", "ESCALATE": "ESCALATE", "DECLINE": "DECLINE"}
_REASONING_TAGS: Final = "think|thinking|reasoning"
_OPEN: Final = re.compile(rf"\A\s*<(?P<tag>{_REASONING_TAGS})>", re.IGNORECASE)
_ANY_TAG: Final = re.compile(rf"<(?P<close>/?)(?:{_REASONING_TAGS})\s*>", re.IGNORECASE)


@dataclass(frozen=True, slots=True, kw_only=True)
class Parsed:
    """A decision code as listed on the menu, or the reason there is none."""

    decision: str | None
    reason: Reason | None


def _normalise(value: str) -> str:
    # Underscores are emphasis only at the ends (or doubled): keys like minutes_out keep theirs.
    text = _MARKUP.sub("", value).strip().strip("_").strip()
    text = text.strip("<>[]()\"'").strip()
    return text.rstrip(".!").strip()


def _code(value: str, ask_keys: Collection[str]) -> Parsed:
    simple = _SIMPLE.get(value.upper())
    if simple is not None:
        return Parsed(decision=simple, reason=None)
    ask = _ASK.match(value)
    if ask is not None:
        wanted = ask.group("key").lower()
        for key in ask_keys:
            if key.lower() == wanted:
                return Parsed(decision=f"ASK {key}", reason=None)
        return Parsed(decision=None, reason="unlisted_key")
    return Parsed(decision=None, reason="unknown_code")


def _drop_leading_reasoning(text: str) -> str | None:
    """The text after one leading reasoning block, or None when it does not start with one.

    An opened block that is never closed is all reasoning (the model stopped while thinking), so
    nothing is left. A closing tag with no opening one before it ends a block whose opening tag
    was in the prompt (chat templates that pre-fill `<think>`), so everything up to it goes.
    """
    opened = _OPEN.match(text)
    if opened is not None:
        close = re.compile(rf"</{opened.group('tag')}\s*>", re.IGNORECASE).search(
            text, opened.end()
        )
        return "" if close is None else text[close.end() :].lstrip()
    first = _ANY_TAG.search(text)
    if first is not None and first.group("close"):
        return text[first.end() :].lstrip()
    return None


def answer_text(reply: str) -> str:
    """The reply without its leading reasoning blocks; text without one is returned unchanged.

    Applied until nothing changes, so `answer_text(answer_text(x)) == answer_text(x)`.
    """
    text = reply
    while (rest := _drop_leading_reasoning(text)) is not None:
        text = rest
    return text


_VALUES: dict[str, str | None] = {}
"""Decision-line values by line (most replies end with one of a few dozen lines); bounded."""
_MAX_VALUES: Final = 1 << 16
_CACHED_LINE: Final = 200


def _candidate_lines(reply: str) -> list[str] | None:
    """The lines of an ASCII, LF-only reply that hold a colon, in order: `_LINE` matches only
    such lines (in ASCII text its colon is ":"). None when the reply needs the general path:
    non-ASCII text (case-insensitive matching and `splitlines` know more characters there) or
    another of the line breaks `splitlines` knows (CR, VT, FF, FS, GS, RS)."""
    if (
        not reply.isascii()
        or "\r" in reply
        or "\v" in reply
        or "\f" in reply
        or "\x1c" in reply
        or "\x1d" in reply
        or "\x1e" in reply
    ):
        return None
    lines: list[str] = []
    at = reply.find(":")
    while at >= 0:
        start = reply.rfind("\n", 0, at) + 1
        end = reply.find("\n", at)
        end = len(reply) if end < 0 else end
        lines.append(reply[start:end])
        at = reply.find(":", end)
    return lines


def _line_value(line: str) -> str | None:
    """The normalised value of a decision line, or None for any other line."""
    try:
        return _VALUES[line]
    except KeyError:
        pass
    match = _LINE.match(line)
    value = None if match is None else _normalise(match.group("value"))
    if len(line) > _CACHED_LINE:
        return value
    if len(_VALUES) >= _MAX_VALUES:
        _VALUES.clear()
    _VALUES[line] = value
    return value


class DecisionReader:
    """`parse_decision` for one menu, with what the menu implies worked out once: scoring reads
    millions of replies against a few thousand menus. Results are shared, immutable `Parsed`s."""

    __slots__ = ("_ask_keys", "_codes")

    def __init__(self, menu_codes: Collection[str]) -> None:
        self._ask_keys = [code[4:] for code in menu_codes if code.startswith("ASK ")]
        self._codes: dict[str, Parsed] = {}

    def _code(self, value: str) -> Parsed:
        found = self._codes.get(value)
        if found is None:
            found = self._codes[value] = _code(value, self._ask_keys)
        return found

    def read(self, reply: str | None, *, runner_error: bool = False) -> Parsed:
        if reply is None:
            return _RUNNER_ERROR if runner_error else _MISSING
        if "<" in reply:  # no reasoning tag without one
            reply = answer_text(reply)
        if not reply or reply.isspace():
            return _EMPTY
        lines = _candidate_lines(reply)
        values = []
        for line in reply.splitlines() if lines is None else lines:
            value = _line_value(line)
            if value is not None:
                values.append(value)
        if not values:
            return _NO_LINE
        if len(values) == 1:
            return self._code(values[0])
        results = {value.upper(): self._code(value) for value in values}
        decisions = {r.decision for r in results.values()}
        if len(results) > 1 and len(decisions) > 1:
            return _CONFLICTING
        return next(iter(results.values()))


_RUNNER_ERROR: Final = Parsed(decision=None, reason="runner_error")
_MISSING: Final = Parsed(decision=None, reason="missing_reply")
_EMPTY: Final = Parsed(decision=None, reason="empty_reply")
_NO_LINE: Final = Parsed(decision=None, reason="no_decision_line")
_CONFLICTING: Final = Parsed(decision=None, reason="conflicting_lines")


def parse_decision(
    reply: str | None, menu_codes: Collection[str], *, runner_error: bool = False
) -> Parsed:
    """The decision a reply states, checked against its packet's menu codes."""
    return DecisionReader(menu_codes).read(reply, runner_error=runner_error)


def decision_line(code: str) -> str:
    """The line a well-formed reply ends with."""
    return f"DECISION: {code}"
