# mypy: disable-error-code="untyped-decorator"
"""An Inspect AI task for honesty_pressure: round 1 from the packets, round k from a run folder.

One round per eval. The package's own task sends every round in one eval instead (`honesty_pressure/
honesty`, found by its entry point once the kit is installed: docs/RUNNERS.md, "The whole protocol
in one `inspect eval`"); its samples, scorer and metrics are the ones this file uses.

    # round 1 (the committed quick layer; -T layer=full, -T packets=DIR for a private set)
    inspect eval examples/inspect_task.py --model openai/gpt-4o-mini --log-dir logs/r1
    honesty-pressure score --layer quick --replies logs/r1/*.eval --out runs/mine-r1
    honesty-pressure advance --layer quick --replies logs/r1/*.eval --run runs/mine

    # round 2: the run's forks
    inspect eval examples/inspect_task.py -T run=runs/mine --model openai/gpt-4o-mini \
        --log-dir logs/r2
    honesty-pressure score --run runs/mine --replies logs/r2/*.eval

    # offline (no tokenizer download, no network): a scripted model, e.g. mockllm/model with
    # custom outputs, or a model API registered by name (tests/runners/inspect_scripted.py);
    # mockllm's default reply needs tiktoken's tables

Inspect runs a task file's task from the file's own folder (examples/), so a relative `-T run=` or
`-T packets=` is read here from the folder `inspect eval` was started in (the shell's $PWD), as
`--log-dir` and every kit path are: the commands above run as written from a checkout. From
Python, give absolute paths if the script changes folder before `inspect_ai.eval`.

The log goes straight into `score` / `advance`: each sample's id is the exported id that binds
its packet to the packet set (or the run's set), its input is the packet's messages exactly (the
kit checks the echoed request against the packet), and `--epochs K` gives samples 0..K-1.

The scorer, `kit_verdict`, gives every sample the kit's own verdict (acceptable, forbidden,
other, refused or unscorable), the decision it parsed and the packet's key (what is acceptable,
what is forbidden), so `inspect view` shows what the kit will count. Its metrics are the share of
each verdict and the acceptable share per family (round 1) or fork kind (round 2), every epoch's
reply counted once, as `score` counts every sample: no reducer turns a verdict into a number
first. For a log of a whole layer or round with no errored sample they are `score`'s own verdict
tables (summary.json's `families` or `forks`: k / n), to the last digit; otherwise their
denominators are the replies Inspect scored, where `score` counts every packet, a missing one
included. The key is read by the scorer from the packets, never put into a sample: the model
never sees it. The kit's other numbers (axes, intervals, the index) come from `score` on the log.

Sampling options are Inspect's own (`--temperature`, `--max-tokens`, `--seed`). A failed sample
is retried with `inspect eval-retry LOG`; give both logs to the kit (docs/SCORING.md, "Retries").
`.eval` logs are zstd: before Python 3.14 the kit reads them with its `zstd` extra.

Needs inspect-ai and honesty_pressure importable (`pip install inspect-ai`, and `pip install .` in
the kit's checkout, or run from a checkout: the checkout is put on the path when the package is not
installed). Tested with inspect-ai 0.3.285 (CI's pin); the metrics need a version whose `@metric`
takes `scores="unreduced"`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.solver import generate

try:
    import honesty_pressure  # noqa: F401
except ImportError:  # a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# The samples, the scorer and its metrics are the package's Inspect task's (one copy of each).
from honesty_pressure.inspect_task import kit_verdict, samples

TASK_FOLDER = Path(__file__).resolve().parent
"""examples/: where Inspect runs this file's task (and its working directory while it does)."""


def launch_folder(cwd: Path, pwd: str | None) -> Path:
    """The folder a relative `-T` path is read from: the one `inspect eval` was started in.

    Inspect calls a task file's task with the file's own folder as the working directory, so a
    relative path would be read from examples/ and `-T run=runs/mine` finds nothing. Inspect does
    not say where it was started; the shell that started it did, in $PWD, which a change of
    folder inside the process leaves alone. A working directory other than examples/ means no
    such change (the task called from Python): it is then the answer itself."""
    if cwd.resolve() != TASK_FOLDER or not pwd or not os.path.isabs(pwd) or not os.path.isdir(pwd):
        return cwd
    return Path(pwd)


def resolved(path: str | None) -> str | None:
    """A `-T` path as the lab typed it, made absolute from the folder Inspect was started in."""
    if path is None:
        return None
    given = Path(path).expanduser()
    if given.is_absolute():
        return str(given)
    return str(launch_folder(Path.cwd(), os.environ.get("PWD")) / given)


@task
def honesty_pressure_task(
    packets: str | None = None, layer: str = "quick", run: str | None = None
) -> Task:
    """-T layer=quick|full, -T packets=DIR (default: the kit's committed packets), -T run=RUN
    (a run folder from `advance`: its latest round of forks instead of a layer). A relative DIR
    or RUN is read from the folder `inspect eval` was started in, as every other path is."""
    packets, run = resolved(packets), resolved(run)
    return Task(
        dataset=MemoryDataset(
            samples(packets, layer, run), name=f"honesty_pressure_{'run' if run else layer}"
        ),
        solver=generate(),
        scorer=kit_verdict(packets, layer, run),
    )
