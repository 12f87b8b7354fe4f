"""Talking to the assistant under test, in files: export writes the requests in the formats
real runners read, envelopes reads their reply files (and Inspect logs) into Envelopes, and
simulate is an offline assistant with planted traits that stands in for a model.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the modules are imported when first asked for: the stage costs nothing
    from . import envelopes, export, simulate

__all__ = ["envelopes", "export", "simulate"]


def __getattr__(name: str) -> object:
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
