"""Zuma chain: how many balls a shot clears at a marked gap of a spiral chain, or which gap clears the most."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import count_near_misses, parse_count
from gymv_envs.core.canvas import BACKGROUND, INK, PALETTE, blend_mask, draw_text, shape_tile
from gymv_envs.domains.puzzles._zuma_draw import ball_corners, gap_marks, pointer, spiral, track

QUESTIONS = ("count", "best")
LEVELS = {0: ((10, 14), 3, 5), 1: ((16, 22), 4, 6), 2: ((24, 32), 4, 8)}  # balls, colours, gaps labelled (best)
COLOURS = ("red", "blue", "green", "yellow")


def runs(chain: list[int]) -> list[list[int]]:
    """The chain as [colour, length] runs."""
    out: list[list[int]] = []
    for c in chain:
        if out and out[-1][0] == c:
            out[-1][1] += 1
        else:
            out.append([c, 1])
    return out


def cleared(chain: list[int], gap: int, colour: int) -> int:
    """How many balls (the shot one included) clear when a ball of ``colour`` is put in before ball
    ``gap``: its run clears at 3 or more; then the two ends close up and, while the runs meeting there
    have one colour and 3 or more balls together, they clear too."""
    left, right = runs(chain[:gap] + [colour]), runs(chain[gap:])
    if right and right[0][0] == colour:
        left[-1][1] += right.pop(0)[1]
    total = 0
    if left[-1][1] < 3:
        return 0
    total += left.pop()[1]
    while left and right and left[-1][0] == right[0][0] and left[-1][1] + right[0][1] >= 3:
        total += left.pop()[1] + right.pop(0)[1]
    return total


class ZumaChain(SingleTurnEnv):
    """A Zuma chain of coloured balls and a shooter: count the balls a shot clears, or find the best gap.

    ## Description
    A chain of coloured balls lies along a spiral track; the shooter in the middle holds a ball of
    one colour. A shot ball enters the chain at a gap between two balls. If it makes a group of 3
    or more touching balls of one colour, the group clears; the two ends of the chain then close up,
    and if the balls meeting there have one colour and make 3 or more together, they clear as well,
    again and again. The chain never starts with 3 of a colour in a row.

    - ``question="count"``: one gap is marked with a black triangle; how many balls clear (the
      shot ball included; 0 when nothing clears)?
    - ``question="best"``: several gaps are numbered; which one clears the most balls? Every gap
      that ties for the most is accepted.

    ## Action Space
    ``"open"``: `Text`, a whole number (the count, or the gap's number). ``"mcq"``: `Discrete(k)`;
    counts off by a few or without the chain reaction, or gaps that clear fewer balls.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the track, the balls, the shooter and the gap marks.

    ## Rewards
    1.0 for the right count or a best gap, else 0.0.

    ## Starting State
    10-14, 16-22 or 24-32 balls of 3, 4, 4 colours (difficulty 0-2), in runs of one or two;
    ``"best"`` labels 5, 6 or 8 gaps, the best clearing at least 3 balls. From difficulty 1 the
    marked shot of ``"count"`` sets off a chain reaction in half of the levels.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"count"``, ``"best"``), ``difficulty``, ``answer_format``, ``num_options``,
    ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        return ("the number of balls cleared (a whole number)" if self.question == "count"
                else "the number of the gap that clears the most balls")

    def _configure(self) -> None:
        self.sizes, self.ncolours, self.nlabels = LEVELS[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            n = int(rng.integers(self.sizes[0], self.sizes[1] + 1))
            chain: list[int] = []
            while len(chain) < n:
                c = int(rng.integers(self.ncolours - 1))
                c = c if not chain or c < chain[-1] else c + 1  # a colour other than the last run's
                chain += [c] * min(n - len(chain), int(rng.integers(1, 3)))
            self.chain, self.shot = chain, int(rng.integers(self.ncolours))
            if self.question == "count":
                clears = [cleared(chain, g, self.shot) for g in range(1, n)]
                hits = [g for g in range(1, n) if clears[g - 1]]
                chained = [g for g in hits if clears[g - 1] > self._first_group(g)]
                pool = chained if self.difficulty and chained and rng.random() < 0.5 else (hits if rng.random() < 0.85 else list(range(1, n)))
                if not pool:
                    continue
                self.gap = pool[int(rng.integers(len(pool)))]
                self.value = clears[self.gap - 1]
                return
            gaps = sorted(int(g) + 1 for g in rng.permutation(n - 1)[: self.nlabels])
            values = [cleared(chain, g, self.shot) for g in gaps]
            best = max(values)
            if best >= 3 and sum(v < best for v in values) >= 3:
                self.gaps, self.values = gaps, values
                self.good = frozenset(k for k, v in enumerate(values) if v == best)
                return

    def _first_group(self, gap: int) -> int:
        """The balls the shot's own group clears, without the chain reaction."""
        left, right = runs(self.chain[:gap] + [self.shot]), runs(self.chain[gap:])
        size = left[-1][1] + (right[0][1] if right and right[0][0] == self.shot else 0)
        return size if size >= 3 else 0

    # ----------------------------------------------------------------- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        n = len(self.chain)
        _, _, step = spiral(self.obs_size, n)
        img = track(self.obs_size, n).copy()
        size = max(2, int(step * 0.8))
        for (x0, y0), c in zip(ball_corners(self.obs_size, n, size), self.chain):
            img[y0:y0 + size, x0:x0 + size] = shape_tile("circle", size, PALETTE[COLOURS[c]], BACKGROUND)
        s = min(H, W)
        shooter = shape_tile("circle", max(3, int(s * 0.13)), (90, 150, 80), BACKGROUND)
        t = shooter.shape[0]
        img[(H - t) // 2:(H - t) // 2 + t, (W - t) // 2:(W - t) // 2 + t] = shooter
        ball = shape_tile("circle", size, PALETTE[COLOURS[self.shot]], (90, 150, 80))
        img[(H - size) // 2:(H - size) // 2 + size, (W - size) // 2:(W - size) // 2 + size] = ball
        marks = [self.gap] if self.question == "count" else self.gaps
        tri, fs = max(3, int(step * 0.5)), max(4, int(step * 0.45))
        for k, g in enumerate(marks):
            (px, py, direction), (lx, ly) = gap_marks(self.obs_size, n)[g - 1]
            blend_mask(img, pointer(tri, direction), px - tri // 2, py - tri // 2, INK)
            if self.question == "best":
                draw_text(img, str(k + 1), (lx, ly), fs, INK, bold=True)
        return img

    # ----------------------------------------------------------------- text
    def _task_text(self) -> str:
        rules = ("The image shows a Zuma chain: coloured balls along a spiral track and a shooter in the middle "
                 "holding a ball. A shot ball enters the chain at a gap between two balls. If it makes a group of 3 "
                 "or more touching balls of one colour, that group clears; the two ends of the chain then close up, "
                 "and if the balls meeting there have one colour and make 3 or more together they clear as well, "
                 "again and again.")
        if self.question == "count":
            return rules + (" The shot goes into the gap marked with the black triangle. How many balls clear in "
                            "all, the shot ball included (0 if none)?")
        return rules + " Which of the numbered gaps clears the most balls? Answer with the gap's number."

    # ----------------------------------------------------------------- verify
    def _parse_answer(self, text: str):
        v = parse_count(text)
        if v is None or self.question == "count":
            return v
        return v - 1 if 1 <= v <= len(self.gaps) else None

    def _check(self, answer) -> bool:
        return answer == self.value if self.question == "count" else answer in self.good

    def _format(self, answer) -> str:
        return str(answer if self.question == "count" else answer + 1)

    def _solve(self):
        return self.value if self.question == "count" else min(self.good)

    def _near_misses(self, rng: np.random.Generator) -> list:
        if self.question == "count":
            return [self._first_group(self.gap), 0] + count_near_misses(rng, self.value)
        order = sorted(range(len(self.gaps)), key=lambda k: (-self.values[k], rng.random()))
        return [k for k in order if k not in self.good]

    def _state_text(self) -> str:
        names = "".join("RBGY"[c] for c in self.chain)
        marks = f"marked gap: before ball {self.gap + 1}" if self.question == "count" else \
            "gaps: " + ", ".join(f"{k + 1}: before ball {g + 1}" for k, g in enumerate(self.gaps))
        return f"chain (outer end first): {names}\nshooter: {COLOURS[self.shot]}\n{marks}"


SPECS = (
    TaskSpec(name="ZumaChain", entry_point=ZumaChain, max_episode_steps=1, kwargs={"question": "count"},
             tags=("game", "simulation", "chain-reaction")),
    TaskSpec(name="ZumaBestGap", entry_point=ZumaChain, max_episode_steps=1, kwargs={"question": "best"},
             tags=("game", "simulation", "optimisation")),
)
