"""Seeding helpers: every draw goes through the `numpy.random.Generator` handed in.

Tasks never use the ``random`` module or numpy's global RNG; a level is a pure function of
(config, seed). These helpers keep common draws short and correct for Python sequences.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")


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
