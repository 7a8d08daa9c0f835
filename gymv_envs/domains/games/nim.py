"""Nim: take the last counter against a built-in opponent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import PALETTE, disc, new_frame
from gymv_envs.core.cells import LETTERS
from gymv_envs.core.rng import choice
from gymv_envs.domains.games._board import ME, BoardGameEnv
from gymv_envs.rules.nim import nim_sum, winning_moves

LEVELS = {0: (3, 5), 1: (4, 7), 2: (5, 9)}   # difficulty -> (heaps, most counters in a heap)
CLASSIC = {0: (3, 4, 5), 1: (1, 3, 5, 7), 2: (1, 3, 5, 7, 9)}   # difficulty -> the usual heaps of that many
TOKEN_C, LIT_C, EMPTY_C = PALETTE["orange"], (255, 236, 150), (250, 250, 250)
OPPONENTS_TEXT = {
    "random": "takes a random legal number of counters from a random heap",
    "greedy": "takes the last counters when it can, otherwise empties the largest heap but one counter",
    "search": "plays perfectly whenever its position allows a win",
}


class Nim(BoardGameEnv):
    """Normal-play Nim: whoever takes the last counter wins.

    ## Description
    Heaps of counters are shown as rows labelled A, B, C, ...; column numbers count the
    counters. On a turn a player takes one or more counters from a single heap. You move
    first; the opponent answers within the same step. Taking the last counter wins.

    ## Action Space
    `Discrete(heaps * most)`: index ``heap * most + (n - 1)`` takes ``n`` counters from a heap,
    named like ``take 3 from B``. Taking more counters than a heap holds is invalid and
    changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: one row of counters per heap, with heap letters and
    counter numbers; the counters taken in the last step are highlighted as empty gold cells.

    ## Rewards
    +1 for a win, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    Random heap sizes drawn from the seed whose nim-sum (XOR of the sizes) is not zero, so the
    player to move (you) has a winning strategy.

    ## Episode End
    Terminates when the last counter is taken; success is taking it yourself.

    ## Arguments
    ``difficulty``: 0 (3 heaps of up to 5, random opponent), 1 (4 heaps of up to 7, greedy opponent), 2
    (5 heaps of up to 9, opponent that plays perfectly); ``obs_size``. The registered id defaults to
    difficulty 2.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 2: random play won 50% of the difficulty-0 and 65% of the difficulty-1 games (the
      greedy opponent is easy prey), none against the perfect opponent of difficulty 2.
    """

    def _configure(self) -> None:
        super()._configure()
        self.heaps, self.most = LEVELS[self.difficulty]
        self.board_shape = (self.heaps, self.most)
        self.action_names = tuple(f"take {n} from {LETTERS[h]}" for h in range(self.heaps) for n in range(1, self.most + 1))
        self.action_aliases = tuple((f"{LETTERS[h]}{n}", h * self.most + n - 1)
                                    for h in range(self.heaps) for n in range(1, self.most + 1))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            heaps = tuple(int(v) for v in rng.integers(1, self.most + 1, size=self.heaps))
            if nim_sum(heaps) and sum(heaps) >= 2 * self.heaps:
                break
        self.state = self.start = self.before = (heaps, ME)
        self.moves, self.last = 0, ()

    def standard_start(self):
        """The classic heaps (3-4-5, the Marienbad 1-3-5-7, or 1-3-5-7-9), the first player to move."""
        return CLASSIC[self.difficulty], ME

    # -- rules
    def mover(self, s) -> int:
        return s[1]

    def legal(self, s) -> list[int]:
        return [h * self.most + n - 1 for h, size in enumerate(s[0]) for n in range(1, size + 1)]

    def play(self, s, a: int):
        h, n = divmod(a, self.most)
        heaps = s[0][:h] + (s[0][h] - n - 1,) + s[0][h + 1:]
        return heaps, 3 - s[1]

    def result(self, s):
        return None if any(s[0]) else 3 - s[1]   # the player who took the last counter wins

    def describe_invalid(self, s, a: int) -> str:
        h, n = divmod(a, self.most)
        return f"heap {LETTERS[h]} holds {s[0][h]} counter(s); you cannot take {n + 1}"

    def _opponent_move(self) -> int:
        heaps, moves = self.state[0], self.legal(self.state)
        if self.opponent == "random":
            return choice(self.np_random, moves)
        if sum(1 for v in heaps if v) == 1:   # one heap left: take it all
            h = next(i for i, v in enumerate(heaps) if v)
            return h * self.most + heaps[h] - 1
        if self.opponent == "search" and nim_sum(heaps):
            return self._zeroing_move(heaps)
        h = int(np.argmax(heaps))
        return h * self.most + max(1, heaps[h] - 1) - 1

    # -- verify
    def _progress(self) -> float:
        if self._success:
            return 1.0
        return 0.0 if self._terminated else 0.9 * (1 - sum(self.state[0]) / sum(self.start[0]))

    # -- oracle
    def _zeroing_move(self, heaps: tuple[int, ...]) -> int:
        best, take = max(winning_moves(heaps), key=lambda move: move[1])
        return best * self.most + take - 1

    def oracle_action(self) -> int:
        """Leave a nim-sum of zero (the winning strategy); take one counter when that is impossible."""
        heaps = self.state[0]
        if not any(heaps):
            return 0
        if nim_sum(heaps):
            return self._zeroing_move(heaps)
        h = int(np.argmax(heaps))
        return h * self.most

    # -- draw
    def row_label(self, r: int) -> str:
        return LETTERS[r]

    def col_label(self, c: int) -> str:
        return str(c + 1)

    def cell_keys(self, s):
        return [[(c < s[0][r], s[0][r] <= c < self.before[0][r]) for c in range(self.most)] for r in range(self.heaps)]

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        full, lit = key
        tile = new_frame(h, w, LIT_C if lit else EMPTY_C)
        return disc(tile, TOKEN_C, 0.72, edge=(150, 70, 10)) if full else tile

    def _task_text(self) -> str:
        return (f"You play Nim against an opponent. The image shows {self.heaps} heaps of orange counters, one per "
                f"row, labelled {', '.join(LETTERS[:self.heaps])} from top to bottom; the numbers above count the "
                "counters. On your turn take one or more counters from a single heap; the opponent then answers at "
                f"once (it {OPPONENTS_TEXT[self.opponent]}). Whoever takes the last counter wins (+1); if the "
                "opponent takes it you lose (-1). Taking more counters than a heap holds is invalid.")

    def _state_text(self) -> str:
        return "\n".join(f"{LETTERS[h]}: {n}" for h, n in enumerate(self.state[0]))


SPECS = (
    TaskSpec(name="Nim", entry_point=Nim, version=1, max_episode_steps=40,
             tags=("board-game", "adversarial", "math"), kwargs={"difficulty": 2}),
)
