"""Minesweeper deduction: name every covered cell that is certainly free of a mine."""

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
)
from gymv_envs.core.canvas import (
    INK,
    fill_rect,
    is_uniform,
    layers_tile,
    new_frame,
    rect_box,
    stamp,
    text_layer,
)
from gymv_envs.domains.logic._minesweeper_solver import (
    constraints,
    maybe_bits,
    possible_mines,
    settle,
    simple_safe,
)
from gymv_envs.domains.logic._placement import NEIGHBOURS8, CellsAnswerEnv, parse_cell_list

# difficulty -> (side, mines, most safe cells asked, hard: needs reasoning over several numbers)
LEVELS = {0: (5, 4, 4, False), 1: (7, 9, 6, False), 2: (9, 15, 8, True)}
COVERED = (150, 158, 172)
COVERED_EDGE = (196, 202, 212)
OPEN = (236, 236, 230)
DIGIT_COLOURS = {1: (25, 70, 200), 2: (20, 125, 40), 3: (200, 30, 30), 4: (90, 30, 150),
                 5: (130, 40, 20), 6: (0, 120, 120), 7: (30, 30, 30), 8: (100, 100, 100)}


@functools.lru_cache(maxsize=64)
def _around(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Per cell r * n + c of an n x n board, its neighbours' indices in `NEIGHBOURS8` order; and as bits."""
    around = tuple(tuple((r + dr) * n + c + dc for dr, dc in NEIGHBOURS8 if 0 <= r + dr < n and 0 <= c + dc < n)
                   for r in range(n) for c in range(n))
    return around, tuple(sum(1 << j for j in a) for a in around)


@functools.lru_cache(maxsize=64)
def _covered(obs_size: tuple[int, int], n: int) -> tuple[tuple[slice, slice, np.ndarray], ...]:
    """Per covered cell r * n + c: the box of its outer fill and the two fills as a tile (read-only)."""
    layout, out = labelled_layout(obs_size, n, n), []
    for r, c in ((r, c) for r in range(n) for c in range(n)):
        tile = new_frame(*obs_size)  # drawn at full size, then cut out: the fills' pixel boxes are kept
        fill_rect(tile, *cell_rect(layout, r, c), COVERED_EDGE)
        fill_rect(tile, *cell_rect(layout, r, c, 0.08), COVERED)
        a, b, e, f = rect_box(obs_size, *cell_rect(layout, r, c)) or (0, 0, 0, 0)
        out.append((slice(b, f), slice(a, e), np.ascontiguousarray(tile[b:f, a:e])))
        out[-1][2].setflags(write=False)
    return tuple(out)


@functools.lru_cache(maxsize=2048)
def _number(obs_size: tuple[int, int], n: int, r: int, c: int, k: int) -> tuple[slice, slice, np.ndarray] | None:
    """Opened cell (r, c) showing ``k``: the box the number spans and its tile blended over the open
    cell (read-only), where that box lies in the cell and is all open colour on the empty board (so
    that `stamp` would copy this very tile); else None (`stamp` then blends it on the frame)."""
    layout = labelled_layout(obs_size, n, n)
    size = max(5, int(layout[2] * 0.6))
    layer = text_layer(str(k), cell_centre(layout, r, c), size, DIGIT_COLOURS.get(k, INK), bold=True)
    mask, x, y, _ = layer
    x1, y1 = x + mask.shape[1], y + mask.shape[0]
    box = rect_box(obs_size, *cell_rect(layout, r, c))
    if (box is None or x < box[0] or y < box[1] or x1 > box[2] or y1 > box[3]
            or not is_uniform(labelled_base(*obs_size, n, n, True, OPEN), x, y, x1, y1, OPEN)):
        return None
    return slice(y, y1), slice(x, x1), layers_tile([layer], x, y, x1, y1, OPEN)


class MinesweeperSafe(CellsAnswerEnv):
    """Name every covered cell of a Minesweeper board that certainly holds no mine.

    ## Description
    A partly opened Minesweeper board: opened cells show how many of their eight neighbours
    hold a mine (blank means none); grey cells are covered. The total number of mines is not
    given. The answer is the set of covered cells that are safe in every placement of mines
    that fits all the numbers (computed by exhaustive search over the covered cells next to
    numbers; the others can always hold a mine).

    ## Action Space
    ``answer_format="open"``: `Text`, cells such as ``B3 C4`` (any order and separators).
    ``"mcq"``: `Discrete(k)` over sets of cells.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board.

    ## Rewards
    1.0 if the answer names exactly the certainly safe covered cells, else 0.0.

    ## Starting State
    Mines are scattered at random and the board is opened from a random empty cell, as in a
    real game; levels with no safe cell or too many are redrawn. At difficulty 2 at least one
    safe cell needs reasoning over several numbers together.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5 with 4 mines, 1: 7x7 with 9, 2: 9x9 with 15), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    _safe: tuple | None = None
    answer_hint = "every certainly safe covered cell, column letter then row number, separated by spaces (for example `B3 C4`)"

    def _configure(self) -> None:
        self.n, self.mines, self.max_safe, self.hard = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        around, near = _around(n)
        while True:
            # cells are flat indices r * n + c; `around` lists each one's neighbours in NEIGHBOURS8 order
            cnt, mine = [0] * (n * n), [False] * (n * n)
            for p in rng.choice(n * n, size=self.mines, replace=False).tolist():
                mine[p] = True
                for q in around[p]:
                    cnt[q] += 1
            zeros = [i for i in range(n * n) if not cnt[i] and not mine[i]]
            if not zeros:
                continue
            seen, shut = [False] * (n * n), (1 << n * n) - 1  # shut: the covered cells, as bits
            stack = [zeros[int(rng.integers(len(zeros)))]]
            while stack:
                i = stack.pop()
                if seen[i]:
                    continue
                seen[i] = True
                shut ^= 1 << i
                if cnt[i] == 0:
                    stack += around[i]
            if not 0.25 <= (n * n - shut.bit_count()) / (n * n) <= 0.75:  # `shown.mean()`: the same division
                continue
            # the numbers next to covered cells, as `_rules(constraints(...))` gives them but with a cell's
            # bit at its flat index (the frontier's cells in the same order)
            rules = [(near[i] & shut, cnt[i]) for i in range(n * n) if seen[i] and near[i] & shut]
            frontier = functools.reduce(int.__or__, [m for m, _ in rules], 0)
            base = settle(rules, 0, 0)  # its safe cells: what `simple_safe` finds
            if base is None or base[1].bit_count() > self.max_safe:  # the safe cells include these
                continue
            maybe = maybe_bits(rules, frontier, base, 200_000)
            if maybe is None:
                continue
            safe = frontier & ~maybe
            if not 1 <= safe.bit_count() <= self.max_safe:
                continue
            if self.hard and not safe & ~base[1]:  # every safe cell found by single numbers alone
                continue
            break
        self.counts, self.shown = np.array(cnt, dtype=np.int64).reshape(n, n), np.array(seen, dtype=bool).reshape(n, n)
        self._safe = tuple([divmod(j, n) for j in range(n * n) if safe >> j & 1])  # what `_solve`'s search finds

    # -- draw
    def _draw(self) -> np.ndarray:
        n, (H, W) = self.n, self.obs_size
        img, covered = labelled_base(H, W, n, n, True, OPEN).copy(), _covered((H, W), n)  # (`blank_labelled_board`)
        for i, (open_, k) in enumerate(zip(self.shown.ravel().tolist(), self.counts.ravel().tolist(), strict=True)):
            if not open_:  # the raised cell: both fills inside its box, so one cached tile
                rows, cols, tile = covered[i]
                img[rows, cols] = tile
            elif k:
                number = _number((H, W), n, *divmod(i, n), k)
                if number is not None:  # the cell around it is open colour: the tile is `stamp`'s copy
                    img[number[0], number[1]] = number[2]
                    continue
                layout = labelled_layout((H, W), n, n)
                stamp(img, [text_layer(str(k), cell_centre(layout, *divmod(i, n)), max(5, int(layout[2] * 0.6)),
                                       DIGIT_COLOURS.get(k, INK), bold=True)], OPEN)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Minesweeper board with columns A to {chr(64 + n)} (left to right) and "
                f"rows 1 to {n} (top to bottom). Grey raised cells are covered; each opened cell shows how many of its "
                "8 neighbours (including diagonal ones) hold a mine, and a blank opened cell has none. Opened cells "
                "hold no mine. The total number of mines is unknown. Which covered cells are certainly safe, that is, "
                "free of a mine in every placement of mines that agrees with all the numbers? Name all of them.")

    def _state_text(self) -> str:
        return "\n".join(["".join([str(k) if open_ else "#" for k, open_ in zip(counts, shown)])
                          for counts, shown in zip(self.counts.tolist(), self.shown.tolist())])

    # -- verify
    def _parse_answer(self, text: str) -> tuple[tuple[int, int], ...] | None:
        return parse_cell_list(text, self.n, self.n)

    def _check(self, answer: tuple[tuple[int, int], ...]) -> bool:
        return set(answer) == set(self._solution)

    # -- oracle
    def _solve(self) -> tuple[tuple[int, int], ...]:
        if self._safe is not None:
            return self._safe
        cons = constraints(self.counts, self.shown)
        maybe = possible_mines(cons, budget=10**9)
        return tuple(sorted({x for _, nb in cons for x in nb} - maybe))

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[int, int], ...]]:
        sol = set(self._solution)
        cons = constraints(self.counts, self.shown)
        frontier = sorted({x for _, nb in cons for x in nb} - sol)
        covered = [(int(r), int(c)) for r, c in np.argwhere(~self.shown) if (int(r), int(c)) not in sol]
        fewer = [tuple(sorted(sol - {x})) for x in sol] if len(sol) > 1 else []
        more = [tuple(sorted(sol | {x})) for x in frontier]
        swapped = [tuple(sorted((sol - {x}) | {y})) for x in sol for y in frontier]
        far = [tuple(sorted(sol | {x})) for x in covered if x not in frontier]
        trivial = simple_safe(cons)
        partial = [tuple(sorted(trivial))] if trivial and trivial != sol else []
        return interleave(rng, partial, more, fewer, swapped) + interleave(rng, far)


SPECS = (
    TaskSpec(name="MinesweeperSafe", entry_point=MinesweeperSafe, version=1, max_episode_steps=1,
             tags=("puzzle", "deduction", "minesweeper")),
)
