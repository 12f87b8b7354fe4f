"""TOML, read with the standard library where it has a reader, and with a vendored copy of it where
it has none.

`tomllib` is in the standard library from Python 3.11. The kit runs on 3.10 too with nothing
installed (`.ci/samebytes.py` runs it under pyenv's 3.10), so `files/tomli/` holds tomli 2.0.1
unchanged: the MIT-licensed backport that `tomllib` was adopted from (the same parser, TOML 1.0,
licence text beside it), imported only when `tomllib` is missing. docs/CONTRIBUTING.md records
the choice: a hand-written subset parser would be a second TOML dialect to keep in step, and JSON
cannot hold multi-line text without escaping.
"""

from __future__ import annotations

import sys
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib as _reader
else:  # pragma: no cover - only on 3.10
    from . import tomli as _reader

TOMLDecodeError = _reader.TOMLDecodeError
"""A file that is not TOML; its message ends with "(at line L, column C)"."""


def loads(text: str) -> dict[str, Any]:
    """The TOML document `text` as plain dicts, lists, strings, integers and booleans."""
    return _reader.loads(text)
