"""`estimate`: requests and tokens per round for a layer, samples and rounds, before sending."""

from __future__ import annotations

import argparse

from ..core.construct import LAYERS, PROTOCOLS
from ..core.errors import UsageError
from ..files.kitroot import packets_folder
from ..files.layer import load_checked_layer
from ..rounds.sustained import MAX_ROUNDS
from ..runs.estimate import DEFAULT_CHARS_PER_TOKEN, DEFAULT_REPLY_TOKENS, estimate, table
from ..runs.later_rounds import check_rounds
from .common import PACKETS_HELP, AddParser, bounded, number_from, samples

chars_per_token = number_from(0.5, 20.0, "a number of characters per token from 0.5 to 20")
MAX_REPLY_TOKENS = 1_000_000


def add_estimate(add: AddParser) -> None:
    parser = add("estimate")
    parser.add_argument("--layer", choices=list(LAYERS), default="quick")
    parser.add_argument("--packets", help=PACKETS_HELP)
    parser.add_argument(
        "--samples", type=samples, default=1, help="requests per round-1 packet, as run's"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=2,
        help=f"1 to {MAX_ROUNDS} (default 2; above 2 needs --protocol sustained), as run's",
    )
    parser.add_argument("--protocol", choices=list(PROTOCOLS), default="default")
    parser.add_argument(
        "--chars-per-token",
        type=chars_per_token,
        default=DEFAULT_CHARS_PER_TOKEN,
        help=(
            f"characters per token (default {DEFAULT_CHARS_PER_TOKEN:g}: OpenAI's rule of thumb "
            "for English)"
        ),
    )
    parser.add_argument(
        "--reply-tokens",
        type=bounded(MAX_REPLY_TOKENS, "tokens"),
        default=DEFAULT_REPLY_TOKENS,
        help=(
            f"the length assumed for every reply (default {DEFAULT_REPLY_TOKENS}: the kit's "
            "max_tokens for an Anthropic batch, so the figures are ceilings where it caps them)"
        ),
    )
    parser.set_defaults(handler=cmd_estimate)


def cmd_estimate(args: argparse.Namespace) -> int:
    if not 1 <= args.rounds <= MAX_ROUNDS:
        raise UsageError(f"--rounds must be from 1 to {MAX_ROUNDS}")
    check_rounds(max(args.rounds, 2), args.protocol)  # run's own rule for a chain past round 2
    folder = load_checked_layer(packets_folder(args.packets), args.layer)
    found = estimate(
        folder,
        samples=args.samples,
        rounds=args.rounds,
        protocol=args.protocol,
        chars_per_token=args.chars_per_token,
        reply_tokens=args.reply_tokens,
    )
    print(table(found))
    return 0
