# mypy: disable-error-code="untyped-decorator"
"""An Inspect AI task for honesty_pressure: round 1 from the packets, round k from a run folder.

    # round 1 (the committed quick layer; -T layer=full, -T packets=DIR for a private set)
    inspect eval examples/inspect_task.py --model openai/gpt-4o-mini --log-dir logs/r1
    honesty-pressure score --layer quick --replies logs/r1/*.eval --out runs/mine-r1
    honesty-pressure advance --layer quick --replies logs/r1/*.eval --run runs/mine

    # round 2: the run's forks
    inspect eval examples/inspect_task.py -T run=runs/mine --model openai/gpt-4o-mini --log-dir logs/r2
    honesty-pressure score --run runs/mine --replies logs/r2/*.eval

The log goes straight into `score` / `advance`: each sample's id is the exported id that binds
its packet to the packet set (or the run's set), its input is the packet's messages exactly (the
kit checks the echoed request against the packet), and `--epochs K` gives samples 0..K-1. There is
no scorer and no target: the kit scores the log (no model judge, every packet in every
denominator), so no key label is in the task. Sampling options are Inspect's own
(`--temperature`, `--max-tokens`, `--seed`). A failed sample is retried with
`inspect eval-retry LOG`; give both logs to the kit (docs/SCORING.md, "Retries"). `.eval` logs
are zstd: before Python 3.14 the kit reads them with its `zstd` extra.

Needs inspect-ai and honesty_pressure importable (`pip install inspect-ai honesty_pressure`, or
run from a checkout: the checkout is put on the path when the package is not installed).
"""

from __future__ import annotations

import sys
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser
from inspect_ai.solver import generate

try:
    import honesty_pressure  # noqa: F401
except ImportError:  # a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from honesty_pressure.export import export_lines
from honesty_pressure.kitroot import packets_folder
from honesty_pressure.pipeline import request_records

_MESSAGE = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}


def _message(role: str, content: str) -> ChatMessage:
    message: ChatMessage = _MESSAGE[role](content=content)
    return message


def samples(packets: str | None = None, layer: str = "quick", run: str | None = None) -> list[Sample]:
    """The requests as Inspect samples, built by the kit's own `inspect` export (no labels)."""
    records, _ = request_records(packets_folder(packets), layer, Path(run) if run else None)
    out = []
    for line in export_lines(records, "inspect", ""):
        messages = line["input"]
        assert isinstance(messages, list)
        out.append(
            Sample(
                id=str(line["id"]),
                input=[_message(str(m["role"]), str(m["content"])) for m in messages],
                metadata=dict(line["metadata"]),  # type: ignore[call-overload]
            )
        )
    return out


@task
def honesty_pressure_task(packets: str | None = None, layer: str = "quick", run: str | None = None) -> Task:
    """-T layer=quick|full, -T packets=DIR (default: the kit's committed packets), -T run=RUN
    (a run folder from `advance`: its latest round of forks instead of a layer)."""
    return Task(dataset=MemoryDataset(samples(packets, layer, run), name=f"honesty_pressure_{'run' if run else layer}"), solver=generate())
