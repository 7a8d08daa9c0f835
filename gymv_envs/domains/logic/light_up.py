"""Light Up (Akari): place light bulbs so that every white cell is lit."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import (
    cell_centre,
    cell_rect,
    labelled_base,
    labelled_layout,
    text_tile,
)
from gymv_envs.core.canvas import INK, WHITE, draw_text, fill_rect, is_uniform, new_frame, rect_box
from gymv_envs.domains.logic._akari import Akari
from gymv_envs.domains.logic._placement import CellsAnswerEnv, mask_cells, move_one

# difficulty -> (side, share of black cells, keep every number)
LEVELS = {0: (5, 0.2, True), 1: (7, 0.2, False), 2: (8, 0.2, False)}


@functools.lru_cache(maxsize=256)  # a cell-sized tile each: about 2.5 MB at 512x512
def _cell_tile(h: int, w: int, k: int | None, size: int, x: int, y: int) -> np.ndarray:
    """A black cell's box (``h`` x ``w``) with number ``k``'s text tile at (x, y) in it (read-only)."""
    tile = new_frame(h, w, INK)
    if k is not None:
        text = text_tile(str(k), size, WHITE, True, INK)
        tile[y:y + text.shape[0], x:x + text.shape[1]] = text
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=4096)  # per frame, side, cell and number: two slices and a shared tile
def _black(H: int, W: int, n: int, i: int, k: int | None) -> tuple | None:
    """What `_draw` paints for black cell ``i`` numbered ``k``: its box filled black and the number's
    text tile pasted, as (rows, columns, tile). None where the text would leave the box (draw it there)."""
    layout = labelled_layout((H, W), n, n)
    r, c = divmod(i, n)
    box = rect_box((H, W), *cell_rect(layout, r, c))
    if box is None:
        return None
    a, b, c1, d = box
    size, x, y = 0, 0, 0
    if k is not None:
        size = max(5, int(layout[2] * 0.55))
        th, tw = text_tile(str(k), size, WHITE, True, INK).shape[:2]
        cx, cy = cell_centre(layout, r, c)
        x, y = int(round(cx - tw / 2)) - a, int(round(cy - th / 2)) - b
        if x < 0 or y < 0 or x + tw > c1 - a or y + th > d - b:
            return None
    return slice(b, d), slice(a, c1), _cell_tile(d - b, c1 - a, k, size, x, y)


class LightUp(CellsAnswerEnv):
    """Place light bulbs on white cells so that every white cell is lit (Light Up, also called Akari).

    ## Description
    An ``n x n`` grid (columns A, B, ... left to right, rows 1, 2, ... top to bottom) of
    white and black cells. A bulb lights its own cell and every white cell in its row and
    column up to the first black cell or the edge. Every white cell must be lit, no bulb may
    light another bulb, and a black cell with a number has exactly that many bulbs directly
    above, below, left and right of it. Every level has exactly one solution (checked by the
    solver when it is generated); answers are checked against the rules.

    ## Action Space
    ``answer_format="open"``: `Text`, the bulb cells such as ``A1 C3`` (any order), or the grid
    as ``n`` rows of ``*`` (bulb) and ``.``. ``"mcq"``: `Discrete(k)` over bulb placements.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled grid, black cells with white numbers.

    ## Rewards
    1.0 if the bulbs keep every rule, else 0.0.

    ## Starting State
    Random black cells, a random maximal set of bulbs that light everything, numbers from
    the bulbs; levels the numbers do not pin down are redrawn, and from difficulty 1 numbers
    are removed while exactly one solution remains.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5 with every number, 1: 7x7, 2: 8x8 with numbers removed),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    _board: Akari | None = None  # the level's board, for the verifier
    answer_hint = "the cells of all the bulbs, column letter then row number, separated by spaces (for example `A1 C3`)"

    def _configure(self) -> None:
        self.n, self.density, self.keep_all = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            blacks = set(rng.choice(n * n, size=int(round(self.density * n * n)), replace=False).tolist())
            board = Akari(n, dict.fromkeys(blacks))
            bulbs, dark, sees = 0, board.white, board.sees  # dark: the white cells no bulb lights yet
            for i in rng.permutation(n * n).tolist():
                if dark >> i & 1:
                    bulbs |= 1 << i
                    dark &= ~sees[i]
                    if not dark:
                        break
            blank = board
            for _ in range(6):  # black out a cell where a second solution differs, while the bulbs still light all
                board = blank.renumbered({i: (bulbs & blank.adjacent[i]).bit_count() for i in blacks})
                sols = board.solutions(1, known=bulbs)  # the first solution but the bulbs (one of them)
                if not sols:
                    break
                other = sols[0]
                diff, extra = [], other & ~bulbs
                while extra:  # its cells in order
                    low = extra & -extra
                    diff.append(low.bit_length() - 1)
                    extra ^= low
                for i in (diff[int(k)] for k in rng.permutation(len(diff))):
                    if blank.lit_without(bulbs, i):
                        blacks.add(i)
                        blank = blank.blackened(i)
                        break
                else:
                    break
            if sols is None or sols:
                continue
            numbers = dict(board.black)
            if not self.keep_all:  # drop a number while the others still allow one solution only
                moves, numbered = board.moves(bulbs), sum(1 << i for i in blacks)
                cells = sorted(blacks)  # in an order drawn as rng.permutation(cells) would
                for i in [cells[k] for k in rng.permutation(len(cells)).tolist()]:
                    numbered ^= 1 << i
                    # a solution one bulb away that only this number rules out keeps it, without a search
                    if all(map(numbered.__and__, moves)) and board.differs(i, bulbs) is False:
                        numbers[i] = None
                        board = board.unnumbered(i)
                    else:
                        numbered |= 1 << i
            break
        self.black = numbers
        self._board = board  # its numbers are these (the verifier's tables)
        self._bulbs = bulbs  # the one solution: the bulbs the numbers were counted from

    # -- draw
    def _draw(self) -> np.ndarray:
        n, (H, W) = self.n, self.obs_size
        img = labelled_base(H, W, n, n).copy()  # (`blank_labelled_board`, its layout worked out where needed)
        for i, k in self.black.items():
            hit = _black(H, W, n, i, k)
            if hit is not None:
                img[hit[0], hit[1]] = hit[2]
                continue
            r, c, layout = *divmod(i, n), labelled_layout((H, W), n, n)
            fill_rect(img, *cell_rect(layout, r, c), INK)
            if k is not None:  # white on the black cell: a cached tile where the text's box is all black
                size = max(5, int(layout[2] * 0.55))
                tile = text_tile(str(k), size, WHITE, True, INK)
                h, w = tile.shape[:2]
                cx, cy = cell_centre(layout, r, c)
                x, y = int(round(cx - w / 2)), int(round(cy - h / 2))
                if is_uniform(img, x, y, x + w, y + h, INK):
                    img[y:y + h, x:x + w] = tile
                else:
                    draw_text(img, str(k), (cx, cy), size, WHITE, bold=True)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Light Up puzzle with columns A to {chr(64 + n)} (left to right) and rows 1 "
                f"to {n} (top to bottom). Place light bulbs on white cells. A bulb lights its own cell and every white "
                "cell in the same row and column until a black cell or the edge of the grid. Every white cell must be "
                "lit; no bulb may be lit by another bulb; a black cell with a number must have exactly that many bulbs "
                "in the cells directly above, below, left and right of it (black cells without a number may have any "
                "number). Name the cells of all the bulbs.")

    def _state_text(self) -> str:
        n, cells = self.n, ["."] * (self.n * self.n)
        for i, k in self.black.items():
            cells[i] = "#" if k is None else str(k)
        return "\n".join(["".join(cells[r * n:r * n + n]) for r in range(n)])

    # -- verify
    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        if self._board is None or self._board.black != self.black:
            self._board = Akari(self.n, self.black)
        n, board = self.n, self._board
        bulbs = [r * n + c for r, c in answer]
        if any(i in self.black for i in bulbs):
            return False
        mask, lit = sum(1 << i for i in bulbs), 0
        for i in bulbs:
            if (board.sees[i] & mask) != 1 << i:
                return False
            lit |= board.sees[i]
        return lit == board.white and all((mask & adj).bit_count() == k for adj, k in board.numbers)

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        return mask_cells(self._bulbs, self.n)

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        n, sol = self.n, self._solution
        loose = Akari(n, dict.fromkeys(self.black)).solutions(12) or []
        loose = [mask_cells(m, n) for m in loose]
        moved = [m for m in move_one(sol, n, n) if not any(r * n + c in self.black for r, c in m)]
        fewer = [tuple(x for x in sol if x != cell) for cell in sol]
        return interleave(rng, loose, moved, fewer)


SPECS = (
    TaskSpec(name="LightUp", entry_point=LightUp, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "akari")),
)
