"""Files in and out: the one strict JSON and JSONL reader (store), a packet folder's layer read
back and checked (layer), the MANIFEST.sha256 of the committed packets and controls (manifest),
where those are however the kit was installed (kitroot), output folders written as one swap
(folders), a scored folder read back (runfiles) and checked against the JSON Schemas (schema),
the streaming scorer's spill file (spool), zstd zip members of Inspect logs (zipzstd) and TOML
(toml: `tomllib`, or on Python 3.10 the vendored backport it came from in `tomli/`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the modules are imported when first asked for: the stage costs nothing
    from . import folders, kitroot, layer, manifest, runfiles, schema, spool, store, toml, zipzstd

__all__ = [
    "folders",
    "kitroot",
    "layer",
    "manifest",
    "runfiles",
    "schema",
    "spool",
    "store",
    "toml",
    "zipzstd",
]


def __getattr__(name: str) -> object:
    if name in __all__:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
