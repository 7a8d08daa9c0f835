"""Circulating grid: the fewest arrow edits that put every cell of an arrow grid on a cycle."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import INK
from gymv_envs.domains.algorithmic._board import DIRS, blank, cell_icon_grid
from gymv_envs.domains.algorithmic._common import AlgoEnv, GridOf, Number, as_grid

QUESTIONS = ("count", "fix")
LEVELS = {0: (4, 4, 2), 1: (5, 6, 4), 2: (6, 8, 6)}  # rows, cols, arrows re-pointed after drawing a cycle cover
LETTERS = "URDL"
STEPS = tuple(DIRS.values())
FORBIDDEN = 10_000
ARROWS = tuple(((f"arrow-{d}", INK, 0.8),) for d in LETTERS)  # each arrow's icon (`cell_arrow`'s at scale 0.8)


def targets(arrows: np.ndarray) -> np.ndarray | None:
    """The flat index each cell's arrow points to; ``None`` if an arrow points off the board."""
    rows, cols = arrows.shape
    to = _neighbours(rows, cols)[1][np.arange(rows * cols), arrows.reshape(-1)]
    return None if (to < 0).any() else to


@functools.lru_cache(maxsize=16)
def _neighbours(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """(cost of 1 to every neighbour and forbidden elsewhere, an (n, 4) table of the cell each step
    leads to, -1 off the board) for a ``rows x cols`` board; read-only."""
    n = rows * cols
    cost = np.full((n, n), FORBIDDEN, dtype=np.int64)
    step = np.full((n, len(STEPS)), -1, dtype=np.int64)
    for i in range(n):
        r, c = divmod(i, cols)
        for k, (dr, dc) in enumerate(STEPS):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                cost[i, (r + dr) * cols + c + dc] = 1
                step[i, k] = (r + dr) * cols + c + dc
    cost.setflags(write=False)
    step.setflags(write=False)
    return cost, step


def edit_costs(arrows: np.ndarray) -> np.ndarray:
    """cost[i, j]: 0 if cell i's arrow points to cell j, 1 if j is another neighbour of i, else forbidden."""
    rows, cols = arrows.shape
    base, step = _neighbours(rows, cols)
    cost = base.copy()
    cells = np.arange(rows * cols)
    to = step[cells, arrows.reshape(-1)]
    on = to >= 0
    cost[cells[on], to[on]] = 0
    return cost


def cover(cost: np.ndarray) -> tuple[int, np.ndarray]:
    """(total cost, target of each cell) of a cheapest assignment: every cell one successor, one predecessor."""
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(cost)
    return int(cost[rows, cols].sum()), cols


@functools.lru_cache(maxsize=16)
def _arrow_to(rows: int, cols: int) -> tuple[dict[int, int], ...]:
    """Per cell, {side neighbour: the arrow (index in `STEPS`) that points there}."""
    return tuple({int(j): k for k, j in enumerate(steps) if j >= 0} for steps in _neighbours(rows, cols)[1].tolist())


def arrows_of(succ: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The arrow grid that sends each cell i to ``succ[i]`` (a neighbour; else a KeyError)."""
    to = _arrow_to(rows, cols)
    return np.array([to[i][j] for i, j in enumerate(succ.tolist())], dtype=np.int64).reshape(rows, cols)


def on_cycles(arrows: np.ndarray) -> int:
    """How many cells lie on a cycle of the arrows."""
    succ = targets(arrows)
    n = succ.size
    state, on = [0] * n, 0
    nxt = succ.tolist()
    for s in range(n):
        path, i = [], s
        while state[i] == 0:
            state[i] = 1
            path.append(i)
            i = nxt[i]
        if state[i] == 1:  # closed a new cycle
            on += len(path) - path.index(i)
        for j in path:
            state[j] = 2
    return on


class CirculatingGrid(AlgoEnv):
    """Re-point the fewest arrows so that following the arrows from any cell leads back to it.

    ## Description
    Every cell of a ``rows x cols`` board holds an arrow to one of its neighbours (up, right,
    down or left; never off the board). Following arrows from a cell visits a sequence of cells;
    the cell lies on a cycle if the sequence returns to it. The goal is that every cell lies on a
    cycle, which holds exactly when every cell is pointed at by exactly one arrow. An edit
    re-points one cell's arrow to another neighbour. ``question`` picks what is asked:
    ``"count"``, the fewest edits; ``"fix"``, a board of arrows reached with the fewest edits.
    The solver is a minimum-cost assignment (scipy's ``linear_sum_assignment``) of each cell to a
    neighbour, cost 0 to keep its arrow and 1 to change it.

    ## Action Space
    ``answer_format="open"``: `Text`: one number (count), or the whole board row by row with
    ``U``, ``R``, ``D``, ``L`` (or arrows ``↑→↓←``), rows separated by ``/`` (fix). ``"mcq"``:
    `Discrete(k)`; wrong options count the cells not on a cycle or the cells no arrow points to,
    are one off, or are boards that still break a cycle or use more edits.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled board of arrows.

    ## Rewards
    count: 1.0 for the fewest number of edits. fix: 1.0 for any board that differs from the drawn
    one in that fewest number of cells and puts every cell on a cycle; else 0.0.

    ## Starting State
    A random cycle cover of the board (a cheapest assignment under random costs), then a few
    arrows re-pointed at random; levels that already circulate are redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"count"``, ``"fix"``); ``difficulty`` (0: 4x4 with 2 re-pointed arrows, 1: 5x6
    with 4, 2: 6x8 with 6), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    extras = ("scipy",)

    questions = QUESTIONS

    def _configure(self) -> None:
        import scipy.optimize  # noqa: F401 - loaded when the env is made, not inside the first reset

        self.rows, self.cols, self.edits = LEVELS[self.difficulty]
        self.kind = (Number("the fewest edits, one whole number") if self.question == "count" else
                     GridOf(self.rows, self.cols, "the board after the edits, U, R, D or L per cell", kind="char",
                            alphabet=LETTERS, values=range(4)))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        R, C = self.rows, self.cols
        while True:
            noise = np.where(_neighbours(R, C)[0] < FORBIDDEN,
                             rng.integers(0, 50, size=(R * C, R * C)), FORBIDDEN)
            arrows = arrows_of(cover(noise)[1], R, C)
            steps = _neighbours(R, C)[1]
            for i in rng.permutation(R * C)[: self.edits].tolist():
                r, c = divmod(i, C)
                a = int(arrows[r, c])
                ok = [k for k, j in enumerate(steps[i].tolist()) if j >= 0 and k != a]
                arrows[r, c] = ok[int(rng.integers(len(ok)))]
            best, succ = cover(edit_costs(arrows))
            if best >= 1:
                self.arrows, self.best, self.fixed = arrows, best, arrows_of(succ, R, C)
                return

    # -- draw
    def _draw(self) -> np.ndarray:
        img, g = blank(self.obs_size, self.rows, self.cols)
        cell_icon_grid(img, g, self.arrows, ARROWS)
        return img

    def _task_text(self) -> str:
        ask = ("What is the fewest number of edits?" if self.question == "count" else
               "Give the board after the fewest edits that achieve this.")
        return (f"The image shows a board of {self.rows} rows and {self.cols} columns; each cell's arrow points to a "
                "neighbouring cell. Following the arrows from a cell visits cell after cell; the cell lies on a cycle if "
                "this returns to it. An edit turns one cell's arrow to point to another neighbouring cell (never off "
                f"the board). The goal is that every cell lies on a cycle. {ask}")

    def _level_text(self) -> str:
        return "\n".join(" ".join(LETTERS[k] for k in row) for row in self.arrows.tolist())

    # -- verify
    def _check(self, answer) -> bool:
        if self.question == "count":
            return answer == self.best
        g = np.asarray(answer, dtype=np.int64)
        succ = targets(g)
        return (succ is not None and np.bincount(succ, minlength=succ.size).max() == 1
                and int((g != self.arrows).sum()) == self.best)

    def _similar(self, rng: np.random.Generator) -> list:
        if self.question == "count":
            succ = targets(self.arrows)
            no_in = int((np.bincount(succ, minlength=succ.size) == 0).sum())
            return [self.arrows.size - on_cycles(self.arrows), no_in, self.edits, self.best + 1]
        out = [as_grid(self.arrows)]
        cost = edit_costs(self.arrows)
        kept = np.flatnonzero((self.fixed == self.arrows).reshape(-1))
        for i in rng.permutation(kept)[:4]:  # valid boards that give up one kept arrow: often more edits
            c2 = cost.copy()
            c2[int(i), targets(self.arrows)[int(i)]] = FORBIDDEN
            total, succ = cover(c2)
            if total < FORBIDDEN:
                out.append(as_grid(arrows_of(succ, self.rows, self.cols)))
        return out

    # -- oracle
    def _solve(self):
        return self.best if self.question == "count" else as_grid(self.fixed)


SPECS = tuple(
    TaskSpec(name=name, entry_point=CirculatingGrid, max_episode_steps=1, kwargs={"question": q},
             tags=("assignment", "cycle-cover", "optimisation"))
    for name, q in (("CirculatingGridEdits", "count"), ("CirculatingGridFix", "fix"))
)
