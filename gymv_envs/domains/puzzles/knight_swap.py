"""Knight swap: the fewest knight moves to bring a knight to a square or to swap two knights, or a move
list that takes several knights to their stars ("no solution" when none does)."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import CountAnswer
from gymv_envs.core.cells import cell_name, parse_cell
from gymv_envs.core.rng import sample
from gymv_envs.domains.puzzles import _knights
from gymv_envs.domains.puzzles._knight_swap_draw import KNIGHT_COLOURS, draw_board

# difficulty -> (side, knights, blocked squares, fewest moves at least)
LEVELS = {0: (5, 1, 3, 2), 1: (5, 2, 4, 4), 2: (6, 2, 7, 7)}
QUESTIONS = ("count", "move_list")
# move_list: difficulty -> (side, knights, blocked squares, fewest moves at least when solvable)
LIST_LEVELS = {0: (5, 2, 5, 3), 1: (6, 2, 8, 5), 2: (5, 3, 6, 6)}
NO_SOLUTION = "no solution"
_NONE = re.compile(r"(?:THERE IS )?(?:NO(?: SOLUTION| LIST| WAY)?|NONE|IMPOSSIBLE|UNSOLVABLE|NOT POSSIBLE)[.!]?")
_JUMP = r"([A-Z]\s?\d{1,2})\s*(?:-+>|\u2192|-|TO|X|:)?\s*([A-Z]\s?\d{1,2})"
_JUMPS = re.compile(rf"(?:{_JUMP}[\s,;.]*)+")


class KnightSwap(CountAnswer, SingleTurnEnv):
    """Give the fewest knight moves that bring a knight to the star or swap two knights, or a move list.

    ## Description
    A small chessboard has some blocked (dark grey) squares. Knights move as in chess (an L of
    two squares then one), one knight per move, never onto a blocked or occupied square.
    ``question="count"`` (default): at difficulty 0 one white knight must reach the red star; at
    difficulty 1 and 2 a white and a black knight must swap squares. The answer is the fewest
    moves, found by breadth-first search over the knights' positions.
    ``question="move_list"``: two or three coloured knights (red, blue, green discs marked N), each
    with a star of its colour in the top-left corner of its target square (a target may hold
    another knight at the start). The answer is any list of moves after which every knight
    stands on its own star, or "no solution" when no list does; the verifier replays the list.
    About half the levels have no solution: a small group of squares (a star's square, or a
    knight's square and one jump away) is cut off by blocked squares on every jump out of it.

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number such as ``6`` (count), or moves as from and
    to squares such as ``B1-C3, D4-B5`` or ``no solution`` (move_list). ``"mcq"``: `Discrete(k)`
    over nearby counts, or over move lists (one move short, a move changed, two moves swapped,
    a route through another knight) and "no solution".

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with column letters and row numbers.

    ## Rewards
    1.0 for the exact fewest number of moves (count), or a legal list that reaches every star or
    "no solution" exactly when there is none (move_list), else 0.0.

    ## Starting State
    Blocked squares, knights and star are drawn from the seed and redrawn until the goal is
    reachable in at least the difficulty's floor of moves (move_list: solvable or, on half the
    seeds, cut off as described).

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"count"``: the fewest moves; ``"move_list"``: a move list or "no solution"),
    ``difficulty`` (count: 0: 5x5, one knight to a star; 1: 5x5 swap; 2: 6x6 swap, more blocks;
    move_list: 0: 5x5, 2 knights, 5 blocks; 1: 6x6, 2 knights, 8 blocks; 2: 5x5, 3 knights, 6 blocks),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        if self.question == "move_list":
            return "moves as from-to squares (for example `B1-C3, D4-B5`) or `no solution`"
        return "the fewest number of moves as a whole number (for example `6`)"

    def _configure(self) -> None:
        self.n, self.knights, self.blocks, self.floor = (LIST_LEVELS if self.question == "move_list" else LEVELS)[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        if self.question == "move_list":
            return self._generate_list(rng)
        squares = [(r, c) for r in range(self.n) for c in range(self.n)]
        while True:
            picked = sample(rng, squares, self.blocks + 2)
            self.blocked = frozenset(picked[2:])
            if self.knights == 1:
                self.start, self.goal = (picked[0],), (picked[1],)
            else:
                self.start, self.goal = (picked[0], picked[1]), (picked[1], picked[0])
            best = self._search()
            if best is not None and best >= self.floor:
                break
        self._fewest = best

    def _jumps(self, sq) -> list[tuple[int, int]]:
        return [(sq[0] + a, sq[1] + b) for a, b in _knights.JUMPS if 0 <= sq[0] + a < self.n and 0 <= sq[1] + b < self.n]

    def _generate_list(self, rng: np.random.Generator) -> None:
        n, k = self.n, self.knights
        squares = [(r, c) for r in range(n) for c in range(n)]
        want = bool(rng.random() < 0.5)  # a level with a solution
        while True:
            picked = sample(rng, squares, 2 * k)
            self.start = tuple(picked[:k])
            self.goal = tuple(picked[k:]) if rng.random() < 0.5 else self.start[1:] + self.start[:1]
            marked = set(self.start) | set(self.goal)
            blocked: set = set()
            if not want:  # cut a star's square, or a knight's square and one jump, off the rest
                i = int(rng.integers(k))
                group = {self.goal[i] if rng.random() < 0.5 else self.start[i]}
                if rng.random() < 0.5 or group == {self.start[i]}:
                    out = [q for q in self._jumps(next(iter(group))) if q not in marked]
                    if not out:
                        continue
                    group.add(out[int(rng.integers(len(out)))])
                blocked = {q for g in group for q in self._jumps(g)} - group
                if blocked & marked or len(blocked) > self.blocks:
                    continue
            rest = [q for q in squares if q not in marked and q not in blocked]
            blocked |= set(sample(rng, rest, self.blocks - len(blocked)))
            self.blocked = frozenset(blocked)
            if any(all(q in self.blocked or q in marked and q in self.start for q in self._jumps(s)) for s in self.start):
                continue  # every knight can make a first move
            path = _knights.shortest_moves(n, self.blocked, self.start, self.goal)
            if (path is None) != want and (path is None or len(path) >= self.floor):
                self._moves = None if path is None else tuple(path)
                return

    # -- rules
    def _search(self) -> int | None:
        """The fewest moves, by breadth-first search over the knights' squares (`_knights.layers`)."""
        found = _knights.layers(self.n, self.blocked, self.start, self.goal)
        return None if found is None else len(found) - 1

    # -- draw
    def _draw(self) -> np.ndarray:
        return draw_board(*self.obs_size, self.n, self.blocked, self.start, self.goal, self.knights,
                          self.question == "move_list")

    def _task_text(self) -> str:
        if self.question == "move_list":
            names = " and ".join(KNIGHT_COLOURS[: self.knights]) if self.knights == 2 else "red, blue and green"
            return (f"The image shows a {self.n}x{self.n} board (columns lettered from the left, rows numbered from "
                    f"the top) with {names} knights (discs marked N); a star of each knight's colour, in the "
                    "top-left corner of a square, marks that knight's target. A knight moves as in chess: two "
                    "squares in one direction and then one square at a right angle, jumping over anything in "
                    "between. It may not land on a dark grey (blocked) square or on another knight. One knight "
                    "moves at a time. Give a list of moves, each as the from and to square (for example B1-C3), "
                    "after which every knight stands on its own star, or answer 'no solution' if there is none.")
        rules = ("A knight moves as in chess: two squares in one direction and then one square at a right "
                 "angle, jumping over anything in between. It may not land on a dark grey (blocked) square")
        if self.knights == 1:
            return (f"The image shows a {self.n}x{self.n} board with a white knight (a disc marked N) and a red "
                    f"star. {rules}. What is the fewest number of moves that brings the knight to the star?")
        return (f"The image shows a {self.n}x{self.n} board with a white knight and a black knight (discs "
                f"marked N). {rules} or on the other knight's square. One knight moves at a time. What is the "
                "fewest total number of moves after which the two knights have swapped squares?")

    def _state_text(self) -> str:
        if self.question == "move_list":
            return "\n".join([f"blocked: {' '.join(sorted(cell_name(*b) for b in self.blocked))}"] +
                             [f"{name} knight: {cell_name(*s)} star: {cell_name(*g)}"
                              for name, s, g in zip(KNIGHT_COLOURS, self.start, self.goal)])
        lines = [f"blocked: {' '.join(sorted(cell_name(*b) for b in self.blocked))}",
                 f"white knight: {cell_name(*self.start[0])}"]
        if self.knights == 1:
            lines.append(f"star: {cell_name(*self.goal[0])}")
        else:
            lines.append(f"black knight: {cell_name(*self.start[1])}")
        return "\n".join(lines)

    # -- verify (move_list; the count question uses `CountAnswer`)
    def _parse_answer(self, text: str):
        if self.question == "count":
            return super()._parse_answer(text)
        t = re.sub(r"\s+", " ", text.strip().upper())
        if _NONE.fullmatch(t):
            return NO_SOLUTION
        if not t or len(t) > 1500 or not _JUMPS.fullmatch(t):
            return None
        moves = [(parse_cell(a, self.n, self.n), parse_cell(b, self.n, self.n)) for a, b in re.findall(_JUMP, t)]
        return None if any(a is None or b is None for a, b in moves) else tuple(moves)

    def _check(self, answer) -> bool:
        if self.question == "count":
            return super()._check(answer)
        if answer == NO_SOLUTION or self._moves is None:
            return answer == NO_SOLUTION and self._moves is None
        return _knights.replay(self.n, self.blocked, self.start, list(answer)) == self.goal

    def _format(self, answer) -> str:
        if self.question == "count" or answer == NO_SOLUTION:
            return str(answer)
        return ", ".join(f"{cell_name(*a)}-{cell_name(*b)}" for a, b in answer)

    def _near_misses(self, rng: np.random.Generator) -> list:
        if self.question == "count":
            return super()._near_misses(rng)
        out: list = []
        if self._moves is not None:
            path = list(self._moves)
            out += [NO_SOLUTION, tuple(path[:-1])]
            for i in rng.permutation(len(path)):
                frm, to = path[i]
                other = [q for q in self._jumps(frm) if q != to]
                out.append(tuple(path[:i] + [(frm, other[int(rng.integers(len(other)))])] + path[i + 1:]))
                if i + 1 < len(path):
                    out.append(tuple(path[:i] + [path[i + 1], path[i]] + path[i + 2:]))
        free = _knights.shortest_moves(self.n, frozenset(), self.start[:1], self.goal[:1])
        if free:  # the first knight's route over the blocked squares
            out.append(tuple(free))
        for _ in range(30):  # legal-looking walks
            at, walk = list(self.start), []
            for _ in range(self.floor + int(rng.integers(4))):
                i = int(rng.integers(len(at)))
                opts = [q for q in self._jumps(at[i]) if q not in self.blocked and q not in at]
                if opts:
                    q = opts[int(rng.integers(len(opts)))]
                    walk.append((at[i], q))
                    at[i] = q
            if walk:
                out.append(tuple(walk))
        return out

    # -- oracle
    def _solve(self):
        if self.question == "move_list":
            return NO_SOLUTION if self._moves is None else self._moves
        return self._fewest  # found by `_search` when the level was drawn


SPECS = (
    TaskSpec(name="KnightSwap", entry_point=KnightSwap, version=1, max_episode_steps=1,
             tags=("planning", "search", "chess")),
)
