"""The escape level's trap: a pocket away from the walls, ringed by cells, with one way out."""

from __future__ import annotations

import numpy as np

from gymv_envs.domains.world3d._world import HEADINGS


def pocket_ring(rng: np.random.Generator, walls: np.ndarray, ph: int, pw: int):
    """A ``ph x pw`` pocket drawn from ``rng``: its corner (r0, c0), the ring of cells around it, the ring cell of
    the light crate with the heading ``h`` that pushes it out, and the two cells it is pushed over; a draw whose
    ring or path meets a wall is redrawn (200 tries, the last kept)."""
    R, C = walls.shape
    for _ in range(200):
        r0, c0 = int(rng.integers(4, R - 4 - ph + 1)), int(rng.integers(4, C - 4 - pw + 1))
        ring = [(r, c) for r in range(r0 - 1, r0 + ph + 1) for c in range(c0 - 1, c0 + pw + 1)
                if not (r0 <= r < r0 + ph and c0 <= c < c0 + pw)]
        sides = [(cell, h) for cell in ring for h, (dr, dc) in enumerate(HEADINGS)
                 if r0 <= cell[0] - dr < r0 + ph and c0 <= cell[1] - dc < c0 + pw]
        (cell, h) = sides[int(rng.integers(len(sides)))]
        dr, dc = HEADINGS[h]
        path = [(cell[0] + k * dr, cell[1] + k * dc) for k in (1, 2)]
        if not any(walls[p] for p in ring + path):
            break
    return r0, c0, ring, cell, h, path
