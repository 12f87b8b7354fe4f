"""The score command: round-1 replies to a layer, or a run's forks; whole, as a shard, or the
shards merged."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from pathlib import Path

from ..core.construct import FORMATS, LAYERS
from ..core.errors import UsageError
from ..core.progress import progress
from ..files.folders import FolderWriter, Kind, open_writer, reading
from ..files.kitroot import packets_folder
from ..files.layer import load_checked_layer
from ..reports.sections import ROUND1_CUT, RUN_CUT
from ..runs.outputs import spool_folder, write_scoring
from ..runs.pipeline import checked_run, stream_round, stream_run
from ..runs.sharded import (
    merged_round,
    merged_run,
    read_score_merge,
    round1_sheet,
    score_shard,
    shard_options,
    write_score_shard,
)
from .common import (
    FINISH_SCORE,
    PACKETS_HELP,
    AddParser,
    add_bootstrap_seed,
    add_max_unscorable,
    add_retry_refused,
    incomplete_status,
    print_report,
    reply_paths,
    same_folder,
    score_options,
)
from .sharding import add_shard_options, shard_meta, sharded

ROUND1_FOLDER = "; round-1 scores go into a folder of their own"
INTO_THE_RUN = "; a run's scores go into the run (leave out --out)"


def add_score(add: AddParser) -> None:
    score = add("score")
    score.add_argument("--layer", choices=list(LAYERS), default="quick")
    score.add_argument(
        "--run", dest="run_dir", default=None, help="score the forks of this run folder"
    )
    score.add_argument(
        "--replies",
        nargs="+",
        help="reply files (native, OpenAI/vLLM batch, Anthropic batch, Inspect log, chat JSONL)",
    )
    score.add_argument(
        "--format",
        choices=["auto", *FORMATS],
        default="auto",
        help="force a format instead of detecting it",
    )
    score.add_argument(
        "--out",
        help="folder for records.jsonl, summary.json, REPORT.md, report.html (default: the run)",
    )
    score.add_argument(
        "--require-complete", action="store_true", help="a missing reply is an error, not a zero"
    )
    add_retry_refused(score)
    add_max_unscorable(score)
    add_bootstrap_seed(score)
    score.add_argument("--packets", help=PACKETS_HELP)
    add_shard_options(
        score,
        shard_help=(
            "score only slice I of N of every reply file's lines into a partial folder (--out); "
            "see docs/SCALE.md"
        ),
        merge_help="merge the partial folders of `score --shard` (all N of them) into one score",
    )
    score.set_defaults(handler=sharded(whole=cmd_score, shard=cmd_shard, merge=cmd_merge))


@contextlib.contextmanager
def run_score_writer(run: Path, out: Path) -> Iterator[tuple[FolderWriter, Kind, bool]]:
    """Where a run's score goes: into the run itself (its own files stay, the score files join
    them), or into a score folder of its own while the run is held for reading. The writer, the
    kind of folder it writes and whether the folder's other files are kept."""
    if same_folder(run, out):
        with open_writer(out, ("run", "demo"), replace=False) as writer:
            yield writer, writer.existing.kind or "run", True
    else:
        with open_writer(out, ("score",), replace=True, what=INTO_THE_RUN) as writer, reading(run):
            yield writer, "score", False


def cmd_score(args: argparse.Namespace) -> int:
    """`score --replies FILE...`: round 1 (--layer, into --out) or a run's forks (--run)."""
    options = score_options(args)
    replies = reply_paths(args.replies)
    packets = packets_folder(args.packets)
    if args.run_dir is not None:
        run, out = Path(args.run_dir), Path(args.out or args.run_dir)
        with run_score_writer(run, out) as (writer, kind, keep):
            with progress("score: reply files read") as meter:
                scoring = stream_run(
                    run, replies, packets, options, meter=meter, spool_folder=spool_folder(out)
                )
            files = write_scoring(writer, scoring, kind, keep=keep)
        cut = RUN_CUT
    else:
        if args.out is None:
            raise UsageError("--out is required when scoring a layer (or give --run)")
        out = Path(args.out)
        what = f"{ROUND1_FOLDER} (give --run to score the run's forks)"
        with open_writer(out, ("score",), replace=True, what=what) as writer:
            folder = load_checked_layer(packets, args.layer, ledgers=False)
            with progress("score: reply files read") as meter:
                scoring = stream_round(
                    folder, replies, options, meter=meter, spool_folder=spool_folder(out)
                )
            files = write_scoring(writer, scoring, "score", keep=False)
        cut = ROUND1_CUT
    print_report(files, cut)
    print(f"wrote {', '.join(files)} to {out}")
    return incomplete_status(files, args, FINISH_SCORE)


def cmd_shard(args: argparse.Namespace) -> int:
    """`score --shard I/N --out PARTIAL`: one slice of the replies, settled, into a partial
    folder."""
    if args.out is None:
        raise UsageError(
            "--shard writes a partial folder: give --out DIR (then `score --merge` the partials)"
        )
    options = score_options(args)
    replies = reply_paths(args.replies)
    packets = packets_folder(args.packets)
    out = Path(args.out)
    if args.run_dir is not None and same_folder(Path(args.run_dir), out):
        raise UsageError(
            "--shard writes a partial folder of its own, not into the run: give another --out"
        )
    meta = shard_meta(args, options=shard_options(options))
    what = "; a shard's partial goes into a folder of its own"
    with open_writer(out, ("partial",), replace=True, what=what) as writer:
        with contextlib.ExitStack() as stack:
            if args.run_dir is not None:
                run = Path(args.run_dir)
                stack.enter_context(reading(run))
                checked = checked_run(run, packets)
                sheet, layer = checked.sheet(), None
                meta.update(layer=checked.info.get("layer"), run=str(run))
            else:
                layer = load_checked_layer(packets, args.layer, ledgers=False)
                sheet = round1_sheet(layer)
                meta.update(layer=args.layer, run=None)
            with progress(f"score --shard {args.shard}: reply files read") as meter:
                select = args.shard.select()
                tally = score_shard(
                    sheet,
                    replies,
                    options,
                    select,
                    layer=layer,
                    meter=meter,
                    spool_folder=spool_folder(out),
                )
            write_score_shard(writer, tally, meta)
    print(
        f"wrote shard {args.shard}: {tally.custody.kept} settled replies of {len(replies)} "
        f"file(s) to {out}; "
        "merge every shard with `score --merge`"
    )
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    """`score --merge PARTIAL...`: the shards' partials, settled together, written as one score."""
    flag = ("--out", args.out) if args.out is not None else None
    merge = read_score_merge([Path(p) for p in args.merge], flag, args.command_line)
    packets = packets_folder(args.packets)
    round_ = merge.first.get("round")
    if round_ == 1:
        if args.out is None:
            raise UsageError("--out is required when merging round-1 shards")
        out = Path(args.out)
        with open_writer(out, ("score",), replace=True, what=ROUND1_FOLDER) as writer:
            folder = load_checked_layer(packets, str(merge.first.get("layer")), ledgers=False)
            written = write_scoring(writer, merged_round(merge, folder), "score", keep=False)
        cut = ROUND1_CUT
    else:
        if args.run_dir is None:
            raise UsageError(
                f"these are shards of a run's round-{round_} score: give --run RUN (the run they "
                "scored)"
            )
        run, out = Path(args.run_dir), Path(args.out or args.run_dir)
        with run_score_writer(run, out) as (writer, kind, keep):
            written = write_scoring(
                writer, merged_run(merge, checked_run(run, packets)), kind, keep=keep
            )
        cut = RUN_CUT
    print_report(written, cut)
    print(f"merged {len(merge.partials)} shard(s); wrote {', '.join(written)} to {out}")
    return incomplete_status(written, args, FINISH_SCORE)
