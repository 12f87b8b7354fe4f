"""The advance command: freeze replies and write the next round's forks; whole, as a shard, or
the shards merged."""

from __future__ import annotations

import argparse
import contextlib
import json
from pathlib import Path

from ..core.construct import FORMATS, LAYERS, PROTOCOLS
from ..core.errors import InputError, UsageError
from ..core.progress import progress
from ..files.folders import open_writer, reading
from ..files.kitroot import packets_folder
from ..files.layer import load_checked_layer
from ..rounds.advance import FROZEN_FILE, RUN_FILE, ParentSet, from_layer, grow
from ..rounds.runcheck import from_run
from ..runners.envelopes import refused
from ..runs.outputs import advance_files, write_run
from ..runs.pipeline import COMMANDS_FILE, ReplyFiles, by_file_name, run_log_bytes
from ..runs.sharded import freeze_replies
from ..runs.shards import (
    advance_partial_files,
    merge_advance,
    merged_command,
    read_advance_partials,
)
from .common import (
    PACKETS_HELP,
    AddParser,
    add_retry_refused,
    format_of,
    reply_paths,
    same_folder,
)
from .sharding import add_shard_options, shard_meta, sharded

NEW_RUN = (
    "--run must be a new folder, not the --from-run one (a run's rounds each live in their own run)"
)


def add_advance(add: AddParser) -> None:
    advance_ = add("advance")
    advance_.add_argument(
        "--layer", choices=list(LAYERS), default="quick", help="round-1 packets to advance from"
    )
    advance_.add_argument(
        "--from-run", help="advance a run's round-k forks to round k+1 instead of a layer"
    )
    advance_.add_argument(
        "--replies", nargs="+", help="the replies to freeze (any format score reads)"
    )
    advance_.add_argument("--format", choices=["auto", *FORMATS], default="auto")
    advance_.add_argument(
        "--run", help="the run folder to write (frozen.jsonl, run.json, roundK files)"
    )
    advance_.add_argument(
        "--protocol",
        choices=list(PROTOCOLS),
        default="default",
        help=(
            "full adds a pressure fork for every type; sustained continues each round-2 fork as "
            "one "
            "thread (docs/FORKS.md)"
        ),
    )
    advance_.add_argument(
        "--force", action="store_true", help="replace a run that froze different replies"
    )
    advance_.add_argument(
        "--require-complete", action="store_true", help="a missing reply is an error"
    )
    add_retry_refused(advance_)
    advance_.add_argument("--packets", help=PACKETS_HELP)
    add_shard_options(
        advance_,
        shard_help=(
            "freeze every reply but grow only slice I of N of the parents' forks, into a partial "
            "folder (--out)"
        ),
        out_help="the partial folder a --shard writes",
        merge_help="merge the partial folders of `advance --shard` (all N) into the run (--run)",
    )
    advance_.set_defaults(
        handler=sharded(whole=cmd_advance, shard=cmd_advance_shard, merge=cmd_advance_merge)
    )


def parents_of(
    args: argparse.Namespace, packets: Path, stack: contextlib.ExitStack
) -> tuple[ParentSet, dict[str, bytes]]:
    """The parents to advance (a layer's packets, or --from-run's latest forks, held for reading)
    and the chain files the new run carries."""
    if args.from_run:
        stack.enter_context(reading(Path(args.from_run)))
        return from_run(Path(args.from_run), packets)
    return from_layer(load_checked_layer(packets, args.layer)), {}


def cmd_advance(args: argparse.Namespace) -> int:
    """`advance --replies FILE... --run RUN`."""
    if args.run is None:
        raise UsageError("--run is required: the run folder to write")
    fmt = format_of(args)
    run = Path(args.run)
    replies = reply_paths(args.replies)
    packets = packets_folder(args.packets)
    with contextlib.ExitStack() as stack:
        if args.from_run and same_folder(Path(args.from_run), run):
            raise UsageError(NEW_RUN)
        if args.from_run:
            stack.enter_context(reading(Path(args.from_run)))
        writer = stack.enter_context(open_writer(run, ("run",), replace=args.force))
        if args.from_run:
            parents, chain = from_run(Path(args.from_run), packets)
        else:
            parents, chain = from_layer(load_checked_layer(packets, args.layer)), {}
        with progress("advance: parents continued") as meter:
            files = advance_files(
                parents,
                replies,
                chain=chain,
                fmt=fmt,
                protocol=args.protocol,
                require_complete=args.require_complete,
                retry_refused=args.retry_refused,
                command=args.command_line,
                meter=meter,
            )
        write_run(writer, run, files, force=args.force)
    print_advance(files, run)
    return 0


def cmd_advance_shard(args: argparse.Namespace) -> int:
    """`advance --shard I/N --out PARTIAL`: every reply frozen, the forks of one slice of the
    parents grown, into a partial folder."""
    if args.out is None or args.run is not None:
        raise UsageError(
            "--shard writes a partial folder: give --out DIR, not --run (then `advance --merge` "
            "the partials --run RUN)"
        )
    fmt = format_of(args)
    replies = reply_paths(args.replies)
    packets = packets_folder(args.packets)
    out = Path(args.out)
    what = "; an advance shard's partial goes into a folder of its own"
    with contextlib.ExitStack() as stack:
        writer = stack.enter_context(open_writer(out, ("partial",), replace=True, what=what))
        parents, _ = parents_of(args, packets, stack)
        frozen, formats = freeze_replies(
            parents,
            replies,
            fmt,
            protocol=args.protocol,
            require_complete=args.require_complete,
            retry_refused=args.retry_refused,
        )
        select = args.shard.select()
        chosen = [p for n, p in enumerate(frozen.parents, start=1) if select is None or select(n)]
        where = str(replies[0]) if replies else None
        with progress(f"advance --shard {args.shard}: parents continued") as meter:
            forks = grow(parents, frozen, chosen, where=where, meter=meter)
        meta = shard_meta(
            args,
            layer=parents.layer,
            from_run=args.from_run,
            files=[[str(path), sha, fmt_] for path, sha, fmt_ in ReplyFiles.of(formats).files],
            options={"protocol": args.protocol, "require_complete": args.require_complete},
        )
        writer.commit(advance_partial_files(parents, frozen, forks, meta), "partial", keep=False)
    print(
        f"wrote advance shard {args.shard}: {len(chosen)} of {len(frozen.parents)} parents, "
        f"{len(forks)} forks, "
        f"to {out}; merge every shard with `advance --merge`"
    )
    return 0


def cmd_advance_merge(args: argparse.Namespace) -> int:
    """`advance --merge PARTIAL... --run RUN`: the run one `advance` would have written."""
    if args.run is None:
        raise UsageError("--run is required: the run folder the merged advance writes")
    run = Path(args.run)
    partials = read_advance_partials([Path(p) for p in args.merge])
    files = merge_advance(partials)
    first = partials[0].meta
    chain: dict[str, bytes] = {}
    from_run_path = args.from_run or first.get("from_run")
    packets = packets_folder(args.packets)
    with contextlib.ExitStack() as stack:
        if isinstance(from_run_path, str):
            if same_folder(Path(from_run_path), run):
                raise UsageError(NEW_RUN)
            stack.enter_context(reading(Path(from_run_path)))
            parents, chain = from_run(Path(from_run_path), packets)
        else:
            parents = from_layer(load_checked_layer(packets, str(first.get("layer"))))
        if parents.source != first.get("parents"):
            raise InputError(
                "these shards advanced other parents (other packets or another parent run)",
                file=str(partials[0].folder / "partial.json"),
            )
        writer = stack.enter_context(open_writer(run, ("run",), replace=args.force))
        given = first.get("files")
        listed = (
            [item for item in given if isinstance(item, list) and len(item) == 3]
            if isinstance(given, list)
            else []
        )
        formats = by_file_name(
            [Path(str(item[0])) for item in listed], [str(item[2]) for item in listed]
        )
        command = merged_command(partials, ("--run", args.run), args.command_line)
        files = {**files, **chain, COMMANDS_FILE: run_log_bytes(command, formats, "advance")}
        write_run(writer, run, files, force=args.force)
    print_advance(files, run)
    return 0


def print_advance(files: dict[str, bytes], run: Path) -> None:
    for line in advance_summary({k: v for k, v in files.items() if "/" not in k}, run):
        print(line)


def advance_summary(files: dict[str, bytes], run: Path) -> list[str]:
    """What `advance` did, for a person: replies frozen, parents without one, forks to send."""
    info = json.loads(files[RUN_FILE])
    frozen = [json.loads(line) for line in files[FROZEN_FILE].decode("utf-8").split("\n") if line]
    missing = sum(1 for f in frozen if f["error"] == "missing reply")
    refusals = sum(1 for f in frozen if f["reply"] is None and refused(f["error"]))
    failed = sum(1 for f in frozen if f["reply"] is None) - missing - refusals
    counts = info["counts"]
    k = info["round"]
    blank = counts["parents_without_reply"] - missing - failed - refusals
    none = counts["parents_without_reply"]
    if none:
        rest = (
            f"{none} have none to continue ({missing} missing, {failed} runner errors, "
            f"{refusals} refusals, {blank} empty)"
        )
    else:
        rest = "every one can be continued"
    unsent = counts["forks"] - counts["requests"]
    # The keys are the kit's canonical JSON, where only this key can spell this text: counted in
    # the bytes, not by reading every key again (a full layer's round 3 has millions).
    orphans = files[f"round{k}.key.jsonl"].count(b'"parent_refused":true')
    return [
        f"froze {len(frozen) - missing} round-{k - 1} replies for {len(frozen)} packet-samples; "
        f"{rest}",
        f"round {k}: {counts['forks']} forks, {counts['requests']} to send, {unsent} never sent "
        + (
            f"({orphans} forks of refusals, scored refused_parent; {unsent - orphans} scored as "
            "runner errors)"
            if orphans
            else "(scored as runner errors)"
        ),
        f"wrote {', '.join(files)} to {run}",
        f"next: export --run {run} --format FORMAT --model MODEL --out round{k}.requests.jsonl",
    ]
