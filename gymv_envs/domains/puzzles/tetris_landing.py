"""Tetris landing: name the cells a falling tetromino occupies after a straight drop, or the column where it lands lowest."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.cells import LETTERS, cell_name, find_cells
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.puzzles._tetris import (
    PIECE_COLORS,
    TETRIS_SIZES,
    draw_tetris,
    drop,
    random_drop,
)

QUESTIONS = ("cells", "lowest")


class TetrisLanding(SingleTurnEnv):
    """Say where a tetromino lands when it is dropped straight down, or where it would land lowest.

    ## Description
    A Tetris well (gray filled cells) is drawn with a coloured tetromino hovering above it.
    The piece falls straight down, without turning, until a cell of it would enter a filled
    cell or pass the floor. ``question="cells"`` (default): it drops where it hovers; the answer
    is the four cells it then occupies. ``question="lowest"``: it may first be slid sideways (not
    turned); the answer is the column letter of its leftmost cell for a drop after which its
    highest cell is as low as possible. Every column that ties is accepted.

    ## Action Space
    ``"open"``: `Text`, four cells such as ``C1 D1 D2 E2`` (column letter, row number from
    the bottom; any order and separators), or one column letter such as ``C`` (lowest).
    ``"mcq"``: `Discrete(k)` over cell sets, or over columns where it lands higher.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the well with labelled columns and rows, and the piece.

    ## Rewards
    1.0 for exactly the landed cells (cells) or a lowest-landing column (lowest), else 0.0.

    ## Starting State
    A ragged random stack with holes in an 8x6 (difficulty 0), 12x8 (1) or 16x10 (2) well;
    a random piece, rotation and column, rejected if the piece would stick out of the top.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"cells"``: the landed cells; ``"lowest"``: the column where it lands lowest, on
    levels where at most a third of the columns tie), ``difficulty``, ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        if self.question == "lowest":
            return "the column letter of the piece's leftmost cell (for example `C`)"
        return "the four landed cells such as `C1 D1 D2 E2` (column letter, row number from the bottom)"

    def _configure(self) -> None:
        self.rows, self.cols = TETRIS_SIZES[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        with ScalarDraws(rng) as d:  # `rng.integers` and `rng.random` one by one, at Python speed
            while True:
                filled, self.piece, self.cells, self.col, width, self.landed = random_drop(d, self.rows, self.cols)
                if self.landed is None or min(r for r, _ in self.landed) < 2:
                    continue
                self.filled = np.array(filled, dtype=bool)
                if self.question == "cells":
                    return
                # lowest: the top row index of the landed piece per column offset (larger is lower)
                self.by_column = {c: min(r for r, _ in cells) for c in range(self.cols - width + 1)
                                  if (cells := drop(filled, self.cells, c)) is not None}
                best = max(self.by_column.values())
                ties = [c for c, v in self.by_column.items() if v == best]
                if 3 * len(ties) <= len(self.by_column) and self.col not in ties:
                    self.best_columns = frozenset(ties)
                    return

    def _draw(self) -> np.ndarray:
        return draw_tetris(*self.obs_size, self.filled, self.piece, self.cells, self.col)

    def _task_text(self) -> str:
        if self.question == "lowest":
            return (f"The image shows a Tetris well ({self.cols} columns lettered from the left, {self.rows} rows "
                    f"numbered from the bottom) with a {PIECE_COLORS[self.piece]} piece above it. The piece may be "
                    "slid sideways (not turned) and then falls straight down until it rests on a filled cell or "
                    "the floor. Over which column should the piece's leftmost cell be dropped so that the piece's "
                    "highest cell ends up as low as possible? Answer with that column's letter.")
        return (f"The image shows a Tetris well ({self.cols} columns, {self.rows} rows numbered from the bottom) "
                f"with a {PIECE_COLORS[self.piece]} piece above it. The piece falls straight down without "
                "rotating or moving sideways until it rests on a filled cell or the floor. "
                "Which four cells does it occupy when it lands?")

    def _caption(self) -> list:
        if self.question == "lowest":
            return [f"Slide the {PIECE_COLORS[self.piece]} piece: column where it lands lowest?"]
        return [f"Where does the {PIECE_COLORS[self.piece]} piece land?"]

    def _parse_answer(self, text: str) -> frozenset | None:
        if self.question == "lowest":
            m = re.fullmatch(r"(?:COLUMN\s+)?([A-Z])", text.strip().strip(".`'\"").upper())
            return LETTERS.index(m.group(1)) if m and LETTERS.index(m.group(1)) < self.cols else None
        cells = find_cells(text, self.rows, self.cols, bottom_up=True)
        if not cells or len(cells) != 4 or len(set(cells)) != 4:
            return None
        return frozenset(cells)

    def _check(self, answer: frozenset) -> bool:
        if self.question == "lowest":
            return answer in self.best_columns
        return answer == frozenset(self.landed)

    def _format(self, answer) -> str:
        if self.question == "lowest":
            return LETTERS[answer]
        return " ".join(cell_name(r, c, self.rows, bottom_up=True) for r, c in sorted(answer, key=lambda x: (-x[0], x[1])))

    def _solve(self) -> frozenset:
        if self.question == "lowest":
            return min(self.best_columns)
        return frozenset(self.landed)

    def _near_misses(self, rng: np.random.Generator) -> list[frozenset]:
        if self.question == "lowest":  # where it hovers first, then the columns by how low it lands
            others = sorted((c for c in self.by_column if c not in self.best_columns),
                            key=lambda c: (c != self.col, -self.by_column[c], rng.random()))
            return others + [c for c in range(self.cols) if c not in self.by_column]
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
        return "\n".join("".join("#" if v else "." for v in row) for row in self.filled.tolist()) + f"\npiece {self.piece} {self.cells} at column {self.col}"


SPECS = (
    TaskSpec(name="TetrisLanding", entry_point=TetrisLanding, version=1, max_episode_steps=1,
             tags=("game", "spatial-reasoning", "physics")),
)
