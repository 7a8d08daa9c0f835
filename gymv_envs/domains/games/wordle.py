"""Wordle: find the hidden five-letter word from coloured letter feedback."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE, fit_text_size, text_mask

WORDS = tuple(sorted(set("""
apple beach brain bread brick brown candy chair chalk charm chest cider clock cloud crane cream crown
dance dream drink eagle earth fairy feast field flame flour frost fruit ghost giant glass globe grape
grass heart horse house juice knife lemon light lunch magic maple march money mouse music night ocean
olive onion paint paper party peach pearl piano pilot plant plate pride queen quiet radio river robin
salad sheep shirt skirt smile snake sound spoon stone storm sugar table tiger toast torch tower train
trout uncle video voice water whale wheat world yacht zebra
""".split())))
GUESSES = 6
# difficulty -> number of words the answer (and the sensible guesses) come from
LEVELS = {0: 12, 1: 40, 2: len(WORDS)}
EMPTY_C, GRAY_C, YELLOW_C, GREEN_C, EDGE_C = (238, 238, 232), (120, 124, 126), PALETTE["yellow"], PALETTE["green"], (200, 200, 196)


def score(guess: str, answer: str) -> tuple[int, ...]:
    """Per letter: 2 right place, 1 elsewhere in the word, 0 absent (repeated letters counted once each)."""
    marks, left = [0] * 5, {}
    for g, a in zip(guess, answer):
        if g != a:
            left[a] = left.get(a, 0) + 1
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            marks[i] = 2
        elif left.get(g, 0):
            marks[i], left[g] = 1, left[g] - 1
    return tuple(marks)


class Wordle(MultiTurnEnv):
    """Guess a hidden five-letter word within six tries from coloured feedback.

    ## Description
    Each guess is written in the next row; each letter turns green if it is in the right
    place, yellow if the word has it elsewhere, gray if not. The answer is drawn from a small
    bundled list (the first ``K`` words of a seed-shuffled copy at difficulty ``d``), which the
    instruction lists.

    ## Action Space
    `Discrete(95)`: a word from the bundled list (``apple`` ... ``zebra``). Repeating a
    guess is invalid.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a 6x5 grid of letter tiles coloured by the feedback.

    ## Rewards
    ``+1`` for finding the word; the best return is 1.0.

    ## Starting State
    An empty grid; the candidate words and the answer drawn from the generator.

    ## Episode End
    Terminates with success on the answer, in failure after six wrong guesses.

    ## Arguments
    ``difficulty`` (0: 12 candidate words; 1: 40; 2: all 95), ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    action_names = WORDS

    def _configure(self) -> None:
        self.pool_size = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        order = rng.permutation(len(WORDS))
        self.pool = tuple(sorted(WORDS[int(i)] for i in order[: self.pool_size]))
        self.answer = self.pool[int(rng.integers(len(self.pool)))]
        self.rows: list[tuple[str, tuple[int, ...]]] = []
        # what the rows show, extended by `_apply` with each guess: tile keys, state-text lines, most greens
        self._keys = [[("", -1)] * 5 for _ in range(GUESSES)]
        self._lines: list[str] = []
        self._greens = 0

    # -- rules
    def _apply(self, action: int) -> Outcome:
        word = WORDS[action]
        if any(word == g for g, _ in self.rows):
            return Outcome(invalid=True, feedback=f"{word} was already guessed")
        marks = score(word, self.answer)
        self.rows.append((word, marks))
        self._keys[len(self.rows) - 1] = list(zip(word, marks))
        self._lines.append(f"{word} {''.join('.yg'[m] for m in marks)}")
        self._greens = max(self._greens, marks.count(2))
        if word == self.answer:
            return Outcome(reward=1.0, terminated=True, success=True, feedback=f"{word} is the word")
        said = " ".join(f"{ch}:{'green' if m == 2 else 'yellow' if m else 'gray'}" for ch, m in zip(word, marks))
        return Outcome(terminated=len(self.rows) >= GUESSES, feedback=f"{word}: {said}")

    def _progress(self) -> float:
        return 1.0 if self._success else self._greens / 10

    # -- draw
    def _draw(self) -> np.ndarray:
        return self.grid_painter(GUESSES, 5, self._tile).paint(self._keys)

    def _tile(self, key, h: int, w: int) -> np.ndarray:
        ch, m = key
        t = np.empty((h, w, 3), dtype=np.float32)
        t[...] = EDGE_C
        b = max(1, h // 16)
        t[b:h - b, b:w - b] = EMPTY_C if m < 0 else (GRAY_C, YELLOW_C, GREEN_C)[m]
        if ch:
            mask = text_mask(ch.upper(), fit_text_size(ch.upper(), int(w * 0.6), int(h * 0.6), bold=True), bold=True)
            a = mask[..., None].astype(np.float32) / 255.0
            y, x = (h - mask.shape[0]) // 2, (w - mask.shape[1]) // 2
            a = a[max(0, -y):max(0, -y) + h, max(0, -x):max(0, -x) + w]  # (the smallest letter overflows a tiny tile)
            y, x = max(y, 0), max(x, 0)
            mh, mw = a.shape[:2]
            t[y:y + mh, x:x + mw] = t[y:y + mh, x:x + mw] * (1 - a) + 255.0 * a
        return t.astype(np.uint8)

    def _task_text(self) -> str:
        return ("This is Wordle. Find the hidden five-letter word in at most six guesses. Each guess fills the next "
                "row of the grid: a green letter is in the word at that place, a yellow letter is in the word at "
                "another place, a gray letter is not in the word (a repeated letter is coloured once per copy in "
                f"the word). The hidden word is one of these {len(self.pool)} words: {', '.join(self.pool)}.")

    def _caption(self) -> list:
        return ["Words: " + " ".join(self.pool)]

    def _state_text(self) -> str:
        return "\n".join(self._lines)

    # -- oracle
    def oracle_action(self) -> int:
        """From the visible history only: the candidate word that best splits the words still consistent."""
        cands = [w for w in self.pool if all(score(g, w) == ms for g, ms in self.rows)]
        tried = {g for g, _ in self.rows}
        if len(cands) <= 2:
            return WORDS.index(cands[0] if cands else next(w for w in self.pool if w not in tried))

        def worst(g: str) -> tuple[int, bool]:
            sizes: dict = {}
            for w in cands:
                sizes[score(g, w)] = sizes.get(score(g, w), 0) + 1
            return max(sizes.values()), g not in cands
        return WORDS.index(min((w for w in self.pool if w not in tried), key=worst))


SPECS = (
    TaskSpec(name="Wordle", entry_point=Wordle, version=1, max_episode_steps=12,
             tags=("word", "deduction", "multi-turn")),
)
