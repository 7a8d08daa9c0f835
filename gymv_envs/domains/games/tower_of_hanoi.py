"""Tower of Hanoi: move every disk onto the right-hand peg, one disk at a time."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE

# difficulty -> number of disks
LEVELS = {0: 3, 1: 4, 2: 5}
PEGS = "ABC"
MOVES = tuple((a, b) for a in range(3) for b in range(3) if a != b)
POLE_C, SKY = (120, 86, 52), (236, 236, 228)
DISK_COLORS = (PALETTE["red"], PALETTE["orange"], PALETTE["yellow"], PALETTE["green"], PALETTE["blue"], PALETTE["purple"])


class TowerOfHanoi(MultiTurnEnv):
    """Move every disk onto peg C without ever putting a larger disk on a smaller one.

    ## Description
    Three pegs A, B, C (left to right) hold ``n`` disks of different sizes. A move takes the
    top disk of one peg and puts it on top of another peg; a disk may never rest on a smaller
    disk. The start is a random legal arrangement (not necessarily one tower).

    ## Action Space
    `Discrete(6)`: ``A to B``, ``A to C``, ``B to A``, ``B to C``, ``C to A``, ``C to B``.
    Moving from an empty peg, or onto a smaller disk, is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: three brown poles with coloured disks stacked on them;
    wider bars are larger disks.

    ## Rewards
    1.0 when every disk is on peg C, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Each disk is put on a uniformly random peg (stacked largest at the bottom); redrawn when
    the disks already all sit on peg C.

    ## Episode End
    Terminates with success when all disks are on peg C; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 3 disks; 1: 4 disks; 2: 5 disks), ``obs_size``. The registered id defaults to
    difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: random moves solved 30% of the three-disk levels of difficulty 0 under the old
      100-step budget; the budget is now 50 steps (the five disks of difficulty 2 never need more than
      31), under which random play solves 8% of difficulty-1 levels (100 seeds).
    """

    action_names = tuple(f"{PEGS[a]} to {PEGS[b]}" for a, b in MOVES)

    def _configure(self) -> None:
        self.n = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        pos = [2] * self.n
        while all(p == 2 for p in pos):
            pos = [int(p) for p in rng.integers(0, 3, size=self.n)]
        self.pos = pos  # pos[d]: the peg of disk d (0 = smallest)
        self._start_left = self._left()

    def _stacks(self) -> list[list[int]]:
        """Disks on each peg, bottom first."""
        return [[d for d in range(self.n - 1, -1, -1) if self.pos[d] == p] for p in range(3)]

    def _left(self) -> int:
        return self._min_moves(self.n - 1, 2)

    def _min_moves(self, k: int, target: int) -> int:
        """Fewest moves to bring disks 0..k onto ``target``."""
        moves = 0
        for d in range(k, -1, -1):
            if self.pos[d] != target:
                moves += 1 << d
                target = 3 - self.pos[d] - target
        return moves

    # -- rules
    def _apply(self, action: int) -> Outcome:
        a, b = MOVES[action]
        stacks = self._stacks()
        if not stacks[a]:
            return Outcome(invalid=True, feedback=f"peg {PEGS[a]} is empty")
        disk = stacks[a][-1]
        if stacks[b] and stacks[b][-1] < disk:
            return Outcome(invalid=True, feedback=f"the top disk of peg {PEGS[a]} is larger than the top disk of peg {PEGS[b]}")
        self.pos[disk] = b
        done = all(p == 2 for p in self.pos)
        return Outcome(reward=float(done), terminated=done, success=done,
                       feedback="every disk is on peg C" if done else f"moved a disk from peg {PEGS[a]} to peg {PEGS[b]}")

    def _progress(self) -> float:
        return 1.0 if self._success else max(0.0, 1.0 - self._left() / max(1, self._start_left))

    # -- draw
    def _keys(self) -> list[list[tuple]]:
        stacks, n = self._stacks(), self.n
        return [[(stacks[p][n - r] if n - r < len(stacks[p]) else -1, r == 0) for p in range(3)] for r in range(n + 1)]

    def _draw(self) -> np.ndarray:
        return self.grid_painter(self.n + 1, 3, self._tile, line=0).paint(self._keys())

    def _tile(self, key: tuple, h: int, w: int) -> np.ndarray:
        disk, top = key
        t = np.empty((h, w, 3), dtype=np.uint8)
        t[...] = SKY
        pw = max(1, w // 12)
        t[h // 3 if top else 0:, (w - pw) // 2:(w + pw) // 2] = POLE_C
        if disk >= 0:
            half = int(round(w * (0.18 + 0.32 * (disk + 1) / self.n)))
            m = max(1, h // 10)
            t[m:h - m, max(0, w // 2 - half):w // 2 + half] = DISK_COLORS[disk % len(DISK_COLORS)]
        return t

    def _task_text(self) -> str:
        return (f"This is the Tower of Hanoi with {self.n} disks. Three brown poles are pegs A, B and C from left to "
                "right; coloured bars are disks and a wider bar is a larger disk. Move all disks onto peg C. Each move "
                "takes the top disk of one peg and puts it on top of another peg. A disk may never be put on a "
                "smaller disk.")

    def _state_text(self) -> str:
        return "\n".join(f"{PEGS[p]}: " + " ".join(str(d + 1) for d in s) for p, s in enumerate(self._stacks()))

    # -- oracle
    def _first_move(self, k: int, target: int) -> tuple[int, int] | None:
        """The first move of the optimal plan bringing disks 0..k onto ``target`` (None: already there)."""
        for d in range(k, -1, -1):
            if self.pos[d] != target:
                other = 3 - self.pos[d] - target
                return self._first_move(d - 1, other) or (self.pos[d], target)
        return None

    def oracle_action(self) -> int:
        move = self._first_move(self.n - 1, 2)
        return MOVES.index(move) if move else 0


SPECS = (
    TaskSpec(name="TowerOfHanoi", entry_point=TowerOfHanoi, version=1, max_episode_steps=50,
             tags=("puzzle", "planning"), kwargs={"difficulty": 1}),
)
