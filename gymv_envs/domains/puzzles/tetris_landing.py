"""Tetris landing: name the cells a falling tetromino occupies after a straight drop."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.cells import cell_name, find_cells
from gymv_envs.domains.puzzles._tetris import (
    PIECE_COLORS,
    TETRIS_SIZES,
    TETROMINOES,
    draw_tetris,
    drop,
    random_stack,
    rotate,
)


class TetrisLanding(SingleTurnEnv):
    """Say where a tetromino lands when it is dropped straight down.

    ## Description
    A Tetris well (gray filled cells) is drawn with a coloured tetromino hovering above it.
    The piece falls straight down, without turning or sliding, until a cell of it would
    enter a filled cell or pass the floor. The answer is the four cells it then occupies.

    ## Action Space
    ``"open"``: `Text`, four cells such as ``C1 D1 D2 E2`` (column letter, row number from
    the bottom; any order and separators). ``"mcq"``: `Discrete(k)` over cell sets.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the well with labelled columns and rows, and the piece.

    ## Rewards
    1.0 for exactly the landed cells, else 0.0.

    ## Starting State
    A ragged random stack with holes in an 8x6 (difficulty 0), 12x8 (1) or 16x10 (2) well;
    a random piece, rotation and column, rejected if the piece would stick out of the top.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the four landed cells such as `C1 D1 D2 E2` (column letter, row number from the bottom)"

    def _configure(self) -> None:
        self.rows, self.cols = TETRIS_SIZES[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            self.filled = random_stack(rng, self.rows, self.cols)
            self.piece = "IOTSZJL"[int(rng.integers(7))]
            self.cells = rotate(TETROMINOES[self.piece], int(rng.integers(4)))
            width = max(c for _, c in self.cells) + 1
            self.col = int(rng.integers(self.cols - width + 1))
            self.landed = drop(self.filled, self.cells, self.col)
            if self.landed is not None and min(r for r, _ in self.landed) >= 2:
                return

    def _draw(self) -> np.ndarray:
        return draw_tetris(*self.obs_size, self.filled, self.piece, self.cells, self.col)

    def _task_text(self) -> str:
        return (f"The image shows a Tetris well ({self.cols} columns, {self.rows} rows numbered from the bottom) "
                f"with a {PIECE_COLORS[self.piece]} piece above it. The piece falls straight down without "
                "rotating or moving sideways until it rests on a filled cell or the floor. "
                "Which four cells does it occupy when it lands?")

    def _caption(self) -> list:
        return [f"Where does the {PIECE_COLORS[self.piece]} piece land?"]

    def _parse_answer(self, text: str) -> frozenset | None:
        cells = find_cells(text, self.rows, self.cols, bottom_up=True)
        if not cells or len(cells) != 4 or len(set(cells)) != 4:
            return None
        return frozenset(cells)

    def _check(self, answer: frozenset) -> bool:
        return answer == frozenset(self.landed)

    def _format(self, answer) -> str:
        return " ".join(cell_name(r, c, self.rows, bottom_up=True) for r, c in sorted(answer, key=lambda x: (-x[0], x[1])))

    def _solve(self) -> frozenset:
        return frozenset(self.landed)

    def _near_misses(self, rng: np.random.Generator) -> list[frozenset]:
        out = []
        for dr in (-1, -2, 1, -3):  # one row too high / too low
            moved = [(r + dr, c) for r, c in self.landed]
            if all(0 <= r < self.rows for r, _ in moved):
                out.append(frozenset(moved))
        for dc in (-1, 1, -2, 2):  # the landing spot one column over
            cells = [(r, c + dc) for r, c in self.landed]
            if all(0 <= c < self.cols for _, c in cells):
                out.append(frozenset(cells))
                other = drop(self.filled, self.cells, self.col + dc)
                if other:
                    out.append(frozenset(other))
        return [out[int(k)] for k in rng.permutation(len(out))]

    def _state_text(self) -> str:
        return "\n".join("".join("#" if v else "." for v in row) for row in self.filled) + f"\npiece {self.piece} {self.cells} at column {self.col}"


SPECS = (
    TaskSpec(name="TetrisLanding", entry_point=TetrisLanding, version=1, max_episode_steps=1,
             tags=("game", "spatial-reasoning", "physics")),
)
