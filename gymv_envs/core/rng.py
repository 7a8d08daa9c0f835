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
    return [items[int(i)] for i in rng.permutation(len(items))[:k]]


def shuffled(rng: np.random.Generator, items: Sequence[T]) -> list[T]:
    """A new list with the elements of ``items`` in random order."""
    return [items[int(i)] for i in rng.permutation(len(items))]
