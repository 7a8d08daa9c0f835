"""Tetris lines cleared: count the rows a straight drop of a tetromino completes, or find the column that clears most."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.cells import LETTERS
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.puzzles._tetris import (
    PIECE_COLORS,
    TETRIS_SIZES,
    draw_tetris,
    drop,
    random_drop,
)

QUESTIONS = ("count", "best_column")
WORDS = {"ZERO": 0, "NONE": 0, "NO": 0, "ONE": 1, "TWO": 2, "THREE": 3, "FOUR": 4}


def _cleared(filled: list[list[bool]], cells, col: int) -> int:
    """Rows of ``filled`` cleared by a straight drop at column offset ``col`` (-1 when the piece sticks out)."""
    landed = drop(filled, cells, col)
    if landed is None:
        return -1
    cols = len(filled[0])
    per_row = {r: 0 for r, _ in landed}
    for r, _ in landed:  # the landed cells were empty
        per_row[r] += 1
    return sum(1 for r, n in per_row.items() if n + sum(filled[r]) == cols)


class TetrisLinesCleared(SingleTurnEnv):
    """Count how many lines a dropped tetromino clears, or name the drop column that clears the most.

    ## Description
    A Tetris well (gray filled cells) is drawn with a coloured tetromino hovering above it.
    The piece falls straight down, without turning, until it rests; every row that is then
    completely filled is cleared. ``question="count"`` (default): the piece drops where it
    hovers; the answer is the number of cleared rows. ``question="best_column"``: the piece may
    first be slid sideways (not turned); the answer is the column letter of the piece's leftmost
    cell for a drop that clears the most rows. Every column that ties for the most is accepted.

    ## Action Space
    ``"open"``: `Text`, a number 0-4 (digits or words) for count; a column letter such as ``C``
    for best_column. ``"mcq"``: `Discrete(k)` over counts, or over columns that clear fewer rows.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the well with labelled columns and rows, and the piece.

    ## Rewards
    1.0 for the right count (count) or a column that clears the most rows (best_column), else 0.0.

    ## Starting State
    A ragged random stack in an 8x6 (difficulty 0), 12x8 (1) or 16x10 (2) well; some rows the
    piece will reach are filled up to the piece's gaps, so 0 to 4 lines may clear.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"count"``: rows cleared where the piece hovers; ``"best_column"``: the column
    that clears the most; levels where at least one row clears and at most a third of the columns
    tie), ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        if self.question == "best_column":
            return "the column letter of the piece's leftmost cell (for example `C`)"
        return "the number of cleared lines (0 to 4)"

    def _configure(self) -> None:
        self.rows, self.cols = TETRIS_SIZES[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        with ScalarDraws(rng) as d:  # `rng.integers` and `rng.random` one by one, at Python speed
            while True:
                filled, self.piece, self.cells, self.col, width, landed = random_drop(d, self.rows, self.cols)
                if landed is None:
                    continue
                swept = {(r, c) for c in {c for _, c in landed} for r in range(min(r for r, cc in landed if cc == c))}
                for r in sorted({r for r, _ in landed}):
                    if d.random() < 0.6:  # fill the row around the piece
                        row = filled[r]
                        for c in range(self.cols):
                            if (r, c) not in landed and (r, c) not in swept:
                                row[c] = True
                        if d.random() < 0.3:  # ... or almost: leave one gap away from the piece
                            gaps = [c for c in range(self.cols) if (r, c) not in landed and row[c]]
                            if gaps:
                                row[gaps[d.integers(len(gaps))]] = False
                if any(all(row) for row in filled):
                    continue
                self.landed = drop(filled, self.cells, self.col)
                if self.landed is None or min(r for r, _ in self.landed) < 2:
                    continue
                self.filled = np.array(filled, dtype=bool)
                self.count = _cleared(filled, self.cells, self.col)
                if self.question == "count":
                    return
                # best_column: the piece hovers somewhere else; a few columns clear the most, at least one row
                self.by_column = {c: _cleared(filled, self.cells, c) for c in range(self.cols - width + 1)}
                best = max(self.by_column.values())
                ties = [c for c, v in self.by_column.items() if v == best]
                if best >= 1 and 3 * len(ties) <= len(self.by_column) and best > min(self.by_column.values()):
                    others = [c for c in self.by_column if c not in ties]
                    self.col, self.best_columns = others[d.integers(len(others))], frozenset(ties)
                    return

    def _draw(self) -> np.ndarray:
        return draw_tetris(*self.obs_size, self.filled, self.piece, self.cells, self.col)

    def _task_text(self) -> str:
        if self.question == "best_column":
            return (f"The image shows a Tetris well ({self.cols} columns lettered from the left, {self.rows} rows) "
                    f"with a {PIECE_COLORS[self.piece]} piece above it. The piece may be slid sideways (not "
                    "turned) and then falls straight down until it rests on a filled cell or the floor; then "
                    "every completely filled row is cleared. Over which column should the piece's leftmost cell "
                    "be dropped to clear the most rows? Answer with that column's letter.")
        return (f"The image shows a Tetris well ({self.cols} columns, {self.rows} rows) with a "
                f"{PIECE_COLORS[self.piece]} piece above it. The piece falls straight down without rotating "
                "or moving sideways until it rests on a filled cell or the floor; then every completely "
                "filled row is cleared. How many rows are cleared?")

    def _caption(self) -> list:
        if self.question == "best_column":
            return [f"Slide the {PIECE_COLORS[self.piece]} piece: column that clears most?"]
        return [f"The {PIECE_COLORS[self.piece]} piece drops: rows cleared?"]

    def _parse_answer(self, text: str) -> int | None:
        t = text.strip().strip(".`'\"").upper()
        if self.question == "best_column":
            m = re.fullmatch(r"(?:COLUMN\s+)?([A-Z])", t)
            return LETTERS.index(m.group(1)) if m and LETTERS.index(m.group(1)) < self.cols else None
        if t in WORDS:
            return WORDS[t]
        m = re.fullmatch(r"(\d)(?:\s*(?:LINES?|ROWS?))?", t)
        return int(m.group(1)) if m and int(m.group(1)) <= 4 else None

    def _check(self, answer: int) -> bool:
        if self.question == "best_column":
            return answer in self.best_columns
        return answer == self.count

    def _format(self, answer: int) -> str:
        return LETTERS[answer] if self.question == "best_column" else str(answer)

    def _solve(self) -> int:
        if self.question == "best_column":
            return min(self.best_columns)
        return self.count

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        if self.question == "best_column":  # where it hovers first, then the columns by rows cleared
            others = sorted((c for c in self.by_column if c not in self.best_columns),
                            key=lambda c: (c != self.col, -self.by_column[c], rng.random()))
            return others + [c for c in range(self.cols) if c not in self.by_column]
        out = [k for k in range(5) if k != self.count]
        out.sort(key=lambda k: (abs(k - self.count), rng.random()))
        return out

    def _state_text(self) -> str:
        return "\n".join("".join("#" if v else "." for v in row) for row in self.filled.tolist()) + f"\npiece {self.piece} {self.cells} at column {self.col}"


SPECS = (
    TaskSpec(name="TetrisLinesCleared", entry_point=TetrisLinesCleared, version=1, max_episode_steps=1,
             tags=("game", "spatial-reasoning", "counting")),
)
