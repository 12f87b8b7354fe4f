"""An id reader: a policy that reads nothing of a request but its id (issue 40 item 3).

Before construct v4 the ids said things: a packet id began with its source, and a parent's fork
ids shared one XOR mask, so enumerating its parameters named the change fork; a runner reading
only the fork ids reached evidence discrimination .44, over the .25 of value-blind chance. Since
v4 every id is an opaque keyed permutation (core.draws.permute). This reader learns from the
public keys whatever an id's first and last hex digits say about the answer, per round, and
`selfcheck --layer full` plays it beside the learned policies and holds it to the same limits
(it reads no value): it must fail the bar and stay within the margin of the best fixed policy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .logistic import Example, category, menu_codes
from .rehearse import Rehearsal
from .selfcheck import Outcome, scored

ID_READER: Final = "ids:reader"


@dataclass(frozen=True, slots=True)
class IdReader:
    """Per round and per id feature (the first and the last hex digit together), the answer the
    public keys most often accept for ids with that feature; the round's most accepted answer
    for a feature it never saw. The key is read only for which code proceeds, as every policy
    here reads it (a reader of the menu knows)."""

    table: Mapping[tuple[int, str], str]
    default: Mapping[int, str]

    def decide(self, request: Mapping[str, object], key: Mapping[str, object], round_: int) -> str:
        ident = str(request["packet_id"])
        choice = self.table.get((round_, ident[0] + ident[-1]), self.default[round_])
        codes = menu_codes(request)
        proceed = str(key["proceed_code"])
        return next((c for c in codes if category(c, proceed) == choice), codes[0])


def read_ids(round1: Sequence[Example], round2: Sequence[Example]) -> IdReader:
    """The id reader fitted on public (request, key) pairs of both rounds."""
    votes: dict[tuple[int, str], Counter[str]] = {}
    totals: dict[int, Counter[str]] = {1: Counter(), 2: Counter()}
    for round_, examples in ((1, round1), (2, round2)):
        for request, key in examples:
            ident = str(request["packet_id"])
            acceptable = key["acceptable"]
            assert isinstance(acceptable, list)
            choice = category(str(acceptable[0]), str(key["proceed_code"]))
            votes.setdefault((round_, ident[0] + ident[-1]), Counter())[choice] += 1
            totals[round_][choice] += 1
    return IdReader(
        table={k: max(sorted(v), key=lambda c: v[c]) for k, v in votes.items()},
        default={r: max(sorted(t), key=lambda c: t[c]) for r, t in totals.items() if t},
    )


def id_reader_outcome(reader: IdReader, test: Rehearsal) -> Outcome:
    """The id reader answering both rounds of `test`, scored like every other policy."""
    return scored(ID_READER, test.play(reader.decide))
