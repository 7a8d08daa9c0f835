"""Odd one out: which panel of abstract figures breaks the rule the others share?"""

from __future__ import annotations

from collections import Counter

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.rng import choice
from gymv_envs.domains.cognition import _figures as F
from gymv_envs.domains.cognition._choice import PanelChoiceEnv
from gymv_envs.domains.cognition._sprites import CHIRAL, SIDES

# difficulty -> the rules a level may use
RULES = {0: ("sides", "count"), 1: ("count", "colours"), 2: ("mirror", "colours")}
POLYGONS = tuple(SIDES)
# what an "odd one out" can be about: one panel differs in one of these, the rest agree
ATTRIBUTES = {
    "count": lambda fig: len(fig),
    "kinds": lambda fig: tuple(sorted(it.kind for it in fig)),
    "sides": lambda fig: tuple(sorted(F.sides(it) for it in fig)),
    "colours": lambda fig: len({it.colour for it in fig}),
    "colour set": lambda fig: tuple(sorted({it.colour for it in fig})),
    "mirror": lambda fig: tuple(F.chirality(it) for it in fig),
    "sizes": lambda fig: tuple(sorted(round(it.size, 2) for it in fig)),
}


def odd_panels(figs: list[F.Figure]) -> set[int]:
    """Panels that are alone against a unanimous rest in some attribute."""
    out = set()
    for fn in ATTRIBUTES.values():
        values = [fn(f) for f in figs]
        count = Counter(values)
        if len(count) == 2 and min(count.values()) == 1:
            out.add(next(i for i, v in enumerate(values) if count[v] == 1))
    return out


class OddOneOut(PanelChoiceEnv):
    """Pick the panel whose figure breaks the rule that all the other panels follow.

    ## Description
    The picture shows ``num_options`` lettered panels of abstract figures (default 8). All but one
    share a property: the number of sides of their polygon (difficulty 0), the number of glyphs
    (0 and 1), whether all glyphs of a panel have one colour (1 and 2), or (2) being turns of
    one figure made of chiral glyphs, where the odd panel is its mirror image. Everything else
    (colours, turns, sizes, places) varies freely. The level is checked so that the intended panel
    is the only one that stands alone against all the others in any of the properties the task
    knows (count, kinds, sides, number of colours, colour set, mirroring, sizes): every other
    panel is verified not to be an odd one out.

    ## Action Space
    ``answer_format="open"``: `Text`, a panel letter (``C``, ``panel C``). ``"mcq"``:
    `Discrete(num_options)`, option i is panel i.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the lettered panels on white cards.

    ## Rewards
    1.0 for the odd panel, else 0.0.

    ## Starting State
    The rule, the figures and the odd panel's place (uniform over the letters) come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: sides or glyph count; 1: glyph count or colours; 2: mirror images or
    colours of mixed glyphs), ``num_options`` (panels, default 8 as registered; 4 works too),
    ``answer_format``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    stem_fraction = 0.0

    def _figure(self, rng: np.random.Generator, rule: str, odd: bool, base: F.Figure) -> F.Figure:
        cols = list(F.COLOURS)
        if rule == "sides":
            kind = base[0].kind if not odd else F.POLY_ODD[base[0].kind][int(rng.integers(2))]
            return (F.Item(kind, cols[int(rng.integers(6))], size=float(choice(rng, (0.55, 0.7))),
                           angle=float(rng.integers(8)) * 15),)
        if rule == "count":
            n = len(base) + (1 if odd and (rng.random() < 0.5 or len(base) == 1) else -1 if odd else 0)
            size = 0.28 if n > 4 else 0.42
            return tuple(F.Item(choice(rng, ("circle", *POLYGONS, "star")), cols[int(rng.integers(6))], x, y, size,
                                float(rng.integers(4)) * 90) for x, y in F.spread(rng, n, size))
        if rule == "colours":
            n = len(base)
            one = cols[int(rng.integers(6))]
            shades = [one] * n
            if odd:
                shades[int(rng.integers(n))] = choice(rng, [c for c in cols[:6] if c != one])
            kinds = [choice(rng, ("circle", *POLYGONS, "star", "cross")) for _ in range(n)]
            return tuple(F.Item(k, c, x, y, 0.4, 0.0) for k, c, (x, y) in zip(kinds, shades, F.spread(rng, n, 0.4)))
        fig = F.rotate(base, int(rng.integers(4)) * 90)
        return F.mirror(fig) if odd else fig

    def _make(self, rng: np.random.Generator, k: int) -> None:
        rules = RULES[self.difficulty]
        for _ in range(200):
            rule = rules[int(rng.integers(len(rules)))]
            if rule == "mirror":
                spots = F.spread(rng, 2 + int(rng.integers(2)), 0.4)
                base = tuple(F.Item(choice(rng, CHIRAL), F.COLOURS[int(rng.integers(6))], x, y, 0.4,
                                    float(rng.integers(4)) * 90) for x, y in spots)
            elif rule == "sides":
                base = (F.Item(choice(rng, POLYGONS), "red"),)
            else:  # glyph count (colours: 2 glyphs at difficulty 1, 3 at 2)
                n = int(rng.integers(2, 4)) if rule == "count" else self.difficulty + 1
                base = tuple(F.Item("circle", "red") for _ in range(n))
            self.correct = int(rng.integers(k))
            figs = [self._figure(rng, rule, i == self.correct, base) for i in range(k)]
            sigs = {F.signature(f) for f in figs}
            if len(sigs) == k and odd_panels(figs) == {self.correct}:
                break
        else:
            raise RuntimeError("OddOneOut: no level with one odd panel in 200 draws")
        self.rule, self.figures = rule, figs

    def _draw_stem(self, img: np.ndarray, boxes) -> None:
        pass

    def _draw_candidate(self, img: np.ndarray, i: int, box) -> None:
        F.draw(img, self.figures[i], box)

    def _task_text(self) -> str:
        return (f"The image shows {self.num_options} lettered panels of abstract figures. All of them but one "
                "share a property (for example the number of sides, the number of shapes, having a single "
                "colour, or being turned copies of one figure rather than its mirror image); sizes, colours, "
                "turns and places may otherwise vary. Which panel is the odd one out?")

    def _state_text(self) -> str:
        return "; ".join(f"{chr(65 + i)}: {F.describe(f)}" for i, f in enumerate(self.figures))


SPECS = (
    TaskSpec(name="OddOneOut", entry_point=OddOneOut, max_episode_steps=1, kwargs={"num_options": 8},
             tags=("abstract-reasoning", "figures", "odd-one-out")),
)
