"""Bridges (Hashiwokakero): connect numbered islands with bridges."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import blank_labelled_board, cell_centre
from gymv_envs.core.canvas import INK, draw_shape, draw_text
from gymv_envs.core.cells import cell_name
from gymv_envs.domains.logic._bridges_solver import (
    Cell,
    bridge_solutions,
    candidate_edges,
    connected,
    crosses,
)
from gymv_envs.domains.logic._placement import NEIGHBOURS4

# difficulty -> (side, islands)
LEVELS = {0: (5, 5), 1: (7, 9), 2: (9, 13)}
SEA = (236, 242, 248)
ISLAND = (255, 236, 170)
_BRIDGE = re.compile(r"([A-Z])\s?(\d{1,2})\s*(?:-|TO|<->|->|\u2013|\u2192|,|\s)\s*([A-Z])\s?(\d{1,2})"
                     r"(?:\s*(?:[:=X\u00d7*]|\bTIMES\b)?\s*\(?([12])\)?(?!\d))?")


class Bridges(SingleTurnEnv):
    """Connect the numbered islands with bridges (Hashiwokakero).

    ## Description
    Circles (islands) with numbers sit on an ``n x n`` grid (columns A, B, ... left to right,
    rows 1, 2, ... top to bottom). Bridges run straight along a row or column between two
    islands with nothing in between; at most two bridges join the same pair; bridges never
    cross each other or islands; the number of bridges at each island equals its number; all
    islands end up connected. Every level has exactly one solution (checked by the solver
    when it is generated); answers are checked against the rules.

    ## Action Space
    ``answer_format="open"``: `Text`, the bridges as island pairs with counts, e.g.
    ``A1-A4=2, A1-C1=1`` (``x2``, ``(2)`` or naming a pair twice also mean a double bridge; a
    pair without a count is one bridge). ``"mcq"``: `Discrete(k)` over bridge layouts.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the labelled grid with the islands and their numbers.

    ## Rewards
    1.0 if the bridges keep every rule, else 0.0.

    ## Starting State
    Islands are added one at a time, each joined to an earlier one by one or two bridges that
    cross nothing; the numbers are the bridge counts; levels the solver finds ambiguous are
    redrawn.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5x5 with 5 islands, 1: 7x7 with 9, 2: 9x9 with 13), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "every bridge as two island cells and a count, separated by commas (for example `A1-A4=2, A1-C1=1`)"

    def _configure(self) -> None:
        self.n, self.count = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            islands = {(int(rng.integers(n)), int(rng.integers(n))): 0}
            bridges: dict[tuple[Cell, Cell], int] = {}
            for _ in range(60 * self.count):
                if len(islands) == self.count:
                    break
                src = list(islands)[int(rng.integers(len(islands)))]
                dr, dc = NEIGHBOURS4[int(rng.integers(4))]
                dist = int(rng.integers(2, n))
                path = [(src[0] + dr * k, src[1] + dc * k) for k in range(1, dist + 1)]
                dst = path[-1]
                if not (0 <= dst[0] < n and 0 <= dst[1] < n) or any(p in islands for p in path):
                    continue
                if any((dst[0] + a, dst[1] + b) in islands for a, b in NEIGHBOURS4):
                    continue
                edge = tuple(sorted((src, dst)))
                if any(crosses(edge, e) or any(p in _cells_of(e) for p in path) for e in bridges):
                    continue
                islands[dst] = 0
                bridges[edge] = int(rng.integers(1, 3))
            if len(islands) < self.count:
                continue
            for (a, b), k in bridges.items():
                islands[a] += k
                islands[b] += k
            if len(bridge_solutions(islands, n, 2)) == 1:
                break
        self.islands = islands

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        img, layout = blank_labelled_board(self.obs_size, n, n, cell_colour=SEA)
        size = max(4, int(layout[2] * 0.86))
        text = max(5, int(layout[2] * 0.48))
        for (r, c), k in self.islands.items():
            x, y = cell_centre(layout, r, c)
            draw_shape(img, "circle", x, y, size, INK)
            draw_shape(img, "circle", x, y, max(2, size - 2 * max(1, size // 14)), ISLAND)
            draw_text(img, str(k), (x, y), text, INK, bold=True)
        return img

    def _task_text(self) -> str:
        n = self.n
        return (f"The image shows a {n}x{n} Bridges (Hashiwokakero) puzzle with columns A to {chr(64 + n)} (left to "
                f"right) and rows 1 to {n} (top to bottom). Each circle is an island with a number. Connect the "
                "islands with bridges: a bridge runs straight along a row or a column between two islands with no "
                "island in between; two islands are joined by at most two bridges; bridges never cross each other; "
                "each island has exactly as many bridges as its number; and all islands must be connected into one "
                "group. List every bridge.")

    def _state_text(self) -> str:
        n = self.n
        return "\n".join("".join(str(self.islands.get((r, c), ".")) for c in range(n)) for r in range(n))

    # -- verify
    def _parse_answer(self, text: str) -> tuple[tuple[Cell, Cell, int], ...] | None:
        t = text.strip().upper()
        if not t or len(t) > 4000:
            return None
        hits = list(_BRIDGE.finditer(t))
        rest = _BRIDGE.sub(" ", t)
        if not hits or re.sub(r"[\s,;.|/()\[\]{}]|\bAND\b|\bBRIDGES?\b|\bSINGLE\b|\bDOUBLE\b", "", rest):
            return None
        out: dict[tuple[Cell, Cell], int] = {}
        for m in hits:
            a = (int(m.group(2)) - 1, ord(m.group(1)) - 65)
            b = (int(m.group(4)) - 1, ord(m.group(3)) - 65)
            if not all(0 <= v < self.n for v in (*a, *b)) or a == b:
                return None
            key = tuple(sorted((a, b)))
            out[key] = out.get(key, 0) + int(m.group(5) or 1)
        return tuple(sorted((a, b, k) for (a, b), k in out.items()))

    def _check(self, answer: tuple[tuple[Cell, Cell, int], ...]) -> bool:
        edges = set(candidate_edges(self.islands, self.n))
        layout = {(a, b): k for a, b, k in answer}
        if any(e not in edges or not 1 <= k <= 2 for e, k in layout.items()):
            return False
        if any(crosses(e, f) for e in layout for f in layout):
            return False
        total = dict.fromkeys(self.islands, 0)
        for (a, b), k in layout.items():
            total[a] += k
            total[b] += k
        return total == self.islands and connected(self.islands, layout)

    def _format(self, answer: tuple[tuple[Cell, Cell, int], ...]) -> str:
        return ", ".join(f"{cell_name(*a)}-{cell_name(*b)}={k}" for a, b, k in answer)

    # -- oracle
    def _solve(self) -> tuple[tuple[Cell, Cell, int], ...]:
        layout = bridge_solutions(self.islands, self.n, 1)[0]
        return tuple(sorted((a, b, k) for (a, b), k in layout.items()))

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[tuple[Cell, Cell, int], ...]]:
        sol = {(a, b): k for a, b, k in self._solution}
        edges = candidate_edges(self.islands, self.n)

        def pack(layout: dict) -> tuple[tuple[Cell, Cell, int], ...]:
            return tuple(sorted((a, b, k) for (a, b), k in layout.items() if k))

        flipped = [pack({**sol, e: 3 - k}) for e, k in sol.items()]
        dropped = [pack({f: v for f, v in sol.items() if f != e}) for e in sol]
        added = [pack({**sol, e: 1}) for e in edges if e not in sol]
        moved = [pack({**{f: v for f, v in sol.items() if f != e}, g: k}) for e, k in sol.items() for g in edges if g not in sol]
        return interleave(rng, flipped, moved, added, dropped)


def _cells_of(edge: tuple[Cell, Cell]) -> list[Cell]:
    (r1, c1), (r2, c2) = edge
    return [(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


SPECS = (
    TaskSpec(name="Bridges", entry_point=Bridges, version=1, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "graph")),
)
