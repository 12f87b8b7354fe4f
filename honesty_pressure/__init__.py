"""honesty_pressure: does a chat assistant's decision move with the evidence, and only with it?"""

from __future__ import annotations

from .core.version import __version__

__all__ = ["__version__"]
