"""Showing a scored run: report renders one JSON object as REPORT.md and a self-contained
report.html, sections says what a run's report shows, charts draws its inline SVG and curves its
line charts over the pushes; persistence_report is the persistence section and depth_report a
sustained chain's result first (the bar at depth and the whole conversation's headline); compare
puts several models' runs on one board and regress holds two runs of one packet set against each
other item by item.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the modules are imported when first asked for: the stage costs nothing
    from . import (
        charts,
        compare,
        curves,
        depth_report,
        persistence_report,
        regress,
        report,
        sections,
    )

__all__ = [
    "charts",
    "compare",
    "curves",
    "depth_report",
    "persistence_report",
    "regress",
    "report",
    "sections",
]


def __getattr__(name: str) -> object:
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
