"""Mastermind: find the hidden colour code from black and white pins."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import PALETTE, shape_mask
from gymv_envs.rules.mastermind import all_codes, feedback_table

# difficulty -> (pegs in the code, colours)
LEVELS = {0: (3, 4), 1: (4, 5), 2: (4, 6)}
ROWS = 10  # guesses allowed
LETTERS = "RGBYOP"
COLOURS = tuple(PALETTE[c] for c in ("red", "green", "blue", "yellow", "orange", "purple"))
BOARD_C, HOLE_C, PIN_HOLE = (150, 112, 70), (110, 80, 48), (120, 90, 56)


class Mastermind(MultiTurnEnv):
    """Guess the hidden code of coloured pegs within ten guesses.

    ## Description
    A hidden code of ``p`` pegs, each one of ``k`` colours (colours may repeat). After each
    guess the board shows a black pin for every peg of the right colour in the right place and
    a white pin for every other peg of a right colour in the wrong place.

    ## Action Space
    `Discrete(k**p)`: a guess written as ``p`` colour letters, e.g. ``RGBY`` (R red, G green,
    B blue, Y yellow, O orange, P purple). Every guess is valid.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a wooden board with one row per guess, top first: the
    guessed pegs and, in the right-hand cell, the black and white pins.

    ## Rewards
    1.0 when the code is guessed, else 0.0 (``max_return`` 1.0).

    ## Starting State
    A uniformly random code; the first row already holds a random wrong guess and its pins,
    so nine guesses remain.

    ## Episode End
    Terminates with success on the right guess, in failure once all ten rows are used.

    ## Arguments
    ``difficulty`` (0: 3 pegs, 4 colours; 1: 4 pegs, 5 colours; 2: 4 pegs, 6 colours), ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    def _configure(self) -> None:
        self.pegs, self.k = LEVELS[self.difficulty]
        self.codes = all_codes(self.pegs, self.k, True)[0]
        self.fb = feedback_table(self.pegs, self.k, True, base=self.pegs + 1)  # black * (pegs + 1) + white
        self.action_names = tuple("".join(LETTERS[v] for v in code) for code in self.codes)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        self.secret = int(rng.integers(len(self.codes)))
        self.guesses: list[tuple[int, int, int]] = []  # (guess, black, white)
        opening = int(rng.integers(len(self.codes) - 1))  # a random first guess, never the code
        opening += opening >= self.secret
        b, w = divmod(int(self.fb[opening, self.secret]), self.pegs + 1)
        self.guesses.append((opening, b, w))
        self._rows: list[tuple] = []  # board keys of the guesses drawn so far

    # -- rules
    def _apply(self, action: int) -> Outcome:
        f = int(self.fb[action, self.secret])
        black, white = divmod(f, self.pegs + 1)
        self.guesses.append((action, black, white))
        if black == self.pegs:
            return Outcome(reward=1.0, terminated=True, success=True, feedback="you found the code")
        out = len(self.guesses) >= ROWS
        return Outcome(terminated=out, feedback=f"{self.action_names[action]}: {black} black, {white} white"
                       + ("; no guesses left" if out else ""))

    def _progress(self) -> float:
        if self._success:
            return 1.0
        return max((b for _, b, _ in self.guesses), default=0) / self.pegs

    def _answer(self) -> str:
        return self.action_names[self.secret]

    # -- draw
    def _keys(self) -> list[tuple]:
        """One row of cell keys per guess (pegs, then pins), empty rows below."""
        for g, b, w in self.guesses[len(self._rows):]:  # a guess's row never changes once made
            self._rows.append(tuple(("peg", int(v)) for v in self.codes[g]) + (("pins", b, w, True),))
        return self._rows + [(("peg", -1),) * self.pegs + (("pins", 0, 0, False),)] * (ROWS - len(self._rows))

    def _draw(self) -> np.ndarray:
        return self.grid_painter(ROWS, self.pegs + 1, self._tile, line=0, background=BOARD_C).paint(self._keys())

    def _tile(self, key: tuple, h: int, w: int) -> np.ndarray:
        t = np.empty((h, w, 3), dtype=np.float32)
        t[...] = BOARD_C
        if key[0] == "peg":
            d = max(1, int(h * (0.78 if key[1] >= 0 else 0.36)))
            colour = COLOURS[key[1]] if key[1] >= 0 else HOLE_C
            self._dot(t, h // 2, w // 2, d, colour)
        else:
            _, black, white, shown = key
            pins = [(0, 0, 0)] * black + [(255, 255, 255)] * white
            pins += [PIN_HOLE] * (self.pegs - len(pins))
            d = max(1, int(h * 0.32))
            for i, colour in enumerate(pins):
                cy, cx = (h // 4 + (i // 2) * (h // 2), w // 4 + (i % 2) * (w // 2))
                self._dot(t, cy, cx, d, colour)
        return t.astype(np.uint8)

    @staticmethod
    def _dot(t: np.ndarray, cy: int, cx: int, d: int, colour) -> None:
        m = shape_mask("circle", d)[..., None] / 255.0
        y, x = max(0, cy - d // 2), max(0, cx - d // 2)
        region = t[y:y + d, x:x + d]
        m = m[:region.shape[0], :region.shape[1]]
        region[...] = region * (1 - m) + np.asarray(colour, np.float32) * m

    def _task_text(self) -> str:
        names = ", ".join(f"{LETTERS[i]} {n}" for i, n in enumerate(("red", "green", "blue", "yellow", "orange", "purple")[: self.k]))
        return (f"This is Mastermind. A hidden code has {self.pegs} pegs, each one of {self.k} colours ({names}); "
                f"colours may repeat. The board has {ROWS} rows; the first holds a random opening guess. Each guess appears as a row on the board, top row "
                "first; the cell on its right shows a black pin for each peg of the right colour in the right "
                "place and a white pin for each other peg of a right colour in a wrong place. Find the code. Write "
                f"a guess as {self.pegs} colour letters, left to right, e.g. {self.action_names[min(len(self.codes) - 1, 27)]}.")

    def _state_text(self) -> str:
        return "\n".join(f"{self.action_names[g]} {b}B {w}W" for g, b, w in self.guesses) or "(no guesses yet)"

    @property
    def action_prompt(self) -> str:
        return (f"Each turn, reply with one guess of {self.pegs} colour letters from {LETTERS[: self.k]}.\n"
                f"End your reply with a line like `Action: {self.action_names[min(len(self.codes) - 1, 27)]}`.")

    # -- oracle
    def oracle_action(self) -> int:
        """A minimax consistent guess: the candidate whose worst feedback leaves fewest candidates."""
        cand = np.arange(len(self.codes))
        for g, b, w in self.guesses:
            cand = cand[self.fb[g, cand] == b * (self.pegs + 1) + w]
        if not self.guesses:
            return int(np.ravel_multi_index(tuple([0] * (self.pegs // 2) + [1] * (self.pegs - self.pegs // 2)),
                                            (self.k,) * self.pegs))
        sub = self.fb[np.ix_(cand, cand)]
        worst = [np.bincount(row, minlength=(self.pegs + 1) ** 2).max() for row in sub]
        return int(cand[int(np.argmin(worst))])


SPECS = (
    TaskSpec(name="Mastermind", entry_point=Mastermind, version=1, max_episode_steps=ROWS,
             tags=("puzzle", "deduction")),
)
