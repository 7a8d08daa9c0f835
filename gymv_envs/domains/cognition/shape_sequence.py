"""Shape sequence: which candidate panel comes next in a row of changing abstract figures?"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.cognition import _figures as F
from gymv_envs.domains.cognition._choice import PanelChoiceEnv
from gymv_envs.domains.cognition._sprites import CHIRAL

# difficulty -> the progressions a level may use (several at once from difficulty 2)
RULES = {0: (("count",), ("turn",)), 1: (("turn",), ("count", "colour"), ("turn", "colour")),
         2: (("turn", "count"), ("turn", "colour"), ("turn", "count", "colour"))}
SHOWN = 4


class ShapeSequence(PanelChoiceEnv):
    """Pick the candidate panel that continues a row of changing figures.

    ## Description
    The top row shows four panels and a '?': from one panel to the next a figure changes by a fixed
    step in one or more properties: it turns by a fixed angle (45, 90 or 135 degrees, either way),
    gains (or loses) one glyph, or cycles through three colours. The ``num_options`` lettered
    candidates below (default 8) hold the next panel and near misses (the wrong angle, mirrored,
    one glyph more or fewer, the wrong colour, the last panel repeated); each candidate is
    verified to look different from the right one.

    ## Action Space
    ``answer_format="open"``: `Text`, a panel letter (``C``, ``panel C``). ``"mcq"``:
    `Discrete(num_options)`, option i is panel i.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the sequence on top, the lettered candidates below.

    ## Rewards
    1.0 for the panel that continues the sequence, else 0.0.

    ## Starting State
    Progressions, glyphs, steps and the right panel's place (uniform) come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: one progression, turns by 90 degrees or a count; 1: turns of any step or
    a colour cycle with it; 2: two or three progressions at once), ``num_options`` (candidates,
    default 8 as registered; 4 works too), ``answer_format``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    stem_fraction = 0.36
    stem_cards = SHOWN + 1

    def _panel(self, t: int, rules, step: int, n0: int, dn: int, kind: str, cycle: list[str]) -> F.Figure:
        n = n0 + dn * t if "count" in rules else n0
        colour = cycle[t % 3] if "colour" in rules else cycle[0]
        angle = step * t if "turn" in rules else 0
        size = 0.42 if n <= 2 else 0.3
        slots = [(0.0, 0.0)] if n == 1 else self.slots[:n]
        return tuple(F.Item(kind, colour, x, y, size, float(angle % 360)) for x, y in slots)

    def _make(self, rng: np.random.Generator, k: int) -> None:
        for self.tries in range(200):
            rules = RULES[self.difficulty][int(rng.integers(len(RULES[self.difficulty])))]
            step = 90 * (1 if rng.random() < 0.5 else -1) if self.difficulty == 0 else F.angle_step(rng)
            dn = 1 if rng.random() < 0.6 else -1
            n0 = (1 if dn > 0 else 5) if "count" in rules else int(rng.integers(1, 3))
            kinds = CHIRAL + ("arrow",) if "turn" in rules else ("star", "hexagon", "circle", "cross")
            kind, other = (str(v) for v in rng.choice(kinds, size=2, replace=False))
            cycle = [F.COLOURS[int(i)] for i in rng.permutation(6)[:3]]
            self.slots = [(-0.55, -0.55), (0.55, 0.55), (0.55, -0.55), (-0.55, 0.55), (0.0, 0.0)] \
                if rng.random() < 0.5 else [(0.0, 0.0), (-0.55, -0.55), (0.55, 0.55), (0.55, -0.55), (-0.55, 0.55)]
            make = lambda t, r=rules, s=step, c=cycle, n=dn, n0=n0, kd=kind: self._panel(t, r, s, n0, n, kd, c)  # noqa: E731
            self.sequence = [make(t) for t in range(SHOWN)]
            answer = make(SHOWN)
            near = [make(SHOWN - 1), F.mirror(answer), self._panel(SHOWN, rules, step + 45, n0, dn, kind, cycle),
                    self._panel(SHOWN, rules, step - 45, n0, dn, kind, cycle),
                    self._panel(SHOWN, rules, -step, n0, dn, kind, cycle),
                    self._panel(SHOWN, rules, 2 * step, n0, dn, kind, cycle),
                    self._panel(SHOWN + 1, rules, step, n0, dn, kind, cycle),
                    self._panel(SHOWN, rules, step, n0 + 1, dn, kind, cycle),
                    self._panel(SHOWN, rules, step, n0 - 1, dn, kind, cycle) if n0 > 1 else make(SHOWN - 2),
                    self._panel(SHOWN, (*rules, "colour"), step, n0, dn, kind, cycle[1:] + cycle[:1]),
                    F.rotate(answer, 90), F.rotate(answer, 180), F.mirror(F.rotate(answer, 90)),
                    tuple(it._replace(kind=other) for it in answer),
                    tuple(it._replace(x=-it.y, y=it.x) for it in answer)]
            seen, wrong = {F.signature(answer)}, []
            for i in rng.permutation(len(near)).tolist():
                fig = near[i]
                if fig and F.signature(fig) not in seen and 0 < len(fig) <= 5:
                    seen.add(F.signature(fig))
                    wrong.append(fig)
            if len(wrong) >= k - 1 and 0 < len(answer) <= 5:
                break
        else:
            raise RuntimeError("ShapeSequence: not enough distinct candidates in 200 draws")
        self.rules, self.correct = rules, int(rng.integers(k))
        self.candidates = wrong[:k - 1]
        self.candidates.insert(self.correct, answer)

    def _draw_stem(self, img: np.ndarray, boxes) -> None:
        for fig, (a, b, c, d) in zip(self.sequence, boxes):
            pad = max(1, (c - a) // 10)
            F.draw(img, fig, (a + pad, b + pad, c - pad, d - pad))

    def _draw_candidate(self, img: np.ndarray, i: int, box) -> None:
        F.draw(img, self.candidates[i], box)

    def _task_text(self) -> str:
        return (f"The top row of the image shows a sequence of four panels and a '?'. From each panel to the "
                "next, the figure changes by the same step (it may turn by a fixed angle, gain or lose a "
                "shape, or cycle through colours, or several of these at once). Which of the "
                f"{self.num_options} lettered candidate panels below replaces the '?'?")

    def _state_text(self) -> str:
        seq = " | ".join(F.describe(f) for f in self.sequence)
        cands = "; ".join(f"{chr(65 + i)}: {F.describe(f)}" for i, f in enumerate(self.candidates))
        return f"sequence: {seq} | ?; candidates: {cands}"


SPECS = (
    TaskSpec(name="ShapeSequence", entry_point=ShapeSequence, max_episode_steps=1, kwargs={"num_options": 8},
             tags=("abstract-reasoning", "figures", "sequence")),
)
