"""The shard and merge options of `score` and `advance`, written once: the flags, which of the
three forms a command line asks for, and what a shard records of how it was run."""

from __future__ import annotations

import argparse

from ..core.errors import UsageError
from .common import Handler, shard


def add_shard_options(
    parser: argparse.ArgumentParser,
    *,
    shard_help: str,
    merge_help: str,
    out_help: str | None = None,
) -> None:
    """--shard I/N, --out (when the command has no --out of its own) and --merge PARTIAL..."""
    parser.add_argument("--shard", type=shard, help=shard_help)
    if out_help is not None:
        parser.add_argument("--out", help=out_help)
    parser.add_argument("--merge", nargs="+", metavar="PARTIAL", help=merge_help)


def sharded(*, whole: Handler, shard: Handler, merge: Handler) -> Handler:
    """The command: `merge` with --merge (which takes the replies and options from the partials),
    else `shard` with --shard, else `whole`; the last two need --replies."""

    def handler(args: argparse.Namespace) -> int:
        if args.merge is not None:
            given = [
                name
                for name, value in (("--replies", args.replies), ("--shard", args.shard))
                if value is not None
            ]
            if given:
                raise UsageError(
                    "--merge takes the replies and options from the partials; leave out "
                    f"{' and '.join(given)}"
                )
            return merge(args)
        if args.replies is None:
            raise UsageError("--replies is required (or give --merge PARTIAL...)")
        return (shard if args.shard is not None else whole)(args)

    return handler


def shard_meta(args: argparse.Namespace, **fields: object) -> dict[str, object]:
    """What every partial records of its shard: the slice, the command that made it, and
    `fields`."""
    return {"shard": str(args.shard), **fields, "command": args.command_tokens}
