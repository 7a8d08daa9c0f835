"""Symbol recall: watch a sequence of coloured shapes, then say which one came at a position."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    SHAPES,
    blend_mask,
    fill_rect,
    fit_text_size,
    new_frame,
    outline_rect,
    shape_mask,
    text_mask,
)
from gymv_envs.core.parsing import LETTERS
from gymv_envs.core.rng import choice, sample

# difficulty: (items shown, shapes in the pool, colours in the pool); small pools share attributes
LEVELS = {0: (3, 8, 10), 1: (5, 5, 5), 2: (8, 4, 4)}
COLOURS = tuple(PALETTE)
CARD = (228, 228, 222)
RIGHT, WRONG = (40, 160, 60), (220, 50, 47)

Item = tuple[str, str]  # (colour, shape)


class SymbolRecall(MultiTurnEnv):
    """Remember a sequence of coloured shapes shown one per frame; then recall one by position.

    ## Description
    Show phase: each frame shows one coloured shape and its position ("item 3 of 5"); the
    action ``next`` moves to the following item, and earlier items are never shown again.
    After the last item, a question frame asks "Which item was shown at position k?" with four
    options drawn in the image, labelled A to D. The wrong options are hard negatives: another
    item from the sequence (preferably a neighbour of position k), the same shape in another
    colour and the same colour in another shape.

    ## Action Space
    `Discrete(5)`: ``next``, ``A``, ``B``, ``C``, ``D``. A letter during the show phase, or
    ``next`` during the question, is invalid (nothing changes).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a header line, the current item (or the four options)
    and a footer saying which actions apply.

    ## Rewards
    1.0 for the correct option, 0.0 otherwise (``max_return`` 1.0).

    ## Starting State
    The sequence (distinct colour-shape pairs), the asked position and the options' order are
    drawn from the seed; the first item is on screen.

    ## Episode End
    Terminates on the answer (success if correct). The oracle needs ``items + 1`` steps; the
    budget is 12.

    ## Arguments
    ``difficulty`` (0: 3 items, all shapes and colours different; 1: 5 items from 5 shapes x
    5 colours; 2: 8 items from 4 shapes x 4 colours, so many items share a shape or a colour),
    ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    action_names = ("next", "A", "B", "C", "D")
    transient_attrs = (*MultiTurnEnv.transient_attrs, "_cache", "_image")

    def _configure(self) -> None:
        self.n_items, self.n_shapes, self.n_colours = LEVELS[self.difficulty]
        H, W = self.obs_size
        self.header, self.footer = max(10, int(H * 0.12)), max(8, int(H * 0.08))
        self._cache: dict = {}

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        shapes, colours = sample(rng, SHAPES, self.n_shapes), sample(rng, COLOURS, self.n_colours)
        if self.difficulty == 0:  # every attribute differs
            self.items = list(zip(colours[: self.n_items], shapes[: self.n_items]))
        else:
            pairs = [(c, s) for c in colours for s in shapes]
            self.items = sample(rng, pairs, self.n_items)
        self.k = int(rng.integers(self.n_items))  # asked position, 0-based
        # Options: the 2 x 2 square {colour, colour'} x {shape, shape'} around the answer, built from
        # a sequence item (a neighbour of position k when possible). Each option shares one attribute
        # with exactly two others, so the layout says nothing about which one is right.
        target = self.items[self.k]
        others = [i for i in range(self.n_items) if i != self.k]
        pool = [i for i in others if abs(i - self.k) == 1] or others
        pool = [i for i in pool if all(a != b for a, b in zip(self.items[i], target))] or pool
        ref = self.items[choice(rng, pool)]
        colour = ref[0] if ref[0] != target[0] else self._other(rng, target[0], [c for c, _ in self.items], COLOURS)
        shape = ref[1] if ref[1] != target[1] else self._other(rng, target[1], [s for _, s in self.items], SHAPES)
        square = [(c, s) for c in (target[0], colour) for s in (target[1], shape)]
        self.options = [square[int(i)] for i in rng.permutation(4)]
        self.correct = self.options.index(target)
        self.pos = 0  # item on screen; n_items means the question is on screen
        self.chosen: int | None = None
        self._image = None

    @staticmethod
    def _other(rng: np.random.Generator, avoid: str, seen: list[str], every: tuple[str, ...]) -> str:
        """A value other than ``avoid``, preferably one that appeared in the sequence."""
        return choice(rng, sorted(set(seen) - {avoid}) or [v for v in every if v != avoid])

    # -- rules
    def _apply(self, action: int) -> Outcome:
        asking = self.pos == self.n_items
        if action == 0:
            if asking:
                return Outcome(invalid=True, feedback="the question is on screen; answer A, B, C or D")
            self.pos += 1
            self._image = None
            return Outcome(feedback="question" if self.pos == self.n_items else f"item {self.pos + 1} of {self.n_items}")
        if not asking:
            return Outcome(invalid=True, feedback=f"item {self.pos + 1} of {self.n_items} is on screen; press next")
        self.chosen = action - 1
        self._image = None
        ok = self.chosen == self.correct
        return Outcome(reward=float(ok), terminated=True, success=ok, feedback="correct" if ok else "wrong")

    def _progress(self) -> float:
        return 1.0 if self._success else 0.5 * self.pos / self.n_items

    # -- draw
    def _tile(self, item: Item, s: int) -> np.ndarray:
        """A card with the item's shape in its colour, outlined in ink (cached per size)."""
        key = ("tile", item, s)
        if key not in self._cache:
            tile = new_frame(s, s, CARD)
            e = max(1, s // 40)
            mask = np.pad(shape_mask(item[1], max(1, int(s * 0.84) - 2 * e)), e)
            outline = np.zeros_like(mask)
            for dy in range(-e, e + 1):
                for dx in range(-e, e + 1):
                    if dx * dx + dy * dy <= e * e:
                        np.maximum(outline, np.roll(mask, (dy, dx), axis=(0, 1)), out=outline)
            x = (s - mask.shape[0]) // 2
            blend_mask(tile, outline, x, x, INK)
            blend_mask(tile, mask, x, x, PALETTE[item[0]])
            self._cache[key] = tile
        return self._cache[key]

    def _text(self, img: np.ndarray, text: str, cx: float, cy: float, max_w: float, max_h: float) -> None:
        """Centre a line of text in a band, fitted once per (text, box) and cached as a mask."""
        key = ("text", text, int(max_w), int(max_h))
        mask = self._cache.get(key)
        if mask is None:
            mask = self._cache[key] = text_mask(text, fit_text_size(text, int(max_w), int(max_h)))
        h, w = mask.shape
        blend_mask(img, mask, int(cx - w / 2), int(cy - h / 2), INK)

    def _draw(self) -> np.ndarray:
        if self._image is not None:
            return self._image
        if self._cache is None or len(self._cache) > 512:
            self._cache = {}
        H, W = self.obs_size
        img = new_frame(H, W, BACKGROUND)
        band = (H - self.header - self.footer)
        fill_rect(img, 0, self.header - max(1, H // 200), W, self.header, INK)
        if self.pos < self.n_items:
            self._text(img, f"item {self.pos + 1} of {self.n_items}", W / 2, self.header / 2, W * 0.9, self.header * 0.6)
            s = max(4, int(min(band, W) * 0.8))
            y0, x0 = self.header + (band - s) // 2, (W - s) // 2
            img[y0:y0 + s, x0:x0 + s] = self._tile(self.items[self.pos], s)
            footer = "press next to see the next item" if self.pos < self.n_items - 1 else "press next for the question"
        else:
            self._text(img, f"Which item was shown at position {self.k + 1}?", W / 2, self.header / 2, W * 0.94, self.header * 0.6)
            cell = min(band / 2, W / 2)
            s = max(4, int(cell * 0.72))
            for i, item in enumerate(self.options):
                cx, cy = W / 2 + (i % 2 - 0.5) * cell, self.header + band / 2 + (i // 2 - 0.5) * cell
                x0, y0 = int(cx - s / 2 + cell * 0.06), int(cy - s / 2 + cell * 0.06)
                img[y0:y0 + s, x0:x0 + s] = self._tile(item, s)
                if self.chosen is not None and i in (self.chosen, self.correct):  # after the answer
                    outline_rect(img, x0 - 2, y0 - 2, x0 + s + 2, y0 + s + 2, RIGHT if i == self.correct else WRONG,
                                 max(2, s // 25))
                self._text(img, LETTERS[i], x0 - cell * 0.08, y0 + cell * 0.04, cell * 0.15, cell * 0.15)
            footer = "answer A, B, C or D"
        self._text(img, footer, W / 2, H - self.footer / 2, W * 0.9, self.footer * 0.6)
        self._image = img
        return img

    def _task_text(self) -> str:
        return (f"This is a memory test. You will see a sequence of {self.n_items} items, one per frame; each "
                "item is a coloured shape, and the top of the frame says its position. Press `next` to move "
                "on; an item is never shown again once you move past it, so remember each one. After the "
                "last item, a question frame asks which item was shown at a given position and shows four "
                "options labelled A to D. Answer with the letter of the matching option. A letter before "
                "the question, or `next` during the question, is invalid.")

    def _state_text(self) -> str:
        if self.pos < self.n_items:
            c, s = self.items[self.pos]
            return f"item {self.pos + 1} of {self.n_items}: {c} {s}"
        opts = "; ".join(f"{LETTERS[i]}) {c} {s}" for i, (c, s) in enumerate(self.options))
        return f"question: which item was shown at position {self.k + 1}? options: {opts}"

    # -- verify
    def _answer(self) -> str:
        c, s = self.options[self.correct]
        return f"{LETTERS[self.correct]}) {c} {s}"

    # -- oracle
    def oracle_action(self) -> int:
        """Reads its own record of the sequence: ``next`` until the question, then the match."""
        if self.pos < self.n_items:
            return 0
        return 1 + self.options.index(self.items[self.k])


SPECS = (
    TaskSpec(name="SymbolRecall", entry_point=SymbolRecall, version=1, max_episode_steps=12,
             tags=("memory", "sequence", "multi-frame")),
)
