"""Shape count: count two categories of coloured shapes in a scattered scene."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave, words_to_digits
from gymv_envs.core.canvas import BACKGROUND, PALETTE, SHAPES, blend_mask, new_frame, shape_mask
from gymv_envs.core.rng import ScalarDraws, choice, sample

# difficulty -> grid side of placement slots, shapes (min, max), colours, kinds,
# target count (min, max), outlined distractors (min, max), shape scales within a slot
LEVELS = {
    0: dict(grid=4, shapes=(6, 9), colours=3, kinds=3, target=(1, 4), outlines=(0, 0), scales=(0.72,)),
    1: dict(grid=5, shapes=(10, 15), colours=4, kinds=4, target=(1, 5), outlines=(2, 3), scales=(0.6, 0.75)),
    2: dict(grid=6, shapes=(16, 22), colours=5, kinds=5, target=(2, 7), outlines=(3, 5), scales=(0.5, 0.65, 0.8)),
}
PLURAL = {k: k + ("es" if k.endswith("s") else "s") for k in SHAPES}
KIND = {word: k for k in reversed(SHAPES) for word in (PLURAL[k], k)}  # a shape's name or plural -> the (first) shape
_COLOUR_RE = "|".join(sorted([*PALETTE, "grey"], key=len, reverse=True))
_SHAPE_RE = "|".join(sorted([*SHAPES, *PLURAL.values()], key=len, reverse=True))
_CAT = rf"(?:({_COLOUR_RE})\s+)?({_SHAPE_RE})|({_COLOUR_RE})"
_MENTION = re.compile(rf"\b(\d+)\s*(?:x\s*)?(?:{_CAT})\b|\b(?:{_CAT})\s*(?:[:=]|\bare\b|\bis\b)?\s*(\d+)\b")
_PAIR = re.compile(r"\(?\s*(\d+)\s*(?:[,;/&]|\band\b|\s)\s*(\d+)\s*\)?")
_FILLER = re.compile(r"\b(?:and|there|are|is|i|count|see)\b|[\s,;.&/+()\-:]")


@functools.lru_cache(maxsize=1024)
def outline_mask(kind: str, size: int) -> np.ndarray:
    """A hollow ``kind``: the filled mask less a centred, smaller copy (read-only, cached)."""
    outer = shape_mask(kind, size).astype(np.int16)
    t = max(1, int(round(size * 0.12)))
    inner = np.zeros_like(outer)
    if size - 2 * t > 0:
        inner[t: size - t, t: size - t] = shape_mask(kind, size - 2 * t)
    mask = np.clip(outer - inner, 0, 255).astype(np.uint8)
    mask.setflags(write=False)
    return mask


@functools.lru_cache(maxsize=2048)
def sprite(kind: str, size: int, colour: str, filled: bool) -> np.ndarray:
    """The shape blended over the background, as a ``size x size`` RGB tile (read-only, cached)."""
    tile = new_frame(size, size, BACKGROUND)
    blend_mask(tile, shape_mask(kind, size) if filled else outline_mask(kind, size), 0, 0, PALETTE[colour])
    tile.setflags(write=False)
    return tile


class ShapeCount(SingleTurnEnv):
    """Count two categories of shapes (for example red circles and blue triangles) in a scene.

    ## Description
    Coloured shapes are scattered without overlap over the image. The question names two
    categories, each a colour and a shape, and asks how many solid shapes of each there are.
    Scenes always hold look-alikes: the same shape in the other colour, and from difficulty 1
    hollow (outlined) shapes, which do not count.

    ## Action Space
    ``answer_format="open"``: `Text`, the two counts in the asked order, e.g.
    ``3 red circles, 2 blue triangles``, ``3, 2`` or ``red circles: 3 and blue triangles: 2``
    (named counts may come in either order). ``"mcq"``: `Discrete(k)` over count pairs.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the scene on a light background, no text.

    ## Rewards
    1.0 when both counts are right, else 0.0.

    ## Starting State
    Colours, shapes, counts, slots, sizes and jitter are drawn from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 6-9 shapes, 3 colours x 3 kinds; 1: 10-15 shapes, 4 x 4, sizes vary,
    2-3 outlined distractors; 2: 16-22 shapes, 5 x 5, 3-5 outlined distractors),
    ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the two counts in the order asked, each with its category (in the form `<count> <colour> <shapes>, <count> <colour> <shapes>`)"

    def _configure(self) -> None:
        self.level = LEVELS[self.difficulty]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        lv = self.level
        colours = sample(rng, list(PALETTE), lv["colours"])
        kinds = sample(rng, list(SHAPES), lv["kinds"])
        self.targets = ((colours[0], kinds[0]), (colours[1], kinds[1]))
        a, b = (int(rng.integers(lv["target"][0], lv["target"][1] + 1)) for _ in range(2))
        n_out = int(rng.integers(lv["outlines"][0], lv["outlines"][1] + 1))
        total = max(int(rng.integers(lv["shapes"][0], lv["shapes"][1] + 1)), a + b + 2 + n_out)
        others = [(c, k) for c in colours for k in kinds if (c, k) not in self.targets]
        cats = ([self.targets[0]] * a + [self.targets[1]] * b + [(colours[1], kinds[0]), (colours[0], kinds[1])]
                + [choice(rng, others) for _ in range(total - a - b - 2 - n_out)])
        items = [(c, k, True) for c, k in cats]
        items += [(*choice(rng, [*self.targets, *others[:2]]), False) for _ in range(n_out)]
        slots = rng.permutation(lv["grid"] ** 2)[:len(items)]
        self.shapes, scales = [], lv["scales"]
        with ScalarDraws(rng) as d:  # per shape: choice(rng, scales), then rng.uniform(-h, h, size=2)
            for (colour, kind, filled), slot in zip(items, slots.tolist(), strict=True):
                scale = float(scales[d.integers(len(scales))])
                h = (1 - scale) / 2
                jx, jy = -h + (h - -h) * d.random(), -h + (h - -h) * d.random()  # numpy's low + (high - low) * u
                self.shapes.append((colour, kind, filled, *divmod(slot, lv["grid"]), scale, jx, jy))
        self.shapes.sort(key=lambda s: (s[3], s[4]))

    def _count(self, colour: str, kind: str, filled: bool = True) -> int:
        return sum(1 for s in self.shapes if s[0] == colour and s[1] == kind and s[2] == filled)

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        g = self.level["grid"]
        margin = max(1, min(H, W) // 40)
        cw, ch = (W - 2 * margin) / g, (H - 2 * margin) / g
        s = min(cw, ch)
        img = new_frame(H, W, BACKGROUND)
        for colour, kind, filled, r, c, scale, jx, jy in self.shapes:
            size = max(3, int(s * scale))
            cx, cy = margin + (c + 0.5) * cw + jx * s, margin + (r + 0.5) * ch + jy * s
            x, y = round(cx - size / 2), round(cy - size / 2)
            # slots never overlap, so pasting pre-blended tiles is exact
            if x >= 0 and y >= 0 and x + size <= W and y + size <= H:  # (always, but on the smallest frames)
                img[y:y + size, x:x + size] = sprite(kind, size, colour, filled)
                continue
            x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + size, W), min(y + size, H)
            if x0 < x1 and y0 < y1:
                img[y0:y1, x0:x1] = sprite(kind, size, colour, filled)[y0 - y: y1 - y, x0 - x: x1 - x]
        return img

    def _task_text(self) -> str:
        (c1, k1), (c2, k2) = self.targets
        rule = (" Count only solid (filled) shapes: hollow, outlined shapes do not count."
                if self.level["outlines"][1] else "")
        return (f"The image shows scattered coloured shapes. How many {c1} {PLURAL[k1]} and how many "
                f"{c2} {PLURAL[k2]} are there?{rule} Answer with both counts, first the {c1} {PLURAL[k1]}, "
                f"then the {c2} {PLURAL[k2]}, in the form `<count> {c1} {PLURAL[k1]}, <count> {c2} {PLURAL[k2]}`.")

    def _caption(self) -> list:
        (c1, k1), (c2, k2) = self.targets
        solid = ["(solid only)"] if self.level["outlines"][1] else []
        return ["Count", (k1, c1), f"{c1} {PLURAL[k1]},", (k2, c2), f"{c2} {PLURAL[k2]}", *solid]

    def _state_text(self) -> str:
        return "\n".join([f"row {r + 1}, column {c + 1}: {'solid' if f else 'outlined'} {col} {kind}"
                          for col, kind, f, r, c, *_ in self.shapes])

    # -- verify
    def _parse_answer(self, text: str) -> tuple[int, int] | None:
        t = text.strip().lower()
        if not t or len(t) > 400:
            return None
        t = words_to_digits(t)
        counts: dict[int, int] = {}
        rest, last = [], 0  # the text between the mentions: `_MENTION.sub("", t)`
        for m in _MENTION.finditer(t):
            rest.append(t[last:m.start()])
            last = m.end()
            g = m.groups()
            n = int(g[0] or g[7])
            colour, kind = (g[1] or g[3], g[2]) if g[0] else (g[4] or g[6], g[5])
            colour = "gray" if colour == "grey" else colour
            kind = KIND[kind] if kind else None
            hits = [i for i, (c, k) in enumerate(self.targets) if colour in (None, c) and kind in (None, k)]
            if len(hits) != 1 or counts.get(hits[0], n) != n:
                return None
            counts[hits[0]] = n
        if counts:
            if len(counts) != 2 or _FILLER.sub("", "".join(rest) + t[last:]):
                return None
            pair = (counts[0], counts[1])
        else:
            m = _PAIR.fullmatch(t.rstrip("."))
            if m is None:
                return None
            pair = (int(m.group(1)), int(m.group(2)))
        return pair if max(pair) <= 999 else None

    def _check(self, answer: tuple[int, int]) -> bool:
        return tuple(answer) == self._solution  # (`_solve`'s counts, made once a level)

    def _format(self, answer: tuple[int, int]) -> str:
        return ", ".join(f"{n} {c} {k if n == 1 else PLURAL[k]}" for n, (c, k) in zip(answer, self.targets, strict=True))

    # -- oracle
    def _solve(self) -> tuple[int, int]:
        return self._count(*self.targets[0]), self._count(*self.targets[1])

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, int]]:
        a, b = self._solution
        (c1, k1), (c2, k2) = self.targets
        colours = sorted({s[0] for s in self.shapes})
        sim_a = max(self._count(c, k1) for c in colours if c != c1)   # same shape, other colour
        sim_b = max(self._count(c, k2) for c in colours if c != c2)
        with_outlines = (a + self._count(c1, k1, False), b + self._count(c2, k2, False))
        semantic = [(b, a), (sim_a, b), (a, sim_b), (sim_a, sim_b), with_outlines]
        near = [(a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1), (a + 1, b + 1), (a - 1, b - 1),
                (a + 1, b - 1), (a - 1, b + 1), (a + 2, b), (a, b + 2)]
        return [p for p in interleave(rng, semantic, near) if min(p) >= 0]


SPECS = (
    TaskSpec(name="ShapeCount", entry_point=ShapeCount, version=1, max_episode_steps=1,
             tags=("counting", "visual-search", "attributes")),
)
