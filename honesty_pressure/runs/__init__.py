"""Whole runs: pipeline scores a set of reply files against a packet folder and writes the
scored folder, result reads from its summary the small record a leaderboard takes, and
conversation adds a sustained round N's whole result to its summary (rounds 1 and 2 judged again
from the chain); run drives rounds 1 and 2 of `run --runner CMD`, runner calls the external
command one round at a time (failfast watching its replies as they come, to stop a dead
endpoint) and later_rounds drives rounds 3..N; shards scores a slice of the replies per process
and merges them, and sharded holds the steps of a sharded score or advance; outputs writes a
score or an advance into its folder, answer has a Python callable (a lab's model, or the
simulated assistant) answer a round into a reply file, and exports decides which requests
`export --failed` sends and which file an export may replace; demo and demo_depth do the whole
job offline with the simulated assistant; estimate counts what a run would send before it is
sent; inspect_rounds answers `run` from an Inspect log of every round (the package's Inspect
task).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the modules are imported when first asked for: the stage costs nothing
    from . import (
        answer,
        conversation,
        demo,
        demo_depth,
        estimate,
        exports,
        failfast,
        inspect_rounds,
        later_rounds,
        outputs,
        pipeline,
        result,
        run,
        runner,
        sharded,
        shards,
    )

__all__ = [
    "answer",
    "conversation",
    "demo",
    "demo_depth",
    "estimate",
    "exports",
    "failfast",
    "inspect_rounds",
    "later_rounds",
    "outputs",
    "pipeline",
    "result",
    "run",
    "runner",
    "sharded",
    "shards",
]


def __getattr__(name: str) -> object:
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
