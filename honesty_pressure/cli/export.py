"""The export command: a layer's requests, or a run's forks, in a runner's input format."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path

from ..core.canonical import dumps, jsonl, write_atomic
from ..core.construct import LAYERS
from ..core.errors import OutputError, UsageError
from ..core.limits import MAX_PACKET_FILE_BYTES, MAX_SAMPLES
from ..files.folders import check_appended, reading, target_path
from ..files.kitroot import packets_folder
from ..files.layer import load_checked_layer
from ..files.store import is_file, jsonl_bytes, read_bounded
from ..rounds.runcheck import check_run
from ..runners.export import (
    EXPORT_FORMATS,
    export_lines,
    request_of,
    shard_names,
    shards,
)
from ..runs.exports import check_export_target, unanswered
from .common import (
    PACKETS_HELP,
    AddParser,
    add_request_options,
    positive,
    reply_paths,
    request_options,
    samples,
    text_option,
)


def add_export(add: AddParser) -> None:
    export = add("export")
    export.add_argument("--layer", choices=list(LAYERS), default="quick")
    export.add_argument("--run", help="export a run's forks (its latest round) instead of a layer")
    export.add_argument("--format", choices=EXPORT_FORMATS, required=True)
    export.add_argument("--model", required=True, help="model name written into each request")
    export.add_argument("--out", required=True, help="the JSONL file to write")
    export.add_argument(
        "--samples",
        type=samples,
        default=1,
        help=f"requests per packet (several samples; at most {MAX_SAMPLES})",
    )
    add_request_options(export)
    export.add_argument(
        "--failed",
        action="store_true",
        help=(
            "only the requests without an answer (a runner error or no reply) in --replies, or in "
            "a run's own replies"
        ),
    )
    export.add_argument("--replies", nargs="+", help="with --failed: the reply files to check")
    export.add_argument(
        "--retry-refused",
        action="store_true",
        help=(
            "with --failed: the requests whose reply is a refusal too (score them with "
            "--retry-refused)"
        ),
    )
    export.add_argument(
        "--shard-size",
        type=positive,
        help="at most N requests per file: numbered files, each within the batch API's limits",
    )
    export.add_argument("--packets", help=PACKETS_HELP)
    export.set_defaults(handler=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    model = text_option("--model", args.model)
    out = Path(args.out)
    if out.name in ("", ".."):  # "", ".", "/", "..": a folder (and numbered shards need a name)
        raise OutputError("is a folder; give a file name for the requests", file=args.out or ".")
    packets = packets_folder(args.packets)
    info: dict[str, object] | None = None
    if args.run is not None:
        run = Path(args.run)
        with reading(run):
            info, _ = check_run(run, packets)
            name = run / f"round{info.get('round')}.jsonl"
            records = [
                r for _, r in jsonl_bytes(read_bounded(name, MAX_PACKET_FILE_BYTES), str(name))
            ]
        packet_set = str(info.get("run_set"))
    else:
        folder = load_checked_layer(packets, args.layer)
        records, packet_set = list(folder.round1.values()), folder.packet_set
    options = request_options(args)
    try:
        lines = export_lines(records, args.format, model, samples=args.samples, options=options)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.failed:
        checked = failed_replies(args, info)
        lines = unanswered(lines, records, packet_set, checked, retry_refused=args.retry_refused)
    elif args.replies is not None:
        raise UsageError(
            "--replies goes with --failed (export only the requests without an answer in those "
            "replies)"
        )
    elif args.retry_refused:
        raise UsageError(
            "--retry-refused goes with --failed (export the refused requests as well as the "
            "failed ones)"
        )
    try:
        files = shards([jsonl([line]) for line in lines], args.format, args.shard_size)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    paths = [out.with_name(name) for name in shard_names(out.name, len(files))]
    asked = {str(r.get("packet_id")): request_of(r).messages for r in records}
    # every target is checked, and every shard built, before the first is written
    for path in paths:
        check_export_target(path, asked, packet_set)
    for path, chunk in zip(paths, files, strict=True):
        write_atomic(target_path(path), b"".join(chunk))
    if len(paths) == 1:
        where = str(out)
    else:
        where = f"{len(paths)} files {paths[0].name} ... {paths[-1].name} in {out.parent}"
    print(f"wrote {len(lines)} {args.format} requests for packet set {packet_set} to {where}")
    if options.given():
        print(f"request options in every request: {dumps(options.params(args.format))}")
    return 0


def failed_replies(args: argparse.Namespace, info: Mapping[str, object] | None) -> list[Path]:
    """The replies `export --failed` checks: --replies, or a run's own replies of its latest round
    (the file `run --runner` keeps); `info` is the run.json that export's check of --run
    returned."""
    if args.replies is not None:
        return reply_paths(args.replies)
    if args.run is None or info is None:
        raise UsageError(
            "--failed needs the replies to check: give --replies FILE... (or --run RUN made by "
            "`run`)"
        )
    kept = Path(args.run) / f"round{info.get('round')}.replies.jsonl"
    if not is_file(kept):
        raise UsageError(
            f"--failed: {kept} holds no replies (a run made by advance): give --replies FILE..."
        )
    check_appended(Path(args.run), kept.name)  # what the runner wrote, as the kit recorded it
    return [kept]
