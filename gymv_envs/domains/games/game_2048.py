"""2048: slide and merge numbered tiles until a target tile appears."""

from __future__ import annotations

import functools
from operator import itemgetter

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import draw_text, fill, fit_text_size
from gymv_envs.domains.games._2048_search import FOUR_CHANCE, best_move

# difficulty -> (log2 of the target tile, log2 of the tiles along the top row at the start)
LEVELS = {0: (8, ()), 1: (9, ()), 2: (10, (8, 7, 6, 5))}
N = 4
EMPTY_C, BOARD_C, DARK_INK, LIGHT_INK = (205, 193, 180), (187, 173, 160), (119, 110, 101), (249, 246, 242)
TILE_C = {1: (238, 228, 218), 2: (237, 224, 200), 3: (242, 177, 121), 4: (245, 149, 99), 5: (246, 124, 95),
          6: (246, 94, 59), 7: (237, 207, 114), 8: (237, 204, 97), 9: (237, 200, 80), 10: (237, 197, 63)}
# cell order of each direction's lines, each listed from the wall the tiles slide towards
LINES = {
    0: [[c + N * r for r in range(N)] for c in range(N)],              # up
    1: [[c + N * r for r in reversed(range(N))] for c in range(N)],    # down
    2: [[c + N * r for c in range(N)] for r in range(N)],              # left
    3: [[c + N * r for c in reversed(range(N))] for r in range(N)],    # right
}
# per direction: a getter of each line's tiles, and one that puts the slid lines, concatenated,
# back into board order (so a move is a few calls in C)
LINE_GET = {a: tuple(itemgetter(*cells) for cells in lines) for a, lines in LINES.items()}
BOARD_PUT = {a: itemgetter(*(sum(lines, []).index(i) for i in range(N * N))) for a, lines in LINES.items()}
POW2 = (0,) + tuple(1 << v for v in range(1, 32))  # tile value of an exponent, 0 for an empty cell
CELL_TEXT = tuple(f"{v or '.':>4}" for v in POW2)


@functools.lru_cache(maxsize=1 << 16)
def _slide(line: tuple[int, ...]) -> tuple[int, ...]:
    """One line of exponents slid towards index 0, equal neighbours merged once."""
    vals, out, i = [v for v in line if v], [], 0
    while i < len(vals):
        if i + 1 < len(vals) and vals[i] == vals[i + 1]:
            out.append(vals[i] + 1)
            i += 2
        else:
            out.append(vals[i])
            i += 1
    return tuple(out + [0] * (len(line) - len(out)))


def _move(board: tuple[int, ...], a: int) -> tuple[int, ...]:
    g0, g1, g2, g3 = LINE_GET[a]
    return BOARD_PUT[a](_slide(g0(board)) + _slide(g1(board)) + _slide(g2(board)) + _slide(g3(board)))



def _mass(board: tuple[int, ...]) -> int:
    """The sum of the tiles (merges keep it; each spawn adds 2 or 4)."""
    return sum(map(POW2.__getitem__, board))


class Game2048(MultiTurnEnv):
    """Slide the tiles of a 4x4 board and merge equal ones until the target tile appears.

    ## Description
    The classic 2048. A move slides every tile as far as it goes in one direction; two equal
    tiles that meet merge into their sum (once per move). After each move that changes the
    board a new tile (2, or 4 with chance 0.1) appears on a random empty cell.

    ## Action Space
    `Discrete(4)`: ``up``, ``down``, ``left``, ``right``. A move that changes nothing is invalid
    (no tile spawns).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board; tiles show their number, colour by value.

    ## Rewards
    The share of the way to the target tile gained, in tile value: each new largest tile adds
    ``(new - old) / (target - start)``, where ``start`` is the largest tile at the start; the
    sum is 1.0 at the target (``max_return`` 1.0). Value, not its logarithm, so the last
    doublings, which need the planning, earn most.

    ## Starting State
    Two random tiles on an empty board; at difficulty 2 a game in progress: 256, 128, 64 and
    32 along the top row, then two random tiles.

    ## Episode End
    Terminates with success when the target tile appears, in failure when no move is left; the
    step budget truncates.

    ## Arguments
    ``difficulty`` (0: target 256; 1: 512; 2: 1024 from the game in progress), ``obs_size``. The
    registered id defaults to difficulty 2.

    ## Version History
    - v0: initial version. Spawns come from the env's generator, so the oracle (a depth-limited
      expectimax over a corner-snake heuristic) plans without seeing future spawns. Revised
      before release: targets 256/512/1024 (was 128/256/512) and rewards linear in tile value.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws). The
      registered id defaults to difficulty 2: random play scored 44.5 of 100 at difficulty 0 (merges
      earn along the way) and 22.2 at difficulty 1, 8.3 at difficulty 2 (20 seeds).
    """

    action_names = ("up", "down", "left", "right")

    def _configure(self) -> None:
        self.target, self.head_start = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        self.board = self.head_start + (0,) * (N * N - len(self.head_start))
        self.mass = _mass(self.board)  # the sum of the tiles: merges keep it, spawns add to it
        self._spawn()
        self._spawn()
        self.best = self._start = max(self.board)
        self._start_mass = self.mass

    def _spawn(self) -> None:
        rng, empty = self.np_random, [i for i, v in enumerate(self.board) if not v]
        b = list(self.board)
        b[empty[int(rng.integers(len(empty)))]] = v = 2 if rng.random() < FOUR_CHANCE else 1
        self.board = tuple(b)
        self.mass += 1 << v

    # -- rules
    def _apply(self, action: int) -> Outcome:
        after = _move(self.board, action)
        if after == self.board:
            return Outcome(invalid=True, feedback=f"moving {self.action_names[action]} changes nothing")
        self.board = after
        self._spawn()
        top = max(self.board)
        reward = ((1 << min(top, self.target)) - (1 << self.best)) / self._span if top > self.best else 0.0
        self.best = max(self.best, top)
        if top >= self.target:
            return Outcome(reward=reward, terminated=True, success=True, feedback=f"made the {1 << self.target} tile")
        # with an empty cell some move always changes the board
        stuck = 0 not in self.board and all(_move(self.board, a) == self.board for a in range(4))
        return Outcome(reward=reward, terminated=stuck, feedback="no move is left" if stuck else f"moved {self.action_names[action]}")

    @property
    def _span(self) -> int:
        return (1 << self.target) - (1 << self._start)

    def _progress(self) -> float:
        """Half the tile value share earned, half the tile mass gathered towards the target's."""
        if self._success:
            return 1.0
        mass = min(1.0, (self.mass - self._start_mass) / ((1 << self.target) - self._start_mass))
        return 0.5 * ((1 << self.best) - (1 << self._start)) / self._span + 0.5 * max(0.0, mass)

    # -- draw
    def _draw(self) -> np.ndarray:
        return self.grid_painter(N, N, self._tile, background=BOARD_C, line_color=BOARD_C,
                                 line=max(1, min(self.obs_size) // 64)).paint(
            [self.board[r * N:(r + 1) * N] for r in range(N)])

    def _tile(self, v: int, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.uint8)
        fill(t, TILE_C.get(v, (60, 58, 50)) if v else EMPTY_C)
        if v:
            text = str(1 << v)
            size = fit_text_size(text, int(w * 0.8), int(h * 0.45), bold=True)
            draw_text(t, text, (w / 2, h / 2), size, DARK_INK if v <= 2 else LIGHT_INK, bold=True)
        return t

    def _task_text(self) -> str:
        return (f"This is 2048 on a 4x4 board. Each move slides every tile up, down, left or right as far as it goes; "
                "two tiles with the same number that collide merge into one with their sum. After every move that "
                "changes the board a new 2 (sometimes a 4) appears on an empty cell. A move that changes nothing is "
                f"not allowed. Make a tile with the number {1 << self.target}.")

    def _state_text(self) -> str:
        cell = CELL_TEXT.__getitem__
        return "\n".join(" ".join(map(cell, self.board[r * N:(r + 1) * N])) for r in range(N))

    # -- oracle
    def oracle_action(self) -> int:
        """Expectimax over every spawn (2 or 4), one or two replies deep as the board fills up
        (see ``_2048_search``)."""
        return best_move(self.board)


SPECS = (
    TaskSpec(name="Game2048", entry_point=Game2048, version=1, max_episode_steps=600,
             tags=("puzzle", "stochastic", "grid"), kwargs={"difficulty": 2}),
)
