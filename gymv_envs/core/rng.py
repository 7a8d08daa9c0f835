"""Seeding helpers: every draw goes through the `numpy.random.Generator` handed in.

Tasks never use the ``random`` module or numpy's global RNG; a level is a pure function of
(config, seed). These helpers keep common draws short and correct for Python sequences.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")

# The level stream's spawn key ("GymV"): a level generator is never the generator Gymnasium builds for
# an action space seeded with the same number (``seeding.np_random(seed)``, spawn key ``()``).
LEVEL_STREAM = 0x47796D56


def level_generator(seed: int) -> np.random.Generator:
    """The generator a level is drawn from for ``reset(seed=seed)``.

    Gymnasium seeds an env's ``np_random`` and its ``action_space`` alike, so code that calls
    ``env.reset(seed=s); env.action_space.seed(s)`` (CleanRL does) would sample random actions
    that replay the level's first draws (a random Mastermind guess equal to the secret code).
    Deriving the level's stream from ``SeedSequence(seed, spawn_key=(LEVEL_STREAM,))`` keeps the
    two independent while a level stays a pure function of the seed.

    >>> level_generator(7).integers(1000) == level_generator(7).integers(1000)
    True
    """
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(LEVEL_STREAM,))))


def choice(rng: np.random.Generator, items: Sequence[T]) -> T:
    """One element of ``items`` (any sequence, including tuples of tuples)."""
    if len(items) == 0:
        raise ValueError("choice from an empty sequence")
    return items[int(rng.integers(len(items)))]


def sample(rng: np.random.Generator, items: Sequence[T], k: int) -> list[T]:
    """``k`` distinct elements of ``items`` in random order."""
    if k > len(items):
        raise ValueError(f"cannot sample {k} from {len(items)} items")
    return [items[i] for i in rng.permutation(len(items))[:k].tolist()]  # (Python ints in one call)


def shuffled(rng: np.random.Generator, items: Sequence[T]) -> list[T]:
    """A new list with the elements of ``items`` in random order."""
    return [items[i] for i in rng.permutation(len(items)).tolist()]


class ScalarDraws:
    """One-at-a-time draws of a PCG64 ``Generator``, replayed in Python: exactly the values, in the
    order, that ``rng.integers(...)``, ``rng.random()`` and ``rng.integers(k, size=m)`` called on the
    generator would give, without numpy's cost per call (about 2 us a scalar draw; here 0.3 us).

    A generator loop that draws hundreds of scalars (repairing a random board cell by cell) spends
    most of its time in those calls. Use it as a context manager: on exit (also on an exception) the
    generator's state is set to where the same numpy calls would have left it, so later draws carry
    on unchanged. Nothing else may draw from ``rng`` inside the ``with`` block.

    The generator's 64-bit outputs are fetched ahead in blocks (``random_raw``); on exit the state is
    reset to the start and advanced by the outputs used. On them it reproduces numpy's algorithms:
    32-bit draws taken from the low then the high half of one 64-bit output (the bit generator's own
    buffer, kept across calls), Lemire's bounded integers on 32-bit draws for ranges up to 2**32, and
    doubles from the top 53 bits. Array draws (`integers_list`, `permutation`) are handed to numpy
    between two state copies. ``tests/test_shared.py`` checks it against numpy.

    >>> import numpy as np
    >>> a, b = np.random.default_rng(3), np.random.default_rng(3)
    >>> with ScalarDraws(a) as d:
    ...     x = [d.integers(7), d.integers(2, 9), d.random()]
    >>> x == [int(b.integers(7)), int(b.integers(2, 9)), float(b.random())], a.random() == b.random()
    (True, True)
    """

    __slots__ = ("_rng", "_bg", "_start", "_raw", "_pos", "_has32", "_u32")

    def __init__(self, rng: np.random.Generator) -> None:
        if not isinstance(rng.bit_generator, np.random.PCG64):
            raise TypeError(f"ScalarDraws replays PCG64 only, not {type(rng.bit_generator).__name__}")
        self._rng, self._bg = rng, rng.bit_generator
        self._load()

    def _load(self) -> None:
        st = self._bg.state
        self._start = st
        self._has32, self._u32 = bool(st["has_uint32"]), int(st["uinteger"])
        self._raw: list[int] = self._bg.random_raw(64).tolist()
        self._pos = 0

    def __enter__(self) -> ScalarDraws:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Set the generator to the state the draws so far leave it in."""
        bg = self._bg
        bg.state = self._start
        bg.advance(self._pos)  # (clears the 32-bit buffer: numpy keeps its last value, used or not)
        st = bg.state
        st["has_uint32"], st["uinteger"] = int(self._has32), self._u32
        bg.state = st

    def _next64(self) -> int:
        pos = self._pos
        if pos == len(self._raw):
            self._raw += self._bg.random_raw(len(self._raw)).tolist()
        self._pos = pos + 1
        return self._raw[pos]

    def _next32(self) -> int:
        if self._has32:
            self._has32 = False
            return self._u32
        v = self._next64()
        self._has32, self._u32 = True, v >> 32
        return v & 0xFFFFFFFF

    def integers(self, low: int, high: int | None = None) -> int:
        """``int(rng.integers(low, high))``: a whole number in [low, high) ([0, low) with one argument)."""
        if high is None:
            low, high = 0, low
        span = high - low  # rng + 1 in numpy's terms
        if not 1 < span < 1 << 32:
            if span == 1:
                return low
            if span == 1 << 32:
                return low + self._next32()
            raise ValueError(f"ScalarDraws.integers takes ranges of 1 to 2**32 values, not {span}")
        if self._has32:  # _next32, inlined
            self._has32 = False
            m = self._u32 * span
        else:
            pos = self._pos
            if pos == len(self._raw):
                self._raw += self._bg.random_raw(len(self._raw)).tolist()
            self._pos = pos + 1
            v = self._raw[pos]
            self._has32, self._u32 = True, v >> 32
            m = (v & 0xFFFFFFFF) * span
        if m & 0xFFFFFFFF < span:  # Lemire's rejection, rarely entered
            threshold = (0x100000000 - span) % span
            while m & 0xFFFFFFFF < threshold:
                m = self._next32() * span
        return low + (m >> 32)

    def integers_list(self, n: int, count: int) -> list[int]:
        """``rng.integers(n, size=count).tolist()`` (the values of a filled array, in order), drawn by numpy."""
        self.close()
        out = self._rng.integers(n, size=count).tolist()
        self._load()
        return out

    def permutation(self, n: int) -> list[int]:
        """``rng.permutation(n).tolist()``, drawn by numpy (one call is cheap there)."""
        self.close()
        out = self._rng.permutation(n).tolist()
        self._load()
        return out

    def random(self) -> float:
        """``float(rng.random())``: a double in [0, 1)."""
        return (self._next64() >> 11) * (1.0 / 9007199254740992.0)
