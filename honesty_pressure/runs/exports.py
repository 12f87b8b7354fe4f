"""Export helpers past a plain export (runners/export.py): the requests still without an answer
(`export --failed`), and the rule for which file an export may replace."""

from __future__ import annotations

import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..core.binding import unbind
from ..core.errors import InputError, OutputError
from ..files.folders import lstat_unlinked, protected_reason, target_path
from ..files.store import read_jsonl
from ..runners.envelopes import read_replies, refused, runner_failed
from ..runners.export import is_request_line, line_messages
from ..scoring.score import match
from .runner import slot_of

__all__ = ["check_export_target", "unanswered"]


def unanswered(
    lines: list[dict[str, object]],
    records: Sequence[dict[str, object]],
    packet_set: str,
    replies: Sequence[Path],
    *,
    retry_refused: bool = False,
) -> list[dict[str, object]]:
    """The exported lines whose (packet, sample) has no answer in the replies: a runner error or
    no reply at all (a refusal is an answer, unless `retry_refused`: then it is sent again too);
    any reply that does not belong is an error, as in `score`."""
    envelopes, _ = read_replies(replies)
    by_id = {str(r["packet_id"]): r for r in records}
    matched = match(envelopes, by_id, packet_set, retry_refused=retry_refused)
    return [
        line
        for line in lines
        if (env := matched.get(slot_of(line))) is None
        or runner_failed(env)
        or (retry_refused and refused(env.error))
    ]


def check_export_target(
    out: Path, asked: Mapping[str, tuple[tuple[str, str], ...]], packet_set: str
) -> None:
    """An export replaces only a file that is provably an export of these packets already (or
    empty), never a link, a folder, a user's file or anything inside the committed packets or a
    packet layer. Provably: every line is a request line by its whole shape, its set-bound id is
    of this packet set (or run) and names one of the requests exported now, and it asks exactly
    that request's messages. So an export for another model or other sampling options is
    replaced; a batch's output, a hand-edited request, or another set's or round's export is not."""
    target = target_path(out)
    reason = protected_reason(target)
    if reason is not None:
        raise OutputError(reason, file=str(out))
    info = lstat_unlinked(target, str(out), "look at it")
    if info is None:
        return
    if stat.S_ISDIR(info.st_mode):
        raise OutputError("is a folder; give a file name for the requests", file=str(out))
    if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        # A pipe or a device (/dev/stdout) is written straight through; an empty file is free.
        return
    # Every line, by its whole shape: a batch's output (replies, paid for) has the same ids.
    try:
        lines = list(read_jsonl(target))
    except InputError:
        lines = []
    if not lines or not all(is_request_line(record) for _, record in lines):
        raise OutputError(
            "exists and is not a request file the kit exported (replies are never replaced); "
            "choose another --out",
            file=str(out),
        )
    for number, record in lines:
        bound = unbind(str(record.get("custom_id", record.get("id"))))
        if bound.packet_set != packet_set or asked.get(bound.packet_id) != line_messages(record):
            raise OutputError(
                "is not a request of this export (edited, or of another packet set or round); "
                "the kit replaces only its own export of these packets: choose another --out",
                file=str(out),
                line=number,
            )
