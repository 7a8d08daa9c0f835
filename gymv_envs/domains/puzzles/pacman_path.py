"""Pac-Man path: a shortest route to the pellet that never comes next to a ghost."""

from __future__ import annotations

import functools
import re
from collections import deque

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import (
    INK,
    PALETTE,
    WHITE,
    color_block,
    is_uniform,
    rect_box,
    rect_layer,
    shape_layer,
    stamp,
)

MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
WORDS = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R"}
SIZES = {0: 6, 1: 8, 2: 11}
GHOSTS = {0: 1, 1: 2, 2: 3}
_PATH = re.compile(r"^(?:(?:UP|DOWN|LEFT|RIGHT|[UDLR])[\s,;>\-\u2192]*)+$")


WALL = (40, 50, 110)


@functools.lru_cache(maxsize=16)
def _walls(H: int, W: int, n: int) -> tuple[np.ndarray, list | None]:
    """The empty board (read-only) and each cell's wall block as slices, when every block lies on white
    (clear of the grid lines `Board.paint` draws over it); None otherwise."""
    g = Board(H, W, n, n, labels=False)
    base = g.base()
    pad = max(1, int(g.cell * 0.06))
    blocks = []
    for r in range(n):
        for c in range(n):
            x0, y0, x1, y1 = g.box(r, c)
            box = rect_box((H, W), x0 + pad, y0 + pad, x1 - pad, y1 - pad)
            if box is None or not is_uniform(base, *box, WHITE):
                return base, None
            blocks.append((slice(box[1], box[3]), slice(box[0], box[2])))
    return base, blocks


class PacmanPath(SingleTurnEnv):
    """Give a shortest safe path from Pac-Man to the pellet.

    ## Description
    Pac-Man (yellow disc), a white pellet and red ghosts stand in an ``n x n`` grid with dark
    wall blocks. The ghosts do not move. A cell is unsafe if it holds a ghost or touches a
    ghost's cell by a side. The answer is a move sequence from Pac-Man to the pellet through
    free, safe cells; every shortest such path is accepted.

    ## Action Space
    ``"open"``: `Text`, moves U/D/L/R or up/down/left/right, any separators.
    ``"mcq"``: `Discrete(k)` over move sequences.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid, walls dark, ghosts red with eyes.

    ## Rewards
    1.0 for a shortest safe path, else 0.0.

    ## Starting State
    Random walls (about a quarter of the cells) on a 6x6 (difficulty 0), 8x8 (1) or 11x11 (2)
    grid with 1, 2 or 3 ghosts; redrawn until the pellet is reachable at distance >= n/2 and a
    ghost lies near the straight route.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "a shortest safe path as moves U, D, L, R separated by spaces"

    def _configure(self) -> None:
        self.n = SIZES[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            self.wall = rng.random((n, n)) < 0.25
            free = [(r, c) for r in range(n) for c in range(n) if not self.wall[r, c]]
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
            wall = self.wall.tolist()
            dist = self._distance_rows(self.pellet, [[w or u for w, u in zip(a, b)] for a, b in zip(wall, unsafe)])
            plain = self._distance_rows(self.pellet, wall)
            d = dist[self.pac[0]][self.pac[1]]
            if d >= n // 2 and (d > plain[self.pac[0]][self.pac[1]] or rng.random() < 0.3):
                self.dist, self.best = np.array(dist), d
                return

    def _distance_rows(self, src, block: list[list[bool]]) -> list[list[int]]:
        """Breadth-first step counts from ``src`` around the ``block`` cells (-1: unreachable), as rows."""
        n = self.n
        dist = [[-1] * n for _ in range(n)]
        dist[src[0]][src[1]] = 0
        queue = deque([src])
        while queue:
            r, c = queue.popleft()
            d = dist[r][c] + 1
            for dr, dc in MOVES.values():
                nr, nc = r + dr, c + dc
                if 0 <= nr < n and 0 <= nc < n and not block[nr][nc] and dist[nr][nc] < 0:
                    dist[nr][nc] = d
                    queue.append((nr, nc))
        return dist

    def _distances(self, src, safe: bool) -> np.ndarray:
        block = self.wall | self.unsafe if safe else self.wall
        return np.array(self._distance_rows(src, block.tolist()))

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        g = Board(H, W, self.n, self.n, labels=False)
        walls = [(r, c) for r in range(self.n) for c in range(self.n) if self.wall[r, c]]
        base, blocks = _walls(H, W, self.n)
        if blocks is not None:  # wall blocks clear of the grid lines: copied onto the empty board
            img = base.copy()
            for r, c in walls:
                rows, cols = blocks[r * self.n + c]
                img[rows, cols] = color_block(rows.stop - rows.start, cols.stop - cols.start, WALL)
        else:
            img = g.paint(dict.fromkeys(walls, WALL))
        s = g.cell
        stamp(img, [shape_layer("circle", *g.center(*self.pellet), max(2, int(s * 0.3)), INK)], WHITE)
        stamp(img, [shape_layer("circle", *g.center(*self.pac), max(3, int(s * 0.8)), PALETTE["yellow"])], WHITE)
        for r, c in self.ghosts:
            cx, cy = g.center(r, c)
            body = rect_layer(img.shape, cx - s * 0.35, cy - s * 0.05, cx + s * 0.35, cy + s * 0.35, PALETTE["red"])
            parts = [shape_layer("circle", cx, cy - s * 0.08, max(3, int(s * 0.7)), PALETTE["red"]), body,
                     *(shape_layer("circle", cx + ex * s, cy - s * 0.1, max(2, int(s * 0.16)), (255, 255, 255)) for ex in (-0.14, 0.14))]
            stamp(img, [p for p in parts if p is not None], WHITE)
        return img

    def _task_text(self) -> str:
        return (f"The image shows a {self.n}x{self.n} grid: dark blue blocks are walls, the yellow disc is "
                "Pac-Man, the small dark dot is a pellet, red figures are ghosts (they do not move). A cell "
                "is unsafe if it holds a ghost or shares a side with a ghost's cell. Give a shortest path "
                "from Pac-Man to the pellet that only uses free, safe cells; each move goes one cell up (U), "
                "down (D), left (L) or right (R).")

    def _parse_answer(self, text: str) -> tuple[str, ...] | None:
        t = text.strip().upper()
        if not t or len(t) > 2000 or not _PATH.match(t):
            return None
        return tuple(WORDS.get(tok, tok) for tok in re.findall(r"UP|DOWN|LEFT|RIGHT|[UDLR]", t))

    def _check(self, answer: tuple[str, ...]) -> bool:
        if len(answer) != self.best:
            return False
        r, c = self.pac
        for m in answer:
            r, c = r + MOVES[m][0], c + MOVES[m][1]
            if not (0 <= r < self.n and 0 <= c < self.n) or self.wall[r, c] or self.unsafe[r, c]:
                return False
        return (r, c) == self.pellet

    def _format(self, answer: tuple[str, ...]) -> str:
        return " ".join(answer)

    def _solve(self) -> tuple[str, ...]:
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

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[str, ...]]:
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
        return "\n".join(" ".join(marks.get((r, c), "#" if self.wall[r, c] else ".") for c in range(self.n))
                         for r in range(self.n))


SPECS = (
    TaskSpec(name="PacmanPath", entry_point=PacmanPath, version=1, max_episode_steps=1,
             tags=("game", "path", "spatial-reasoning")),
)
