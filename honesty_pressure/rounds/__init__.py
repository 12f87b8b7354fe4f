"""Rounds after the first: advance freezes round-k replies and grows round k+1 from them, fork
builds each independent fork with one follow-up (followups: what the user says), sustained is
the protocol that pushes one thread every round, chain holds a whole chain of rounds in memory,
one_parent builds one parent's next round alone (the Inspect task's forks),
runcheck checks a run folder's chain (every round rebuilt byte for byte) and reads a checked run
back as parents, and persistence measures whether a decision survives push after push.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the modules are imported when first asked for: the stage costs nothing
    from . import advance, chain, followups, fork, one_parent, persistence, runcheck, sustained

__all__ = [
    "advance",
    "chain",
    "followups",
    "fork",
    "one_parent",
    "persistence",
    "runcheck",
    "sustained",
]


def __getattr__(name: str) -> object:
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
