"""The command line: thin functions that parse options, call the library, and map errors to exits.

Exit status: 0 success, 1 a check found a problem, 2 bad input or usage (one line on stderr
naming the file, the line and what is wrong; nothing half-written).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from .canonical import write_atomic, write_tree
from .construct import LAYERS, Layer
from .errors import KitError, UsageError
from .generate import DEFAULT_SEED, SOURCES_PER_DOMAIN, packet_set_id, packet_tree, seed_commitment
from .manifest import MANIFEST_NAME, build as build_manifest
from .show import show_source
from .store import load_layer
from .verify import parse_seed, verify_tree

PROG = "python -m honesty_pressure"


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


def _layers(choice: str) -> list[Layer]:
    return list(LAYERS) if choice == "all" else [layer for layer in LAYERS if layer == choice]


def cmd_prepare(args: argparse.Namespace) -> int:
    seed = parse_seed(args.seed) if args.seed is not None else DEFAULT_SEED
    out = Path(args.out)
    layers = _layers(args.layer)
    print(f"seed commitment (SHA-256, publish before a private run): {seed_commitment(seed)}")
    tree = packet_tree(seed, layers, args.sources_per_domain)
    if args.check:
        problems = []
        for rel, data in sorted(tree.items()):
            path = out / rel
            if not path.is_file():
                problems.append(f"{path}: missing")
            elif path.read_bytes() != data:
                problems.append(f"{path}: differs from what seed {seed} produces")
        for line in problems:
            print(line)
        print(f"{'FAIL' if problems else 'ok'}: {len(tree) - len(problems)} of {len(tree)} files match")
        return 1 if problems else 0
    for layer in layers:
        write_tree(out / layer, {rel.split("/", 1)[1]: data for rel, data in tree.items() if rel.startswith(f"{layer}/")})
    wrote = f"wrote {len(tree)} files for packet set {packet_set_id(seed)} under {out}"
    if out.resolve() == Path("packets").resolve():
        root = out.resolve().parent
        write_atomic(root / MANIFEST_NAME, build_manifest(root))
        wrote += f" and refreshed {MANIFEST_NAME}"
    print(wrote)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    passed, problems = verify_tree(Path(args.root))
    for line in passed:
        print(f"ok: {line}")
    for line in problems:
        print(f"FAIL: {line}")
    return 1 if problems else 0


def cmd_show(args: argparse.Namespace) -> int:
    folder = load_layer(Path(args.packets), args.layer)
    sys.stdout.write(show_source(folder, args.source_id))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Honesty under pressure: does the decision move with the evidence?")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    prepare = sub.add_parser("prepare", help="generate the packet set from a seed (default: the committed one)")
    prepare.add_argument("--seed", help=f"a whole number (default {DEFAULT_SEED}, the committed set)")
    prepare.add_argument("--layer", choices=["quick", "full", "all"], default="all")
    prepare.add_argument("--out", default="packets", help="folder to write (default packets/)")
    prepare.add_argument("--check", action="store_true", help="compare with the folder instead of writing")
    prepare.add_argument("--sources-per-domain", type=_positive, default=SOURCES_PER_DOMAIN, help=argparse.SUPPRESS)
    prepare.set_defaults(run=cmd_prepare)

    verify = sub.add_parser("verify", help="check MANIFEST.sha256 and rebuild the packets byte for byte")
    verify.add_argument("--root", default=".", help="the checkout to verify (default: here)")
    verify.set_defaults(run=cmd_verify)

    show = sub.add_parser("show", help="one source: ledger, every family's message, and its key")
    show.add_argument("source_id")
    show.add_argument("--layer", choices=list(LAYERS), default="full")
    show.add_argument("--packets", default="packets")
    show.set_defaults(run=cmd_show)
    return parser


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except KitError as exc:
        sys.stderr.write(f"{PROG} {args.command}: {exc.one_line()}\n")
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
