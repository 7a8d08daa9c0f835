"""Mastermind deduction: find the secret code from scored guesses."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._mastermind_draw import COLOURS, LETTER, draw_board
from gymv_envs.rules.mastermind import all_codes, score, score_all, score_pair, score_table

# difficulty -> (code length, colours, repeats allowed)
LEVELS = {0: (3, 4, False), 1: (4, 6, False), 2: (5, 6, True)}
MAX_GUESSES = 10
_WORD = re.compile(r"[A-Z]+")


class MastermindDeduce(SingleTurnEnv):
    """Deduce the secret Mastermind code from the guesses already made and their scores.

    ## Description
    Each row of the image is a guess of coloured pegs (each peg also shows its colour's
    initial) followed by its score: one black dot per peg of the right colour in the right
    position, one white dot per further peg of a right colour in a wrong position. The guesses
    are chosen so that exactly one code fits every score (checked by enumerating all codes).

    ## Action Space
    ``answer_format="open"``: `Text`, the code as colour names or initials in order, e.g.
    ``red blue green`` or ``R B G`` or ``RBG``. ``"mcq"``: `Discrete(k)` over codes.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the numbered guesses and their scores, and a row of
    question marks for the secret.

    ## Rewards
    1.0 if the answered code gives every row's score, else 0.0.

    ## Starting State
    A random secret; random guesses are added (each one cutting down the codes that fit)
    until only the secret fits.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3 pegs of 4 colours, all different; 1: 4 pegs of 6 colours, all
    different; 2: 5 pegs of 6 colours, repeats allowed), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the secret code as colour initials in order, separated by spaces (for example `R B G`)"

    def _configure(self) -> None:
        self.length, self.colours, self.repeats = LEVELS[self.difficulty]
        self.names = COLOURS[: self.colours]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        codes, counts = all_codes(self.length, self.colours, self.repeats)
        table = score_table(self.length, self.colours, self.repeats)  # (few codes: every score, as lists)
        with ScalarDraws(rng) as d:  # `rng.integers` and `rng.random` one by one, at Python speed
            while True:
                secret = d.integers(len(codes))
                hidden = tuple(codes[secret].tolist())
                alive = list(range(len(codes))) if table else np.arange(len(codes))  # the codes every score fits
                guesses: list[tuple[tuple[int, ...], int]] = []
                for _ in range(8 * MAX_GUESSES):
                    if d.random() < 0.4:
                        g = int(alive[d.integers(len(alive))])
                    else:
                        g = d.integers(len(codes))
                    if g == secret:
                        continue
                    guess = tuple(codes[g].tolist())
                    fb = table[g][secret] if table else score_pair(guess, hidden)
                    if table:
                        keep = [c for c in alive if table[g][c] == fb]
                    elif len(alive) > 600:  # scores against every code, by sums of cached rows
                        keep = alive[score_all(self.length, self.colours, self.repeats, guess)[alive] == fb]
                    else:
                        keep = alive[score(codes[alive], counts[alive], codes[g], self.colours) == fb]
                    if len(keep) == len(alive):
                        continue
                    alive = keep
                    guesses.append((guess, fb))
                    if len(alive) == 1 or len(guesses) == MAX_GUESSES:
                        break
                if len(alive) == 1:
                    break
        self.guesses = tuple(guesses)
        self._secret = hidden  # the one code every score fits

    # -- draw
    def _draw(self) -> np.ndarray:
        return draw_board(*self.obs_size, self.guesses, self.length, self.names)

    def _task_text(self) -> str:
        names = ", ".join(f"{n} ({LETTER[n]})" for n in self.names)
        rep = "Colours may repeat in the code." if self.repeats else "The code uses each colour at most once."
        return (f"The image shows a game of Mastermind. The secret code is a row of {self.length} coloured pegs; "
                f"the colours are {names}. {rep} Each numbered row is a guess, followed by its score: one black dot "
                "for each peg of the right colour in the right position, and one white dot for each other peg whose "
                "colour is in the code but in a different position (small grey dots are empty). Exactly one code "
                "fits every score. What is the secret code?")

    def _state_text(self) -> str:
        return "\n".join(f"{i + 1}: {' '.join(LETTER[self.names[v]] for v in g)}  black={fb // 16} white={fb % 16}"
                         for i, (g, fb) in enumerate(self.guesses))

    # -- verify
    def _parse_answer(self, text: str) -> tuple[int, ...] | None:
        t = text.strip().upper()
        if not t or len(t) > 400 or re.search(r"[^A-Z\s,;/|>\-()\[\].'\"]", t):
            return None
        words = [w for w in _WORD.findall(t) if w not in ("AND", "THEN")]
        by_name = {n.upper(): i for i, n in enumerate(self.names)}
        by_letter = {LETTER[n]: i for i, n in enumerate(self.names)}
        if len(words) == 1 and len(words[0]) == self.length and all(ch in by_letter for ch in words[0]):
            return tuple(by_letter[ch] for ch in words[0])
        code = [by_name.get(w, by_letter.get(w)) for w in words]
        return tuple(code) if len(code) == self.length and None not in code else None

    def _check(self, answer: tuple[int, ...]) -> bool:
        return all(score_pair(answer, g) == fb for g, fb in self.guesses)

    def _format(self, answer: tuple[int, ...]) -> str:
        return " ".join(LETTER[self.names[v]] for v in answer)

    # -- oracle
    def _solve(self) -> tuple[int, ...]:
        return self._secret

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, ...]]:
        codes, counts = all_codes(self.length, self.colours, self.repeats)
        fits = np.zeros(len(codes), dtype=np.int64)
        for g, fb in self.guesses:
            fits += score_all(self.length, self.colours, self.repeats, g) == fb
        close = [tuple(int(v) for v in codes[i]) for i in np.flatnonzero(fits == len(self.guesses) - 1)]
        closer = [tuple(int(v) for v in codes[i]) for i in np.flatnonzero(fits == len(self.guesses) - 2)]
        sol = list(self._solution)
        swaps = [tuple(sol[:i] + [sol[i + 1], sol[i]] + sol[i + 2:]) for i in range(len(sol) - 1)]
        return interleave(rng, close, swaps) + interleave(rng, closer)


SPECS = (
    TaskSpec(name="MastermindDeduce", entry_point=MastermindDeduce, version=1, max_episode_steps=1,
             tags=("puzzle", "deduction", "colour")),
)
