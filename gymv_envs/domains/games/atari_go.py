"""Atari Go (first-capture Go): capture first against a built-in opponent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.cells import LETTERS
from gymv_envs.core.rng import choice
from gymv_envs.domains.games._atari_go_rules import adjacency, groups
from gymv_envs.domains.games._board import (
    LOSS_VALUE,
    ME,
    OPPONENT_TEXT,
    THEM,
    BoardGameEnv,
    IntersectionBoard,
    grid_text,
    square_cell_names,
)

LEVELS = {0: (5, 6), 1: (7, 12), 2: (9, 20)}   # difficulty -> (board side, random opening plies)


class AtariGo(IntersectionBoard, BoardGameEnv):
    """Play black in Atari Go: the first player to capture a stone wins.

    ## Description
    A Go board is shown mid-game with black stones (yours) and white stones (the opponent's).
    Columns are labelled A, B, ... and rows 1, 2, ... from the bottom. Go rules apply: stones
    are placed on empty points; a group of stones with no empty neighbouring point is
    captured; suicide is illegal. In this first-capture variant (the beginner's game "Atari
    Go") whoever captures first wins. The opponent answers within the same step.

    ## Action Space
    `Discrete(side * side)`: the point to play, named like ``C3``. An occupied point or a
    suicide is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with labels; stones of the last step sit on
    lighter squares.

    ## Rewards
    +1 for capturing first, -1 if the opponent does (``max_return`` 1).

    ## Starting State
    A random capture-free opening drawn from the seed with black to move, kept only when black
    can force a capture by a sequence of ataris (each answered by a forced escape) in exactly 1
    (difficulty 0), 2 or 3 of its own moves and has no shorter such capture.

    ## Episode End
    Terminates on the first capture, or when the player to move has no legal point (it
    loses); success is a black capture.

    ## Arguments
    ``difficulty``: 0 (5x5, random opponent), 1 (7x7, greedy opponent), 2 (9x9, 2-ply alpha-beta
    opponent on liberties); ``obs_size``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: random play won 75% of the difficulty-0 games (a capture in one on 5x5 against a
      random opponent), none at difficulty 1.
    """

    def _configure(self) -> None:
        super()._configure()
        self.side, self.plies = LEVELS[self.difficulty]
        n = self.side
        self.board_shape = (n, n)
        self.action_names = square_cell_names(n)

    # -- generate
    def standard_start(self):
        """The empty board, black to move."""
        return (0,) * (self.side ** 2), ME, None

    def random_start(self, rng: np.random.Generator):
        s = self.standard_start()
        for _ in range(self.plies):
            if s[2] is not None:
                break
            s = self.play(s, choice(rng, self.legal(s)))
        return s

    # -- rules
    def _groups(self, s):
        cache = self._memo_table()
        key = ("groups", s[0])
        if key not in cache:
            cache[key] = groups(s[0], self.side)
        return cache[key]

    def legal(self, s) -> list[int]:
        cache = self._memo_table()
        key = ("legal", s[0], s[1])
        if key not in cache:
            cache[key] = self._legal(s)
        return cache[key]

    def _legal(self, s) -> list[int]:
        b, p, adj, g = s[0], s[1], adjacency(self.side), self._groups(s)
        out = []
        for i, v in enumerate(b):
            if v == 0 and any(b[j] == 0 or (b[j] == p) == (len(g[j][1]) > 1) for j in adj[i]):
                out.append(i)   # an empty neighbour, a friendly group with a spare liberty, or a capture
        return out

    def play(self, s, a: int):
        b, p = s[0], s[1]
        g = self._groups(s)
        captured = any(b[j] == 3 - p and g[j][1] == {a} for j in adjacency(self.side)[a])
        b = b[:a] + (p,) + b[a + 1:]
        if captured:
            return b, 3 - p, p
        nxt = (b, 3 - p, None)
        adj = adjacency(self.side)
        if any(v == 0 and any(b[j] == 0 for j in adj[i]) for i, v in enumerate(b)):
            return nxt   # some empty point has an empty neighbour: the next player can move
        return nxt if self.legal(nxt) else (b, 3 - p, p)

    def result(self, s):
        return s[2]

    def _in_atari(self, s, p: int) -> list[int]:
        """The liberties of ``p``'s groups that have only one."""
        return sorted({next(iter(libs)) for i, (st, libs) in self._groups(s).items() if s[0][i] == p and len(libs) == 1})

    def immediate_win(self, s) -> bool:
        return bool(self._in_atari(s, THEM if s[1] == ME else ME))

    def wins(self, s, k: int) -> bool:
        """Whether black captures within ``k`` moves by a sequence of ataris (sound, not complete)."""
        if s[2] is not None:
            return s[2] == ME
        if k <= 0:
            return False
        memo, key = self._memo_table(), (s, k)
        if key in memo:
            return memo[key]
        legal = set(self.legal(s))
        if s[1] == ME:
            if any(a in legal for a in self._in_atari(s, THEM)):
                hit = True
            elif k == 1 or self._in_atari(s, ME):
                hit = False
            else:
                hit = any(self.wins(self.play(s, a), k - 1) for a in self.attack_moves(s))
        else:
            if any(a in legal for a in self._in_atari(s, ME)) or not self._in_atari(s, THEM):
                hit = False
            else:
                hit = all(self.wins(self.play(s, a), k) for a in self._in_atari(s, THEM) if a in legal)
        memo[key] = hit
        return hit

    def attack_moves(self, s) -> list[int]:
        legal, g, b = set(self.legal(s)), self._groups(s), s[0]
        now = [a for a in self._in_atari(s, THEM) if a in legal]
        if now:
            return now
        libs = {lib for i, (_, ls) in g.items() if b[i] == THEM and len(ls) == 2 for lib in ls}
        return sorted(a for a in libs if a in legal)

    def candidate_moves(self, s) -> list[int]:
        g, legal = self._groups(s), self.legal(s)
        near = {lib for _, libs in g.values() if len(libs) <= 3 for lib in libs}
        return [a for a in legal if a in near] or legal

    def heuristic(self, s) -> float:
        g, b = self._groups(s), s[0]
        mine = min((len(libs) for i, (_, libs) in g.items() if b[i] == ME), default=4)
        theirs = min((len(libs) for i, (_, libs) in g.items() if b[i] == THEM), default=4)
        return float(mine - theirs)

    def _greedy_reply(self, s, order: list[int]) -> int:
        """The base's greedy reply with each reply's groups derived from the board's: a white stone on
        ``a`` takes ``a`` from every group's liberties and merges the white groups next to it (no
        capture: a capture ends the game first). The same `heuristic` and `immediate_win` values, so
        the same move."""
        b, g, adj = s[0], self._groups(s), adjacency(self.side)
        seen, black, white = set(), [], []
        for i, (stones, libs) in g.items():
            if stones not in seen:
                seen.add(stones)
                (black if b[i] == ME else white).append((stones, libs))
        # `play` ends the game for white when it captures, or when black is left no legal point; the
        # latter needs every empty point's empty neighbours gone, impossible while two points other
        # than the reply keep two empty neighbours each (a stone takes at most one of them)
        roomy = [i for i, v in enumerate(b) if v == 0 and sum(b[j] == 0 for j in adj[i]) >= 2]
        best, best_v = order[0], np.inf
        for a in order:
            if any(b[j] == ME and g[j][1] == {a} for j in adj[a]):
                return a
            if len(roomy) < 3 and self.play(s, a)[2] == THEM:
                return a
            mine = min((len(libs) - (a in libs) for _, libs in black), default=4)
            joined = {g[j][0] for j in adj[a] if b[j] == THEM}   # the white groups the stone joins, by their stones
            merged = {j for j in adj[a] if b[j] == 0}.union(*(libs for stones, libs in white if stones in joined))
            merged.discard(a)
            rest = [len(libs) - (a in libs) for stones, libs in white if stones not in joined]
            theirs = min(rest, default=len(merged))
            theirs = min(theirs, len(merged))
            v = float(mine - theirs) + (LOSS_VALUE if len(merged) == 1 or 1 in rest else 0.0)
            if v < best_v:
                best, best_v = a, v
        return best

    def describe_invalid(self, s, a: int) -> str:
        if s[0][a]:
            return f"{self.action_names[a]} is occupied; choose an empty point"
        return f"{self.action_names[a]} would be suicide (no liberty and no capture)"

    # -- draw: IntersectionBoard
    def _task_text(self) -> str:
        n = self.side
        return (f"You play Atari Go (first-capture Go) as black against white on the {n}x{n} board shown. Columns are "
                f"labelled A to {LETTERS[n - 1]} from left to right and rows 1 to {n} from bottom to top; a point is "
                "named like C3. Each turn place one black stone on an empty point. Stones joined along the lines form "
                "a group; a group whose neighbouring points are all taken by the other colour is captured. Suicide "
                "is illegal. The opponent answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). Capturing first wins (+1); being captured first loses (-1). It is "
                "your turn and black can force a capture.")

    def _state_text(self) -> str:
        return grid_text(self.state[0], self.side, self.side, {0: ".", ME: "X", THEM: "O"})


SPECS = (
    TaskSpec(name="AtariGo", entry_point=AtariGo, version=1, max_episode_steps=40,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 1}),
)
