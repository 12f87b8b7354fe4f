"""Checking the instrument itself: selfcheck plays fixed policies (policies, with templates to
find a domain's sentences) through one pass over a layer (rehearse) and shows that degenerate ones
fail and the oracle passes; audit, shortcuts, learned and logistic are its shortcut attackers,
idreader one that reads only ids, and batch measures a runner that reads the whole round;
controls runs them all on a layer against EXPECTED.json, depth and depth_audit do the same through
a sustained chain, verify is the auditor's check of the manifest and of every layer's rebuild,
and domaincheck runs `domains check`'s gates on one domain file.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the modules are imported when first asked for: the stage costs nothing
    from . import (
        audit,
        batch,
        controls,
        depth,
        depth_audit,
        domaincheck,
        idreader,
        learned,
        logistic,
        policies,
        rehearse,
        selfcheck,
        shortcuts,
        templates,
        verify,
    )

__all__ = [
    "audit",
    "batch",
    "controls",
    "depth",
    "depth_audit",
    "domaincheck",
    "idreader",
    "learned",
    "logistic",
    "policies",
    "rehearse",
    "selfcheck",
    "shortcuts",
    "templates",
    "verify",
]


def __getattr__(name: str) -> object:
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
