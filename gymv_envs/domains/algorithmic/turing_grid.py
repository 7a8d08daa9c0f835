"""Turing grid: a 2-D Turing machine's head position, state or whole tape after k steps."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import BACKGROUND
from gymv_envs.core.cells import cell_name
from gymv_envs.domains.algorithmic._board import (
    DIRS,
    MARK,
    blank,
    cell_block,
    draw_table,
    outline_cell,
    put_text,
)
from gymv_envs.domains.algorithmic._common import (
    AlgoEnv,
    Cell,
    GridOf,
    Word,
    as_grid,
    board_text,
)

QUESTIONS = ("position", "state", "tape")
LEVELS = {0: (5, 2, (4, 6)), 1: (6, 3, (7, 10)), 2: (7, 3, (11, 15))}  # side, symbols, (fewest, most) steps
STATES = "ABCD"
MOVES = tuple(DIRS)  # U R D L
ARROWS = {"U": "↑", "R": "→", "D": "↓", "L": "←"}
SYMBOL_COLORS = ((255, 255, 255), (190, 215, 245), (250, 214, 160))


def run(tape: list[list[int]], pos: tuple[int, int], state: int, rules: dict, steps: int):
    """(tape, position, state) after ``steps`` moves; ``None`` if the head leaves the board."""
    g = [row[:] for row in tape]
    (r, c), s = pos, state
    n = len(g)
    for _ in range(steps):
        write, move, nxt = rules[(s, g[r][c])]
        g[r][c] = write
        r, c, s = r + DIRS[move][0], c + DIRS[move][1], nxt
        if not (0 <= r < n and 0 <= c < n):
            return None
    return g, (r, c), s


def states_along(tape: list[list[int]], pos: tuple[int, int], state: int, rules: dict, steps: int) -> list[int]:
    """The head's state after 0, 1, ..., ``steps`` moves (what `run` gives for each; the head stays on the board)."""
    g = [row[:] for row in tape]
    (r, c), s = pos, state
    out = [s]
    for _ in range(steps):
        write, move, s = rules[(s, g[r][c])]
        g[r][c] = write
        r, c = r + DIRS[move][0], c + DIRS[move][1]
        out.append(s)
    return out


class TuringGrid(AlgoEnv):
    """Run a 2-D Turing machine drawn with its rule table for k steps; give its cell, state or tape.

    ## Description
    A ``side x side`` grid of symbols (digits 0-1 or 0-2, tinted) holds the head (the red square);
    the head's state (A-D) is written under the grid and the rule table is drawn on the right.
    Each step, in state S reading symbol x, the head writes the table's symbol, moves one cell
    in the table's direction and switches to the table's next state. ``question`` picks what is
    asked after k steps (k in the instruction and caption): ``"position"`` (the head's cell),
    ``"state"`` (its state) or ``"tape"`` (the whole grid of symbols).

    ## Action Space
    ``answer_format="open"``: `Text`: a cell name such as ``C4``, a state letter, or the grid row by
    row (digits, rows separated by ``/``). ``"mcq"``: `Discrete(k)`; wrong options are the answer
    after k-1 or k+1 steps, a neighbouring cell, another state, or a grid one or two cells off.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled grid, the head's state and the rule table.

    ## Rewards
    1.0 for the right cell, state or grid, else 0.0.

    ## Starting State
    A random rule table over 4 states (every state and symbol has a rule), random symbols, the
    head on a random cell in a random state; redrawn while the head would leave the grid within
    k + 1 steps or visits fewer than two states.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"position"``, ``"state"``, ``"tape"``); ``difficulty`` (0: 5x5, symbols 0-1,
    4-6 steps; 1: 6x6, symbols 0-2, 7-10 steps; 2: 7x7, symbols 0-2, 11-15 steps),
    ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    def _configure(self) -> None:
        n, self.symbols, self.step_range = LEVELS[self.difficulty]
        self.side = n
        self.kind = {"position": Cell(n, n, "the head's cell, its column letter and row number"),
                     "state": Word(STATES, "the head's state, one letter A, B, C or D"),
                     "tape": GridOf(n, n, "the grid of symbols", values=range(self.symbols))}[self.question]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n, k = self.side, self.symbols
        while True:
            self.steps = int(rng.integers(self.step_range[0], self.step_range[1] + 1))
            writes, moves, nexts = (rng.integers(m, size=4 * k).tolist() for m in (k, 4, 4))
            self.rules = {(i // k, i % k): (writes[i], MOVES[moves[i]], nexts[i]) for i in range(4 * k)}
            self.tape = rng.integers(k, size=(n, n)).tolist()
            self.pos = (int(rng.integers(n)), int(rng.integers(n)))
            self.state = int(rng.integers(4))
            if run(self.tape, self.pos, self.state, self.rules, self.steps + 1) is None:
                continue
            seen = set(states_along(self.tape, self.pos, self.state, self.rules, self.steps))
            if len(seen) >= 2:
                return

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        split = int(W * 0.56)
        foot = max(6, int(H * 0.1))
        img, g = blank(self.obs_size, self.side, self.side, box=(0, 0, split, H - foot))
        for r, row in enumerate(self.tape):
            for c, x in enumerate(row):
                cell_block(img, g, r, c, SYMBOL_COLORS[x], str(x))
        outline_cell(img, g, *self.pos, MARK, width=0.12)
        put_text(img, f"head state: {STATES[self.state]}", split / 2, H - foot * 0.75, int(foot * 0.55), MARK, BACKGROUND)
        rows = [(STATES[s], str(x), str(w), ARROWS[m], STATES[t]) for (s, x), (w, m, t) in sorted(self.rules.items())]
        margin = max(1, W // 60)
        draw_table(img, (split + margin, margin, W - margin, H - margin), ("state", "read", "write", "move", "next"), rows)
        return img

    def _task_text(self) -> str:
        ask = {"position": "On which cell is the head", "state": "In which state is the head",
               "tape": "What is the whole grid of symbols"}[self.question]
        return (f"The image shows a two-dimensional Turing machine: a {self.side}x{self.side} grid of symbols with the "
                "head (the red square), the head's state under the grid, and the machine's rule table on the right. "
                "At each step, the row of the table for the head's state and the symbol under the head says which "
                "symbol to write in that cell, which way to move one cell (up, right, down or left) and the next "
                f"state. {ask} after {self.steps} steps?")

    def _caption(self) -> list:
        what = {"position": "Head's cell", "state": "Head's state", "tape": "Grid"}[self.question]
        return [f"{what} after {self.steps} steps?"]

    def _level_text(self) -> str:
        rules = "; ".join(f"{STATES[s]}{x}->{w}{m}{STATES[t]}" for (s, x), (w, m, t) in sorted(self.rules.items()))
        return f"{board_text(self.tape)}\nhead at {cell_name(*self.pos)} in state {STATES[self.state]}\nrules: {rules}"

    # -- verify
    def _answer_of(self, result) -> object:
        tape, pos, state = result
        return {"position": pos, "state": state, "tape": as_grid(tape)}[self.question]

    def _similar(self, rng: np.random.Generator) -> list:
        return [self._answer_of(run(self.tape, self.pos, self.state, self.rules, self.steps + d)) for d in (-1, 1)]

    # -- oracle
    def _solve(self):
        return self._answer_of(run(self.tape, self.pos, self.state, self.rules, self.steps))


SPECS = tuple(
    TaskSpec(name=name, entry_point=TuringGrid, max_episode_steps=1, kwargs={"question": q},
             tags=("turing-machine", "simulation", "rule-table"))
    for name, q in (("TuringGridPosition", "position"), ("TuringGridState", "state"), ("TuringGridTape", "tape"))
)
