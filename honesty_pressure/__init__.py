"""honesty_pressure: does a chat assistant's decision move with the evidence, and only with it?"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["__version__"]
