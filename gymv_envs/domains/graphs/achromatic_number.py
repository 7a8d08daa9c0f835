"""Achromatic number: the most colours in a proper colouring where every two colours meet on some edge."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.graphs._graphs import (
    GraphQuestion,
    int_near_misses,
    parse_int,
    planar_graph,
)
from gymv_envs.domains.graphs._render import Picture

LEVELS = {0: (5, 4, 7), 1: (6, 6, 9), 2: (7, 7, 11)}  # vertices, fewest and most edges


@functools.lru_cache(maxsize=8)
def set_partitions(n: int) -> np.ndarray:
    """Every partition of n items into classes, as restricted growth strings (Bell(n) rows, read-only)."""
    rows = [[0]]
    for _ in range(n - 1):
        rows = [r + [c] for r in rows for c in range(max(r) + 2)]
    out = np.array(rows, dtype=np.int64)
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=8)
def _class_counts(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(the number of classes of each partition of `set_partitions(n)`, and for each count c the bit mask of
    every pair of classes a < b < c, bit a * n + b), both read-only."""
    k = set_partitions(n).max(axis=1) + 1
    full = np.array([sum(1 << (a * n + b) for a in range(c) for b in range(a + 1, c)) for c in range(n + 1)])
    k.setflags(write=False)
    full.setflags(write=False)
    return k, full


@functools.lru_cache(maxsize=8)
def _same_class(n: int) -> np.ndarray:
    """(n, n, Bell(n)) read-only: whether vertices u and v share a class, in each partition of `set_partitions(n)`
    (43 KB at n = 7)."""
    part = set_partitions(n).T
    same = part[:, None, :] == part[None, :, :]
    same.setflags(write=False)
    return same


def colour_counts(n: int, edges) -> tuple[int, int]:
    """(the chromatic number, the achromatic number): the fewest classes of a partition with no edge inside a
    class (a proper colouring), and the most classes of one where also every two classes meet on some edge."""
    part = set_partitions(n)
    k, full = _class_counts(n)
    e = np.asarray(edges, dtype=int)
    proper = np.flatnonzero(~_same_class(n)[e[:, 0], e[:, 1]].any(axis=0))  # no edge inside a class
    part, k = part.take(proper, axis=0), k.take(proper)  # (only the proper colourings are checked for completeness)
    cu, cv = part[:, e[:, 0]], part[:, e[:, 1]]
    lo, hi = np.minimum(cu, cv), np.maximum(cu, cv)
    met = np.bitwise_or.reduce(np.left_shift(1, lo * n + hi), axis=1)  # which colour pairs share an edge
    return int(k.min()), int(k[met & full[k] == full[k]].max())


class AchromaticNumber(GraphQuestion):
    """Give the achromatic number of a drawn graph.

    ## Description
    An undirected graph with lettered vertices is drawn. A complete colouring is a proper colouring
    (the two ends of every edge differ) in which every two colours used meet on at least one edge.
    The achromatic number is the largest number of colours of a complete colouring. It is found
    exactly by checking every partition of the vertices into colour classes.

    ## Action Space
    ``answer_format="open"``: `Text`, one integer. ``"mcq"``: `Discrete(k)`; wrong options are the
    chromatic number (the smallest proper colouring, where this asks for the largest complete
    one) and the answer plus or minus one or two.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the graph.

    ## Rewards
    1.0 for the exact achromatic number, else 0.0.

    ## Starting State
    A random connected planar graph.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 vertices and 4-7 edges, 1: 6 and 6-9, 2: 7 and 7-11), ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the achromatic number, one integer"

    def _generate(self, rng: np.random.Generator) -> None:
        n, lo, hi = LEVELS[self.difficulty]
        self._name_labels(n)
        self.pos, self.edges = planar_graph(rng, n, int(rng.integers(lo, hi + 1)), max_len=2.8)
        self.chi, self.psi = colour_counts(n, self.edges)

    def _picture(self) -> Picture:
        return Picture(self.pos, self.edges, self.labels)

    def _task_text(self) -> str:
        return ("The image shows an undirected graph. Colour its vertices so that (1) the two ends of every edge get "
                "different colours and (2) for every two colours used, some edge joins a vertex of the one to a "
                "vertex of the other. What is the largest number of colours such a colouring can use (the "
                "achromatic number)?")

    def _parse_answer(self, text: str):
        return parse_int(text)

    def _check(self, answer) -> bool:
        return answer == self.psi

    def _solve(self) -> int:
        return self.psi

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        return int_near_misses(rng, self.psi, self.chi, len(self.labels), low=1)


SPECS = (
    TaskSpec(name="AchromaticNumber", entry_point=AchromaticNumber, max_episode_steps=1,
             tags=("graph", "np-hard", "colouring")),
)
