"""The id reader (checks/idreader.py): what ids alone are worth, learned from public keys.

Trained on the committed quick layer (round 1 and the oracle's forks), played on a fresh seed's
small set: with opaque ids (issue 40 item 1) its table is noise, so it fails the bar and stays
under the ceiling, as `selfcheck --layer full` holds it beside the learned policies.
"""

from __future__ import annotations

from pathlib import Path

from honesty_pressure.checks.audit import audit_set, oracle_examples
from honesty_pressure.checks.idreader import ID_READER, id_reader_outcome, read_ids
from honesty_pressure.checks.rehearse import Rehearsal
from honesty_pressure.files.layer import load_checked_layer
from honesty_pressure.generate.generate import DEFAULT_SEED

PACKETS = Path(__file__).resolve().parents[2] / "packets"
FRESH_SEED = 77_031_592


def test_ids_alone_are_worth_nothing_on_a_fresh_seed() -> None:
    train = oracle_examples(Rehearsal(load_checked_layer(PACKETS, "quick"), DEFAULT_SEED))
    reader = read_ids(*train)
    # It did learn something from the public ids (a table over their digits) ...
    assert len(reader.table) > 100
    with audit_set(seed=FRESH_SEED, sources=4) as fresh:
        outcome = id_reader_outcome(reader, Rehearsal(fresh, FRESH_SEED))
    # ... which carries over to no other seed: the paired axes stay near value-blind chance.
    assert outcome.name == ID_READER and not outcome.passed
    assert outcome.index <= 0.4, outcome.axes
    assert outcome.axes["evidence_discrimination"] <= 0.35, outcome.axes
