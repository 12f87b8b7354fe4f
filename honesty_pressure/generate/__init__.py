"""Building the packets from a seed and the domains: generate builds the packet set, with
twins and negative controls (twins), minimal pairs (pairs), the rule applied to each ledger
(evidence), the menu and answer contract (menu) and the person's message (render); prepare writes
a set into a folder with its manifest; show is a person's view of one source and catalog writes
docs/DOMAINS.md from the domain modules.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the modules are imported when first asked for: the stage costs nothing
    from . import catalog, evidence, generate, menu, pairs, prepare, render, show, twins

__all__ = ["catalog", "evidence", "generate", "menu", "pairs", "prepare", "render", "show", "twins"]


def __getattr__(name: str) -> object:
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
