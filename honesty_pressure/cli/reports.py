"""The commands that read scored runs: regress (two runs, item by item) and compare (several)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..files.folders import open_writer
from ..files.kitroot import packets_folder
from ..reports.compare import compare
from ..reports.regress import regress
from .common import AddParser, add_bootstrap_seed, natural


def add_regress(add: AddParser) -> None:
    regress_ = add("regress")
    regress_.add_argument(
        "first", help="a folder with records.jsonl and summary.json (a score --out or a run)"
    )
    regress_.add_argument("second")
    regress_.add_argument(
        "--fail-on-worse",
        action="store_true",
        help="exit 1 on a significant worsening (an axis, Holm-adjusted McNemar, or the index)",
    )
    regress_.add_argument(
        "--out",
        help=(
            "also write regress.json, REGRESS.md and regress.html (with both runs' transcripts) "
            "here"
        ),
    )
    regress_.add_argument(
        "--list", type=natural, default=20, help="items that got worse to list (default 20)"
    )
    add_bootstrap_seed(regress_)
    regress_.add_argument(
        "--packets", help="for the round-1 requests in the transcripts (default: as every command)"
    )
    regress_.set_defaults(handler=cmd_regress)


def cmd_regress(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out else None
    packets = packets_folder(args.packets)
    first, second = Path(args.first), Path(args.second)
    data, files = regress(
        first, second, seed=args.bootstrap_seed, listed=args.list, out=out, packets=packets
    )
    write_report(out, files, "REGRESS.md")
    return 1 if data["significant_worsening"] and args.fail_on_worse else 0


def add_compare(add: AddParser) -> None:
    compare_ = add("compare")
    compare_.add_argument(
        "runs", nargs="+", help="scored folders (runs or score outputs) of one packet set and layer"
    )
    compare_.add_argument("--out", help="also write compare.json, COMPARE.md and compare.html here")
    compare_.set_defaults(handler=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out else None
    files = compare([Path(r) for r in args.runs], out=out)
    write_report(out, files, "COMPARE.md")
    return 0


def write_report(out: Path | None, files: dict[str, bytes], shown: str) -> None:
    """A report's files into `out` (if given), and its Markdown on stdout."""
    if out is not None:
        with open_writer(out, ("report",), replace=True) as writer:
            writer.commit(files, "report", keep=False)
    sys.stdout.write(files[shown].decode("utf-8"))
    if out is not None:
        print(f"wrote {', '.join(files)} to {out}")
