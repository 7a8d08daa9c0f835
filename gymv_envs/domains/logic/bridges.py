"""Bridges (Hashiwokakero): connect numbered islands with bridges."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.board import labelled_base
from gymv_envs.core.canvas import draw_layers
from gymv_envs.core.cells import cell_name
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._bridges_draw import SEA, island
from gymv_envs.domains.logic._bridges_solver import (
    Cell,
    bridge_solutions,
    candidate_edges,
    connected,
    crossing,
)
from gymv_envs.domains.logic._placement import NEIGHBOURS4

# difficulty -> (side, islands)
LEVELS = {0: (5, 5), 1: (7, 9), 2: (9, 13)}
_BRIDGE = re.compile(r"([A-Z])\s?(\d{1,2})\s*(?:-|TO|<->|->|\u2013|\u2192|,|\s)\s*([A-Z])\s?(\d{1,2})"
                     r"(?:\s*(?:[:=X\u00d7*]|\bTIMES\b)?\s*\(?([12])\)?(?!\d))?")
_NONE: frozenset = frozenset()
_FILLER = re.compile(r"[\s,;.|/()\[\]{}]|\bAND\b|\bBRIDGES?\b|\bSINGLE\b|\bDOUBLE\b")  # words an answer may add


@functools.lru_cache(maxsize=16)
def _rays(n: int) -> tuple[tuple, tuple[int, ...]]:
    """For an n x n board with cells as bits r * n + c: per cell, per direction of `NEIGHBOURS4`, the
    cells a bridge from it can reach, nearest first, each as (its bit, the mask of the cells a bridge
    that far runs over, the end cell included, the end cell); and per cell, its neighbours as a mask."""
    rays = tuple(tuple(tuple(
        (1 << (r + dr * dist) * n + c + dc * dist,
         sum(1 << (r + dr * k) * n + c + dc * k for k in range(1, dist + 1)), (r + dr * dist) * n + c + dc * dist)
        for dist in range(1, n) if 0 <= r + dr * dist < n and 0 <= c + dc * dist < n)
        for dr, dc in NEIGHBOURS4) for r in range(n) for c in range(n))
    beside = tuple(sum(1 << (r + dr) * n + c + dc for dr, dc in NEIGHBOURS4 if 0 <= r + dr < n and 0 <= c + dc < n)
                   for r in range(n) for c in range(n))
    return rays, beside


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
    - v2: each new island is one draw among all the free moves (island, direction, length) instead
      of drawing a move and redrawing it until it fits: the same chance for every layout grown, but
      other levels per seed.
    """

    answer_hint = "every bridge as two island cells and a count, separated by commas (for example `A1-A4=2, A1-C1=1`)"

    def _configure(self) -> None:
        self.n, self.count = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        with ScalarDraws(rng) as d:  # the same draws as `rng.integers` one at a time, faster
            while True:
                islands, bridges = self._grow(d)
                if len(islands) < self.count:
                    continue
                for (a, b), k in bridges.items():
                    islands[a] += k
                    islands[b] += k
                edges = candidate_edges(islands, n)
                cross = crossing(edges)
                if len(bridge_solutions(islands, n, 2, edges, cross)) == 1:
                    break
        self.islands = islands
        self._crossed = {e: frozenset([edges[j] for j in js]) if js else _NONE for e, js in zip(edges, cross)}
        # the one solution is the layout the level was built from
        self._layout = tuple(sorted((a, b, k) for (a, b), k in bridges.items()))

    def _grow(self, d: ScalarDraws) -> tuple[dict[Cell, int], dict[tuple[Cell, Cell], int]]:
        """Islands added one at a time, each bridged to an earlier one along a row or column over free
        water: the path neither meets an island or a bridge (so crosses none) nor ends next to an island.
        Each new island is one draw among every such move (earlier island, direction, length of at least
        two), so all of them are equally likely; fewer islands come back when no move is left.

        Cells are bits r * n + c: a path is a cached mask, and the cells next to an island one mask."""
        n = self.n
        rays, beside = _rays(n)
        first = d.integers(n) * n + d.integers(n)
        order = [first]
        bridges: dict[tuple[Cell, Cell], int] = {}
        taken = 1 << first  # island cells and the cells bridges run over
        near = beside[first]  # cells next to an island
        while len(order) < self.count:
            moves = []
            for src in order:
                for ray in rays[src]:
                    for bit, path, dst in ray:
                        if bit & taken:
                            break
                        if not bit & near:
                            moves.append((src, path, dst))
            if not moves:
                break
            src, path, dst = moves[d.integers(len(moves))]
            order.append(dst)
            taken |= path
            near |= beside[dst]
            bridges[tuple(sorted((divmod(src, n), divmod(dst, n))))] = d.integers(1, 3)
        return {divmod(i, n): 0 for i in order}, bridges

    # -- draw
    def _draw(self) -> np.ndarray:
        n = self.n
        (h, w) = self.obs_size
        base = labelled_base(h, w, n, n, True, SEA)
        img = base.copy()
        islands = [island(h, w, n, r, c, k) for (r, c), k in self.islands.items()]
        if all(tile is not None for _, _, tile in islands):  # what draw_layers does when every box is sea
            for _, (x0, y0, x1, y1), tile in islands:
                img[y0:y1, x0:x1] = tile
        else:
            draw_layers(img, [layers for layers, _, _ in islands], base, SEA)  # each island inside its own cell
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
        n, cells = self.n, ["."] * (self.n * self.n)
        for (r, c), k in self.islands.items():
            cells[r * n + c] = str(k)
        return "\n".join(["".join(cells[i:i + n]) for i in range(0, n * n, n)])

    # -- verify
    def _parse_answer(self, text: str) -> tuple[tuple[Cell, Cell, int], ...] | None:
        t = text.strip().upper()
        if not t or len(t) > 4000:
            return None
        hits = list(_BRIDGE.finditer(t))
        if not hits:
            return None
        # what `_BRIDGE.sub(" ", t)` leaves: the text between the bridges, each bridge one space
        rest = " ".join([t[:hits[0].start()], *(t[a.end():b.start()] for a, b in zip(hits, hits[1:])), t[hits[-1].end():]])
        if rest.strip(" ,") and _FILLER.sub("", rest):  # (spaces and commas alone are filler)
            return None
        n, out = self.n, {}
        for m in hits:
            c1, r1, c2, r2, k = m.groups()
            a = (int(r1) - 1, ord(c1) - 65)
            b = (int(r2) - 1, ord(c2) - 65)
            if not (0 <= a[0] < n and 0 <= a[1] < n and 0 <= b[0] < n and 0 <= b[1] < n) or a == b:
                return None
            key = (a, b) if a < b else (b, a)
            out[key] = out.get(key, 0) + int(k or 1)
        return tuple(sorted((a, b, k) for (a, b), k in out.items()))

    def _check(self, answer: tuple[tuple[Cell, Cell, int], ...]) -> bool:
        crossed = self._crossed  # the candidate edges and those each crosses
        layout = {(a, b): k for a, b, k in answer}
        for e, k in layout.items():
            if e not in crossed or not 1 <= k <= 2:
                return False
        for e in layout:
            if not crossed[e].isdisjoint(layout):
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
        return self._layout

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


SPECS = (
    TaskSpec(name="Bridges", entry_point=Bridges, version=2, max_episode_steps=1,
             tags=("puzzle", "constraint-satisfaction", "graph")),
)
