"""Grid parity: name presses (each toggles a cell and its orthogonal neighbours) that turn one pattern into another."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import Geom, draw_labels
from gymv_envs.core.canvas import BACKGROUND, INK, draw_text, fill_rect, new_frame
from gymv_envs.core.cells import cell_tokens, format_cells
from gymv_envs.domains.logic._placement import mask_cells
from gymv_envs.rules.lights_out import all_solutions, apply_presses, press_masks

# difficulty -> (board side, random presses that make the target: at least, at most)
LEVELS = {0: (3, 2, 4), 1: (4, 4, 7), 2: (5, 6, 10)}
ON = (40, 120, 220)
OFF = (225, 228, 236)
_SEPARATORS = re.compile(r"(?:[\s,;/|+&>\-\u2192]|\bAND\b)+")


def _geoms(h: int, w: int, n: int) -> tuple[Geom, Geom]:
    """The START board on the left, the TARGET board on the right, labels above and left, titles below."""
    cell = min(w * 0.96 / (2 * n + 2.8), h * 0.94 / (n + 1.5))
    left = (w - cell * (2 * n + 2.8)) / 2 + 0.6 * cell
    y0 = (h - cell * (n + 1.5)) / 2 + 0.6 * cell
    return Geom(left, y0, cell), Geom(left + (n + 2.2) * cell, y0, cell)


@functools.lru_cache(maxsize=32)
def _base(h: int, w: int, n: int) -> np.ndarray:
    """Both empty boards with labels, titles and the arrow between them (read-only)."""
    img = new_frame(h, w, BACKGROUND)
    size = max(5, int(0.4 * _geoms(h, w, n)[0].cell))
    for g, title in zip(_geoms(h, w, n), ("START", "TARGET"), strict=True):
        draw_labels(img, g, n, n, size)
        fill_rect(img, g.x0 - 1, g.y0 - 1, g.x0 + n * g.cell + 1, g.y0 + n * g.cell + 1, INK)
        _paint(img, g, n, 0)
        draw_text(img, title, (g.x0 + n * g.cell / 2, g.y0 + (n + 0.5) * g.cell), size, INK, bold=True)
    a, b = _geoms(h, w, n)
    draw_text(img, "\u2192", (a.x0 + (n + 0.75) * a.cell, a.y0 + n * a.cell / 2), size * 2, INK, bold=True)
    img.setflags(write=False)
    return img


def _paint(img: np.ndarray, g: Geom, n: int, mask: int, only_on: bool = False) -> None:
    gap = max(1, int(g.cell / 14))
    for i in range(n * n):
        on = mask >> i & 1
        if only_on and not on:
            continue
        r, c = divmod(i, n)
        x, y = g.x0 + c * g.cell, g.y0 + r * g.cell
        fill_rect(img, x + gap, y + gap, x + g.cell - gap, y + g.cell - gap, ON if on else OFF)


class GridParity(SingleTurnEnv):
    """Name presses that turn the START pattern into the TARGET pattern.

    ## Description
    Two ``n x n`` boards are drawn side by side, START (left) and TARGET (right), with
    columns A, B, ... and rows 1, 2, ... from the top; blue cells are on, pale cells off.
    Pressing a cell toggles it and the cells directly above, below, left and right of it.
    The answer is any list of presses that turns START into TARGET: presses commute and a
    cell pressed twice is not pressed at all, so only the parity of each cell's presses
    counts. Boards of side 4 and 5 have several press sets that work: any is accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, the cells to press such as ``A1 B3 C2`` (any order,
    separators and case; repeats are pressed again), or ``none`` when nothing is to be
    pressed. ``"mcq"``: `Discrete(k)` over press sets.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the two labelled boards.

    ## Rewards
    1.0 if replaying the presses on START gives TARGET (the verifier simulates them), else 0.0.

    ## Starting State
    A random START pattern; TARGET is START after a random set of presses. The oracle's
    answer is one press set found by Gauss-Jordan elimination over GF(2).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3x3, 2-4 random presses; 1: 4x4, 4-7; 2: 5x5, 6-10), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the cells to press, each as column letter then row number, separated by spaces (for example `A1 C2`)"

    def _configure(self) -> None:
        self.n, self.lo, self.hi = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n, masks = self.n, press_masks(self.n)
        self.start = int(rng.integers(1 << (n * n)))
        while True:
            k = int(rng.integers(self.lo, self.hi + 1))
            diff = 0
            for i in rng.choice(n * n, size=k, replace=False):
                diff ^= masks[int(i)]
            if diff:
                break
        self.target = self.start ^ diff

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = _base(H, W, self.n).copy()
        for g, mask in zip(_geoms(H, W, self.n), (self.start, self.target), strict=True):
            _paint(img, g, self.n, mask, only_on=True)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows two {n}x{n} boards: START on the left and TARGET on the right. Blue cells are on, "
                f"pale cells are off. Columns are labelled A to {chr(64 + n)} from left to right and rows 1 to {n} from "
                "top to bottom. Pressing a cell toggles it and the cells directly above, below, left and right of it "
                "(on becomes off, off becomes on). Which cells of START must be pressed to turn it into TARGET? The "
                "order of presses does not matter; pressing a cell twice undoes it; any set of presses that works is "
                "accepted.")

    def _state_text(self) -> str:
        n = self.n

        def rows(m: int) -> str:
            return "\n".join("".join(str(m >> (r * n + c) & 1) for c in range(n)) for r in range(n))
        return f"start:\n{rows(self.start)}\ntarget:\n{rows(self.target)}"

    # -- verify
    def _parse_answer(self, text: str) -> tuple[tuple[int, int], ...] | None:
        t = re.sub(r"\b([A-Z])\s+(?=\d)", r"\1", text.strip().upper().strip("[](){}."))
        if not t or len(t) > self.max_answer_length:
            return None
        if t in ("NONE", "NOTHING", "NO PRESSES"):
            return ()
        cells = cell_tokens(t, _SEPARATORS, self.n, self.n)
        return tuple(cells) if cells else None

    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        return apply_presses(self.n, self.start, answer) == self.target

    def _format(self, answer: tuple[tuple[int, int], ...]) -> str:
        return format_cells(answer) if answer else "none"

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        return mask_cells(min(all_solutions(self.n, self.start ^ self.target), key=lambda v: (v.bit_count(), v)), self.n)

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        n, sol = self.n, list(self._solution)
        inside = [(r, c) for r in range(n) for c in range(n)]
        removed = [tuple(x for x in sol if x != cell) for cell in sol]
        added = [tuple(sorted(sol + [cell])) for cell in inside if cell not in sol]
        moved = [tuple(sorted(x if x != (r, c) else (r + dr, c + dc) for x in sol))
                 for r, c in sol for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                 if (r + dr, c + dc) in inside and (r + dr, c + dc) not in sol]
        # similar wrong methods: press every cell that differs, or every cell on in TARGET
        similar = [mask_cells(self.start ^ self.target, n), mask_cells(self.target, n),
                   tuple((r, n - 1 - c) for r, c in sol), tuple((c, r) for r, c in sol)]
        return [tuple(sorted(x)) for x in interleave(rng, moved, removed, added, similar)]


SPECS = (
    TaskSpec(name="GridParity", entry_point=GridParity, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "linear-algebra")),
)
