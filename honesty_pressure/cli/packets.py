"""The packet commands: prepare, verify, show, domains."""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Mapping
from pathlib import Path

from ..checks.verify import parse_seed, verify_tree
from ..core.construct import LAYERS, Layer, Surface
from ..core.domainfiles import given_files
from ..core.draws import seed_commitment
from ..core.errors import InputError, OutputError, UsageError, printable
from ..core.limits import MAX_PACKET_FILE_BYTES
from ..files.kitroot import packets_folder
from ..files.layer import load_layer
from ..files.store import is_file, read_bounded, read_jsonl
from ..generate.catalog import markdown
from ..generate.generate import (
    DEFAULT_SEED,
    SOURCES_PER_DOMAIN,
    packet_set_id,
    packet_tree,
)
from ..generate.pairs import check_files
from ..generate.prepare import check_packet_target, write_packet_set
from ..generate.show import show_source
from ..rounds.advance import FROZEN_FILE
from .common import (
    PACKETS_HELP,
    ROOT_HELP,
    AddParser,
    layers_of,
    positive,
    root_of,
    sources,
)


def add_prepare(add: AddParser) -> None:
    prepare = add("prepare")
    prepare.add_argument(
        "--seed", help=f"a whole number (default {DEFAULT_SEED}, the committed set)"
    )
    prepare.add_argument("--layer", choices=["quick", "full", "all"], default="all")
    prepare.add_argument(
        "--out", help="folder to write (default packets/, for the committed seed only)"
    )
    prepare.add_argument(
        "--check", action="store_true", help="compare with the folder instead of writing"
    )
    prepare.add_argument(
        "--held-out",
        action="store_true",
        help=(
            "use the held-out half of every phrasing and the held-out value grid (a private set "
            f"no one could have trained on); without --seed, a seed of {DRAWN_SEED_BITS} random "
            "bits is drawn and printed"
        ),
    )
    prepare.add_argument(
        "--sources-per-domain", type=sources, default=SOURCES_PER_DOMAIN, help=argparse.SUPPRESS
    )
    prepare.set_defaults(handler=cmd_prepare)


DRAWN_SEED_BITS = 128
"""The size of the seed `prepare --held-out` draws when given none: too many seeds to try them all
against a published commitment (docs/AUDIT.md)."""


def cmd_prepare(args: argparse.Namespace) -> int:
    drawn = args.seed is None and args.held_out
    seed = parse_seed(args.seed) if args.seed is not None else DEFAULT_SEED
    surface: Surface = "held_out" if args.held_out else "public"
    if args.out is None and (seed != DEFAULT_SEED or args.held_out) and not args.check:
        # packets/ holds the committed set that MANIFEST.sha256 and controls/ describe.
        raise UsageError(
            "a seed other than the committed one, or --held-out, needs --out DIR "
            "(packets/ holds the committed set)"
        )
    if drawn and args.check:
        raise UsageError("--held-out --check needs --seed N, the seed the set was built from")
    if drawn:
        # A held-out set is a private set: the committed seed is public, so one is drawn.
        seed = secrets.randbits(DRAWN_SEED_BITS)
    out = Path(args.out or "packets")
    print(f"seed commitment (SHA-256, publish before a private run): {seed_commitment(seed)}")
    for given in given_files() or ():  # --domains: the files are committed to as the seed is
        print(f"domain file {given.file} ({given.name}): SHA-256 {given.sha256}, publish it too")
    if drawn:
        print(drawn_seed_note(seed, out, args.layer))
    if not args.check:  # an unwritable or refused --out is said before a build of seconds
        check_packet_target(
            out, seed=seed, sources_per_domain=args.sources_per_domain, surface=surface
        )
    tree = packet_tree(seed, layers_of(args.layer), args.sources_per_domain, surface)
    breaches = premise_problems(tree)
    if breaches:
        for line in breaches:
            print(f"FAIL: {line}")
        print(
            f"FAIL: {len(breaches)} minimal pairs break the premise of the paired bar "
            "(DESIGN.md 6a); nothing written"
        )
        return 1
    if args.check:
        problems = tree_problems(tree, out, seed)
        for line in problems:
            print(line)
        print(
            f"{'FAIL' if problems else 'ok'}: {len(tree) - len(problems)} of {len(tree)} files "
            "match"
        )
        return 1 if problems else 0
    done = write_packet_set(
        out, tree, seed=seed, sources_per_domain=args.sources_per_domain, surface=surface
    )
    print(
        f"wrote {len(tree)} files for packet set {packet_set_id(seed, surface)} under {out}{done}"
    )
    return 0


def drawn_seed_note(seed: int, out: Path, layer: str) -> str:
    """What a user must keep of a seed the kit drew: the seed rebuilds the set and opens the
    commitment, and build.json records it, so the folder is as secret as the seed."""
    layers = "" if layer == "all" else f" --layer {layer}"
    if given_files() is not None:  # the same files, once published, rebuild it
        layers += " --domains THEIR_FOLDER"
    return (
        f"seed (drawn, {DRAWN_SEED_BITS} random bits): {seed}; keep it, and {printable(str(out))}, "
        "which records it in each build.json, private until the run is scored, then publish it: "
        f"anyone can check it against the commitment and rebuild the set with prepare --seed "
        f"{seed} --held-out{layers} --check --out DIR"
    )


def premise_problems(tree: Mapping[str, bytes]) -> list[str]:
    """The minimal-pair premise on every layer of a built tree ("<layer>/<file>" keys)."""
    problems: list[str] = []
    for layer in sorted({rel.split("/", 1)[0] for rel in tree}):
        files = {
            rel.split("/", 1)[1]: data for rel, data in tree.items() if rel.startswith(f"{layer}/")
        }
        problems += check_files(files, where=f"{layer}").problems
    return problems


def tree_problems(tree: Mapping[str, bytes], out: Path, seed: int) -> list[str]:
    """`prepare --check`: each file of the built tree that the folder lacks or holds otherwise."""
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
    return problems


def add_verify(add: AddParser) -> None:
    verify = add("verify")
    verify.add_argument("--root", help=ROOT_HELP)
    verify.add_argument(
        "--full",
        action="store_true",
        help="also reproduce the full layer's selfcheck (about a minute or two)",
    )
    verify.add_argument(
        "--jobs", type=positive, default=2, help="processes for the selfcheck (default 2)"
    )
    verify.set_defaults(handler=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    layers: tuple[Layer, ...] = LAYERS if args.full else ("quick",)
    passed, problems = verify_tree(root_of(args), layers, jobs=args.jobs)
    for line in passed:
        print(f"ok: {line}")
    for line in problems:
        print(f"FAIL: {printable(line)}")
    return 1 if problems else 0


def add_show(add: AddParser) -> None:
    show = add("show")
    show.add_argument(
        "source_id", metavar="ID", help="a source id, or the id of one of its packets"
    )
    show.add_argument("--layer", choices=list(LAYERS), default="quick")
    show.add_argument("--packets", help=PACKETS_HELP)
    show.add_argument(
        "--run", help="also show each packet's frozen first reply from this run folder"
    )
    show.set_defaults(handler=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    folder = load_layer(packets_folder(args.packets), args.layer)
    frozen = None
    if args.run is not None:
        rows = read_jsonl(Path(args.run) / FROZEN_FILE)
        frozen = {str(r.get("packet_id")): r for _, r in rows if r.get("sample") == 0}
    sys.stdout.write(show_source(folder, args.source_id, frozen))
    return 0


def add_domains(add: AddParser) -> None:
    domains = add("domains")
    domains.add_argument(
        "action",
        nargs="?",
        choices=["check", "new"],
        help="check PATH: every gate on one domain file; new NAME: write a domain file to fill in "
        "(without either: print docs/DOMAINS.md)",
    )
    domains.add_argument("target", nargs="?", metavar="PATH|NAME")
    domains.add_argument("--out", help="new: the folder NAME.toml is written in (default: here)")
    domains.add_argument(
        "--skip-pairs",
        action="store_true",
        help="check: leave out the minimal-pairs gate, the one that builds packets (seconds)",
    )
    domains.set_defaults(handler=cmd_domains)


def cmd_domains(args: argparse.Namespace) -> int:
    if args.action is None:
        if args.out is not None or args.skip_pairs:
            raise UsageError("domains: --out is for domains new, --skip-pairs for domains check")
        if args.target is not None:
            raise UsageError("domains takes check PATH or new NAME, or nothing")
        sys.stdout.write(markdown())
        return 0
    if args.target is None:
        raise UsageError(
            f"domains {args.action} needs its {'PATH' if args.action == 'check' else 'NAME'}"
        )
    if args.action == "new":
        if args.skip_pairs:
            raise UsageError("domains: --skip-pairs is for domains check")
        return _new_domain(args.target, Path(args.out if args.out is not None else "."))
    if args.out is not None:
        raise UsageError("domains: --out is for domains new")
    return _check_domain(Path(args.target), pairs=not args.skip_pairs)


def _check_domain(path: Path, *, pairs: bool) -> int:
    """The gates' table; a file that does not read also lists every problem, and exits 2."""
    from ..checks.domaincheck import check_domain_file, table

    if not path.is_file():
        raise InputError("no such domain file (or not a regular file)", file=str(path))
    gates, error = check_domain_file(path, pairs=pairs)
    sys.stdout.write(f"domains check {printable(str(path))}\n" + table(gates))
    if error is not None:
        for problem in error.problems:
            line = f":{problem.line}" if problem.line is not None else ""
            sys.stdout.write(
                f"  {printable(str(path))}{line}: {problem.field}: {problem.problem}\n"
            )
        raise error
    failed = [g.name for g in gates if g.result == "fail"]
    unbuilt = sum(1 for g in gates if g.result == "not built")
    passed = sum(1 for g in gates if g.result == "pass")
    skipped = sum(1 for g in gates if g.result == "skipped")
    verdict = f"FAIL: {', '.join(failed)}" if failed else "ok"
    left = f", {skipped} skipped" if skipped else ""
    sys.stdout.write(f"{verdict} ({passed} gates pass, {unbuilt} not built yet{left})\n")
    return 1 if failed else 0


def _new_domain(name: str, out: Path) -> int:
    """NAME.toml in `out`, never over a file that is there, never inside the kit's own folders."""
    from ..core.canonical import write_atomic
    from ..domains.scaffold import NAME, scaffold
    from ..files.folders import protected_reason, target_path

    if not NAME.fullmatch(name):
        raise UsageError(
            f"domains new: {printable(repr(name))} is no domain name (lower-case letters, digits "
            "and _, 2 to 40 of them, a letter first)"
        )
    path = out / f"{name}.toml"
    refused = protected_reason(target_path(path))
    if refused is not None:
        raise OutputError(refused, file=str(path))
    write_atomic(path, scaffold(name).encode("utf-8"), replace=False)
    sys.stdout.write(
        f"wrote {printable(str(path))}: fill in every TODO, then run "
        f"`python -m honesty_pressure domains check {printable(str(path))}`\n"
    )
    return 0
