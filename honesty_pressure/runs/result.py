"""result.json: one small record of a scored run that a leaderboard can ingest.

Every number in it is copied or summed from summary.json by one pure function, `result_of`, so
the two can never disagree, and anyone holding the summary can make the record again and
compare. It holds no command line and no file name, so the same replies give the same record
wherever they were scored (summary.json's provenance names the output folder). `score` (round 1
and `score --run`), and `run` and `demo` through them, write it beside summary.json in the same
swap (pipeline.py). docs/schema/result.schema.json is its schema; docs/SCORING.md ("The result
record") says what each field means.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from ..core.canonical import dumps
from ..core.stats import rounded

__all__ = ["RESULT_FILE", "RESULT_FORMAT", "result_bytes", "result_of"]

RESULT_FILE: Final = "result.json"
RESULT_FORMAT: Final = 1
"""The record's own format number: a field removed or renamed makes it 2."""

JsonObject = dict[str, object]


def result_of(summary: Mapping[str, object]) -> JsonObject:
    """The result record of a summary.json (as read back, or as `pipeline.Scoring` makes it)."""
    provenance = _mapping(summary["provenance"])
    return {
        "result_format": RESULT_FORMAT,
        "kit_version": provenance["kit_version"],
        **_models(_mapping(summary["models"])),
        "packet_set": {
            "id": provenance["packet_set"],
            "layer": provenance["layer"],
            # the seed's commitment: the set can be rebuilt and checked once the seed is published
            "seed_sha256": provenance["seed_sha256"],
            "generator": provenance["generator"],
        },
        "run_set": provenance.get("run_set"),
        "protocol": provenance.get("protocol"),
        "round": summary["round"],
        "confidence": _mapping(summary["statistics"])["confidence"],
        "honesty_index": _index(summary),
        "bar": _bar(_mapping(summary["bar"])),
        "axes": {name: _axis(_mapping(axis)) for name, axis in _mapping(summary["axes"]).items()},
        "completeness": _completeness(summary),
    }


def result_bytes(summary: Mapping[str, object]) -> bytes:
    """result.json's bytes: canonical JSON and a final newline, as every file the kit writes."""
    return (dumps(result_of(summary)) + "\n").encode("utf-8")


def _mapping(value: object) -> Mapping[str, object]:
    assert isinstance(value, Mapping), value
    return value


def _models(models: Mapping[str, object]) -> JsonObject:
    """Every model name the replies gave, over every round; `model` is the name when there is
    exactly one (a run whose rounds name two models, or none, has no single model)."""
    names = sorted({str(name) for names in models.values() for name in _sequence(names)})
    return {"model": names[0] if len(names) == 1 else None, "models": names}


def _sequence(value: object) -> Sequence[object]:
    assert isinstance(value, list), value
    return value


def _interval(value: object, low: object, high: object) -> JsonObject:
    return {"value": value, "low": low, "high": high}


def _index(summary: Mapping[str, object]) -> JsonObject | None:
    """The honesty index with its bootstrap interval (a run's round-2 score); None for a round-1
    score, which has no forks; a later round's score has the index but no interval."""
    value = summary.get("honesty_index")
    if value is None:
        return None
    found = summary.get("honesty_index_interval")
    interval = _mapping(found) if found is not None else {}
    return _interval(value, interval.get("low"), interval.get("high"))


def _bar(bar: Mapping[str, object]) -> JsonObject:
    return {name: bar[name] for name in ("minimum", "passes", "deciding_axis", "failing_axes")}


def _axis(axis: Mapping[str, object]) -> JsonObject:
    """An axis's value and interval, its item count and its forbidden rate. summary.json gives a
    Wilson rate as `rate` and a pooled one (the mean of groups) as `value`: one name here."""
    forbidden = _mapping(axis["forbidden"])
    rate = forbidden["rate"] if "rate" in forbidden else forbidden["value"]
    return {
        **_interval(axis["value"], axis["low"], axis["high"]),
        "n": axis["n"],
        "forbidden": _interval(rate, forbidden["low"], forbidden["high"]),
    }


def _completeness(summary: Mapping[str, object]) -> JsonObject:
    """Of every item (packet and sample) of every round the summary scored: how many got no answer
    (the part that makes a run incomplete), how many were unscorable for any reason (no answer
    included), and how many the model refused. The shares are of `items`."""
    found = _mapping(summary["completeness"])
    items = found["items"]
    assert isinstance(items, int), items
    unscorable = _mapping(_mapping(summary["unscorable"])["total"])
    refused = sum(_refused(states) for states in _state_tables(summary))

    def part(count: int) -> JsonObject:
        return {"count": count, "share": rounded(count / items) if items else None}

    return {
        "items": items,
        "incomplete": found["incomplete"],
        "threshold": found["threshold"],
        "no_answer": part(_int(found["unscorable"])),
        "unscorable": part(_int(unscorable["k"])),
        "refused": part(refused),
    }


def _state_tables(summary: Mapping[str, object]) -> list[Mapping[str, object]]:
    """The verdict tables by evidence state of every round scored: each item is in exactly one
    state, so their counts add up to the items (round 1's, then the forks')."""
    if summary.get("round") == 1:
        return [_mapping(summary["states"])]
    rounds = [summary.get("round1"), summary.get("forks")]
    return [_mapping(_mapping(part)["states"]) for part in rounds if part is not None]


def _refused(states: Mapping[str, object]) -> int:
    return sum(_int(_mapping(row)["refused"]) for row in states.values())


def _int(value: object) -> int:
    assert isinstance(value, int), value
    return value
