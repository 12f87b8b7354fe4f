"""Every bound on what the kit reads, in one place (docs/AUDIT.md lists them).

Each limit is far above what a real run needs and far below what exhausts a machine; past one,
the command stops with exit status 2 and one line naming the file, instead of running out of
memory or time.
"""

from __future__ import annotations

from typing import Final

MIB: Final = 1 << 20

MAX_LINE_BYTES: Final = 16 * MIB
"""One JSONL line (a reply, a request, a packet, a frozen reply)."""
MAX_JSON_BYTES: Final = 512 * MIB
"""One whole JSON document: an Inspect `.json` log (use `.eval` for bigger logs)."""
MAX_SMALL_JSON_BYTES: Final = 16 * MIB
"""The kit's own small JSON files: build.json, run.json, summary.json, EXPECTED.json, MANIFEST."""
MAX_PACKET_FILE_BYTES: Final = 512 * MIB
"""One packet file (round1.jsonl of a 1000-sources-per-domain full layer is about 200 MiB)."""
MAX_STREAM_BYTES: Final = 2048 * MIB
"""A reply file that is not a regular file (a pipe such as /dev/stdin): it is read into memory."""
MAX_EVAL_MEMBER_BYTES: Final = 64 * MIB
"""One member of an Inspect `.eval` zip, uncompressed (one sample, or the header)."""
MAX_EVAL_TOTAL_BYTES: Final = 2048 * MIB
"""All members of one `.eval` zip together, uncompressed (a zip bomb stops here, before
inflating)."""
MAX_INT_DIGITS: Final = 4300
"""Digits of one JSON integer (Python's own limit for turning text into an int)."""
MAX_SAMPLES: Final = 1000
"""Samples per packet: sample indices 0 to 999, `export --samples` at most 1000 (a streaming score
holds a small entry per packet and sample, so a million replies are 4,800 packets x 209 samples)."""
MAX_ADVANCE_SAMPLES: Final = 64
"""Distinct sample numbers `advance` continues: every packet is owed every sample seen, and each
(packet, sample) becomes a parent with its forks, so work and memory grow with packets x samples
(about 3 ms and 15 KB a parent; 64 samples of the quick layer's 110 packets: 7,040 parents, 25 s).
A few stray sample numbers (300 lines numbered 0 to 299) are refused in one line, not ground
through for minutes."""
MAX_REPLY_CHARS: Final = 1 << 20
"""Characters of one reply's text (or of a runner's error text), in every format: 1,048,576,
at about four characters a token far longer than any model's reply. It is what
bounds the memory of one sample: what the kit keeps of a (packet, sample) is the one reply that
counts (the streaming score: a 40-byte entry, the reply spooled to disk), the reply text in
`advance` and `run` (at most 4 MiB in memory, Python's widest characters), and in `advance` the
parent with its forks (about 15 KB, see MAX_ADVANCE_SAMPLES). Without it a single 16 MiB line
(MAX_LINE_BYTES) could be one reply; several lines for one sample (a retry, a file given twice)
settle to one, so they add no memory per sample to the streaming score."""
MAX_USAGE_TOKENS: Final = 10**9
"""One token count of one reply's usage (input or output, in every format; Anthropic's input
summed over its three counts, Inspect's over its models): 1,000,000,000, a thousand times the
longest context window of 2026. A count past it is no model's (an edited or broken file): the
command stops with one line naming the file and line, instead of carrying a number of up to 4,300
digits into replies.jsonl and summary.json. It also keeps a replies.jsonl line's usage within the
fixed tail the streaming scorer reads it back from (two counts of at most 10 digits)."""
MAX_SOURCES_PER_DOMAIN: Final = 1000
"""Sources per domain in a packet set (the committed full layer has 60)."""
MAX_REPLY_FILES: Final = 10000
"""Reply files given to one command."""
MAX_UNSCORABLE_SHARE: Final = 0.05
"""Share of a run's items that got no answer (runner errors and missing replies: a part of its
unscorable items, docs/SCORING.md "Unscorable") past which the run is incomplete:
`run`, `score` and `score --run` exit 1 and the report opens with a banner (`--max-unscorable`)."""
MAX_EXPLORER_ITEMS: Final = 50_000
"""Items a report's transcript explorer embeds whole (the full layer's demo has 32,400, a 2.4 MB
page); above it the page holds the worst items of each group and names the file with all."""
