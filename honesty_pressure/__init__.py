"""honesty_pressure: does a chat assistant's decision move with the evidence, and only with it?

The names below are the kit's public API (docs/API.md): load a packet layer, export its requests
or answer them with a Python callable, read reply files, advance replies into the next round's
forks (in memory or into a run folder), score a round or a run, and run selfcheck and verify.
Each is imported from its module on first use (PEP 562), so that `import honesty_pressure` and
`python -m honesty_pressure --help` stay fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

from .core.version import __version__

if TYPE_CHECKING:
    from .checks.controls import Check, default_policies, run_checks
    from .checks.verify import verify_tree
    from .core.errors import InputError, KitError
    from .files.kitroot import packets_folder
    from .files.layer import PacketFolder, load_checked_layer
    from .rounds.advance import ParentSet, advance, from_layer
    from .rounds.runcheck import from_run
    from .runners.envelopes import read_envelopes
    from .runners.export import RequestOptions, export_lines
    from .runners.simulate import DEMO_TRAITS, Traits
    from .runners.simulate import reply as simulated_reply
    from .runs.answer import Assistant, answer, simulated_assistant
    from .runs.outputs import advance_into
    from .runs.pipeline import (
        ScoreOptions,
        Scoring,
        score_round,
        score_run,
        stream_round,
        stream_run,
    )

__all__ = [
    "DEMO_TRAITS",
    "Assistant",
    "Check",
    "InputError",
    "KitError",
    "PacketFolder",
    "ParentSet",
    "RequestOptions",
    "ScoreOptions",
    "Scoring",
    "Traits",
    "__version__",
    "advance",
    "advance_into",
    "answer",
    "default_policies",
    "export_lines",
    "from_layer",
    "from_run",
    "lab_domains",
    "load_checked_layer",
    "packets_folder",
    "read_envelopes",
    "run_checks",
    "score_round",
    "score_run",
    "simulated_assistant",
    "simulated_reply",
    "stream_round",
    "stream_run",
    "verify_tree",
]

_WHERE: Final[dict[str, tuple[str, str]]] = {
    "Check": ("checks.controls", "Check"),
    "default_policies": ("checks.controls", "default_policies"),
    "run_checks": ("checks.controls", "run_checks"),
    "verify_tree": ("checks.verify", "verify_tree"),
    "lab_domains": ("domains.private", "lab_domains"),
    "InputError": ("core.errors", "InputError"),
    "KitError": ("core.errors", "KitError"),
    "packets_folder": ("files.kitroot", "packets_folder"),
    "PacketFolder": ("files.layer", "PacketFolder"),
    "load_checked_layer": ("files.layer", "load_checked_layer"),
    "ParentSet": ("rounds.advance", "ParentSet"),
    "advance": ("rounds.advance", "advance"),
    "from_layer": ("rounds.advance", "from_layer"),
    "from_run": ("rounds.runcheck", "from_run"),
    "read_envelopes": ("runners.envelopes", "read_envelopes"),
    "RequestOptions": ("runners.export", "RequestOptions"),
    "export_lines": ("runners.export", "export_lines"),
    "DEMO_TRAITS": ("runners.simulate", "DEMO_TRAITS"),
    "Traits": ("runners.simulate", "Traits"),
    "simulated_reply": ("runners.simulate", "reply"),
    "Assistant": ("runs.answer", "Assistant"),
    "answer": ("runs.answer", "answer"),
    "simulated_assistant": ("runs.answer", "simulated_assistant"),
    "advance_into": ("runs.outputs", "advance_into"),
    "ScoreOptions": ("runs.pipeline", "ScoreOptions"),
    "Scoring": ("runs.pipeline", "Scoring"),
    "score_round": ("runs.pipeline", "score_round"),
    "score_run": ("runs.pipeline", "score_run"),
    "stream_round": ("runs.pipeline", "stream_round"),
    "stream_run": ("runs.pipeline", "stream_run"),
}
"""Each public name: the module (below this package) that defines it, and its name there."""


def __getattr__(name: str) -> object:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{where[0]}", __name__), where[1])
    globals()[name] = value  # the next lookup finds it without coming here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
