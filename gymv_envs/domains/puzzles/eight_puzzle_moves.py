"""8-puzzle: the fewest slides that solve a drawn 3x3 sliding-tile puzzle, or that reach a drawn target."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import CountAnswer, count_near_misses
from gymv_envs.core.board import coordinate_frame
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    draw_layers,
    draw_text,
    fill_rect,
    inside,
    layers_tile,
    new_frame,
    rect_box,
    text_layer,
)

GOAL = "123456780"  # reading order, 0 is the blank
LEVELS = {0: (3, 8), 1: (9, 15), 2: (16, 24)}  # difficulty -> fewest moves range
QUESTIONS = ("solve", "target")
TILE = (238, 214, 170)
# The eight symmetries of the square as position maps (``new[i] = old[p[i]]``): four turns, each mirrored.
_TURN, _MIRROR = (6, 3, 0, 7, 4, 1, 8, 5, 2), (2, 1, 0, 5, 4, 3, 8, 7, 6)
SYMMETRIES = tuple(functools.reduce(lambda p, q: tuple(p[i] for i in q), [_TURN] * k + [_MIRROR] * m, tuple(range(9)))
                   for k in range(4) for m in range(2))
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


def manhattan(board: str, goal: str = GOAL) -> int:
    """Sum over the tiles of their row plus column distance to their square in ``goal``."""
    at = {ch: i for i, ch in enumerate(goal)}
    return sum(abs(i // 3 - at[ch] // 3) + abs(i % 3 - at[ch] % 3) for i, ch in enumerate(board) if ch != "0")


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
    """Give the fewest slides that solve a drawn 8-puzzle, or that turn it into a drawn target board.

    ## Description
    Eight numbered tiles and one blank sit on a 3x3 board. A move slides a tile next to the
    blank (above, below, left or right) into it. ``question`` picks the goal:
    ``"solve"`` (default), the solved board 1 2 3 / 4 5 6 / 7 8 with the blank at the bottom
    right; ``"target"``, a second drawn board (Start on the left, Target on the right, or
    stacked when the frame is taller than wide). The answer is the fewest moves, known exactly
    from a breadth-first search over every solvable board (a target is the solved board with
    its tiles renamed and the board turned or mirrored, which keeps every distance).

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number such as ``12``. ``"mcq"``: `Discrete(k)`
    over nearby counts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board, numbered tiles and a dark blank.

    ## Rewards
    1.0 for the exact fewest number of moves, else 0.0.

    ## Starting State
    A distance in the difficulty's range is drawn, then a board at exactly that distance (target:
    a random renaming of the tiles and one of the square's eight symmetries, applied to both
    boards, so the target's blank is in a corner).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"solve"``: the fewest moves to the solved board; ``"target"``: the fewest
    moves to the drawn target board), ``difficulty`` (0: 3-8 moves, 1: 9-15, 2: 16-24),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the fewest number of moves as a whole number (for example `12`)"
    questions = QUESTIONS

    def _configure(self) -> None:
        self.lo, self.hi = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        layer = _table()[2][int(rng.integers(self.lo, self.hi + 1))]
        self.board = _decode(int(layer[int(rng.integers(len(layer)))]))
        self.target = GOAL
        if self.question == "target":  # rename the tiles and turn the square: distances stay
            names = "0" + "".join(str(int(v) + 1) for v in rng.permutation(8))
            sym = SYMMETRIES[int(rng.integers(8))]
            self.board, self.target = ("".join(names[int(b[p])] for p in sym) for b in (self.board, GOAL))

    # -- draw
    def _draw(self) -> np.ndarray:
        if self.question == "target":
            return self._draw_pair()
        return self._draw_board(self.obs_size, self.board)

    def _draw_pair(self) -> np.ndarray:
        """Start and Target side by side (stacked in a tall frame), each titled above its board."""
        H, W = self.obs_size
        img = new_frame(H, W, BACKGROUND)
        title = max(5, min(H, W) // 10)
        wide = W >= H
        sub = (H - title, W // 2) if wide else (H // 2 - title, W)
        for k, (name, board) in enumerate((("Start", self.board), ("Target", self.target))):
            x, y = (k * (W // 2), 0) if wide else (0, k * (H // 2))
            draw_text(img, name, (x + sub[1] / 2, y + title / 2), max(5, int(title * 0.8)), INK, bold=True)
            img[y + title: y + title + sub[0], x: x + sub[1]] = self._draw_board(sub, board)
        return img

    def _draw_board(self, size: tuple[int, int], board: str) -> np.ndarray:
        H, W = size
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
        if self.question == "target":
            return ("The image shows two 8-puzzle boards, Start and Target: eight numbered tiles and one empty "
                    "(dark) square on a 3x3 board each. A move slides one tile that is directly above, below, "
                    "left or right of the empty square into it. What is the fewest number of moves that turns "
                    "the Start board into the Target board?")
        return ("The image shows an 8-puzzle: eight numbered tiles and one empty (dark) square on a 3x3 "
                "board. A move slides one tile that is directly above, below, left or right of the empty "
                "square into it. The solved board reads 1 2 3 in the top row, 4 5 6 in the middle row and "
                "7 8 in the bottom row with the empty square at the bottom right. What is the fewest "
                "number of moves that solves the board?")

    def _state_text(self) -> str:
        def rows(board: str) -> str:
            b = board.replace("0", "_")
            return "\n".join(" ".join(b[3 * r: 3 * r + 3]) for r in range(3))
        return rows(self.board) if self.question == "solve" else f"start\n{rows(self.board)}\ntarget\n{rows(self.target)}"

    # -- verify
    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        near = count_near_misses(rng, self._solution)
        if self.question == "solve":
            return near
        # to the solved board instead of the target (when it can reach it); the tiles' distances to their squares
        all_codes = _table()[0]
        i = int(np.searchsorted(all_codes, _encode(self.board)))
        solved = [fewest_moves(self.board)] if i < len(all_codes) and all_codes[i] == _encode(self.board) else []
        return [*solved, manhattan(self.board, self.target), *near]

    # -- oracle
    def _solve(self) -> int:
        if self.question == "target":  # rename the tiles so the target reads as the solved board
            sym = SYMMETRIES[next(i for i, p in enumerate(SYMMETRIES) if self.target[p[8]] == "0")]
            board, target = ("".join(b[p] for p in sym) for b in (self.board, self.target))
            rename = {ch: GOAL[i] for i, ch in enumerate(target)}
            return fewest_moves("".join(rename[ch] for ch in board))
        return fewest_moves(self.board)


SPECS = (
    TaskSpec(name="EightPuzzleMoves", entry_point=EightPuzzleMoves, version=1, max_episode_steps=1,
             tags=("planning", "search")),
)
