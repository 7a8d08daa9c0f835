"""Shape transform: A is to A' as B is to which candidate? (turns, mirrors, colour swaps)"""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import INK
from gymv_envs.core.rng import choice
from gymv_envs.domains.cognition import _figures as F
from gymv_envs.domains.cognition._choice import PanelChoiceEnv
from gymv_envs.domains.cognition._sprites import glyph, stamp_centred

GEOMETRIC = {"turn 90": lambda f: F.rotate(f, 90), "turn 180": lambda f: F.rotate(f, 180),
             "turn 270": lambda f: F.rotate(f, 270), "mirror": F.mirror, "flip": lambda f: F.rotate(F.mirror(f), 180),
             "transpose": lambda f: F.rotate(F.mirror(f), 90), "anti-transpose": lambda f: F.rotate(F.mirror(f), 270),
             "same": lambda f: f}
# difficulty -> (glyphs per figure, the transforms a level may ask for: (geometric, colour swap))
LEVELS = {0: (2, [(g, False) for g in ("turn 90", "turn 180", "mirror")]),
          1: (2, [(g, False) for g in GEOMETRIC if g != "same"] + [("same", True)]),
          2: (3, [(g, True) for g in GEOMETRIC if g != "same"])}
KINDS = ("arrow", "flag", "L", "hook", "triangle", "star")


def apply(fig: F.Figure, geometric: str, swap: bool, colours: tuple[str, str]) -> F.Figure:
    out = GEOMETRIC[geometric](fig)
    return F.recolour(out, {colours[0]: colours[1], colours[1]: colours[0]}) if swap else out


@functools.lru_cache(maxsize=32768)
def _entry(item: F.Item, geometric: str) -> tuple:
    """`F.signature`'s entry for ``item`` after ``geometric`` (cached: levels draw their items from a
    few thousand: 6 kinds x 6 colours x 9 places x 4 angles)."""
    return F.signature(GEOMETRIC[geometric]((item,)))[0]


def _looks(fig: F.Figure, colours: tuple[str, str]) -> dict[tuple[str, bool], tuple]:
    """``F.signature(apply(fig, geometric, swap, colours))`` for every (geometric, swap) of the library,
    from each item's cached entries: each geometric transformation's found once, the swap applied to them."""
    table = {colours[0]: colours[1], colours[1]: colours[0]}
    out = {}
    for g in GEOMETRIC:
        entries = [_entry(it, g) for it in fig]
        out[g, False] = tuple(sorted(entries))
        out[g, True] = tuple(sorted([(e[0], table.get(e[1], e[1]), *e[2:]) for e in entries]))
    return out


class ShapeTransform(PanelChoiceEnv):
    """Pick the candidate that is to the third figure what the second is to the first.

    ## Description
    The top row shows four cards: a figure A, the same figure changed by a transformation (A'),
    another figure B, and a '?'. The transformation is one of the library's: a quarter, half or
    three-quarter turn, a mirror (left-right or top-bottom) or a reflection in a diagonal, and/or
    swapping the figure's two colours (difficulty 2 composes a geometric one with a swap). Which
    of the ``num_options`` lettered candidates (default 8) is B transformed the same way? Levels
    are regenerated until every transformation of the library that turns A into A' also turns B
    into the same figure, so the answer is unique; each other candidate is verified to differ.

    ## Action Space
    ``answer_format="open"``: `Text`, a panel letter (``C``, ``panel C``). ``"mcq"``:
    `Discrete(num_options)`, option i is panel i.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: A -> A' and B -> ? on top, the candidates below.

    ## Rewards
    1.0 for B transformed like A, else 0.0.

    ## Starting State
    Figures, the transformation and the right panel's place (uniform) come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: a quarter or half turn or a mirror, 2 glyphs; 1: any geometric one or a colour
    swap; 2: a geometric one and a colour swap, 3 glyphs), ``num_options`` (candidates, default 8
    as registered; 4 works too), ``answer_format``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    stem_fraction = 0.36
    stem_cards = 4
    stem_fill = 0.72

    def _figure(self, rng: np.random.Generator, n: int, colours: tuple[str, str]) -> F.Figure:
        spots = F.spread(rng, n, 0.42)
        # (`choice` draws what ``rng.choice(KINDS)`` would)
        return tuple(F.Item(choice(rng, KINDS), colours[i % 2], x, y, 0.42, float(rng.integers(4)) * 90)
                     for i, (x, y) in enumerate(spots))

    def _make(self, rng: np.random.Generator, k: int) -> None:
        n, rules = LEVELS[self.difficulty]
        library = [(g, s) for g in GEOMETRIC for s in (False, True)]
        for self.tries in range(200):
            colours = tuple(str(c) for c in rng.choice(F.COLOURS[:6], size=2, replace=False))
            geometric, swap = rules[int(rng.integers(len(rules)))]
            a, b = self._figure(rng, n, colours), self._figure(rng, n, colours)
            # the looks (`F.signature`) of the figures each transformation makes, from cached entries
            la, lb = _looks(a, colours), _looks(b, colours)
            target, truth = la[geometric, swap], lb[geometric, swap]
            if target == la["same", False] or truth == lb["same", False]:
                continue
            if any(la[t] == target and lb[t] != truth for t in library):
                continue  # another transformation explains A -> A' but changes B differently
            seen, wrong = {truth}, []
            for i in rng.permutation(len(library)).tolist():
                look = lb[library[i]]
                if look not in seen:
                    seen.add(look)
                    wrong.append(library[i])
            if len(wrong) >= k - 1:
                break
        else:
            raise RuntimeError("ShapeTransform: no unique analogy in 200 draws")
        answer = apply(b, geometric, swap, colours)
        self.rule, self.stem = (geometric, swap), [a, apply(a, geometric, swap, colours), b]
        self.correct = int(rng.integers(k))
        self.candidates = [apply(b, *t, colours) for t in wrong[:k - 1]]
        self.candidates.insert(self.correct, answer)

    def _draw_stem(self, img: np.ndarray, boxes) -> None:
        for fig, (a, b, c, d) in zip(self.stem, boxes):
            pad = max(1, (c - a) // 10)
            F.draw(img, fig, (a + pad, b + pad, c - pad, d - pad))
        for left, right in ((boxes[0], boxes[1]), (boxes[2], boxes[3])):
            size = max(3, int((right[0] - left[2]) * 0.7))
            stamp_centred(img, glyph("arrow", size, INK), (left[2] + right[0]) / 2, (left[1] + left[3]) / 2)

    def _draw_candidate(self, img: np.ndarray, i: int, box) -> None:
        F.draw(img, self.candidates[i], box)

    def _task_text(self) -> str:
        return ("The top row of the image shows a figure, an arrow and the same figure after a transformation "
                "(a turn, a mirror image, a colour swap, or a combination), then a second figure, an arrow and "
                f"a '?'. Which of the {self.num_options} lettered candidate panels below shows the second figure "
                "after the same transformation?")

    def _state_text(self) -> str:
        a, a2, b = (F.describe(f) for f in self.stem)
        cands = "; ".join(f"{chr(65 + i)}: {F.describe(f)}" for i, f in enumerate(self.candidates))
        return f"A: {a} -> {a2}; B: {b} -> ?; candidates: {cands}"


SPECS = (
    TaskSpec(name="ShapeTransform", entry_point=ShapeTransform, max_episode_steps=1, kwargs={"num_options": 8},
             tags=("abstract-reasoning", "figures", "analogy")),
)
