"""Graphs drawn on a circle: vertex orders, drawn from the generator, whose chords cross least."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.domains.graphs._graphs import vertex_pairs


@functools.lru_cache(maxsize=16)
def _circle(n: int) -> np.ndarray:
    """(n, 2) read-only: ``n`` points on the unit circle, the first at the top, clockwise on screen."""
    ang = -np.pi / 2 + 2 * np.pi / n * np.arange(n)
    out = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    out.setflags(write=False)
    return out


def circle_layouts(rng: np.random.Generator, n: int, graphs: np.ndarray, tries: int = 24) -> np.ndarray:
    """Per graph of ``graphs`` ((g, m, 2) edges, m alike), its vertices on a circle in the order, among ``tries``
    random ones, whose chords cross least (every graph's orders drawn at once)."""
    g = len(graphs)
    slot = rng.random((tries, g, n)).argsort(axis=2)  # slot[t, k, v]: where order t puts vertex v
    ends = graphs[:, vertex_pairs(graphs.shape[1])].reshape(g, -1, 4)  # (u, v, x, y) per pair of edges
    bits = (1 << ends).transpose(2, 0, 1)
    apart = (bits[0] | bits[1]) & (bits[2] | bits[3]) == 0  # edges with a common end never cross
    at = slot.transpose(1, 2, 0).astype(np.int8, order="C")  # at[k, v, t]: slot[t, k, v], the orders innermost
    p, q, r, s = at[np.arange(g)[:, None], ends.transpose(2, 0, 1)]  # (g, pairs, tries) each
    # chord (p, q) and chord (r, s) cross when exactly one of r, s lies between p and q on the circle
    cross = ((p < r) ^ (q < r)) ^ ((p < s) ^ (q < s))
    cross &= apart[:, :, None]
    best = slot[np.count_nonzero(cross, axis=1).argmin(axis=1), np.arange(g)]  # (g, n)
    return _circle(n)[best]
