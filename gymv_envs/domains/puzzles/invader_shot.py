"""Invader shot: which invader of a drifting Space Invaders formation does the cannon's shot hit?"""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import PALETTE, paste
from gymv_envs.core.cells import LETTERS, find_cells
from gymv_envs.domains.puzzles._invader_draw import FIELD_BG, draw_marks, field_base, label_tiles

# field (cols, rows), formation (rows, cols), missing invaders
LEVELS = {0: ((9, 10), (2, 3), (0, 1)), 1: ((11, 12), (3, 4), (1, 3)), 2: ((13, 14), (4, 5), (2, 5))}
ROW_COLOURS = ("green", "cyan", "purple", "orange", "pink")
INVADER = ("..#...#..", "...#.#...", "..#####..", ".##.#.##.", "#########", "#.#####.#", "#.#...#.#", "...#.#...")
CANNON = ("....#....", "...###...", ".#######.", "#########", "#########")

Slot = tuple[int, int]  # (formation row, formation column)


def simulate(alive: frozenset[Slot], top: int, left: int, direction: int, width: int, height: int,
             cannon: int) -> Slot | None:
    """The invader the shot hits, or None when it leaves the top of the field.

    Each tick the shot moves up one cell (hitting an invader in the cell it enters); then the formation
    moves one cell sideways, or, when that would take an invader past a wall, one row down and turns
    around (hitting an invader that moves onto the shot's cell)."""
    lo, hi = min(c for _, c in alive), max(c for _, c in alive)
    row = height - 1
    while True:
        row -= 1
        if row < 0:
            return None
        slot = (row - top, cannon - left)
        if slot in alive:
            return slot
        if left + lo + direction < 0 or left + hi + direction > width - 1:
            top, direction = top + 1, -direction
        else:
            left += direction
        slot = (row - top, cannon - left)
        if slot in alive:
            return slot


@functools.lru_cache(maxsize=64)
def sprite_tile(bitmap: tuple[str, ...], size: int, color: tuple[int, int, int], bg: tuple[int, int, int]) -> np.ndarray:
    """A pixel-art sprite scaled to ``size`` pixels wide over ``bg`` (read-only, cached)."""
    bits = np.array([[ch == "#" for ch in row] for row in bitmap])
    h = max(1, round(size * bits.shape[0] / bits.shape[1]))
    mask = bits[np.ix_(np.arange(h) * bits.shape[0] // h, np.arange(size) * bits.shape[1] // size)]
    tile = np.full((h, size, 3), bg, dtype=np.uint8)
    tile[mask] = color
    tile.setflags(write=False)
    return tile


class InvaderShot(SingleTurnEnv):
    """Say which invader of a drifting formation the cannon's shot hits.

    ## Description
    A Space Invaders still on a grid of cells: a formation of invaders (columns lettered A.. above
    it, rows numbered 1.. left of it; some invaders already shot away), an arrow above the field
    showing which way it drifts, and the player's cannon in the bottom row, which fires now. Each tick the shot
    moves up one cell and hits an invader in the cell it enters; then the formation moves one cell
    in its direction, or, when that would take an invader past a side wall, one row down and turns
    around; an invader moving onto the shot's cell is hit too. The answer is the invader hit (its
    column letter and row number, e.g. ``B2``) or ``none`` when the shot leaves the top of the field.

    ## Action Space
    ``"open"``: `Text`, ``B2`` or ``none``. ``"mcq"``: `Discrete(k)`; wrong options are the
    invader straight above the cannon now, the neighbours of the one hit, the invader hit without
    the turn at the wall, and ``none``.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the field with faint cell lines, the sprites, labels and the arrow.

    ## Rewards
    1.0 for the right invader (or ``none``), else 0.0.

    ## Starting State
    Fields of 9x10, 11x12, 13x14 cells with 2x3, 3x4, 4x5 formations and 0-1, 1-3, 2-5 invaders
    missing (difficulty 0-2). From difficulty 1 the shot never hits the invader straight above the
    cannon at the start; at difficulty 2 the formation turns at a wall before the hit.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the invader hit as its column letter and row number (for example `B2`), or `none`"

    def _configure(self) -> None:
        (self.width, self.height), (self.rows, self.cols), self.missing = LEVELS[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        W, H, R, C = self.width, self.height, self.rows, self.cols
        slots = [(r, c) for r in range(R) for c in range(C)]
        while True:
            gone = set(rng.permutation(len(slots))[: int(rng.integers(self.missing[0], self.missing[1] + 1))].tolist())
            alive = frozenset(s for k, s in enumerate(slots) if k not in gone)
            lo, hi = min(c for _, c in alive), max(c for _, c in alive)
            top, left = int(rng.integers(1, 3)), int(rng.integers(-lo, W - hi))
            direction, cannon = (-1, 1)[int(rng.integers(2))], int(rng.integers(W))  # (as rng.choice draws)
            hit = simulate(alive, top, left, direction, W, H, cannon)
            if hit is None and rng.random() > 0.2:
                continue
            straight = max(((r, c) for r, c in alive if c == cannon - left), default=None)  # lowest above the cannon
            drift = simulate(alive, top, left + 10 ** 4, direction, 10 ** 5, H, cannon + 10 ** 4)  # no walls
            if (self.difficulty >= 1 and hit == straight) or (self.difficulty == 2 and drift == hit):
                continue
            self.alive, self.top, self.left, self.direction, self.cannon = alive, top, left, direction, cannon
            self.hit, self.straight_hit, self.drift_hit = hit, straight, drift
            return

    # ----------------------------------------------------------------- draw
    def _geometry(self) -> tuple[int, int, int]:
        H, W = self.obs_size
        cs = max(3, int(min((W - 4) / (self.width + 2), (H - 4) / (self.height + 1.2))))
        return (W - cs * (self.width + 2)) // 2 + cs, (H - int(cs * (self.height + 1.2))) // 2 + int(cs * 1.2), cs

    def _draw(self) -> np.ndarray:
        x0, y0, cs = self._geometry()
        img = field_base(self.obs_size, x0, y0, cs, self.width, self.height).copy()
        size = max(2, cs - 2 * max(1, cs // 16) - max(1, cs // 8))  # a cell less its line and a margin
        sprites = [(self.top + r, self.left + c, INVADER, PALETTE[ROW_COLOURS[r]]) for r, c in self.alive]
        for row, col, bitmap, colour in sprites + [(self.height - 1, self.cannon, CANNON, (235, 235, 235))]:
            tile = sprite_tile(bitmap, size, colour, FIELD_BG)
            paste(img, tile, x0 + col * cs + (cs - tile.shape[1]) // 2, y0 + row * cs + (cs - tile.shape[0]) // 2)
        where = (x0, y0, cs, self.rows, self.cols, self.top, self.left, self.direction)
        marks = label_tiles(self.obs_size, self.width, self.height, *where)
        for x, y, pixels in marks or ():
            img[y:y + pixels.shape[0], x:x + pixels.shape[1]] = pixels
        if marks is None:
            draw_marks(img, *where)
        return img

    # ----------------------------------------------------------------- text
    def _task_text(self) -> str:
        return ("The image shows a Space Invaders field on a grid of cells: a formation of invaders (columns "
                "lettered above it, rows numbered left of it; missing invaders were shot already), an arrow above "
                "it showing which way the formation drifts, and the player's cannon in the bottom row. The cannon "
                "fires now. Each tick the shot moves up one cell and hits an invader in the cell it enters; then "
                "the formation moves one cell in its direction, unless that would take an invader past a side "
                "wall: then it moves one row down instead and turns around. An invader that moves onto the shot's "
                "cell is hit too. Which invader does the shot hit? Answer with its column letter and row number "
                "(such as B2), or none if the shot leaves the top of the field.")

    # ----------------------------------------------------------------- verify
    def _parse_answer(self, text: str):
        t = text.strip().strip(".`'\"*").lower()
        if re.fullmatch(r"(?:none|no invader|nothing|miss(?:es)?|no hit|it misses)", t):
            return "none"
        cells = find_cells(text, self.rows, self.cols)
        return cells[0] if cells and len(set(cells)) == 1 and len(t) <= 60 else None

    def _check(self, answer) -> bool:
        return answer == ("none" if self.hit is None else self.hit)

    def _format(self, answer) -> str:
        return "none" if answer in ("none", None) else f"{LETTERS[answer[1]]}{answer[0] + 1}"

    def _solve(self):
        return "none" if self.hit is None else self.hit

    def _near_misses(self, rng: np.random.Generator) -> list:
        first = [s for s in (self.straight_hit, self.drift_hit) if s is not None]
        if self.hit is not None:
            first.append("none")
            r, c = self.hit
            first += [s for s in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)) if s in self.alive]
        ref = self.hit or (self.rows, self.cannon - self.left)
        rest = sorted(self.alive, key=lambda s: (abs(s[0] - ref[0]) + abs(s[1] - ref[1]), rng.random()))
        return [first[int(k)] for k in rng.permutation(len(first))] + rest

    def _state_text(self) -> str:
        rows = [["."] * self.width for _ in range(self.height)]
        for r, c in self.alive:
            rows[self.top + r][self.left + c] = LETTERS[c].lower()
        rows[-1][self.cannon] = "^"
        return "\n".join(map("".join, rows)) + f"\ndrift: {'right' if self.direction > 0 else 'left'}"


SPECS = (
    TaskSpec(name="InvaderShot", entry_point=InvaderShot, max_episode_steps=1,
             tags=("game", "simulation", "space-invaders")),
)
