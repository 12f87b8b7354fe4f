"""The selfcheck command: fixed policies must fail, the oracle must pass, shortcuts stay far below
the bar (and, with --rounds, the same at depth)."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..checks.controls import (
    CONTROLS,
    EXPECTED_NAME,
    Check,
    compare_expected,
    default_policies,
    expected_json,
    learned_report,
    run_checks,
)
from ..checks.depth import depth_check, depth_table
from ..checks.depth_audit import depth_audits, words_table
from ..checks.policies import Policy
from ..checks.selfcheck import INDEX_CEILING, PASS_BAR, table
from ..checks.shortcuts import MARGIN
from ..checks.verify import expected_problems, parse_seed
from ..core.canonical import dumps, write_atomic
from ..core.construct import LAYERS, Layer, Surface
from ..core.domainfiles import given_files
from ..core.errors import UsageError
from ..core.progress import progress
from ..files.layer import PacketFolder, load_checked_layer
from ..files.manifest import MANIFEST_NAME
from ..files.manifest import build as build_manifest
from ..generate.generate import SOURCES_PER_DOMAIN, packet_tree
from ..generate.prepare import write_packet_set
from ..rounds.sustained import MAX_ROUNDS
from .commands import HELP
from .common import ROOT_HELP, AddParser, positive, root_of, sources

SELFCHECK_TEXT = HELP["selfcheck"]


def add_selfcheck(add: AddParser) -> None:
    selfcheck = add(
        "selfcheck",
        description=(
            f"{SELFCHECK_TEXT[0].upper()}{SELFCHECK_TEXT[1:]}; exit 1 naming every breach "
            "(docs/SELFCHECK.md)."
        ),
    )
    selfcheck.add_argument(
        "--layer",
        choices=list(LAYERS),
        default="quick",
        help="the committed layer to check (default quick)",
    )
    selfcheck.add_argument(
        "--seed", help="check a fresh packet set built from this seed instead of the committed one"
    )
    selfcheck.add_argument("--jobs", type=positive, default=2, help="processes to use (default 2)")
    selfcheck.add_argument("--root", help=ROOT_HELP)
    selfcheck.add_argument(
        "--write-expected", action="store_true", help="record both layers in controls/EXPECTED.json"
    )
    selfcheck.add_argument(
        "--held-out",
        action="store_true",
        help="with --seed: build the fresh set on the held-out wording and values",
    )
    selfcheck.add_argument(
        "--learned",
        action="store_true",
        help="also run the learned-shortcut audit with the quick layer (it always runs with full)",
    )
    selfcheck.add_argument(
        "--rounds",
        type=int,
        default=2,
        help=(
            "also hold the policies to the bar at depth through a sustained chain to round N, 3 "
            "to 5 (docs/SELFCHECK.md)"
        ),
    )
    selfcheck.add_argument(
        "--no-learned",
        action="store_true",
        help="skip the learned-shortcut audit with the full layer",
    )
    selfcheck.add_argument(
        "--sources-per-domain", type=sources, default=SOURCES_PER_DOMAIN, help=argparse.SUPPRESS
    )
    selfcheck.set_defaults(handler=cmd_selfcheck)


LEARNED_WITH_DOMAINS = (
    "learned audit: not run with --domains (it trains on the committed full layer, the kit's own "
    "domains; training it on a lab's own is not built yet)"
)


def cmd_selfcheck(args: argparse.Namespace) -> int:
    root = root_of(args)
    if args.held_out and args.seed is None:
        raise UsageError(
            "--held-out needs --seed N (the committed packets are on the public wording)"
        )
    if args.write_expected and (
        args.seed is not None or args.sources_per_domain != SOURCES_PER_DOMAIN or args.no_learned
    ):
        raise UsageError(
            "--write-expected records the committed packets whole: "
            "leave out --seed, --sources-per-domain and --no-learned"
        )
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
                tree = packet_tree(seed, [layer], args.sources_per_domain, surface)
                write_packet_set(
                    packets,
                    tree,
                    seed=seed,
                    sources_per_domain=args.sources_per_domain,
                    surface=surface,
                )
                folder = load_checked_layer(packets, layer)
            else:
                folder = load_checked_layer(root / "packets", layer)
                seed = parse_seed(
                    str(folder.build.get("seed")), origin=f"{folder.folder / 'build.json'}: seed"
                )
            # The learned-shortcut audit trains on the committed full layer: it runs with the full
            # layer (about 15 s beside the rest), or on request (--learned) with the quick one.
            # With --domains it trains on nothing: the committed full layer is the kit's own
            # domains, not the lab's (training it on a lab's own set is not built yet).
            private = given_files() is not None
            asked = (layer == "full" or args.learned or args.rounds > 2) and not args.no_learned
            if private and asked:
                print(LEARNED_WITH_DOMAINS)
            wanted = (layer == "full" or args.learned) and not args.no_learned and not private
            committed_full = (
                layer == "full" and args.seed is None
            )  # then `folder` is the committed full layer
            train = (
                (folder if committed_full else load_checked_layer(root / "packets", "full"))
                if wanted
                else None
            )
            with progress(f"selfcheck {layer}") as meter:
                check = run_checks(
                    folder,
                    policies,
                    seed=seed,
                    jobs=args.jobs,
                    meter=meter,
                    train=train,
                    fresh=args.seed is not None,
                )
            checks[layer] = check
            print_check(check, layer, folder, seed)
            problems += [f"{layer}: {p}" for p in check.problems]
            if args.rounds > 2:
                full = None
                if not args.no_learned and not private:
                    full = (
                        folder if committed_full else load_checked_layer(root / "packets", "full")
                    )
                problems += [
                    f"{layer}: {p}"
                    for p in depth_problems(folder, policies, seed, args.rounds, full)
                ]
            if args.seed is None and not args.write_expected:
                invalid = expected_problems(root, folder.packet_set)
                problems += invalid or compare_expected(root, layer, check)
            print()
    if args.write_expected and not problems:
        expected = expected_json(checks, str(folder.packet_set))
        write_atomic(root / CONTROLS / EXPECTED_NAME, (dumps(expected) + "\n").encode("utf-8"))
        write_atomic(root / MANIFEST_NAME, build_manifest(root))
        print(f"wrote {CONTROLS}/{EXPECTED_NAME} and refreshed {MANIFEST_NAME}")
    for line in problems:
        print(f"FAIL: {line}")
    ok = "ok: every fixed policy fails, the oracle passes, no shortcut comes near"
    print("selfcheck: " + ("FAIL" if problems else ok))
    return 1 if problems else 0


def print_check(check: Check, layer: str, folder: PacketFolder, seed: int) -> None:
    """One layer's selfcheck tables on stdout."""
    print(f"selfcheck on the {layer} layer (packet set {folder.packet_set}, seed {seed})")
    print(
        f"bar: every axis >= {PASS_BAR}; fixed policies that never read the key: honesty index <= "
        f"{INDEX_CEILING}"
    )
    print(check.premise.line())
    print(table(check.policies))
    print()
    print(
        "shortcut audit: fitted on dev, scored on test; "
        f"the weakest axis must stay at or below {PASS_BAR - MARGIN:.2f}"
    )
    print(table([o for o, _, _ in check.shortcuts]))
    for outcome, _, _ in check.shortcuts:
        weakest = min(outcome.axes.values())
        print(
            f"  {outcome.name}: weakest axis {weakest:.3f}, {PASS_BAR - weakest:.3f} below the bar"
        )
    if check.learned is not None:
        print()
        print(learned_report(check.learned))


def depth_problems(
    folder: PacketFolder,
    policies: Sequence[Policy],
    seed: int,
    rounds: int,
    train: PacketFolder | None,
) -> list[str]:
    """selfcheck --rounds N: the bar at depth (depth.py) and the audits at depth (depth_audit.py,
    the learned policy only with `train`); prints their tables, returns their breaches."""
    if not 3 <= rounds <= MAX_ROUNDS:
        raise UsageError(
            f"--rounds must be from 3 to {MAX_ROUNDS} (2, the default, is the usual selfcheck "
            "alone)"
        )
    with progress(f"selfcheck at depth, {rounds} rounds") as meter:
        meter.expect(1)
        outcomes, problems = depth_check(folder, policies, seed=seed, rounds=rounds)
        meter.tick(1)
    print()
    print(
        "the bar at depth: rounds 1 and 2 as above, and each curve's last point "
        f"(after {rounds - 1} pushes, every thread) >= {PASS_BAR}"
    )
    print(depth_table(outcomes))
    with progress("audits at depth") as meter:
        meter.expect(1)
        audits, breaches = depth_audits(folder, seed, rounds, train=train)
        meter.tick(1)
    print()
    print(
        "words at depth: naive Bayes over the last follow-up, trained on this layer's oracle "
        "chain, "
        "tested on another seed's"
    )
    print(words_table(audits))
    shortcuts = audits["shortcuts"]
    learned = audits["learned"]
    assert isinstance(shortcuts, dict) and isinstance(learned, dict)
    print()
    print(
        "shortcut rules and learned policies at depth "
        "(weakest axis or depth measure; shortcuts must stay <= bar - margin):"
    )
    for name, found in {**shortcuts, **learned}.items():
        weakest = min((*found["axes"].values(), *found["depth"].values()))
        print(f"  {name:<22} weakest {weakest:.3f}  {'PASS' if found['passes_bar'] else 'fail'}")
    return problems + breaches
