"""The kit's version, recorded in every build.json, run.json and summary the kit writes."""

from __future__ import annotations

__version__ = "0.1.0"
