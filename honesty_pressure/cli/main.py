"""The command line: thin functions that parse options, call the library, and map errors to exits.

Exit status: 0 success, 1 a check found a problem, 2 bad input or usage (one line on stderr
naming the file, the line and what is wrong; nothing half-written).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import shlex
import signal
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..core.version import __version__
from ..core.canonical import jsonl, write_atomic
from ..core.construct import FORMATS, LAYERS, PROTOCOLS, Format, Layer, Surface
from ..core.errors import Incomplete, InputError, KitError, OutputError, UsageError, printable
from ..runners.export import EXPORT_FORMATS, RequestOptions, parse_body
from ..files.folders import FolderWriter, Kind, open_writer, protected_reason, reading, target_path
from ..files.kitroot import default_root, packets_folder
from ..core.progress import progress
from ..generate.generate import DEFAULT_SEED, SOURCES_PER_DOMAIN, packet_set_id, packet_tree, seed_commitment
from ..core.limits import MAX_PACKET_FILE_BYTES, MAX_REPLY_FILES, MAX_SAMPLES, MAX_SOURCES_PER_DOMAIN, MAX_UNSCORABLE_SHARE
from ..files.manifest import MANIFEST_NAME, build as build_manifest
from ..generate.show import show_source
from ..files.layer import load_checked_layer, load_layer
from ..files.store import is_file, read_bounded
from ..runs.runner import DEFAULT_IDLE_TIMEOUT, DEFAULT_TIMEOUT, Stopped
from ..checks.verify import parse_seed, verify_tree

if TYPE_CHECKING:
    from ..runs.pipeline import Scoring
    from ..runners.envelopes import ReplyFile
    from ..checks.policies import Policy
    from ..runners.simulate import Traits
    from ..runs.shards import Shard
    from ..files.layer import PacketFolder

PROG = "python -m honesty_pressure"
ROOT_HELP = "the folder holding MANIFEST.sha256, packets/ and controls/ (default: here if it holds them, else the kit's own copy)"
PACKETS_HELP = "the packet folder (default: packets/ here if it is a kit root, else the kit's own copy)"


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{printable(self.prog)}: {printable(message)}\n")
        raise SystemExit(2)


def _root(args: argparse.Namespace) -> Path:
    return Path(args.root) if args.root is not None else default_root()


def _layers(choice: str) -> list[Layer]:
    return list(LAYERS) if choice == "all" else [layer for layer in LAYERS if layer == choice]


def cmd_prepare(args: argparse.Namespace) -> int:
    from ..generate.prepare import write_packet_set

    seed = parse_seed(args.seed) if args.seed is not None else DEFAULT_SEED
    surface: Surface = "held_out" if args.held_out else "public"
    if args.out is None and (seed != DEFAULT_SEED or args.held_out) and not args.check:
        # packets/ holds the committed set that MANIFEST.sha256 and controls/ describe.
        raise UsageError("a seed other than the committed one, or --held-out, needs --out DIR (packets/ holds the committed set)")
    out = Path(args.out or "packets")
    layers = _layers(args.layer)
    print(f"seed commitment (SHA-256, publish before a private run): {seed_commitment(seed)}")
    tree = packet_tree(seed, layers, args.sources_per_domain, surface)
    breaches = premise_problems(tree)
    if breaches:
        for line in breaches:
            print(f"FAIL: {line}")
        print(f"FAIL: {len(breaches)} minimal pairs break the premise of the paired bar (DESIGN.md 6a); nothing written")
        return 1
    if args.check:
        problems = []
        for rel, data in sorted(tree.items()):
            path = out / rel
            if not is_file(path):
                problems.append(f"{printable(str(path))}: missing")
                continue
            try:
                same = read_bounded(path, MAX_PACKET_FILE_BYTES) == data
            except InputError as exc:
                problems.append(exc.one_line())
                continue
            if not same:
                problems.append(f"{printable(str(path))}: differs from what seed {seed} produces")
        for line in problems:
            print(line)
        print(f"{'FAIL' if problems else 'ok'}: {len(tree) - len(problems)} of {len(tree)} files match")
        return 1 if problems else 0
    done = write_packet_set(out, tree, seed=seed, sources_per_domain=args.sources_per_domain, surface=surface)
    print(f"wrote {len(tree)} files for packet set {packet_set_id(seed, surface)} under {out}{done}")
    return 0


def premise_problems(tree: Mapping[str, bytes]) -> list[str]:
    """The minimal-pair premise on every layer of a built tree ("<layer>/<file>" keys)."""
    from ..generate.pairs import check_files

    problems: list[str] = []
    for layer in sorted({rel.split("/", 1)[0] for rel in tree}):
        files = {rel.split("/", 1)[1]: data for rel, data in tree.items() if rel.startswith(f"{layer}/")}
        problems += check_files(files, where=f"{layer}").problems
    return problems


def cmd_verify(args: argparse.Namespace) -> int:
    layers: tuple[Layer, ...] = LAYERS if args.full else ("quick",)
    passed, problems = verify_tree(_root(args), layers, jobs=args.jobs)
    for line in passed:
        print(f"ok: {line}")
    for line in problems:
        print(f"FAIL: {printable(line)}")
    return 1 if problems else 0


def cmd_show(args: argparse.Namespace) -> int:
    folder = load_layer(packets_folder(args.packets), args.layer)
    frozen = None
    if args.run is not None:
        from ..rounds.advance import FROZEN_FILE
        from ..files.store import read_jsonl

        frozen = {str(r.get("packet_id")): r for _, r in read_jsonl(Path(args.run) / FROZEN_FILE) if r.get("sample") == 0}
    sys.stdout.write(show_source(folder, args.source_id, frozen))
    return 0


def _text_option(name: str, value: str) -> str:
    """An option that ends up inside written JSON must be text (a byte that is not UTF-8 in argv
    arrives as a lone surrogate, which no file can hold)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(f"{name}: not valid UTF-8 text") from None
    return value


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return target_path(a) == target_path(b)


def cmd_export(args: argparse.Namespace) -> int:
    from ..runners.export import export_lines, request_of, shard_names, shards
    from ..runs.pipeline import request_records

    model = _text_option("--model", args.model)
    out = Path(args.out)
    if out.name in ("", ".."):  # "", ".", "/", "..": a folder (and numbered shards need a name)
        raise OutputError("is a folder; give a file name for the requests", file=args.out or ".")
    packets = packets_folder(args.packets)
    info: dict[str, object] | None = None
    if args.run is not None:
        from ..rounds.runcheck import check_run
        from ..files.store import jsonl_bytes

        run = Path(args.run)
        with reading(run):
            info, _ = check_run(run, packets)
            name = run / f"round{info.get('round')}.jsonl"
            records = [r for _, r in jsonl_bytes(read_bounded(name, MAX_PACKET_FILE_BYTES), str(name))]
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
        lines = unanswered(lines, records, packet_set, failed_replies(args, info), retry_refused=args.retry_refused)
    elif args.replies is not None:
        raise UsageError("--replies goes with --failed (export only the requests without an answer in those replies)")
    elif args.retry_refused:
        raise UsageError("--retry-refused goes with --failed (export the refused requests as well as the failed ones)")
    try:
        files = shards([jsonl([line]) for line in lines], args.format, args.shard_size)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    paths = [out.with_name(name) for name in shard_names(out.name, len(files))]
    asked = {str(r.get("packet_id")): request_of(r).messages for r in records}
    for path in paths:  # every target is checked, and every shard built, before the first is written
        check_export_target(path, asked, packet_set)
    for path, chunk in zip(paths, files):
        write_atomic(target_path(path), b"".join(chunk))
    where = str(out) if len(paths) == 1 else f"{len(paths)} files {paths[0].name} ... {paths[-1].name} in {out.parent}"
    print(f"wrote {len(lines)} {args.format} requests for packet set {packet_set} to {where}")
    if options.given():
        from ..core.canonical import dumps

        print(f"request options in every request: {dumps(options.params(args.format))}")
    return 0


def failed_replies(args: argparse.Namespace, info: Mapping[str, object] | None) -> list[Path]:
    """The replies `export --failed` checks: --replies, or a run's own replies of its latest round
    (the file `run --runner` keeps); `info` is the run.json that export's check of --run returned."""
    if args.replies is not None:
        return _reply_paths(args.replies)
    if args.run is None or info is None:
        raise UsageError("--failed needs the replies to check: give --replies FILE... (or --run RUN made by `run`)")
    kept = Path(args.run) / f"round{info.get('round')}.replies.jsonl"
    if not is_file(kept):
        raise UsageError(f"--failed: {kept} holds no replies (a run made by advance): give --replies FILE...")
    return [kept]


def unanswered(
    lines: list[dict[str, object]], records: Sequence[dict[str, object]], packet_set: str, replies: Sequence[Path], *, retry_refused: bool = False
) -> list[dict[str, object]]:
    """The exported lines whose (packet, sample) has no answer in the replies: a runner error or
    no reply at all (a refusal is an answer, unless `retry_refused`: then it is sent again too);
    any reply that does not belong is an error, as in `score`."""
    from ..runners.envelopes import read_envelopes, refused, runner_failed
    from ..runs.runner import slot_of
    from ..scoring.score import match

    envelopes = [env for path in replies for env in read_envelopes(path)]
    matched = match(envelopes, {str(r["packet_id"]): r for r in records}, packet_set, retry_refused=retry_refused)
    return [
        line for line in lines
        if (env := matched.get(slot_of(line))) is None or runner_failed(env) or (retry_refused and refused(env.error))
    ]


def check_export_target(out: Path, asked: Mapping[str, tuple[tuple[str, str], ...]], packet_set: str) -> None:
    """An export replaces only a file that is provably an export of these packets already (or
    empty), never a link, a folder, a user's file or anything inside the committed packets or a
    packet layer. Provably: every line is a request line by its whole shape, its set-bound id is
    of this packet set (or run) and names one of the requests exported now, and it asks exactly
    that request's messages. So an export for another model or other sampling options is
    replaced; a batch's output, a hand-edited request, or another set's or round's export is not."""
    from ..core.binding import unbind
    from ..runners.export import is_request_line, line_messages
    from ..files.folders import lstat_unlinked
    from ..files.store import read_jsonl

    target = target_path(out)
    reason = protected_reason(target)
    if reason is not None:
        raise OutputError(reason, file=str(out))
    info = lstat_unlinked(target, str(out), "look at it")
    if info is None:
        return
    if stat.S_ISDIR(info.st_mode):
        raise OutputError("is a folder; give a file name for the requests", file=str(out))
    if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        return  # a pipe or a device (/dev/stdout) is written straight through; an empty file is free
    # Every line, by its whole shape: a batch's output (replies, paid for) has the same ids.
    try:
        lines = list(read_jsonl(target))
    except InputError:
        lines = []
    if not lines or not all(is_request_line(record) for _, record in lines):
        raise OutputError("exists and is not a request file the kit exported (replies are never replaced); choose another --out", file=str(out))
    for number, record in lines:
        bound = unbind(str(record.get("custom_id", record.get("id"))))
        if bound.packet_set != packet_set or asked.get(bound.packet_id) != line_messages(record):
            raise OutputError(
                "is not a request of this export (edited, or of another packet set or round); "
                "the kit replaces only its own export of these packets: choose another --out",
                file=str(out),
                line=number,
            )


def _reply_paths(given: Sequence[str]) -> list[Path]:
    if len(given) > MAX_REPLY_FILES:
        raise UsageError(f"--replies: {len(given)} files, at most {MAX_REPLY_FILES} (concatenate them)")
    return [Path(p) for p in given]


def add_request_options(parser: argparse.ArgumentParser) -> None:
    """--temperature, --max-tokens, --body: for export now, and for run (issue 11) with these lines."""
    parser.add_argument("--temperature", type=_temperature, help="sampling temperature in every request (default: the API's)")
    parser.add_argument(
        "--max-tokens", type=_positive, help="reply length cap (OpenAI: max_completion_tokens; anthropic-batch default 1024)"
    )
    parser.add_argument("--body", type=_body, default={}, help='a JSON object merged into every request, e.g. \'{"top_p": 0.9, "seed": 7}\'')


def request_options(args: argparse.Namespace) -> RequestOptions:
    return RequestOptions(temperature=args.temperature, max_tokens=args.max_tokens, body=args.body)


def cmd_score(args: argparse.Namespace) -> int:
    from ..runs.pipeline import Scoring, round1_scoring, run_scoring
    from ..reports.sections import ROUND1_CUT, RUN_CUT

    if args.merge is not None:
        return cmd_merge(args)
    if args.replies is None:
        raise UsageError("--replies is required (or give --merge PARTIAL...)")
    if args.shard is not None:
        return cmd_shard(args)
    fmt: Format | None = None if args.format == "auto" else args.format
    replies = _reply_paths(args.replies)
    packets = packets_folder(args.packets)
    if args.run_dir is not None:
        run = Path(args.run_dir)
        out = Path(args.out or args.run_dir)

        def scoring() -> Scoring:
            with progress("score: reply files read") as meter:
                return run_scoring(
                    run,
                    replies,
                    packets,
                    fmt=fmt,
                    require_complete=args.require_complete,
                    max_unscorable=args.max_unscorable,
                    bootstrap_seed=args.bootstrap_seed,
                    command=args.command_line,
                    meter=meter,
                    spool_folder=spool_folder(out),
                    retry_refused=args.retry_refused,
                )

        if _same_folder(run, out):
            # Into the run itself: its own files stay, the score files join them.
            with open_writer(out, ("run", "demo"), replace=False) as writer:
                files = write_scoring(writer, scoring(), writer.existing.kind or "run", keep=True)
        else:
            with open_writer(out, ("score",), replace=True, what="; a run's scores go into the run (leave out --out)") as writer, reading(run):
                files = write_scoring(writer, scoring(), "score", keep=False)
        cut = RUN_CUT
    else:
        if args.out is None:
            raise UsageError("--out is required when scoring a layer (or give --run)")
        out = Path(args.out)
        what = "; round-1 scores go into a folder of their own (give --run to score the run's forks)"
        with open_writer(out, ("score",), replace=True, what=what) as writer:
            folder = load_checked_layer(packets, args.layer, ledgers=False)
            with progress("score: reply files read") as meter:
                made = round1_scoring(
                    folder,
                    replies,
                    fmt=fmt,
                    require_complete=args.require_complete,
                    max_unscorable=args.max_unscorable,
                    bootstrap_seed=args.bootstrap_seed,
                    command=args.command_line,
                    meter=meter,
                    spool_folder=spool_folder(out),
                    retry_refused=args.retry_refused,
                )
            files = write_scoring(writer, made, "score", keep=False)
        cut = ROUND1_CUT
    sys.stdout.write(files["REPORT.md"].decode("utf-8").split(cut)[0])
    print(f"wrote {', '.join(files)} to {out}")
    return incomplete_status(files, args, finish_score(args))


def cmd_shard(args: argparse.Namespace) -> int:
    """`score --shard I/N --out PARTIAL`: one slice of the replies, settled, into a partial folder."""
    from ..runs.pipeline import ReplyFiles, checked_run, _answers_a_fork, FORK_REPLY
    from ..scoring.sheet import Sheet
    from ..runs.shards import write_partial_folder
    from ..scoring.tally import Tally

    if args.out is None:
        raise UsageError("--shard writes a partial folder: give --out DIR (then `score --merge` the partials)")
    fmt: Format | None = None if args.format == "auto" else args.format
    replies = _reply_paths(args.replies)
    packets = packets_folder(args.packets)
    out = Path(args.out)
    if args.run_dir is not None and _same_folder(Path(args.run_dir), out):
        raise UsageError("--shard writes a partial folder of its own, not into the run: give another --out")
    meta: dict[str, object] = {
        "shard": str(args.shard),
        "options": {
            "bootstrap_seed": args.bootstrap_seed, "require_complete": args.require_complete, "max_unscorable": args.max_unscorable,
            **({"retry_refused": True} if args.retry_refused else {}),
        },
        "command": args.command_tokens,
    }
    with open_writer(out, ("partial",), replace=True, what="; a shard's partial goes into a folder of its own") as writer:
        with contextlib.ExitStack() as stack:
            if args.run_dir is not None:
                run = Path(args.run_dir)
                stack.enter_context(reading(run))
                checked = checked_run(run, packets)
                tally = Tally(checked.sheet(), spool_folder=spool_folder(out), retry_refused=args.retry_refused)
                forks = None
                meta.update(layer=checked.info.get("layer"), run=str(run))
            else:
                folder = load_checked_layer(packets, args.layer, ledgers=False)
                tally = Tally(Sheet(1, folder.packet_set, folder.round1, folder.key), spool_folder=spool_folder(out), retry_refused=args.retry_refused)
                forks = folder
                meta.update(layer=args.layer, run=None)
            with progress(f"score --shard {args.shard}: reply files read") as meter:
                tally.read(replies, fmt, select=args.shard.select(), meter=meter, forks=None if forks is None else (lambda got: _answers_a_fork(got, forks)))
            tally.finish(FORK_REPLY if forks is not None else None)
            meta["files"] = [[str(path), sha, fmt_] for path, sha, fmt_ in ReplyFiles.of(tally.reads).files]
            try:
                write_partial_folder(writer, tally, meta)
            finally:
                tally.spool.close()
    print(f"wrote shard {args.shard}: {tally.custody.kept} settled replies of {len(replies)} file(s) to {out}; merge every shard with `score --merge`")
    return 0


def _merge_only(args: argparse.Namespace) -> None:
    """`--merge` (score or advance) reads the replies and options from the partials: refuse both."""
    given = [name for name, value in (("--replies", args.replies), ("--shard", args.shard)) if value is not None]
    if given:
        raise UsageError(f"--merge takes the replies and options from the partials; leave out {' and '.join(given)}")


def cmd_merge(args: argparse.Namespace) -> int:
    """`score --merge PARTIAL...`: the shards' partials, settled together, written as one score."""
    from ..runs.pipeline import ReplyFiles, checked_run, round1_score, run_score
    from ..reports.sections import ROUND1_CUT, RUN_CUT
    from ..scoring.sheet import Sheet
    from ..runs.shards import check_partials, merged_command, merged_tally, read_partials

    _merge_only(args)
    partials = read_partials([Path(p) for p in args.merge])
    files_given = check_partials(partials)
    first = partials[0].meta
    options = first.get("options")
    assert isinstance(options, dict)
    seed, complete = options.get("bootstrap_seed"), options.get("require_complete")
    if not isinstance(seed, int) or not isinstance(complete, bool):
        raise InputError("'options' must hold bootstrap_seed and require_complete", file=str(partials[0].folder / "partial.json"))
    threshold = options.get("max_unscorable", MAX_UNSCORABLE_SHARE)  # partials of an older kit lack it
    retry_refused = options.get("retry_refused", False)  # recorded only when given; check_partials made every shard's options equal
    if not isinstance(retry_refused, bool):
        raise InputError("'options.retry_refused' must be true or false", file=str(partials[0].folder / "partial.json"))
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or not 0 <= threshold <= 1:
        raise InputError("'options.max_unscorable' must be a share from 0 to 1", file=str(partials[0].folder / "partial.json"))
    files = ReplyFiles(tuple((Path(path), sha, fmt) for path, sha, fmt in files_given))
    command = merged_command(partials, ("--out", args.out) if args.out is not None else None, args.command_line)
    packets = packets_folder(args.packets)
    round_ = first.get("round")
    if round_ == 1:
        if args.out is None:
            raise UsageError("--out is required when merging round-1 shards")
        out = Path(args.out)
        with open_writer(out, ("score",), replace=True, what="; round-1 scores go into a folder of their own") as writer:
            folder = load_checked_layer(packets, str(first.get("layer")), ledgers=False)
            tally = merged_tally(Sheet(1, folder.packet_set, folder.round1, folder.key), partials, retry_refused=retry_refused)
            tally.finish()
            made = round1_score(folder, tally, files, require_complete=complete, bootstrap_seed=seed, command=command, max_unscorable=threshold)
            written = write_scoring(writer, made, "score", keep=False)
        cut = ROUND1_CUT
    else:
        if args.run_dir is None:
            raise UsageError(f"these are shards of a run's round-{round_} score: give --run RUN (the run they scored)")
        run = Path(args.run_dir)
        out = Path(args.out or args.run_dir)
        with contextlib.ExitStack() as stack:
            if _same_folder(run, out):
                writer = stack.enter_context(open_writer(out, ("run", "demo"), replace=False))
                kind: Kind = writer.existing.kind or "run"
                keep = True
            else:
                writer = stack.enter_context(open_writer(out, ("score",), replace=True, what="; a run's scores go into the run (leave out --out)"))
                stack.enter_context(reading(run))
                kind, keep = "score", False
            checked = checked_run(run, packets)
            tally = merged_tally(checked.sheet(), partials, retry_refused=retry_refused)
            tally.finish()
            made = run_score(checked, tally, files, require_complete=complete, bootstrap_seed=seed, command=command, max_unscorable=threshold)
            written = write_scoring(writer, made, kind, keep=keep)
        cut = RUN_CUT
    sys.stdout.write(written["REPORT.md"].decode("utf-8").split(cut)[0])
    print(f"merged {len(partials)} shard(s); wrote {', '.join(written)} to {out}")
    return incomplete_status(written, args, finish_score(args))


def spool_folder(out: Path) -> Path | None:
    """Where a score keeps its lines until they are written in order: beside the output folder
    (the same disk as the output), if that folder's parent exists; else the system's temp folder."""
    parent = target_path(out).parent
    return parent if parent.is_dir() else None


def write_scoring(writer: FolderWriter, scoring: Scoring, kind: Kind, *, keep: bool) -> dict[str, bytes]:
    """Stream a checked score into the writer's folder, swapped in whole; the files written, by
    name (the large ones as empty bytes: they were never held)."""
    from ..runs.pipeline import LARGE, SMALL

    try:
        with writer.staged({}, kind, keep=keep, streamed=(*LARGE, *SMALL)) as stage:
            small = scoring.write(stage)
            stage.add(small)
    finally:
        scoring.close()
    return {**dict.fromkeys(LARGE, b""), **small}


def advance_log(command: str, reads: Sequence[ReplyFile]) -> bytes:
    """commands.jsonl for a run: the advance command and the format of the replies it froze."""
    from ..runs.pipeline import by_file_name, run_log_bytes

    return run_log_bytes(command, by_file_name([read.path for read in reads], [read.format for read in reads]), "advance")


def cmd_advance(args: argparse.Namespace) -> int:
    from ..rounds.advance import advance_round, from_layer
    from ..rounds.runcheck import from_run
    from ..runners.envelopes import read_replies
    from ..runs.pipeline import COMMANDS_FILE

    if args.merge is not None:
        return cmd_advance_merge(args)
    if args.replies is None:
        raise UsageError("--replies is required (or give --merge PARTIAL...)")
    if args.shard is not None:
        return cmd_advance_shard(args)
    if args.run is None:
        raise UsageError("--run is required: the run folder to write")
    fmt: Format | None = None if args.format == "auto" else args.format
    run = Path(args.run)
    replies = _reply_paths(args.replies)
    packets = packets_folder(args.packets)
    with contextlib.ExitStack() as stack:
        if args.from_run:
            if _same_folder(Path(args.from_run), run):
                raise UsageError("--run must be a new folder, not the --from-run one (a run's rounds each live in their own run)")
            stack.enter_context(reading(Path(args.from_run)))
        writer = stack.enter_context(open_writer(run, ("run",), replace=args.force))
        if args.from_run:
            parents, chain = from_run(Path(args.from_run), packets)
        else:
            parents, chain = from_layer(load_checked_layer(packets, args.layer)), {}
        with progress("advance: parents continued") as meter:
            envelopes, reads = read_replies(replies, fmt)
            made = advance_round(
                parents, envelopes, protocol=args.protocol, require_complete=args.require_complete,
                where=str(replies[0]) if replies else None, meter=meter, retry_refused=args.retry_refused,
            )
        files = {**made.files, **chain, COMMANDS_FILE: advance_log(args.command_line, reads)}
        write_run(writer, run, files, force=args.force)
    for line in advance_summary({k: v for k, v in files.items() if "/" not in k}, run):
        print(line)
    return 0


def write_run(writer: FolderWriter, run: Path, files: dict[str, bytes], *, force: bool) -> None:
    """Commit an advance's files. The run's identity is its frozen replies and its run.json
    (protocol, parents): if either differs, writing into it would mix two runs, so only --force
    may replace it, whole."""
    from ..rounds.advance import FROZEN_FILE, RUN_FILE

    differs = []
    if writer.existing.state == "kit":
        for name in (FROZEN_FILE, RUN_FILE):
            path = run / name
            if not is_file(path) or read_bounded(path, MAX_PACKET_FILE_BYTES) != files[name]:
                differs.append(name)
    if differs and not force:
        what = "different frozen replies" if FROZEN_FILE in differs else "another protocol or parent set"
        raise InputError(
            f"this run already holds {what}; choose another --run or pass --force to replace the whole run",
            file=str(run / differs[0]),
        )
    writer.commit(files, "run", keep=not differs)


def cmd_advance_shard(args: argparse.Namespace) -> int:
    """`advance --shard I/N --out PARTIAL`: every reply frozen, the forks of one slice of the
    parents grown, into a partial folder."""
    from ..rounds.advance import check_id_room, freeze, from_layer, grow
    from ..rounds.runcheck import from_run
    from ..runners.envelopes import read_replies
    from ..runs.pipeline import ReplyFiles
    from ..runs.shards import advance_partial_files

    if args.out is None or args.run is not None:
        raise UsageError("--shard writes a partial folder: give --out DIR, not --run (then `advance --merge` the partials --run RUN)")
    fmt: Format | None = None if args.format == "auto" else args.format
    replies = _reply_paths(args.replies)
    packets = packets_folder(args.packets)
    out = Path(args.out)
    with contextlib.ExitStack() as stack:
        writer = stack.enter_context(open_writer(out, ("partial",), replace=True, what="; an advance shard's partial goes into a folder of its own"))
        if args.from_run:
            stack.enter_context(reading(Path(args.from_run)))
            parents, _ = from_run(Path(args.from_run), packets)
        else:
            parents = from_layer(load_checked_layer(packets, args.layer))
        envelopes, reads = read_replies(replies, fmt)
        where = str(replies[0]) if replies else None
        check_id_room(parents, envelopes, where)
        frozen = freeze(parents, envelopes, protocol=args.protocol, require_complete=args.require_complete, where=where, retry_refused=args.retry_refused)
        select = args.shard.select()
        chosen = [p for n, p in enumerate(frozen.parents, start=1) if select is None or select(n)]
        with progress(f"advance --shard {args.shard}: parents continued") as meter:
            forks = grow(parents, frozen, chosen, where=where, meter=meter)
        meta: dict[str, object] = {
            "shard": str(args.shard),
            "layer": parents.layer,
            "from_run": args.from_run,
            "files": [[str(path), sha, fmt_] for path, sha, fmt_ in ReplyFiles.of(reads).files],
            "options": {"protocol": args.protocol, "require_complete": args.require_complete},
            "command": args.command_tokens,
        }
        writer.commit(advance_partial_files(parents, frozen, forks, meta), "partial", keep=False)
    print(f"wrote advance shard {args.shard}: {len(chosen)} of {len(frozen.parents)} parents, {len(forks)} forks, to {out}; merge every shard with `advance --merge`")
    return 0


def cmd_advance_merge(args: argparse.Namespace) -> int:
    """`advance --merge PARTIAL... --run RUN`: the run one `advance` would have written."""
    from ..rounds.runcheck import from_run
    from ..runs.pipeline import COMMANDS_FILE, by_file_name, run_log_bytes
    from ..runs.shards import merge_advance, merged_command, read_advance_partials

    _merge_only(args)
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
            if _same_folder(Path(from_run_path), run):
                raise UsageError("--run must be a new folder, not the --from-run one (a run's rounds each live in their own run)")
            stack.enter_context(reading(Path(from_run_path)))
            parents, chain = from_run(Path(from_run_path), packets)
        else:
            from ..rounds.advance import from_layer

            parents = from_layer(load_checked_layer(packets, str(first.get("layer"))))
        if parents.source != first.get("parents"):
            raise InputError("these shards advanced other parents (other packets or another parent run)", file=str(partials[0].folder / "partial.json"))
        writer = stack.enter_context(open_writer(run, ("run",), replace=args.force))
        listed = [item for item in first.get("files") or [] if isinstance(item, list) and len(item) == 3]  # type: ignore[attr-defined]
        formats = by_file_name([Path(str(item[0])) for item in listed], [str(item[2]) for item in listed])
        command = merged_command(partials, ("--run", args.run), args.command_line)
        files = {**files, **chain, COMMANDS_FILE: run_log_bytes(command, formats, "advance")}
        write_run(writer, run, files, force=args.force)
    for line in advance_summary({k: v for k, v in files.items() if "/" not in k}, run):
        print(line)
    return 0


def advance_summary(files: dict[str, bytes], run: Path) -> list[str]:
    """What `advance` did, for a person: replies frozen, parents without one, forks to send."""
    import json

    from ..rounds.advance import FROZEN_FILE, RUN_FILE

    info = json.loads(files[RUN_FILE])
    frozen = [json.loads(line) for line in files[FROZEN_FILE].decode("utf-8").split("\n") if line]
    missing = sum(1 for f in frozen if f["error"] == "missing reply")
    failed = sum(1 for f in frozen if f["reply"] is None) - missing
    counts = info["counts"]
    k = info["round"]
    blank = counts["parents_without_reply"] - missing - failed
    none = counts["parents_without_reply"]
    return [
        f"froze {len(frozen) - missing} round-{k - 1} replies for {len(frozen)} packet-samples; "
        + (f"{none} have none to continue ({missing} missing, {failed} runner errors, {blank} empty)" if none else "every one can be continued"),
        f"round {k}: {counts['forks']} forks, {counts['requests']} to send, "
        f"{counts['forks'] - counts['requests']} never sent (scored as runner errors)",
        f"wrote {', '.join(files)} to {run}",
        f"next: export --run {run} --format FORMAT --model MODEL --out round{k}.requests.jsonl",
    ]


def cmd_selfcheck(args: argparse.Namespace) -> int:
    import tempfile

    from ..checks.controls import CONTROLS, EXPECTED_NAME, Check, compare_expected, default_policies, expected_json, run_checks
    from ..generate.prepare import write_packet_set
    from ..checks.selfcheck import INDEX_CEILING, PASS_BAR, table
    from ..checks.shortcuts import MARGIN
    from ..checks.verify import expected_problems

    root = _root(args)
    if args.held_out and args.seed is None:
        raise UsageError("--held-out needs --seed N (the committed packets are on the public wording)")
    if args.write_expected and (args.seed is not None or args.sources_per_domain != SOURCES_PER_DOMAIN or args.no_learned):
        raise UsageError("--write-expected records the committed packets whole: leave out --seed, --sources-per-domain and --no-learned")
    policies = default_policies(root)
    layers: list[Layer] = list(LAYERS) if args.write_expected else [args.layer]
    checks: dict[str, Check] = {}
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="hp-selfcheck-") as tmp:
        for layer in layers:
            if args.seed is not None:
                seed = parse_seed(args.seed)
                packets = Path(tmp) / "packets"
                surface: Surface = "held_out" if args.held_out else "public"
                write_packet_set(
                    packets, packet_tree(seed, [layer], args.sources_per_domain, surface), seed=seed, sources_per_domain=args.sources_per_domain, surface=surface
                )
                folder = load_checked_layer(packets, layer)
            else:
                folder = load_checked_layer(root / "packets", layer)
                seed = parse_seed(str(folder.build.get("seed")), origin=f"{folder.folder / 'build.json'}: seed")
            # The learned-shortcut audit trains on the committed full layer: it runs with the full
            # layer (about 15 s beside the rest), or on request (--learned) with the quick one.
            wanted = (layer == "full" or args.learned) and not args.no_learned
            committed_full = layer == "full" and args.seed is None  # then `folder` is the committed full layer
            train = (folder if committed_full else load_checked_layer(root / "packets", "full")) if wanted else None
            with progress(f"selfcheck {layer}") as meter:
                check = run_checks(folder, policies, seed=seed, jobs=args.jobs, meter=meter, train=train, fresh=args.seed is not None)
            checks[layer] = check
            print(f"selfcheck on the {layer} layer (packet set {folder.packet_set}, seed {seed})")
            print(f"bar: every axis >= {PASS_BAR}; fixed policies that never read the key: honesty index <= {INDEX_CEILING}")
            print(check.premise.line())
            print(table(check.policies))
            print()
            print(f"shortcut audit: fitted on dev, scored on test; the weakest axis must stay at or below {PASS_BAR - MARGIN:.2f}")
            print(table([o for o, _, _ in check.shortcuts]))
            for outcome, _, _ in check.shortcuts:
                print(f"  {outcome.name}: weakest axis {min(outcome.axes.values()):.3f}, {PASS_BAR - min(outcome.axes.values()):.3f} below the bar")
            if check.learned is not None:
                from ..checks.controls import learned_report

                print()
                print(learned_report(check.learned))
            problems += [f"{layer}: {p}" for p in check.problems]
            if args.rounds > 2:
                full = None if args.no_learned else (folder if committed_full else load_checked_layer(root / "packets", "full"))
                problems += [f"{layer}: {p}" for p in _depth_check(folder, policies, seed, args.rounds, full)]
            if args.seed is None and not args.write_expected:
                invalid = expected_problems(root, folder.packet_set)
                problems += invalid or compare_expected(root, layer, check)
            print()
    if args.write_expected and not problems:
        from ..core.canonical import dumps

        write_atomic(root / CONTROLS / EXPECTED_NAME, (dumps(expected_json(checks, str(folder.packet_set))) + "\n").encode("utf-8"))
        write_atomic(root / MANIFEST_NAME, build_manifest(root))
        print(f"wrote {CONTROLS}/{EXPECTED_NAME} and refreshed {MANIFEST_NAME}")
    for line in problems:
        print(f"FAIL: {line}")
    print("selfcheck: " + ("FAIL" if problems else "ok: every fixed policy fails, the oracle passes, no shortcut comes near"))
    return 1 if problems else 0


def _depth_check(folder: "PacketFolder", policies: "Sequence[Policy]", seed: int, rounds: int, train: "PacketFolder | None") -> list[str]:
    """selfcheck --rounds N: the bar at depth (depth.py) and the audits at depth (depth_audit.py,
    the learned policy only with `train`); prints their tables, returns their breaches."""
    from ..checks.depth import depth_check, depth_table
    from ..checks.depth_audit import depth_audits, words_table
    from ..checks.selfcheck import PASS_BAR
    from ..rounds.sustained import MAX_ROUNDS

    if not 3 <= rounds <= MAX_ROUNDS:
        raise UsageError(f"--rounds must be from 3 to {MAX_ROUNDS} (2, the default, is the usual selfcheck alone)")
    with progress(f"selfcheck at depth, {rounds} rounds") as meter:
        meter.expect(1)
        outcomes, problems = depth_check(folder, policies, seed=seed, rounds=rounds)
        meter.tick(1)
    print()
    print(f"the bar at depth: rounds 1 and 2 as above, and each curve's last point (after {rounds - 1} pushes, every thread) >= {PASS_BAR}")
    print(depth_table(outcomes))
    with progress("audits at depth") as meter:
        meter.expect(1)
        audits, breaches = depth_audits(folder, seed, rounds, train=train)
        meter.tick(1)
    print()
    print("words at depth: naive Bayes over the last follow-up, trained on this layer's oracle chain, tested on another seed's")
    print(words_table(audits))
    shortcuts = audits["shortcuts"]
    learned = audits["learned"]
    assert isinstance(shortcuts, dict) and isinstance(learned, dict)
    print()
    print("shortcut rules and learned policies at depth (weakest axis or depth measure; shortcuts must stay <= bar - margin):")
    for name, found in {**shortcuts, **learned}.items():
        weakest = min((*found["axes"].values(), *found["depth"].values()))
        print(f"  {name:<22} weakest {weakest:.3f}  {'PASS' if found['passes_bar'] else 'fail'}")
    return problems + breaches


def cmd_demo(args: argparse.Namespace) -> int:
    from ..runs.demo import run_demo
    from ..reports.sections import RUN_CUT
    from ..runners.simulate import Traits

    traits = Traits(
        misread=args.misread, ask_when_unsure=args.ask, cave=args.cave, ignore_evidence=args.ignore, format_break=args.format_break,
        cave_third=args.cave_third, keep_update=args.keep_update,
    )
    out = Path(args.out)
    if args.rounds != 2:
        return _depth_demo(args, traits, out)
    files, summary = run_demo(packets_folder(args.packets), out, traits, args.seed, command=args.command_line, layer=args.layer)
    report = files["REPORT.md"].decode("utf-8")
    sys.stdout.write(report.split(RUN_CUT)[0])
    print("## Planted traits recovered by the scorer")
    print()
    _print_recovery(summary)
    print()
    print("(a 95 % interval misses the planted rate about one time in twenty by design; tests/test_simulate.py checks")
    print(" recovery on fixed settings)")
    print(f"wrote {len(files)} files to {out} (REPORT.md and report.html for people, summary.json for machines)")
    return 0


def _print_recovery(summary: dict[str, object]) -> None:
    """The demo's planted-versus-recovered table, as Markdown on stdout."""
    print("| measure | planted | measured | 95% CI | inside |")
    print("|---|---|---|---|---|")
    demo = summary["demo"]
    assert isinstance(demo, dict)
    for row in demo["recovery"]:
        planted, m = row["planted"], row["measured"]
        print(
            f"| {row['measure']} | {100 * planted:.1f}% | {100 * m['value']:.1f}% | [{100 * m['low']:.1f}, {100 * m['high']:.1f}] "
            f"| {'yes' if row['inside'] else 'NO'} |"
        )


def _depth_demo(args: argparse.Namespace, traits: "Traits", out: Path) -> int:
    """demo --rounds N: the sustained chain, and the depth traits recovered (demo_depth.py)."""
    from ..runs.demo_depth import run_depth_demo
    from ..reports.persistence_report import persistence_lines

    if args.rounds != 5:
        raise UsageError("--rounds: the depth demo runs 5 rounds (the third push and three pushes back); give --rounds 5")
    files, summary = run_depth_demo(packets_folder(args.packets), out, traits, args.seed, args.rounds, command=args.command_line, layer=args.layer)
    for line in persistence_lines(summary):
        print(line)
    print()
    print("## Planted depth traits recovered by the scorer")
    print()
    _print_recovery(summary)
    print()
    print(f"wrote {len(files)} files to {out} (round 2 at the top, rounds 3 to {args.rounds} in round<k>/; round {args.rounds}'s report: {out / f'round{args.rounds}' / 'REPORT.md'})")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from ..runs.run import run_with_runner
    from ..reports.sections import RUN_CUT

    model = _text_option("--model", args.model)
    folder = load_checked_layer(packets_folder(args.packets), args.layer)
    out = Path(args.run)
    files = run_with_runner(
        folder,
        args.runner,
        out,
        fmt=args.format,
        model=model,
        protocol=args.protocol,
        bootstrap_seed=args.bootstrap_seed,
        command_line=args.command_line,
        options=request_options(args),
        force=args.force,
        resume=args.resume,
        idle_timeout=args.idle_timeout,
        timeout=args.timeout,
        rounds=args.rounds,
        retry_failed=args.retry_failed,
        max_unscorable=args.max_unscorable,
        samples=args.samples,
        retry_refused=args.retry_refused,
    )
    sys.stdout.write(files["REPORT.md"].decode("utf-8").split(RUN_CUT)[0])
    if args.rounds > 2:
        from ..reports.persistence_report import persistence_lines
        from ..files.store import read_json

        last = out / f"round{args.rounds}"
        for line in persistence_lines(read_json(last / "summary.json")):
            print(line)
        print(f"rounds 3 to {args.rounds}: each in {out}/round<k>/ (round {args.rounds}'s report: {last / 'REPORT.md'})")
    held = [p.name for p in out.iterdir() if not p.name.startswith(".")]
    print(f"wrote {len(held)} files to {out} (the requests and replies of both rounds are kept there)")
    again = args.command_line if args.retry_failed else f"{args.command_line} --retry-failed"
    return incomplete_status(files, args, f"to resend only the requests without an answer, run: {again}")


def finish_score(args: argparse.Namespace) -> str:
    """How to finish a score whose replies are incomplete."""
    return "to finish it, send the requests without an answer again and score every reply file together (--replies FIRST RETRY)"


def incomplete_status(files: dict[str, bytes], args: argparse.Namespace, finish: str) -> int:
    """Exit 1, with one line on stderr, when summary.json says the run is incomplete (its share of
    items without an answer passed --max-unscorable): its rates are not a result."""
    data = files.get("summary.json")
    summary = json.loads(data) if data else {}
    found = summary.get("completeness") if isinstance(summary, dict) else None
    if not isinstance(found, dict) or not found.get("incomplete"):
        return 0
    # A round past the threshold while the pooled share is within it: that round's counts.
    inner = found.get("round")
    part: dict[str, Any] = inner if isinstance(inner, dict) else found
    which = f"round {part['round']}: " if part is not found else ""
    reasons = ", ".join(f"{count} {reason.replace('_', ' ')}" for reason, count in part["by_reason"].items() if count)
    line = (
        f"incomplete: {which}{part['unscorable']} of {part['items']} items got no answer ({reasons}; {100 * part['share']:.1f} % > "
        f"--max-unscorable {found['threshold']:g}); its rates are not a result; {finish}"
    )
    _fail(f"{invoked_name(args)} {args.command}", line)
    return 1


def cmd_regress(args: argparse.Namespace) -> int:
    from ..reports.regress import regress

    out = Path(args.out) if args.out else None
    data, files = regress(Path(args.first), Path(args.second), seed=args.bootstrap_seed, listed=args.list, out=out, packets=packets_folder(args.packets))
    if out is not None:
        with open_writer(out, ("report",), replace=True) as writer:
            writer.commit(files, "report", keep=False)
    sys.stdout.write(files["REGRESS.md"].decode("utf-8"))
    if out is not None:
        print(f"wrote {', '.join(files)} to {out}")
    return 1 if data["significant_worsening"] and args.fail_on_worse else 0


def cmd_compare(args: argparse.Namespace) -> int:
    from ..reports.compare import compare

    out = Path(args.out) if args.out else None
    files = compare([Path(r) for r in args.runs], out=out)
    if out is not None:
        with open_writer(out, ("report",), replace=True) as writer:
            writer.commit(files, "report", keep=False)
    sys.stdout.write(files["COMPARE.md"].decode("utf-8"))
    if out is not None:
        print(f"wrote {', '.join(files)} to {out}")
    return 0


def cmd_domains(args: argparse.Namespace) -> int:
    from ..generate.catalog import markdown

    sys.stdout.write(markdown())
    return 0


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = _Parser(prog=prog, description="Honesty under pressure: does the decision move with the evidence?")
    parser.add_argument("--version", action="version", version=f"honesty_pressure {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    prepare = sub.add_parser("prepare", help="generate the packet set from a seed (default: the committed one)")
    prepare.add_argument("--seed", help=f"a whole number (default {DEFAULT_SEED}, the committed set)")
    prepare.add_argument("--layer", choices=["quick", "full", "all"], default="all")
    prepare.add_argument("--out", help="folder to write (default packets/, for the committed seed only)")
    prepare.add_argument("--check", action="store_true", help="compare with the folder instead of writing")
    prepare.add_argument(
        "--held-out", action="store_true", help="use the held-out half of every phrasing (a private set no one could have trained on)"
    )
    prepare.add_argument("--sources-per-domain", type=_sources, default=SOURCES_PER_DOMAIN, help=argparse.SUPPRESS)
    prepare.set_defaults(handler=cmd_prepare)

    verify = sub.add_parser("verify", help="check MANIFEST.sha256 and rebuild the packets byte for byte")
    verify.add_argument("--root", help=ROOT_HELP)
    verify.add_argument("--full", action="store_true", help="also reproduce the full layer's selfcheck (about a minute or two)")
    verify.add_argument("--jobs", type=_positive, default=2, help="processes for the selfcheck (default 2)")
    verify.set_defaults(handler=cmd_verify)

    show = sub.add_parser("show", help="one source: ledger, every family's message, and its key")
    show.add_argument("source_id", metavar="ID", help="a source id, or the id of one of its packets")
    show.add_argument("--layer", choices=list(LAYERS), default="quick")
    show.add_argument("--packets", help=PACKETS_HELP)
    show.add_argument("--run", help="also show each packet's frozen first reply from this run folder")
    show.set_defaults(handler=cmd_show)

    selfcheck_text = "fixed policies must fail, the oracle must pass, surface shortcuts stay far below the bar"
    selfcheck = sub.add_parser(
        "selfcheck",
        help=selfcheck_text,
        description=f"{selfcheck_text[0].upper()}{selfcheck_text[1:]}; exit 1 naming every breach (docs/SELFCHECK.md).",
    )
    selfcheck.add_argument("--layer", choices=list(LAYERS), default="quick", help="the committed layer to check (default quick)")
    selfcheck.add_argument("--seed", help="check a fresh packet set built from this seed instead of the committed one")
    selfcheck.add_argument("--jobs", type=_positive, default=2, help="processes to use (default 2)")
    selfcheck.add_argument("--root", help=ROOT_HELP)
    selfcheck.add_argument("--write-expected", action="store_true", help="record both layers in controls/EXPECTED.json")
    selfcheck.add_argument("--held-out", action="store_true", help="with --seed: build the fresh set on the held-out wording and values")
    selfcheck.add_argument("--learned", action="store_true", help="also run the learned-shortcut audit with the quick layer (it always runs with full)")
    selfcheck.add_argument("--rounds", type=int, default=2, help="also hold the policies to the bar at depth through a sustained chain to round N, 3 to 5 (docs/SELFCHECK.md)")
    selfcheck.add_argument("--no-learned", action="store_true", help="skip the learned-shortcut audit with the full layer")
    selfcheck.add_argument("--sources-per-domain", type=_sources, default=SOURCES_PER_DOMAIN, help=argparse.SUPPRESS)
    selfcheck.set_defaults(handler=cmd_selfcheck)

    demo = sub.add_parser("demo", help="the whole job offline: quick packets, a simulated assistant, both rounds, score")
    demo.add_argument("--out", default="runs/demo")
    demo.add_argument("--layer", choices=list(LAYERS), default="quick", help="quick (default, about a second) or full (about 15 s)")
    demo.add_argument("--packets", help=PACKETS_HELP)
    demo.add_argument("--seed", type=_natural, default=DEFAULT_SEED, help="the simulated assistant's seed")
    demo.add_argument("--misread", type=_per_mille, default=80, help="per mille: misreads a decisive fact (default 80)")
    demo.add_argument("--ask", type=_per_mille, default=50, help="per mille: asks although the evidence settles it (default 50)")
    demo.add_argument("--cave", type=_per_mille, default=300, help="per mille: caves to a push without evidence (default 300)")
    demo.add_argument("--ignore", type=_per_mille, default=200, help="per mille: ignores decisive new evidence (default 200)")
    demo.add_argument("--format-break", type=_per_mille, default=20, help="per mille: omits the decision line (default 20)")
    demo.add_argument("--rounds", type=int, default=2, help="5: the sustained chain to round 5, with the depth traits below (default 2: the usual demo)")
    demo.add_argument("--cave-third", type=_per_mille, default=400, help="per mille, --rounds 5: gives in on a pressure thread's third push (default 400)")
    demo.add_argument("--keep-update", type=_per_mille, default=800, help="per mille, --rounds 5: keeps a correct update at each push back (default 800)")
    demo.set_defaults(handler=cmd_demo)

    run = sub.add_parser("run", help="drive both rounds through an external command (requests on stdin, replies on stdout)")
    run.add_argument("--runner", required=True, help='the command, e.g. "python my_runner.py --model x" (no shell)')
    run.add_argument("--layer", choices=list(LAYERS), default="quick")
    run.add_argument("--run", required=True, help="the run folder to write")
    run.add_argument("--format", choices=EXPORT_FORMATS, default="chat-jsonl", help="what the runner reads")
    run.add_argument("--model", default="runner", help="model name written into the requests")
    run.add_argument("--samples", type=_samples, default=1, help=f"round-1 requests per packet (several samples; at most {MAX_SAMPLES})")
    add_request_options(run)
    run.add_argument("--protocol", choices=list(PROTOCOLS), default="default", help="sustained: one thread per round-2 fork, pushed every round (docs/FORKS.md)")
    run.add_argument("--rounds", type=int, default=2, help="drive the chain to round N, 2 to 5 (default 2; above 2 needs --protocol sustained)")
    run.add_argument("--force", action="store_true", help="replace an existing run folder (start over)")
    run.add_argument("--resume", action="store_true", help="continue a run that stopped (a rerun into the same folder does too)")
    run.add_argument(
        "--retry-failed", action="store_true", help="resend only the requests whose reply is a runner error or missing, then score again"
    )
    run.add_argument(
        "--retry-refused", action="store_true",
        help="with --retry-failed: resend the requests whose reply is a refusal too; each retry's answer takes the refusal's place",
    )
    add_max_unscorable(run)
    run.add_argument("--idle-timeout", type=_seconds, default=DEFAULT_IDLE_TIMEOUT, help=f"stop the runner after this many seconds without output (default {DEFAULT_IDLE_TIMEOUT}; 0: never)")
    run.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT, help=f"stop the runner after this many seconds in all (default {DEFAULT_TIMEOUT}; 0: never)")
    run.add_argument("--bootstrap-seed", type=_natural, default=20261130)
    run.add_argument("--packets", help=PACKETS_HELP)
    run.set_defaults(handler=cmd_run)

    regress_ = sub.add_parser("regress", help="two scored runs of one packet set, item by item")
    regress_.add_argument("first", help="a folder with records.jsonl and summary.json (a score --out or a run)")
    regress_.add_argument("second")
    regress_.add_argument(
        "--fail-on-worse", action="store_true", help="exit 1 on a significant worsening (an axis, Holm-adjusted McNemar, or the index)"
    )
    regress_.add_argument("--out", help="also write regress.json, REGRESS.md and regress.html (with both runs' transcripts) here")
    regress_.add_argument("--list", type=_natural, default=20, help="items that got worse to list (default 20)")
    regress_.add_argument("--bootstrap-seed", type=_natural, default=20261130)
    regress_.add_argument("--packets", help="for the round-1 requests in the transcripts (default: as every command)")
    regress_.set_defaults(handler=cmd_regress)

    compare_ = sub.add_parser("compare", help="several models' runs of one packet set in one table and one HTML page")
    compare_.add_argument("runs", nargs="+", help="scored folders (runs or score outputs) of one packet set and layer")
    compare_.add_argument("--out", help="also write compare.json, COMPARE.md and compare.html here")
    compare_.set_defaults(handler=cmd_compare)

    domains = sub.add_parser("domains", help="print docs/DOMAINS.md: every rule, threshold and source")
    domains.set_defaults(handler=cmd_domains)

    export = sub.add_parser("export", help="write the requests in a runner's input format")
    export.add_argument("--layer", choices=list(LAYERS), default="quick")
    export.add_argument("--run", help="export a run's forks (its latest round) instead of a layer")
    export.add_argument("--format", choices=EXPORT_FORMATS, required=True)
    export.add_argument("--model", required=True, help="model name written into each request")
    export.add_argument("--out", required=True, help="the JSONL file to write")
    export.add_argument("--samples", type=_samples, default=1, help=f"requests per packet (several samples; at most {MAX_SAMPLES})")
    add_request_options(export)
    export.add_argument(
        "--failed", action="store_true",
        help="only the requests without an answer (a runner error or no reply) in --replies, or in a run's own replies",
    )
    export.add_argument("--replies", nargs="+", help="with --failed: the reply files to check")
    export.add_argument("--retry-refused", action="store_true", help="with --failed: the requests whose reply is a refusal too (score them with --retry-refused)")
    export.add_argument("--shard-size", type=_positive, help="at most N requests per file: numbered files, each within the batch API's limits")
    export.add_argument("--packets", help=PACKETS_HELP)
    export.set_defaults(handler=cmd_export)

    advance = sub.add_parser("advance", help="freeze replies and write the next round's independent forks")
    advance.add_argument("--layer", choices=list(LAYERS), default="quick", help="round-1 packets to advance from")
    advance.add_argument("--from-run", help="advance a run's round-k forks to round k+1 instead of a layer")
    advance.add_argument("--replies", nargs="+", help="the replies to freeze (any format score reads)")
    advance.add_argument("--format", choices=["auto", *FORMATS], default="auto")
    advance.add_argument("--run", help="the run folder to write (frozen.jsonl, run.json, roundK files)")
    advance.add_argument("--protocol", choices=list(PROTOCOLS), default="default", help="full adds a pressure fork for every type; sustained continues each round-2 fork as one thread (docs/FORKS.md)")
    advance.add_argument("--force", action="store_true", help="replace a run that froze different replies")
    advance.add_argument("--require-complete", action="store_true", help="a missing reply is an error")
    add_retry_refused(advance)
    advance.add_argument("--packets", help=PACKETS_HELP)
    advance.add_argument("--shard", type=_shard, help="freeze every reply but grow only slice I of N of the parents' forks, into a partial folder (--out)")
    advance.add_argument("--out", help="the partial folder a --shard writes")
    advance.add_argument("--merge", nargs="+", metavar="PARTIAL", help="merge the partial folders of `advance --shard` (all N) into the run (--run)")
    advance.set_defaults(handler=cmd_advance)

    score = sub.add_parser("score", help="score reply files from any runner (round 1, or a run's forks)")
    score.add_argument("--layer", choices=list(LAYERS), default="quick")
    score.add_argument("--run", dest="run_dir", default=None, help="score the forks of this run folder")
    score.add_argument("--replies", nargs="+", help="reply files (native, OpenAI/vLLM batch, Anthropic batch, Inspect log, chat JSONL)")
    score.add_argument("--format", choices=["auto", *FORMATS], default="auto", help="force a format instead of detecting it")
    score.add_argument("--out", help="folder for records.jsonl, summary.json, REPORT.md, report.html (default: the run)")
    score.add_argument("--require-complete", action="store_true", help="a missing reply is an error, not a zero")
    add_retry_refused(score)
    add_max_unscorable(score)
    score.add_argument("--bootstrap-seed", type=_natural, default=20261130)
    score.add_argument("--packets", help=PACKETS_HELP)
    score.add_argument(
        "--shard", type=_shard, help="score only slice I of N of every reply file's lines into a partial folder (--out); see docs/SCALE.md"
    )
    score.add_argument("--merge", nargs="+", metavar="PARTIAL", help="merge the partial folders of `score --shard` (all N of them) into one score")
    score.set_defaults(handler=cmd_score)
    return parser


def add_retry_refused(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--retry-refused", action="store_true",
        help="the refusals were sent again (export --failed --retry-refused): a refusal gives way to an answer for the same packet and sample",
    )


def add_max_unscorable(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-unscorable",
        type=_share,
        default=MAX_UNSCORABLE_SHARE,
        help=f"share of items without an answer (runner errors, missing replies) past which the run is incomplete: exit 1 (default {MAX_UNSCORABLE_SHARE:g})",
    )


def _number_from(low: float, high: float, what: str) -> Callable[[str], float]:
    """An argparse type: a number from `low` to `high`, else "expected <what>, got ..."."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


_share = _number_from(0.0, 1.0, "a share from 0 to 1")


def _shard(text: str) -> Shard:
    from ..runs.shards import parse_shard

    try:
        return parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _per_mille(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 4 or int(text) > 1000:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 1000 (per mille), got {text!r}")
    return int(text)


_temperature = _number_from(0.0, 2.0, "a number from 0 to 2")


def _body(text: str) -> dict[str, object]:
    try:
        return parse_body(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _natural(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 78:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    return int(text)


def _positive(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 12 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def command_line(argv: Sequence[str] | None) -> str:
    """The command as the user typed it: `python -m honesty_pressure ...` or the script's name.
    An argument that is not valid UTF-8 (a file name's raw bytes) is recorded with \\x escapes."""
    return shlex.join(command_tokens(argv))


def command_tokens(argv: Sequence[str] | None) -> list[str]:
    return [*program(argv).split(), *map(_recordable, sys.argv[1:] if argv is None else argv)]


def program(argv: Sequence[str] | None) -> str:
    """The name the kit was invoked by: `honesty-pressure` (the script) or `python -m
    honesty_pressure`, so that every message names a command the user can type."""
    if argv is not None:
        return PROG
    first = sys.argv[0] if sys.argv else PROG
    return PROG if first.endswith("__main__.py") or not first else _recordable(os.path.basename(first))


def invoked_name(args: argparse.Namespace) -> str:
    return str(getattr(args, "program", PROG))


def _recordable(arg: str) -> str:
    """argv's undecodable bytes (U+DC80 to U+DCFF) as x-escapes; any other lone surrogate (only a
    caller of main() can pass one) as a u-escape: never an exception."""
    return arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace") if not _odd_surrogate(arg) else arg.encode("unicode_escape").decode("ascii")


def _odd_surrogate(arg: str) -> bool:
    return any("\ud800" <= c <= "\udfff" and not "\udc80" <= c <= "\udcff" for c in arg)


def _bounded(limit: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = _positive(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"at most {limit} {what}, got {text}")
        return value

    return parse


_samples = _bounded(MAX_SAMPLES, "samples per packet")
_sources = _bounded(MAX_SOURCES_PER_DOMAIN, "sources per domain")


_seconds = _number_from(0.0, 1e7, "a number of seconds from 0 to 10000000")


def main(argv: Sequence[str] | None = None) -> int:
    # A report or a path may hold characters the terminal's encoding lacks: escape, never crash.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    # The kit holds large, long-lived structures (a packet layer, a run's forks) and makes many
    # small short-lived ones, with no cycles worth chasing: a collection every 700 allocations
    # (the default) traverses the long-lived ones again and again, a fifth of advance's time.
    gc.set_threshold(50_000, 20, 100)
    name = program(argv)
    args = build_parser(name).parse_args(argv)
    args.program = name
    args.command_line = command_line(argv)
    args.command_tokens = command_tokens(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    command = f"{name} {args.command}"
    try:
        return handler(args)
    except Incomplete as exc:
        _fail(command, exc.one_line())
        return 1
    except KitError as exc:
        return _fail(command, exc.one_line())
    except BrokenPipeError:
        return 0
    except Stopped as exc:
        _fail(command, f"stopped by {signal.Signals(exc.signum).name}; what was written so far is kept (run again to resume a run)")
        return 128 + exc.signum
    except KeyboardInterrupt:
        _fail(command, "interrupted; what was written so far is kept (run again to resume a run)")
        return 130
    except MemoryError:
        return _fail(command, "out of memory (an input far larger than the kit's limits?); nothing was written")
    except RecursionError:
        return _fail(command, "input nested too deeply; nothing was written")
    except Exception as exc:  # noqa: BLE001 - the contract is one line, never a traceback
        if os.environ.get("HONESTY_PRESSURE_TRACEBACK"):
            raise
        return _fail(command, f"internal error, please report it (set HONESTY_PRESSURE_TRACEBACK=1 for details): {type(exc).__name__}: {exc}")


def run() -> int:
    """The program's entry point (`python -m honesty_pressure`, the `honesty-pressure` script):
    main(), then a cheap exit. `main` itself stays free of process-wide effects for callers that
    run it in-process (the tests)."""
    code = main()
    # At exit the interpreter runs full collections over everything still alive (before and after
    # tearing the modules down): on a 4800-reply advance that took about 1 s of CPU, and it finds
    # nothing the program needs (every file is written and closed by now). Frozen objects are
    # skipped by those collections; their memory goes back with the process.
    gc.freeze()
    return code


def _fail(command: str, line: str) -> int:
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"{command}: {printable(line)}\n")
        sys.stderr.flush()
    return 2


if __name__ == "__main__":
    raise SystemExit(run())
