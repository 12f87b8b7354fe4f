"""Every command: its name, the module of its family, the function that adds its parser, and its
one-line help. The top parser lists them all from this table alone, and imports a family's module
only for the command given (so `--help` and `--version` import no more than they need)."""

from __future__ import annotations

from typing import Final

COMMANDS: Final[tuple[tuple[str, str, str, str], ...]] = (
    (
        "prepare",
        "packets",
        "add_prepare",
        "generate the packet set from a seed (default: the committed one)",
    ),
    (
        "verify",
        "packets",
        "add_verify",
        "check MANIFEST.sha256 and rebuild the packets byte for byte",
    ),
    ("show", "packets", "add_show", "one source: ledger, every family's message, and its key"),
    (
        "selfcheck",
        "checks",
        "add_selfcheck",
        "fixed policies must fail, the oracle must pass, surface shortcuts stay far below the bar",
    ),
    (
        "demo",
        "run",
        "add_demo",
        "the whole job offline: quick packets, a simulated assistant, both rounds, score",
    ),
    (
        "run",
        "run",
        "add_run",
        "drive both rounds through an external command (requests on stdin, replies on stdout)",
    ),
    ("regress", "reports", "add_regress", "two scored runs of one packet set, item by item"),
    (
        "compare",
        "reports",
        "add_compare",
        "several models' runs of one packet set in one table and one HTML page",
    ),
    (
        "domains",
        "packets",
        "add_domains",
        "print docs/DOMAINS.md: every rule, threshold and source",
    ),
    (
        "estimate",
        "estimate",
        "add_estimate",
        "requests and tokens per round for a layer, samples and rounds, before sending",
    ),
    ("export", "export", "add_export", "write the requests in a runner's input format"),
    (
        "advance",
        "advance",
        "add_advance",
        "freeze replies and write the next round's independent forks",
    ),
    (
        "score",
        "score",
        "add_score",
        "score reply files from any runner (round 1, or a run's forks)",
    ),
)

HELP: Final = {name: text for name, _, _, text in COMMANDS}
"""Each command's one-line help, by name."""
