"""Seeded draws: every random choice is SHA-256 of (seed, item, purpose, counter).

Python's `random` may change its algorithms between versions and `hash()` is salted per process;
neither appears anywhere in the kit. A `Draw` is a tiny deterministic stream for one purpose of one
item, so adding a new draw elsewhere never shifts the existing ones.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

_SPACE = 1 << 64
_sha256 = hashlib.sha256
_first64: Callable[[bytes], tuple[int]] = struct.Struct(">Q").unpack_from
"""A digest's first 8 bytes as a big-endian integer: int.from_bytes(digest[:8], "big"), without
the slice (a quarter of a draw's time)."""


def seed_commitment(seed: int) -> str:
    """What a lab publishes before a private run: the SHA-256 (hex) of the UTF-8 text
    "honesty_pressure seed N", N the seed in decimal, as docs/AUDIT.md gives it (here, not in
    generate, so that a score, which records it, does not import the generator)."""
    # canonical.sha256_hex, written out: draws imports nothing of the kit (tests/test_layers.py
    # holds the import chains to their depth, and every domain imports draws).
    return _sha256(f"honesty_pressure seed {seed}".encode()).hexdigest()


class Draw:
    """A stream of uniform integers for one (seed, item, purpose)."""

    __slots__ = ("_prefix", "_counter", "seed")

    def __init__(self, seed: int, item: str, purpose: str) -> None:
        self._prefix = f"{seed}\x1f{item}\x1f{purpose}\x1f".encode()
        self._counter = 0
        self.seed = seed

    def below(self, n: int) -> int:
        """Uniform in range(n), without modulo bias (rejection above the last full multiple)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPACE - (_SPACE % n)
        prefix = self._prefix
        while True:
            # Draw k: the first 8 bytes, big-endian, of SHA-256(prefix + k in ASCII decimal; b"%d" %
            # k builds those bytes without a str).
            (x,) = _first64(_sha256(prefix + b"%d" % self._counter).digest())
            self._counter += 1
            if x < limit:
                return x % n

    def between(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi]."""
        return lo + self.below(hi - lo + 1)

    def choice(self, options: Sequence[T]) -> T:
        return options[self.below(len(options))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        # below(i + 1) inlined, the counter kept in a local: one call per step was a third of a
        # long shuffle's time. The same digests, in the same order, and the same rejections.
        prefix, counter = self._prefix, self._counter
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = _SPACE - (_SPACE % n)
            while True:
                (x,) = _first64(_sha256(prefix + b"%d" % counter).digest())
                counter += 1
                if x < limit:
                    break
            j = x % n
            out[i], out[j] = out[j], out[i]
        self._counter = counter
        return out

    def lazy_shuffled(self, items: Sequence[T]) -> Iterator[T]:
        """Items in a uniformly random order, drawn one at a time (a Fisher-Yates that stops as
        soon as the caller has what it needs, so a long list costs only what is read)."""
        pool = list(items)
        for end in range(len(pool), 0, -1):
            j = self.below(end)
            pool[j], pool[end - 1] = pool[end - 1], pool[j]
            yield pool[end - 1]

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability numerator/denominator, exactly."""
        return self.below(denominator) < numerator


def hash_fraction(*parts: str, buckets: int = 100) -> int:
    """A stable bucket in range(buckets) for a key (used for splits: no seed involved)."""
    block = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(block[:8], "big") % buckets


_FEISTEL_ROUNDS = 4
"""Four rounds of a balanced Feistel network with a pseudorandom round function are a
pseudorandom permutation (Luby and Rackoff); a keyed SHA-256 is that function here."""


def _round_function(key: bytes, step: int, half: int, bits: int) -> int:
    block = _sha256(key + b"\x1f%d\x1f%d" % (step, half)).digest()
    return int.from_bytes(block, "big") & ((1 << bits) - 1)


def _check_width(value: int, bits: int) -> None:
    if bits % 2 or not 0 < bits <= 512 or not 0 <= value < 1 << bits:
        raise ValueError(f"a keyed permutation needs an even width up to 512 bits ({bits})")


def permute(key: str, value: int, bits: int) -> int:
    """A keyed permutation of range(2**bits) (bits even, at most 512): `value`'s opaque image.

    Ids are made with it (generate.packet_ids, fork.fork_id): an injective encoding of what an id
    names goes in, so ids are unique by construction, and what comes out shows nothing of the
    encoding to anyone without the key: no prefix, no digit, no order shared by related items.
    `unpermute` takes an id back to what it names, for the kit, which holds the key (the seed)."""
    _check_width(value, bits)
    width = bits // 2
    mask = (1 << width) - 1
    secret = key.encode("utf-8")
    left, right = value >> width, value & mask
    for step in range(_FEISTEL_ROUNDS):
        left, right = right, left ^ _round_function(secret, step, right, width)
    return (left << width) | right


def unpermute(key: str, image: int, bits: int) -> int:
    """The inverse of `permute` under the same key and width."""
    _check_width(image, bits)
    width = bits // 2
    mask = (1 << width) - 1
    secret = key.encode("utf-8")
    left, right = image >> width, image & mask
    for step in reversed(range(_FEISTEL_ROUNDS)):
        left, right = right ^ _round_function(secret, step, left, width), left
    return (left << width) | right
