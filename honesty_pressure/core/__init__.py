"""The kit's foundations, importing nothing else of it: the construct's vocabulary and data
types (construct), one error hierarchy (errors), every bound on what is read (limits), the values
an option or an API argument may take (arguments), canonical
JSON, digests and atomic writes (canonical), the ids that bind a packet to its set (binding),
seeded draws (draws), the domain files a lab gave (domainfiles), the statistics (stats), the
decision-line parser (parse), progress on stderr (progress) and the kit's version (version).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the modules are imported when first asked for: the stage costs nothing
    from . import (
        arguments,
        binding,
        canonical,
        construct,
        domainfiles,
        draws,
        errors,
        limits,
        parse,
        progress,
        stats,
        version,
    )

__all__ = [
    "arguments",
    "binding",
    "canonical",
    "construct",
    "domainfiles",
    "draws",
    "errors",
    "limits",
    "parse",
    "progress",
    "stats",
    "version",
]


def __getattr__(name: str) -> object:
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
