"""Tower of Hanoi: the fewest moves, or an optimal move list, from one drawn arrangement of disks to another."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import CountAnswer
from gymv_envs.core.canvas import BACKGROUND, INK, PALETTE, draw_text, fill_rect, new_frame
from gymv_envs.domains.puzzles._hanoi import apply_move, distances, neighbours

# difficulty -> (disks, fewest moves at least)
LEVELS = {0: (3, 2), 1: (4, 5), 2: (5, 10)}
DISK_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
PEGS = "ABC"
QUESTIONS = ("count", "move_list")
_MOVE = r"([ABC])\s*(?:-+>|\u2192|TO|-|>|:)?\s*([ABC])"
_MOVES = re.compile(rf"(?:(?:MOVE\s+)?(?:DISK\s*\d\s*)?(?:FROM\s+)?{_MOVE}[\s,;.]*)+")


class HanoiMoves(CountAnswer, SingleTurnEnv):
    """Give the fewest moves (or an optimal move list) that turn the top Tower of Hanoi arrangement into the bottom one.

    ## Description
    Two panels show the same ``n`` disks on three pegs A, B, C: the start (top) and the goal
    (bottom). A move takes the top disk of one peg onto another peg, never onto a smaller
    disk. ``question="count"`` (default) asks for the fewest moves from start to goal, found by
    breadth-first search; ``question="move_list"`` asks for an optimal move list, which the
    verifier replays: every legal list of exactly the fewest moves that ends on the goal scores.
    From a tower on one peg to a tower on another (standard Hanoi) the optimal list is unique;
    between arbitrary arrangements there can be two, and both are accepted.

    ## Action Space
    ``answer_format="open"``: `Text`, a whole number such as ``7`` (count), or moves as
    source and destination pegs such as ``A->C, A->B, C->B`` (move_list; ``AC AB CB`` and
    ``A to C`` read too). ``"mcq"``: `Discrete(k)` over nearby counts, or over move lists that
    stop one move short, swap two moves, send one disk elsewhere, or take a detour.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the two panels, titled Start and Goal.

    ## Rewards
    1.0 for the exact fewest number of moves (count) or a legal optimal move list, else 0.0.

    ## Starting State
    Start and goal are random legal arrangements drawn from the seed, redrawn until they are
    at least the difficulty's floor of moves apart.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"count"``: the fewest number of moves; ``"move_list"``: an optimal move list),
    ``difficulty`` (0: 3 disks, 2+ moves; 1: 4 disks, 5+; 2: 5 disks, 10+), ``answer_format``,
    ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        if self.question == "move_list":
            return "an optimal move list as source->destination pegs (for example `A->C, A->B, C->B`)"
        return "the fewest number of moves as a whole number (for example `7`)"

    def _configure(self) -> None:
        self.disks, self.floor = LEVELS[self.difficulty]
        self._empty_pegs: np.ndarray | None = None  # the two panels without disks, drawn on first use

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            self.start = tuple(int(p) for p in rng.integers(3, size=self.disks))
            if rng.random() < 0.5:
                self.goal = (int(rng.integers(3)),) * self.disks
            else:
                self.goal = tuple(int(p) for p in rng.integers(3, size=self.disks))
            self.best = distances(self.disks)[self.start][self.goal]
            if self.best >= self.floor:
                break

    # -- draw
    def _panel(self, img: np.ndarray, state: tuple[int, ...], top: float, height: float, title: str,
               pegs: bool = True) -> None:
        W = img.shape[1]
        unit = max(1.0, height / 10)
        if pegs:
            draw_text(img, title, (W / 2, top + unit * 0.9), max(5, int(unit * 1.1)), INK, bold=True)
        base_y = top + height - unit * 1.6
        disk_h = min(unit * 1.1, (height - unit * 4) / (self.disks + 1))
        third = W / 3
        for p in range(3):
            cx = third * (p + 0.5)
            if pegs:
                fill_rect(img, cx - third * 0.45, base_y, cx + third * 0.45, base_y + unit * 0.35, INK)
                fill_rect(img, cx - unit * 0.18, base_y - disk_h * (self.disks + 0.8), cx + unit * 0.18, base_y, INK)
                draw_text(img, PEGS[p], (cx, base_y + unit * 1.0), max(5, int(unit * 0.9)), INK, bold=True)
            level = 0
            for d in range(self.disks - 1, -1, -1):
                if state[d] != p:
                    continue
                half = third * (0.12 + 0.33 * (d + 1) / self.disks)
                y1 = base_y - level * disk_h
                fill_rect(img, cx - half, y1 - disk_h + max(1, disk_h / 10), cx + half, y1, PALETTE[DISK_COLOURS[d]])
                level += 1

    def _draw(self) -> np.ndarray:
        # The disks are filled boxes over the pegs, each within its peg's third of a panel, and nothing
        # drawn after them reaches them: the frame is the empty pegs (cached) with the disks filled in.
        H, W = self.obs_size
        if self._empty_pegs is None:
            pegs = new_frame(H, W, BACKGROUND)
            self._panel(pegs, (-1,) * self.disks, 0, H / 2, "Start")
            fill_rect(pegs, 0, H / 2 - max(1, H // 200), W, H / 2 + max(1, H // 200), (180, 180, 185))
            self._panel(pegs, (-1,) * self.disks, H / 2, H / 2, "Goal")
            self._empty_pegs = pegs
        img = self._empty_pegs.copy()
        self._panel(img, self.start, 0, H / 2, "Start", pegs=False)
        self._panel(img, self.goal, H / 2, H / 2, "Goal", pegs=False)
        return img

    def _task_text(self) -> str:
        return (f"The image shows {self.disks} disks of different sizes on three pegs A, B and C, twice: the "
                "start arrangement on top and the goal arrangement below. A move takes the top disk of one "
                "peg and puts it on another peg, never on top of a smaller disk. " + (
                    "Give a shortest list of moves that turns the start arrangement into the goal arrangement, "
                    "each move written as its source and destination peg (for example A->C)."
                    if self.question == "move_list" else
                    "What is the fewest number of moves that turns the start arrangement into the goal arrangement?"))

    def _state_text(self) -> str:
        def line(state: tuple[int, ...]) -> str:
            return "  ".join(f"{PEGS[p]}: " + " ".join(str(d + 1) for d in range(self.disks - 1, -1, -1) if state[d] == p)
                             for p in range(3))
        return f"start  {line(self.start)}\ngoal   {line(self.goal)}\n(disk 1 is the smallest; bottom to top)"

    # -- verify (move_list; the count question uses `CountAnswer`)
    def _parse_answer(self, text: str):
        if self.question == "count":
            return super()._parse_answer(text)
        t = text.strip().upper()
        if not t or len(t) > 1000 or not _MOVES.fullmatch(t):
            return None
        return tuple((PEGS.index(a), PEGS.index(b)) for a, b in re.findall(_MOVE, t))

    def _check(self, answer) -> bool:
        if self.question == "count":
            return super()._check(answer)
        if len(answer) != self.best:
            return False
        state = self.start
        for move in answer:
            state = apply_move(state, move)
            if state is None:
                return False
        return state == self.goal

    def _format(self, answer) -> str:
        if self.question == "count":
            return str(answer)
        return ", ".join(f"{PEGS[p]}->{PEGS[q]}" for p, q in answer)

    def _near_misses(self, rng: np.random.Generator) -> list:
        if self.question == "count":
            return super()._near_misses(rng)
        path = list(self._solution)
        out = [tuple(path[:-1])]
        i = int(rng.integers(len(path)))
        p, q = path[i]
        out.append(tuple(path[:i] + [(p, 3 - p - q)] + path[i + 1:]))  # that disk to the other peg
        for i in rng.permutation(len(path) - 1):  # two neighbouring moves swapped
            out.append(tuple(path[:i] + [path[i + 1], path[i]] + path[i + 2:]))
        p, q = path[0]  # a legal detour: an extra move of the first disk there and back
        out.append(tuple([(p, 3 - p - q), (3 - p - q, q)] + path[1:]))
        out.append(tuple(path + [(q, p) for p, q in path[-1:]]))
        return out

    # -- oracle
    def _solve(self):
        if self.question == "count":
            return self.best
        dist = distances(self.disks)
        state, path = self.start, []
        while state != self.goal:  # step to a neighbour one move nearer the goal
            nxt = next(t for t in neighbours(state) if dist[t][self.goal] == dist[state][self.goal] - 1)
            d = next(d for d in range(self.disks) if state[d] != nxt[d])
            path.append((state[d], nxt[d]))
            state = nxt
        return tuple(path)


SPECS = (
    TaskSpec(name="HanoiMoves", entry_point=HanoiMoves, version=1, max_episode_steps=1,
             tags=("planning", "search")),
)
