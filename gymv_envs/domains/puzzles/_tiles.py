"""Numbered-tile permutation puzzles (NinePuzzleShift, Twiddle): breadth-first tables and drawing.

A board is a tuple of tile numbers ``1..n`` in reading order (``r * cols + c``); a move is a
permutation of positions, ``new[i] = old[perm[i]]``. `depth_table` searches breadth-first from
the solved board (vectorised: boards are packed four bits a tile into ``uint64`` codes) up to a
depth, once per process; `distance` reads a board's exact fewest moves from it and `next_step`
walks a shortest solution down it.
"""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.board import coordinate_frame, text_tile
from gymv_envs.core.canvas import INK, fill_rect, rect_box

TILE = (238, 214, 170)
TILE_EDGE = (150, 120, 80)


def encode(board) -> int:
    return sum((int(v) - 1) << (4 * i) for i, v in enumerate(board))


def apply(board: tuple, perm: tuple) -> tuple:
    return tuple(board[j] for j in perm)


@functools.cache
def depth_table(perms: tuple[tuple[int, ...], ...], size: int, depth: int) -> tuple[dict[int, int], tuple[np.ndarray, ...]]:
    """Every board within ``depth`` moves of the solved one: ``{code: fewest moves}`` and the codes at each depth."""
    shifts = (np.arange(size, dtype=np.uint64) * np.uint64(4))
    start = np.arange(size, dtype=np.uint64)[None, :]
    codes = (start << shifts).sum(axis=1).astype(np.uint64)
    boards, seen, layers = start, codes.copy(), [codes]
    for _ in range(depth):
        nxt = np.concatenate([boards[:, list(p)] for p in perms])
        c = (nxt << shifts).sum(axis=1).astype(np.uint64)
        c, idx = np.unique(c, return_index=True)
        keep = ~np.isin(c, seen, assume_unique=True)
        c, boards = c[keep], nxt[idx][keep]
        if not c.size:
            break
        layers.append(c)
        seen = np.union1d(seen, c)
    dist = {int(code): d for d, layer in enumerate(layers) for code in layer.tolist()}
    return dist, tuple(layers)


def decode(code: int, size: int) -> tuple[int, ...]:
    return tuple((code >> (4 * i) & 15) + 1 for i in range(size))


def distance(table: dict[int, int], board) -> int | None:
    return table.get(encode(board))


def shortest_solution(table: dict[int, int], perms: tuple, board: tuple) -> list[int]:
    """Move indices of one shortest solution: each move steps to a board one nearer the solved one."""
    out, d = [], table[encode(board)]
    while d:
        k = next(k for k, p in enumerate(perms) if table.get(encode(apply(board, p)), -1) == d - 1)
        board, d = apply(board, perms[k]), d - 1
        out.append(k)
    return out


def pick(rng: np.random.Generator, layers: tuple[np.ndarray, ...], lo: int, hi: int, size: int) -> tuple[int, ...]:
    """A board at a fewest-moves count drawn from ``lo..hi``, uniform within its layer."""
    layer = layers[int(rng.integers(lo, hi + 1))]
    return decode(int(layer[int(rng.integers(len(layer)))]), size)


@functools.lru_cache(maxsize=64)
def _cells(H: int, W: int, rows: int, cols: int, labels: bool):
    base, g = coordinate_frame((H, W), rows, cols, labels)
    gap = max(1, int(g.cell / 18))
    boxes = [rect_box((H, W), g.x0 + c * g.cell + gap, g.y0 + r * g.cell + gap,
                      g.x0 + (c + 1) * g.cell - gap, g.y0 + (r + 1) * g.cell - gap)
             for r in range(rows) for c in range(cols)]
    return base, g, boxes


@functools.lru_cache(maxsize=1024)
def _tile(h: int, w: int, value: int) -> np.ndarray:
    """One numbered tile, ``h x w``, with a darker rim (read-only)."""
    img = np.empty((h, w, 3), np.uint8)
    img[...] = TILE_EDGE
    rim = max(1, min(h, w) // 16)
    fill_rect(img, rim, rim, w - rim, h - rim, TILE)
    size = max(4, int(min(h, w) * (0.55 if value < 10 else 0.45)))
    text = text_tile(str(value), size, INK, True, TILE)
    th, tw = text.shape[:2]
    if th <= h - 2 * rim and tw <= w - 2 * rim:
        y, x = (h - th) // 2, (w - tw) // 2
        img[y:y + th, x:x + tw] = text
    img.setflags(write=False)
    return img


def draw_tiles(obs_size: tuple[int, int], board, rows: int, cols: int, labels: bool) -> np.ndarray:
    """The board's numbered tiles on a ``rows x cols`` grid (column letters and row numbers when ``labels``)."""
    H, W = obs_size
    base, _, boxes = _cells(H, W, rows, cols, labels)
    img = base.copy()
    for box, v in zip(boxes, board):
        if box is not None:
            x0, y0, x1, y1 = box
            img[y0:y1, x0:x1] = _tile(y1 - y0, x1 - x0, int(v))
    return img
