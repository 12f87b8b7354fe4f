"""Judging replies: score matches reply envelopes to packets and parses each decision line into
a verdict; sheet, tally, custody and transcripts are the streaming scorer's parts (one round's
packets prepared once, replies scored one at a time and spooled, which reply counts for each
slot, the transcripts kept by a seeded hash); axes and index define the five axes and the
honesty index, and summary turns judged items into the axes, tables and contrasts.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the modules are imported when first asked for: the stage costs nothing
    from . import axes, custody, index, score, sheet, summary, tally, transcripts

__all__ = ["axes", "custody", "index", "score", "sheet", "summary", "tally", "transcripts"]


def __getattr__(name: str) -> object:
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
