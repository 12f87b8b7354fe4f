"""The paired contrasts' bootstrap, one resample at a time: the kit's form against the stdlib forms
tried in its place (docs/SCALE.md, "What score --run spends beyond its sum").

    python bench/bootstrap_forms.py [--n 5926] [--resamples 300]

A resample is SHAKE-256 words modulo the cluster count, and its mean the exact sum of the values
at those indices (`core/stats.py`: `_draws`, `_pick_words`, `picked_mean`). The resamples are the
kit's own (seed, "clusters", n), and the first form's sums are checked against the kit's pickers
(`stats.one_pass_pickers`) before anything is timed, so it is the kit's computation; each other
form must give the same sums to the bit; the time is the best of five passes over the same
resamples, per resample, with the collector off as a command runs. The values are differences of
whole-number shares (one sample per fork), so the integer-sum form applies to them.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import math
import random
import struct
import sys
import time
from collections.abc import Callable
from functools import lru_cache
from itertools import repeat
from operator import mod
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's package, installed or not

import baselines  # noqa: E402  (bench/, this script's folder, is first on sys.path)

from honesty_pressure.core import stats  # noqa: E402
from honesty_pressure.runs.pipeline import DEFAULT_BOOTSTRAP_SEED as SEED  # noqa: E402

Form = Callable[[bytes, int, list[float], list[int]], float]


def kit(digest: bytes, n: int, values: list[float], _: list[int]) -> float:
    """core/stats.py's road: struct.unpack, then map(mod), the values' __getitem__ and fsum."""
    words = struct.unpack(f"<{n}I", digest)
    return math.fsum(map(values.__getitem__, map(mod, words, repeat(n))))


def cast(digest: bytes, n: int, values: list[float], _: list[int]) -> float:
    """The words read through memoryview.cast instead of a tuple from struct.unpack: the
    benchmark's bootstrap floor (bench/baselines.py picked_sum)."""
    return baselines.picked_sum(digest, n, values)


def integer_sum(digest: bytes, n: int, _: list[float], whole: list[int]) -> float:
    """An exact integer sum of whole-number values (C's fast sum) in place of fsum."""
    return float(sum(map(whole.__getitem__, map(mod, memoryview(digest).cast("I"), repeat(n)))))


@lru_cache(maxsize=4)
def _magic(n: int) -> tuple[int, int, int]:
    shift = 32 + n.bit_length()
    multiplier = -(-(1 << shift) // n)  # floor(w * m / 2**shift) == w // n for every 32-bit w
    mask = int.from_bytes(((1 << (128 - shift)) - 1).to_bytes(16, "little") * n, "little")
    return shift, multiplier, mask


def big_integer(digest: bytes, n: int, values: list[float], _: list[int]) -> float:
    """Every word reduced at once: the words in 128-bit slots of one integer, the quotient by a
    Granlund-Montgomery multiply, shift and mask, the remainders by one multiply and subtract."""
    shift, multiplier, mask = _magic(n)
    slots = bytearray(16 * n)
    for k in range(4):
        slots[k::16] = digest[k::4]
    packed = int.from_bytes(slots, "little")
    remainders = packed - (((packed * multiplier) >> shift) & mask) * n
    indices = memoryview(remainders.to_bytes(16 * n, "little")).cast("H")[::8]
    return math.fsum(map(values.__getitem__, indices))


FORMS: dict[str, Form] = {
    "the kit's (struct.unpack, mod, fsum)": kit,
    "memoryview.cast for struct.unpack": cast,
    "an integer sum for fsum": integer_sum,
    "one big integer for every mod": big_integer,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=5926, help="clusters (the evidence contrast's)")
    parser.add_argument("--resamples", type=int, default=300)
    args = parser.parse_args()
    n = args.n
    rng = random.Random(20261206)
    whole = [rng.choice((-1, 0, 0, 0, 1)) for _ in range(n)]
    values = [float(v) for v in whole]
    prefix = f"bootstrap\x1f{SEED}\x1fclusters\x1f{n}\x1f"
    digests = [
        hashlib.shake_256(f"{prefix}{r}".encode()).digest(4 * n) for r in range(args.resamples)
    ]
    pickers = stats.one_pass_pickers(SEED, "clusters", n, args.resamples)
    expected = [math.fsum(pick(values)) for pick in pickers]
    gc.disable()
    print(f"one resample of {n:,} clusters (best of 5 passes over {args.resamples}), in us:")
    for name, form in FORMS.items():
        if [form(d, n, values, whole) for d in digests] != expected:
            raise SystemExit(f"{name}: not the same sums")
        best = math.inf
        for _ in range(5):
            start = time.process_time()
            for d in digests:
                form(d, n, values, whole)
            best = min(best, time.process_time() - start)
        print(f"- {name}: {best / len(digests) * 1e6:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
