"""Peg solitaire: jump pegs over each other until only one peg is left."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import shape_mask
from gymv_envs.core.cells import cell_names

# difficulty -> (board side, reverse jumps that build the level = jumps to solve it)
LEVELS = {0: (5, 3), 1: (6, 5), 2: (7, 8)}
COLS = "ABCDEFG"
DIRS = (("up", -1, 0), ("down", 1, 0), ("left", 0, -1), ("right", 0, 1))
WOOD, HOLE_C, PEG_C = (214, 178, 128), (120, 86, 50), (180, 40, 40)


class PegSolitaire(MultiTurnEnv):
    """Jump pegs over neighbouring pegs, removing them, until a single peg remains.

    ## Description
    A square board of holes, some holding pegs. A jump moves a peg two holes up, down, left or
    right over a neighbouring peg into an empty hole; the jumped peg is removed. The goal is
    one peg left anywhere on the board.

    ## Action Space
    `Discrete(n*n*4)`: ``peg <cell> <direction>``, e.g. ``peg D2 right`` (column letter from
    the left, row number from the top). A jump without a peg there, without a peg to jump
    over, or without an empty hole to land in is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a wooden board; dark dots are empty holes, red discs pegs.

    ## Rewards
    Potential-based: the potential is ``jumps made / k`` (``k`` the jumps a solution takes) while
    one peg can still be reached, and 0 once it cannot. So ``+1/k`` per jump that keeps the board
    solvable, and a jump into a dead end takes back what the game earned (``max_return`` 1.0,
    reached exactly on success; a game that leaves the solvable positions returns 0).

    ## Starting State
    One peg on a random hole, then ``k`` random reverse jumps (a peg moves two holes back over
    an empty hole and a new peg appears in it), so every level is solvable.

    ## Episode End
    Terminates with success when one peg is left, in failure when no jump is possible; the
    step budget truncates.

    ## Arguments
    ``difficulty`` (0: 5x5, 3 jumps; 1: 6x6, 5 jumps; 2: 7x7, 8 jumps), ``obs_size``. The registered id
    defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). Rewards are
      potential-based on solvability (random play scored 21-28 from jumps into dead ends), and the
      registered id defaults to difficulty 1 (three jumps on 5x5 still leave random play 18 points
      over 100 seeds; 8 at difficulty 1).
    """

    reply_tail = 2000  # hundreds of action names

    def _configure(self) -> None:
        self.n, self.k = LEVELS[self.difficulty]
        self._shown_for: tuple = (None, [], "")  # (pegs, `_shown` of them)
        n = self.n
        self.action_names = tuple(f"peg {name} {d[0]}" for name in cell_names(n, n) for d in DIRS)
        self.jumps = []  # per action: (from, over, to) or None when it leaves the board
        for i in range(n * n):
            r, c = divmod(i, n)
            for _, dr, dc in DIRS:
                ok = 0 <= r + 2 * dr < n and 0 <= c + 2 * dc < n
                self.jumps.append((i, i + dr * n + dc, i + 2 * (dr * n + dc)) if ok else None)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        while True:
            pegs = 1 << int(rng.integers(n * n))
            for _ in range(self.k):
                back = [j for j in self.jumps if j and pegs >> j[2] & 1 and not pegs >> j[1] & 1 and not pegs >> j[0] & 1]
                if not back:
                    break
                a, b, c = back[int(rng.integers(len(back)))]
                pegs ^= (1 << a) | (1 << b) | (1 << c)
            else:
                self.pegs, self._dead = pegs, set()
                self._alive, self._earned = True, 0.0  # still solvable; the potential reached
                return

    def _legal(self, pegs: int) -> list[int]:
        return [a for a, j in enumerate(self.jumps) if j and pegs >> j[0] & 1 and pegs >> j[1] & 1 and not pegs >> j[2] & 1]

    # -- rules
    def _apply(self, action: int) -> Outcome:
        j, pegs = self.jumps[action], self.pegs  # the test of `_legal` for this one action
        if not (j and pegs >> j[0] & 1 and pegs >> j[1] & 1 and not pegs >> j[2] & 1):
            return Outcome(invalid=True, feedback=f"{self.action_names[action]} is not a legal jump")
        a, b, c = self.jumps[action]
        self.pegs ^= (1 << a) | (1 << b) | (1 << c)
        left = bin(self.pegs).count("1")
        self._alive = self._alive and self._solvable(self.pegs) is not None
        before, self._earned = self._earned, (self.k + 1 - left) / self.k if self._alive else 0.0
        if left == 1:
            return Outcome(reward=self._earned - before, terminated=True, success=True, feedback="one peg is left")
        stuck = not self._legal(self.pegs)
        return Outcome(reward=self._earned - before, terminated=stuck,
                       feedback="no jump is possible" if stuck else f"{left} pegs left")

    def _progress(self) -> float:
        return 1.0 if self._success else (self.k + 1 - bin(self.pegs).count("1")) / self.k

    # -- draw
    def _shown(self) -> tuple[list[list[bool]], str]:
        """(per hole, whether it holds a peg; the state text) of the current pegs, kept until they change."""
        if self._shown_for[0] != self.pegs:
            n, pegs = self.n, self.pegs
            keys = [[bool(pegs >> (r * n + c) & 1) for c in range(n)] for r in range(n)]
            text = "\n".join("".join("o" if v else "." for v in row) for row in keys)
            self._shown_for = (pegs, keys, text)
        return self._shown_for[1:]

    def _draw(self) -> np.ndarray:
        n = self.n
        return self.grid_painter(n, n, self._tile, line=0, background=WOOD).paint(self._shown()[0])

    def _tile(self, peg: bool, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.float32)
        t[...] = WOOD
        d = max(1, int(h * (0.7 if peg else 0.3)))
        o = (h - d) // 2
        m = shape_mask("circle", d)[..., None] / 255.0
        region = t[o:o + d, o:o + d]
        region[...] = region * (1 - m) + np.asarray(PEG_C if peg else HOLE_C, np.float32) * m
        return t.astype(np.uint8)

    def _task_text(self) -> str:
        n = self.n
        return (f"This is peg solitaire on a {n}x{n} board. Red discs are pegs and dark dots are empty holes. A jump "
                "moves a peg two holes up, down, left or right over a neighbouring peg into an empty hole, and the "
                "jumped peg is removed. Jump until only one peg is left. Holes are named by column letter "
                f"A-{COLS[n - 1]} from the left and row number 1-{n} from the top.")

    def _state_text(self) -> str:
        return self._shown()[1]

    @property
    def action_prompt(self) -> str:
        return (f"Each turn, reply with `peg <hole> <direction>`: the hole of the peg that jumps (column letter "
                f"A-{COLS[self.n - 1]}, row number 1-{self.n}) and up, down, left or right.\n"
                "End your reply with a line like `Action: peg B3 right`.")

    # -- oracle
    def _solvable(self, pegs: int) -> int | None:
        """A first jump of a solution from ``pegs`` (depth-first search, dead positions remembered)."""
        if bin(pegs).count("1") == 1:
            return -1
        if pegs in self._dead:
            return None
        for a in self._legal(pegs):
            f, b, c = self.jumps[a]
            if self._solvable(pegs ^ (1 << f) ^ (1 << b) ^ (1 << c)) is not None:
                return a
        self._dead.add(pegs)
        return None

    def oracle_action(self) -> int:
        a = self._solvable(self.pegs)
        if a is None or a < 0:
            legal = self._legal(self.pegs)
            return legal[0] if legal else 0
        return a


SPECS = (
    TaskSpec(name="PegSolitaire", entry_point=PegSolitaire, version=1, max_episode_steps=50,
             tags=("puzzle", "planning", "grid"), kwargs={"difficulty": 1}),
)
