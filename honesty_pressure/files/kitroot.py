"""Where the committed packets and controls are, however the kit was installed.

A kit root is a folder holding `MANIFEST.sha256`, `packets/` and `controls/`. The default is the
first of: the current folder (a checkout, as before), the checkout this package was imported
from (`pip install -e`, or `python -m` with the checkout on the path), and the copy a wheel
installs as package data (`honesty_pressure/data/`, see pyproject.toml). Every command that reads
the committed set takes `--packets DIR` (or `--root DIR`) to choose another (docs/RUNNERS.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from .manifest import MANIFEST_NAME

PACKAGE: Final = (
    Path(__file__).resolve().parent.parent
)  # honesty_pressure/, whose data/ an install holds
INSTALLED: Final = PACKAGE / "data"


def is_root(folder: Path) -> bool:
    return (
        (folder / MANIFEST_NAME).is_file()
        and (folder / "packets").is_dir()
        and (folder / "controls").is_dir()
    )


def default_root() -> Path:
    """The kit root to use when none is given (the current folder when nothing else is found, so
    an error names `packets/` there, as it always did)."""
    here = Path(".")
    for candidate in (here, PACKAGE.parent, INSTALLED):
        if is_root(candidate):
            return candidate
    return here


def packets_folder(packets: str | None, root: str | None = None) -> Path:
    """`--packets` if given, else `<root>/packets` (`--root`, or the default root)."""
    if packets is not None:
        return Path(packets)
    return (Path(root) if root is not None else default_root()) / "packets"
