"""Lights Out: name the fewest presses that switch every light off."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import Geom, draw_labels, labelled_layout
from gymv_envs.core.canvas import BACKGROUND, fill_rect, new_frame
from gymv_envs.core.cells import cell_name, cell_tokens
from gymv_envs.domains.logic._placement import mask_cells
from gymv_envs.rules.lights_out import all_solutions, apply_presses, fewest_presses, press_masks

# difficulty -> (board side, fewest presses at least, random presses at most)
LEVELS = {0: (3, 2, 4), 1: (4, 3, 6), 2: (5, 4, 8)}
LIT = (250, 212, 40)
LIT_CORE = (255, 240, 150)
OFF = (58, 62, 78)
_SEPARATORS = re.compile(r"(?:[\s,;/|+&>\-\u2192]|\bAND\b)+")


@functools.lru_cache(maxsize=64)
def _base(h: int, w: int, n: int) -> tuple[np.ndarray, Geom]:
    """The empty board with its coordinate labels (read-only) and its geometry."""
    g = labelled_layout((h, w), n, n)
    img = new_frame(h, w, BACKGROUND)
    draw_labels(img, g, n, n, max(5, int(min(0.6 * g.cell * 0.8, g.cell * 0.45))))
    gap = max(1, int(g.cell / 14))
    for r in range(n):
        for c in range(n):
            x, y = g.x0 + c * g.cell, g.y0 + r * g.cell
            fill_rect(img, x + gap, y + gap, x + g.cell - gap, y + g.cell - gap, OFF)
    img.setflags(write=False)
    return img, g


class LightsOutSolve(SingleTurnEnv):
    """Name the fewest cells to press to switch off every light of a Lights Out board.

    ## Description
    An ``n x n`` board of lights, lit (yellow) or off (dark), with columns labelled A, B, ...
    left to right and rows 1, 2, ... top to bottom. Pressing a cell toggles it and its
    orthogonal neighbours. The answer is the set of cells to press so that every light is
    off, with as few presses as possible; presses commute, so order does not matter. On
    4x4 and 5x5 boards several minimal sets may exist: any one is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, cells such as ``A1 B3 C2`` (any order, any separators,
    any case). A cell named twice is pressed twice (which undoes it) and each mention counts
    as a press, so an answer with repeats is never minimal. ``"mcq"``: `Discrete(k)` over
    candidate press sets.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with its coordinate labels.

    ## Rewards
    1.0 if replaying the presses switches every light off and their number is the minimum
    (found by Gauss-Jordan elimination over GF(2) and enumeration of the null space), else 0.0.

    ## Starting State
    A random set of cells is pressed on the all-off board; levels whose minimal solution is
    shorter than the difficulty's floor are redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x3, at least 2 presses; 1: 4x4, at least 3; 2: 5x5, at least 4),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the cells to press, each as column letter then row number, separated by spaces (for example `C2 A1 B3`)"

    def _configure(self) -> None:
        self.n, self.min_presses, self.max_presses = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n, masks = self.n, press_masks(self.n)
        while True:
            k = int(rng.integers(self.min_presses, self.max_presses + 1))
            board = 0
            for i in rng.choice(n * n, size=k, replace=False):
                board ^= masks[int(i)]
            best = fewest_presses(n, board)
            if best.bit_count() >= self.min_presses:
                break
        self.board, self.best = board, best.bit_count()

    def _cells(self, mask: int) -> tuple[tuple[int, int], ...]:
        return mask_cells(mask, self.n)

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base, (x0, y0, cell) = _base(H, W, self.n)
        img = base.copy()
        gap, core = max(1, int(cell / 14)), cell * 0.28
        for r, c in self._cells(self.board):
            x, y = x0 + c * cell, y0 + r * cell
            fill_rect(img, x + gap, y + gap, x + cell - gap, y + cell - gap, LIT)
            fill_rect(img, x + core, y + core, x + cell - core, y + cell - core, LIT_CORE)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Lights Out board: yellow cells are lit, dark cells are off. "
                f"Columns are labelled A to {chr(64 + n)} from left to right and rows 1 to {n} from top to "
                "bottom. Pressing a cell toggles it and the cells directly above, below, left and right of it "
                "(lit becomes off, off becomes lit). Which cells must be pressed to switch every light off, "
                "using the fewest presses? The order of presses does not matter, and pressing a cell twice "
                "undoes it.")

    def _state_text(self) -> str:
        n = self.n
        return "\n".join(" ".join(str(self.board >> (r * n + c) & 1) for c in range(n)) for r in range(n))

    # -- verify
    def _parse_answer(self, text: str) -> tuple[tuple[int, int], ...] | None:
        t = re.sub(r"\b([A-Z])\s+(?=\d)", r"\1", text.strip().upper().strip("[](){}."))
        if not t or len(t) > self.max_answer_length:
            return None
        cells = cell_tokens(t, _SEPARATORS, self.n, self.n)
        return tuple(sorted(cells)) if cells else None

    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        return len(answer) == self.best and apply_presses(self.n, self.board, answer) == 0

    def _format(self, answer: tuple[tuple[int, int], ...]) -> str:
        return " ".join(cell_name(r, c) for r, c in sorted(answer, key=lambda rc: (rc[1], rc[0])))

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        return self._cells(fewest_presses(self.n, self.board))

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        n, sol = self.n, list(self._solution)
        inside = [(r, c) for r in range(n) for c in range(n)]
        longer = [self._cells(v) for v in all_solutions(n, self.board) if v.bit_count() > self.best]
        removed = [tuple(x for x in sol if x != cell) for cell in sol]
        added = [tuple(sol + [cell]) for cell in inside if cell not in sol]
        moved = [tuple(x if x != (r, c) else (r + dr, c + dc) for x in sol)
                 for r, c in sol for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                 if (r + dr, c + dc) in inside and (r + dr, c + dc) not in sol]
        mirrors = [tuple((r, n - 1 - c) for r, c in sol), tuple((n - 1 - r, c) for r, c in sol),
                   tuple((c, r) for r, c in sol), self._cells(self.board)]
        return [tuple(sorted(x)) for x in interleave(rng, longer, moved, removed, added, mirrors)]


SPECS = (
    TaskSpec(name="LightsOutSolve", entry_point=LightsOutSolve, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "linear-algebra")),
)
