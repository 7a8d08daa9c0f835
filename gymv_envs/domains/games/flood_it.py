"""Flood-It: flood the whole board with one colour from the top-left corner within a move limit."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE

# difficulty -> (board side, colours, spare moves over the greedy planner's count)
LEVELS = {0: (5, 3, 2), 1: (7, 4, 2), 2: (10, 5, 2)}
NAMES = ("red", "green", "blue", "yellow", "purple")
LETTERS = "".join(name[0].upper() for name in NAMES)
COLOURS = np.array([PALETTE[name] for name in NAMES], dtype=np.uint8)  # by colour index
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


class FloodIt(MultiTurnEnv):
    """Turn the whole board into one colour by repeatedly recolouring the top-left region.

    ## Description
    An ``n x n`` board of coloured cells. The flooded region is the top-left cell and every
    cell joined to it through cells of its colour. A move picks a colour: the region takes that
    colour and so absorbs the neighbouring cells of that colour. The board must become a
    single colour within a move limit.

    ## Action Space
    `Discrete(k)`: the colour names (``red``, ``green``, ``blue``, ...). Picking the region's
    current colour is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board of coloured squares.

    ## Rewards
    1.0 when the board is one colour within the limit, else 0.0 (``max_return`` 1.0).

    ## Starting State
    Uniformly random colours (redrawn if already one colour); the move limit is the number of
    moves a greedy planner needs plus 2 and is stated in the instruction.

    ## Episode End
    Terminates with success when the board is one colour; terminates in failure when the limit
    is used up first; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 5x5, 3 colours; 1: 7x7, 4 colours; 2: 10x10, 5 colours), ``obs_size``. The
    registered id defaults to difficulty 2.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 2: random colours flooded 55% of the 5x5 boards of difficulty 0 and 25% of the 7x7
      boards of difficulty 1 (11% over 100 seeds), none of the 10x10 boards of difficulty 2.
    """

    transient_attrs = MultiTurnEnv.transient_attrs + ("_painted",)

    def _configure(self) -> None:
        self._painted, self._text = None, (None, "")  # (painter, board, its frame); (board, `_state_text` of it)
        self.n, self.k, self.spare = LEVELS[self.difficulty]
        self.action_names = NAMES[: self.k]
        n = self.n
        self.nbrs = tuple(tuple((r + dr) * n + c + dc for dr, dc in STEPS if 0 <= r + dr < n and 0 <= c + dc < n)
                          for r in range(n) for c in range(n))

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        n = self.n
        self.board = [0] * (n * n)
        while len(set(self.board)) == 1:
            self.board = [int(v) for v in rng.integers(0, self.k, size=n * n)]
        self.moves = 0
        self.limit = self._greedy_count() + self.spare
        self._flooded = self._region(self.board)
        # the squares outside the flooded region that touch it (kept up to date by `_apply`)
        self._edge = {j for i in self._flooded for j in self.nbrs[i]} - self._flooded
        self._start = self._left = n * n - len(self._flooded)

    def _region(self, board: list[int]) -> set[int]:
        colour, nbrs = board[0], self.nbrs
        seen, stack = {0}, [0]
        while stack:
            for j in nbrs[stack.pop()]:
                if j not in seen and board[j] == colour:
                    seen.add(j)
                    stack.append(j)
        return seen

    def _recolour(self, board: list[int], colour: int, region: set[int] | None = None) -> list[int]:
        out = list(board)
        for i in self._region(board) if region is None else region:
            out[i] = colour
        return out

    def _flood(self, colour: int) -> None:
        """Turn the flooded region ``colour`` and grow it (and its edge) by the squares of that colour
        it now reaches: the same region as `_region` of the new board, from the edge only."""
        board, flooded, edge, nbrs = list(self.board), self._flooded, self._edge, self.nbrs
        for i in flooded:
            board[i] = colour
        stack = [j for j in edge if board[j] == colour]
        while stack:
            j = stack.pop()
            if j in flooded:
                continue
            flooded.add(j)
            edge.discard(j)
            for t in nbrs[j]:
                if t not in flooded:
                    if board[t] == colour:
                        stack.append(t)
                    else:
                        edge.add(t)
        self.board = board

    # -- rules
    def _apply(self, action: int) -> Outcome:
        if action == self.board[0]:
            return Outcome(invalid=True, feedback=f"the flooded region is already {NAMES[action]}")
        self.moves += 1
        self._flood(action)
        self._left = self.n * self.n - len(self._flooded)
        done = self._left == 0
        if done:
            return Outcome(reward=1.0, terminated=True, success=True, feedback="the board is one colour")
        out = self.moves >= self.limit
        return Outcome(terminated=out, feedback="out of moves" if out else
                       f"flooded with {NAMES[action]}; {self.limit - self.moves} moves left")

    def _progress(self) -> float:
        if self._success:
            return 1.0
        return max(0.0, 1.0 - self._left / max(1, self._start))

    # -- draw
    def _draw(self) -> np.ndarray:
        n, p = self.n, self.grid_painter(self.n, self.n, None, line=0)  # flat colours: no tiles
        hit = self._painted
        if hit is None or hit[0] is not p or hit[1] is not self.board:  # every move and level makes a new board list
            hit = self._painted = (p, self.board, p.paint_colours(COLOURS[np.array(self.board)].reshape(n, n, 3)))
        return hit[2]

    def _task_text(self) -> str:
        return (f"This is Flood-It on a {self.n}x{self.n} board of {self.k} colours ({', '.join(self.action_names)}). "
                "The flooded region is the top-left square plus every square joined to it (up, down, left, right) "
                "through squares of the same colour. Each move you name a colour: the flooded region turns that "
                "colour and absorbs the neighbouring squares of that colour. Make the whole board one colour within "
                f"{self.limit} moves.")

    def _caption(self) -> list:
        return [f"One colour within {self.limit} moves"]

    def _state_text(self) -> str:
        if self._text[0] is not self.board:  # the moves made change with the board
            text, n = "".join(map(LETTERS.__getitem__, self.board)), self.n
            self._text = (self.board, "\n".join([text[i:i + n] for i in range(0, n * n, n)])
                          + f"\nmoves left: {self.limit - self.moves}")
        return self._text[1]

    # -- oracle
    def _greedy(self, board: list[int]) -> int:
        """The colour that floods the most squares, ties to the one that leaves fewest colours."""
        best, best_key, region = 0, None, self._region(board)
        for colour in range(self.k):
            if colour == board[0]:
                continue
            after = self._recolour(board, colour, region)
            key = (len(self._region(after)), -len(set(after)), -colour)
            if best_key is None or key > best_key:
                best, best_key = colour, key
        return best

    def _greedy_count(self) -> int:
        board, moves = self.board, 0
        while len(set(board)) > 1:
            board = self._recolour(board, self._greedy(board))
            moves += 1
        return moves

    def oracle_action(self) -> int:
        return self._greedy(self.board)


SPECS = (
    TaskSpec(name="FloodIt", entry_point=FloodIt, version=1, max_episode_steps=100,
             tags=("puzzle", "planning", "grid"), kwargs={"difficulty": 2}),
)
