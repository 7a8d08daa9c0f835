"""Memory (Concentration): find every pair of matching cards; unmatched cards hide again."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    draw_text,
    fill_rect,
    fit_text_size,
    shape_mask,
)
from gymv_envs.core.cells import cell_names

# difficulty -> (rows, cols); rows * cols / 2 pairs
LEVELS = {0: (2, 4), 1: (3, 4), 2: (4, 4)}
COLS = "ABCD"
FACES = (("red", "circle"), ("blue", "square"), ("green", "triangle"), ("orange", "star"),
         ("purple", "diamond"), ("cyan", "heart"), ("pink", "hexagon"), ("brown", "cross"))
BACK_C, BACK_EDGE, FACE_C, DONE_C = (70, 90, 150), (40, 55, 100), (250, 250, 245), (200, 230, 200)
BACK = ("back", -1)  # the key of a face-down card
PAIR_SHARE = 0.5     # reward shared by the pairs found; finding them all within the turns earns the rest


class MemoryPairs(MultiTurnEnv):
    """Turn cards over two at a time and find every matching pair.

    ## Description
    Face-down cards hide pairs of identical pictures. Each step turns one card face up. After
    the second card of a turn: a matching pair stays face up for good; otherwise both stay
    visible until the next step, which first turns them face down again. So the player has to
    remember where pictures were. A game of ``n`` pairs allows ``2n`` turns (a turn is two cards):
    enough for a player who remembers every card (at most ``2n - 1`` turns), far too few for
    guessing.

    ## Action Space
    `Discrete(rows*cols)`: the card to turn, named column letter + row number (``A1`` top
    left). Turning a card that is already face up is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: blue card backs; face-up cards show a coloured shape on
    white (on pale green once matched); a header counts the turns left.

    ## Rewards
    ``+0.5/pairs`` per pair found, and ``+0.5`` for finding every pair within the turns
    (``max_return`` 1.0).

    ## Starting State
    A random layout; one random card is already face up as the first card of the first turn.

    ## Episode End
    Terminates with success when every pair is found, in failure when the ``2n`` turns are used
    up first; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 2x4, 4 pairs, 8 turns; 1: 3x4, 6 pairs, 12 turns; 2: 4x4, 8 pairs, 16
    turns), ``obs_size``. The registered id defaults to difficulty 1.

    ## Version History
    - v0: initial version. The oracle only uses what has been shown face up so far (its memory
      of the observations), never the hidden layout.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws). Random play
      found every pair in 90% of the difficulty-0 games (100 steps, no limit) and scored 36 at
      difficulty 2: now ``2n`` turns, half the reward for finding every pair, a turns-left header,
      and the registered id defaults to difficulty 1.
    """

    transient_attrs = MultiTurnEnv.transient_attrs + ("_headers",)

    def _configure(self) -> None:
        self._headers = None  # (painter, {header text: the header band's pixels})
        self.rows, self.cols = LEVELS[self.difficulty]
        self.size = self.rows * self.cols
        self.pairs = self.size // 2
        self.allowed = 2 * self.pairs  # turns: a perfect memory needs at most 2 * pairs - 1
        self.action_names = cell_names(self.rows, self.cols)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        self.cards = [int(v) for v in rng.permutation(np.repeat(np.arange(self.pairs), 2))]
        self.matched: set[int] = set()
        first = int(rng.integers(self.size))
        self.up = [first]  # face-up cards of the current turn
        self.seen = {first: self.cards[first]}  # every card shown so far (the oracle's memory)
        self.turns = 0  # turns completed (second cards turned)

    # -- rules
    def _apply(self, action: int) -> Outcome:
        if action in self.matched or (len(self.up) < 2 and action in self.up):
            return Outcome(invalid=True, feedback=f"card {self.action_names[action]} is already face up")
        if len(self.up) == 2:
            self.up = []
        self.up.append(action)
        self.seen[action] = self.cards[action]
        if len(self.up) < 2:
            return Outcome(feedback=f"turned {self.action_names[action]}")
        a, b = self.up
        self.turns += 1
        out = self.turns >= self.allowed
        if self.cards[a] != self.cards[b]:
            return Outcome(terminated=out, feedback="no match; no turns are left" if out else
                           "no match; both cards turn face down on the next step")
        self.matched |= {a, b}
        self.up = []
        done = len(self.matched) == self.size
        reward = PAIR_SHARE / self.pairs + (1.0 - PAIR_SHARE) * done
        return Outcome(reward=reward, terminated=done or out, success=done, feedback="every pair is found" if done
                       else "a matching pair; no turns are left" if out else "a matching pair")

    def _progress(self) -> float:
        return len(self.matched) / self.size

    # -- draw
    def _card_keys(self) -> list[tuple[str, int]]:
        """(kind, face) of each card as shown: matched, face up this turn, or face down."""
        up, matched = self.up, self.matched
        return [("done", f) if i in matched else ("up", f) if i in up else BACK for i, f in enumerate(self.cards)]

    def _draw(self) -> np.ndarray:
        keys, cols = self._card_keys(), self.cols
        H, W = self.obs_size
        band = max(6, H // 10)
        painter = self.grid_painter(self.rows, cols, self._tile, header=band)
        frame = painter.paint([keys[i:i + cols] for i in range(0, self.size, cols)])
        text = f"turns left: {self.allowed - self.turns}"
        if self._headers is None or self._headers[0] is not painter:
            self._headers = (painter, {})
        header = self._headers[1].get(text)  # the painter never paints above its header band
        if header is not None:
            frame[:band] = header
            return frame
        fill_rect(frame, 0, 0, W, band, BACKGROUND)
        box = draw_text(frame, text, (W / 2, band * 0.6),
                        fit_text_size(text, int(W * 0.9), int(band * 0.8), bold=True), INK, bold=True)
        if box[3] <= band:  # the band it clears holds all of the text: its pixels depend on the text alone
            self._headers[1][text] = frame[:band].copy()
        return frame

    def _tile(self, key: tuple, h: int, w: int) -> np.ndarray:
        kind, face = key
        t = np.empty((h, w, 3), dtype=np.float32)
        m = max(1, h // 12)
        t[...] = BACK_EDGE if kind == "back" else (150, 150, 150)
        t[m:h - m, m:w - m] = BACK_C if kind == "back" else DONE_C if kind == "done" else FACE_C
        if face >= 0:
            colour, shape = FACES[face]
            d = max(1, int(h * 0.62))
            o = (h - d) // 2
            mask = shape_mask(shape, d)[..., None] / 255.0
            region = t[o:o + d, o:o + d]
            region[...] = region * (1 - mask) + np.asarray(PALETTE[colour], np.float32) * mask
        return t.astype(np.uint8)

    def _task_text(self) -> str:
        return (f"This is Memory with {self.size} cards ({self.pairs} pairs) in {self.rows} rows and {self.cols} "
                "columns. Blue cards are face down. Each step you turn one card face up. After two cards are up, a "
                "matching pair (same coloured shape) stays up; otherwise both cards turn face down again on your next "
                f"step, so remember them. Find every pair within {self.allowed} turns (a turn is two cards; the "
                "header counts the turns left). Cards are named by column letter from the left and row "
                "number from the top, e.g. A1 is the top-left card.")

    def _state_text(self) -> str:
        keys, cols = self._card_keys(), self.cols
        cells = ["##" if kind == "back" else FACES[face][0][:2] for kind, face in keys]
        rows = [" ".join(cells[i:i + cols]) for i in range(0, self.size, cols)]
        return "\n".join(rows) + f"\nturns left: {self.allowed - self.turns}"

    # -- oracle
    def oracle_action(self) -> int:
        """Play from memory of the cards shown so far: complete a known pair, else turn an unseen card."""
        up = self.up if len(self.up) == 1 else []
        unseen = [i for i in range(self.size) if i not in self.seen]
        if up:
            twin = [i for i, f in self.seen.items() if f == self.seen[up[0]] and i != up[0] and i not in self.matched]
            return twin[0] if twin else unseen[0]
        known: dict[int, list[int]] = {}
        for i, f in self.seen.items():
            if i not in self.matched:
                known.setdefault(f, []).append(i)
        pair = next((v for v in known.values() if len(v) == 2), None)
        if pair:
            return pair[0]
        return unseen[0] if unseen else next(i for i in range(self.size) if i not in self.matched)


SPECS = (
    TaskSpec(name="MemoryPairs", entry_point=MemoryPairs, version=1, max_episode_steps=100,
             tags=("memory", "grid"), kwargs={"difficulty": 1}),
)
