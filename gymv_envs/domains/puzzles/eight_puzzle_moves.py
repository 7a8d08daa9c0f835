"""8-puzzle: the fewest slides that solve a drawn 3x3 sliding-tile puzzle."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import CountAnswer
from gymv_envs.core.board import coordinate_frame
from gymv_envs.core.canvas import (
    INK,
    draw_layers,
    fill_rect,
    inside,
    layers_tile,
    rect_box,
    text_layer,
)

GOAL = "123456780"  # reading order, 0 is the blank
LEVELS = {0: (3, 8), 1: (9, 15), 2: (16, 24)}  # difficulty -> fewest moves range
TILE = (238, 214, 170)
EMPTY = (70, 74, 90)


def _encode(board: str) -> int:
    return sum(int(ch) << (4 * i) for i, ch in enumerate(board))


def _decode(code: int) -> str:
    return "".join(str(code >> (4 * i) & 15) for i in range(9))


@functools.cache
def _table() -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
    """Breadth-first search from the goal over all 181,440 solvable boards (vectorised).

    Boards are int64 codes (4 bits per square, reading order). Returns the sorted codes, the
    distance of each, and the codes at each distance.
    """
    adj = [[j for j in (i - 3, i + 3, i - 1 if i % 3 else -1, i + 1 if i % 3 < 2 else -1) if 0 <= j < 9]
           for i in range(9)]
    codes, blanks = np.array([_encode(GOAL)], dtype=np.int64), np.array([8])
    seen, layers = codes.copy(), [codes]
    while codes.size:
        new_codes, new_blanks = [], []
        for b in range(9):
            sel = codes[blanks == b]
            for j in adj[b]:
                tile = (sel >> (4 * j)) & 15
                new_codes.append(sel - (tile << (4 * j)) + (tile << (4 * b)))
                new_blanks.append(np.full(sel.size, j))
        cand, idx = np.unique(np.concatenate(new_codes), return_index=True)
        keep = ~np.isin(cand, seen, assume_unique=True)
        codes, blanks = cand[keep], np.concatenate(new_blanks)[idx][keep]
        if codes.size:
            layers.append(codes)
            seen = np.union1d(seen, codes)
    dist = np.concatenate([np.full(len(layer), d) for d, layer in enumerate(layers)])
    order = np.argsort(np.concatenate(layers))
    return np.concatenate(layers)[order], dist[order], tuple(layers)


def fewest_moves(board: str) -> int:
    """Exact fewest moves, looked up in the breadth-first table."""
    all_codes, dist, _ = _table()
    return int(dist[np.searchsorted(all_codes, _encode(board))])


def _square_parts(H: int, W: int, i: int, ch: str) -> tuple[tuple[int, int, int, int] | None, list, tuple]:
    """Square ``i`` showing ``ch``: its filled box, its number as a layer, its colour."""
    _, (x0, y0, cell) = coordinate_frame((H, W), 3, 3, False)
    gap, size = max(1, int(cell / 20)), max(5, int(cell * 0.55))
    r, c = divmod(i, 3)
    x, y = x0 + c * cell, y0 + r * cell
    box = rect_box((H, W), x + gap, y + gap, x + cell - gap, y + cell - gap)
    text = [text_layer(ch, (x + cell / 2, y + cell / 2), size, INK, bold=True)] if ch != "0" else []
    return box, text, EMPTY if ch == "0" else TILE


def _draw_square(img: np.ndarray, H: int, W: int, i: int, ch: str) -> None:
    box, text, colour = _square_parts(H, W, i, ch)
    if box is not None:
        fill_rect(img, *box, colour)
    draw_layers(img, [text])


@functools.lru_cache(maxsize=256)
def _square(H: int, W: int, i: int, ch: str) -> tuple[slice, slice, np.ndarray] | None:
    """Square ``i`` with ``ch`` as a tile over its box (read-only), when its number lies inside the box."""
    box, text, colour = _square_parts(H, W, i, ch)
    if box is None or not inside(text, box):
        return None
    a, b, c, d = box
    return slice(b, d), slice(a, c), layers_tile(text, a, b, c, d, colour)


class EightPuzzleMoves(CountAnswer, SingleTurnEnv):
    """Give the fewest slides that solve a drawn 8-puzzle.

    ## Description
    Eight numbered tiles and one blank sit on a 3x3 board. A move slides a tile next to the
    blank (above, below, left or right) into it. The solved board reads 1 2 3 / 4 5 6 / 7 8
    with the blank at the bottom right. The answer is the fewest moves that solve the board,
    known exactly from a breadth-first search over every solvable board.

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number such as ``12``. ``"mcq"``: `Discrete(k)`
    over nearby counts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board, numbered tiles and a dark blank.

    ## Rewards
    1.0 for the exact fewest number of moves, else 0.0.

    ## Starting State
    A distance in the difficulty's range is drawn, then a board at exactly that distance.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3-8 moves, 1: 9-15, 2: 16-24), ``answer_format``, ``num_options``,
    ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the fewest number of moves as a whole number (for example `12`)"

    def _configure(self) -> None:
        self.lo, self.hi = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        layer = _table()[2][int(rng.integers(self.lo, self.hi + 1))]
        self.board = _decode(int(layer[int(rng.integers(len(layer)))]))

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base = coordinate_frame((H, W), 3, 3, False)[0]
        img = base.copy()
        tiles = [_square(H, W, i, ch) for i, ch in enumerate(self.board)]
        if all(t is not None for t in tiles):
            for rows, cols, tile in tiles:  # each square's fill and number, one copy (squares apart)
                img[rows, cols] = tile
            return img
        for i, ch in enumerate(self.board):
            _draw_square(img, H, W, i, ch)
        return img

    def _task_text(self) -> str:
        return ("The image shows an 8-puzzle: eight numbered tiles and one empty (dark) square on a 3x3 "
                "board. A move slides one tile that is directly above, below, left or right of the empty "
                "square into it. The solved board reads 1 2 3 in the top row, 4 5 6 in the middle row and "
                "7 8 in the bottom row with the empty square at the bottom right. What is the fewest "
                "number of moves that solves the board?")

    def _state_text(self) -> str:
        b = self.board.replace("0", "_")
        return "\n".join(" ".join(b[3 * r: 3 * r + 3]) for r in range(3))

    # -- oracle
    def _solve(self) -> int:
        return fewest_moves(self.board)


SPECS = (
    TaskSpec(name="EightPuzzleMoves", entry_point=EightPuzzleMoves, version=1, max_episode_steps=1,
             tags=("planning", "search")),
)
