"""Pac-Man path: a shortest route to the pellet that never comes next to a ghost, or where a chasing ghost will be."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.cells import cell_name, find_cells
from gymv_envs.domains.puzzles._pacman import MOVES, cell_mask, chase, distance_rows, steps_between
from gymv_envs.domains.puzzles._pacman_draw import draw_level

WORDS = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R"}
SIZES = {0: 6, 1: 8, 2: 11}
GHOSTS = {0: 1, 1: 2, 2: 3}
QUESTIONS = ("path", "ghost")
CHASE_STEPS = {0: 4, 1: 6, 2: 9}  # the ghost question: steps the ghost takes
_PATH = re.compile(r"^(?:(?:UP|DOWN|LEFT|RIGHT|[UDLR])[\s,;>\-\u2192]*)+$")


class PacmanPath(SingleTurnEnv):
    """Give a shortest safe path from Pac-Man to the pellet, or the cell a chasing ghost reaches.

    ## Description
    ``question="path"`` (default): Pac-Man (yellow disc), a white pellet and red ghosts stand in
    an ``n x n`` grid with dark wall blocks. The ghosts do not move. A cell is unsafe if it holds
    a ghost or touches a ghost's cell by a side. The answer is a move sequence from Pac-Man to
    the pellet through free, safe cells; every shortest such path is accepted.

    ``question="ghost"``: a labelled grid with Pac-Man and one ghost; a black triangle on the
    ghost points the way it is heading. Pac-Man stays still. Each step the ghost follows the
    arcade chase rule: it moves to the free neighbouring cell (not a wall, on the board) nearest
    Pac-Man's cell in a straight line, never straight back the way it came unless that is the only
    free cell; ties go up, then left, down, right. The answer is the ghost's cell after 4
    (difficulty 0), 6 (1) or 9 (2) steps; levels where it catches Pac-Man sooner are redrawn.

    ## Action Space
    ``"open"``: `Text`, moves U/D/L/R or up/down/left/right, any separators (path); one cell such
    as ``C4`` (ghost: column letter, row number from the top).
    ``"mcq"``: `Discrete(k)` over move sequences, or over cells: one step early or late, the cell
    a ghost that may turn back reaches, or the one down a shortest path to Pac-Man.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid, walls dark, ghosts red with eyes.

    ## Rewards
    1.0 for a shortest safe path (path) or the ghost's cell (ghost), else 0.0.

    ## Starting State
    Random walls (about a quarter of the cells) on a 6x6 (difficulty 0), 8x8 (1) or 11x11 (2)
    grid with 1, 2 or 3 ghosts; redrawn until the pellet is reachable at distance >= n/2 and a
    ghost lies near the straight route.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"path"``: a shortest safe path to the pellet; ``"ghost"``: the chasing ghost's
    cell after a number of steps), ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        if self.question == "ghost":
            return "the ghost's cell as a column letter and row number (for example `C4`)"
        return "a shortest safe path as moves U, D, L, R separated by spaces"

    def _configure(self) -> None:
        self.n = SIZES[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        if self.question == "ghost":
            return self._generate_chase(rng)
        n = self.n
        while True:
            self.wall = rng.random((n, n)) < 0.25
            free = [(r, c) for r, c in np.argwhere(~self.wall).tolist()]  # in reading order
            picks = rng.permutation(len(free))[: 2 + GHOSTS[self.difficulty]]
            self.pac, self.pellet, *ghosts = [free[int(i)] for i in picks]
            self.ghosts = ghosts
            unsafe = [[False] * n for _ in range(n)]
            for r, c in ghosts:
                for dr, dc in ((0, 0), *MOVES.values()):
                    if 0 <= r + dr < n and 0 <= c + dc < n:
                        unsafe[r + dr][c + dc] = True
            self.unsafe = np.array(unsafe, dtype=bool)
            if unsafe[self.pac[0]][self.pac[1]] or unsafe[self.pellet[0]][self.pellet[1]]:
                continue
            free = cell_mask(~self.wall)
            d = steps_between(free & ~cell_mask(self.unsafe), self.pellet, self.pac, n)
            if d >= n // 2 and (d > steps_between(free, self.pellet, self.pac, n) or rng.random() < 0.3):
                self.dist, self.best = self._distances(self.pellet, safe=True), d
                return

    def _generate_chase(self, rng: np.random.Generator) -> None:
        n, k = self.n, CHASE_STEPS[self.difficulty]
        while True:
            self.wall = rng.random((n, n)) < 0.25
            free = np.argwhere(~self.wall)
            a, b = rng.permutation(len(free))[:2]
            self.pac, ghost = tuple(int(v) for v in free[a]), tuple(int(v) for v in free[b])
            self.heading = "UDLR"[int(rng.integers(4))]
            self.route = chase(self.wall, ghost, self.heading, self.pac, k)
            if self.route is not None and len(set(self.route)) > k // 2:  # a ghost that goes somewhere
                self.ghosts, self.pellet, self.unsafe = [ghost], None, np.zeros((n, n), bool)
                return

    def _distances(self, src, safe: bool) -> np.ndarray:
        block = self.wall | self.unsafe if safe else self.wall
        return np.array(distance_rows(src, block.tolist(), self.n))

    def _draw(self) -> np.ndarray:
        heading = self.heading if self.question == "ghost" else None
        return draw_level(*self.obs_size, self.n, self.wall, self.pac, self.pellet, self.ghosts, heading)

    def _task_text(self) -> str:
        if self.question == "ghost":
            return (f"The image shows a {self.n}x{self.n} grid with columns lettered from the left and rows "
                    "numbered from the top: dark blue blocks are walls, the yellow disc is Pac-Man, the red figure "
                    "is a ghost and the black triangle on it points the way it is heading. Pac-Man stays still. "
                    "Each step the ghost moves one cell to the free neighbouring cell (not a wall, not off the "
                    "grid) that is nearest to Pac-Man's cell in a straight line, but never straight back the way "
                    "it is heading from unless no other neighbouring cell is free; ties are broken in the order up, "
                    f"left, down, right, and it then heads the way it moved. Which cell is the ghost on after "
                    f"{CHASE_STEPS[self.difficulty]} steps?")
        return (f"The image shows a {self.n}x{self.n} grid: dark blue blocks are walls, the yellow disc is "
                "Pac-Man, the small dark dot is a pellet, red figures are ghosts (they do not move). A cell "
                "is unsafe if it holds a ghost or shares a side with a ghost's cell. Give a shortest path "
                "from Pac-Man to the pellet that only uses free, safe cells; each move goes one cell up (U), "
                "down (D), left (L) or right (R).")

    def _parse_answer(self, text: str) -> tuple[str, ...] | None:
        if self.question == "ghost":
            cells = find_cells(text, self.n, self.n) if len(text) <= 200 else None
            return cells[0] if cells and len(set(cells)) == 1 else None
        t = text.strip().upper()
        if not t or len(t) > 2000 or not _PATH.match(t):
            return None
        return tuple(WORDS.get(tok, tok) for tok in re.findall(r"UP|DOWN|LEFT|RIGHT|[UDLR]", t))

    def _check(self, answer: tuple[str, ...]) -> bool:
        if self.question == "ghost":
            return answer == self.route[-1]
        if len(answer) != self.best:
            return False
        r, c = self.pac
        for m in answer:
            r, c = r + MOVES[m][0], c + MOVES[m][1]
            if not (0 <= r < self.n and 0 <= c < self.n) or self.wall[r, c] or self.unsafe[r, c]:
                return False
        return (r, c) == self.pellet

    def _format(self, answer: tuple[str, ...]) -> str:
        return cell_name(*answer) if self.question == "ghost" else " ".join(answer)

    def _solve(self) -> tuple[str, ...]:
        if self.question == "ghost":
            return self.route[-1]
        r, c = self.pac
        path = []
        dist = self.dist.tolist()
        while (r, c) != self.pellet:
            for m, (dr, dc) in MOVES.items():
                nr, nc = r + dr, c + dc
                if 0 <= nr < self.n and 0 <= nc < self.n and dist[nr][nc] == dist[r][c] - 1:
                    path.append(m)
                    r, c = nr, nc
                    break
        return tuple(path)

    def _chase_misses(self, rng: np.random.Generator) -> list[tuple[int, int]]:
        """A step early or late, a ghost that may turn back, other tie orders, a shortest path to Pac-Man."""
        k, ghost = CHASE_STEPS[self.difficulty], self.ghosts[0]
        longer = chase(self.wall, ghost, self.heading, self.pac, k + 1)
        out = [self.route[-2], *(longer[-1:] if longer else [])]
        for kw in ({"reverse": True}, {"order": "RDLU"}, {"order": "DRUL"}):
            other = chase(self.wall, ghost, self.heading, self.pac, k, **kw)
            out += other[-1:] if other else []
        dist = self._distances(self.pac, safe=False)
        (r, c), d = ghost, dist[ghost]
        for _ in range(min(k, max(0, d - 1))):  # down a shortest path towards Pac-Man
            r, c = next((r + a, c + b) for a, b in MOVES.values() if 0 <= r + a < self.n and 0 <= c + b < self.n
                        and dist[r + a, c + b] == dist[r, c] - 1)
        out.append((r, c))
        free = [tuple(int(v) for v in x) for x in np.argwhere(~self.wall)]
        return out + [free[int(i)] for i in rng.permutation(len(free))]

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[str, ...]]:
        if self.question == "ghost":
            return self._chase_misses(rng)
        path = list(self._solution)
        turn = {"U": "R", "R": "D", "D": "L", "L": "U"}
        out = []
        plain = self._distances(self.pellet, safe=False)
        r, c = self.pac
        risky = []
        while (r, c) != self.pellet and plain[self.pac] < self.best:  # the shortest path ignoring ghosts
            m, (dr, dc) = next((m, d) for m, d in MOVES.items() if 0 <= r + d[0] < self.n and 0 <= c + d[1] < self.n
                               and plain[r + d[0], c + d[1]] == plain[r, c] - 1)
            risky.append(m)
            r, c = r + dr, c + dc
        if risky:
            out.append(tuple(risky))
        flip = {"U": "D", "D": "U", "L": "R", "R": "L"}
        out += [tuple(flip[m] for m in path), tuple(path[:-1]), tuple(path + path[-1:]), tuple(reversed(path))]
        for _ in range(40):
            i, kind, p = int(rng.integers(len(path))), int(rng.integers(4)), list(path)
            if kind == 0:
                p[i] = turn[p[i]]
            elif kind == 1 and len(p) > 1:
                del p[i]
            elif kind == 2:
                p.insert(i, p[i])
            elif i + 1 < len(p):
                p[i], p[i + 1] = p[i + 1], p[i]
            out.append(tuple(p))
        k0 = 1 if risky else 0  # the ghost-ignoring route stays first
        head, tail = out[:k0], out[k0:]
        return head + [tail[int(k)] for k in rng.permutation(len(tail))]

    def _state_text(self) -> str:
        marks = {self.pac: "P", self.pellet: "o", **{g: "G" for g in self.ghosts}}
        if self.question == "ghost":
            marks[self.ghosts[0]] = "^v<>"["UDLR".index(self.heading)]
        return "\n".join(" ".join(marks.get((r, c), "#" if self.wall[r, c] else ".") for c in range(self.n))
                         for r in range(self.n))


SPECS = (
    TaskSpec(name="PacmanPath", entry_point=PacmanPath, version=1, max_episode_steps=1,
             tags=("game", "path", "spatial-reasoning")),
)
