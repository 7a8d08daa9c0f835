"""Paper folding: a square sheet is folded, punched and unfolded; which candidate shows the holes?"""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import INK, PIXEL, fill_rect, outline_rect
from gymv_envs.domains.cognition._choice import PanelChoiceEnv, _layout, panel_inner
from gymv_envs.domains.cognition._sprites import glyph, stamp_centred

# difficulty -> (sheet side in cells, folds, holes punched)
LEVELS = {0: (4, 1, 1), 1: (4, 2, 1), 2: (8, 3, 2)}
ARROW_ANGLE = {"left": 0, "right": 180, "top": 90, "bottom": 270}  # the moving half goes this way
PAPER, SHADE, FAINT = (250, 240, 200), (222, 205, 150), (215, 215, 222)
Region = tuple[int, int, int, int]  # r0, r1, c0, c1 in sheet cells
_PATCHES: dict[tuple, tuple] = {}  # (layout, box, card key) -> the pixels the card's drawing changes


def fold(region: Region, side: str) -> tuple[Region, callable]:
    """The region after folding its ``side`` half over the other half, and the map of a cell's
    position (row, col) in the region before the fold to its position after it."""
    r0, r1, c0, c1 = region
    if side in ("left", "right"):
        mid = (c0 + c1) // 2
        moving = (lambda r, c: c < mid) if side == "left" else (lambda r, c: c >= mid)
        new = (r0, r1, mid, c1) if side == "left" else (r0, r1, c0, mid)
        return new, lambda r, c: (r, c0 + c1 - 1 - c) if moving(r, c) else (r, c)
    mid = (r0 + r1) // 2
    moving = (lambda r, c: r < mid) if side == "top" else (lambda r, c: r >= mid)
    new = (mid, r1, c0, c1) if side == "top" else (r0, mid, c0, c1)
    return new, lambda r, c: (r0 + r1 - 1 - r, c) if moving(r, c) else (r, c)


def unfolded_holes(n: int, sides: list[str], punches: list[tuple[int, int]], slide: int = -1) -> frozenset:
    """The holes in the unfolded sheet: every cell that ends on a punched position. With ``slide``,
    fold number ``slide`` is (wrongly) taken as sliding its half over instead of turning it."""
    punched = set(punches)
    return frozenset(k for k, p in _folded_to(n, tuple(sides), slide).items() if p in punched)


@functools.lru_cache(maxsize=512)
def _folded_to(n: int, sides: tuple[str, ...], slide: int) -> dict[tuple[int, int], tuple[int, int]]:
    """Where each cell of the open sheet ends once folded, for `unfolded_holes` (shared: do not change)."""
    region: Region = (0, n, 0, n)
    where = {(r, c): (r, c) for r in range(n) for c in range(n)}
    for i, side in enumerate(sides):
        new, move = fold(region, side)
        if i == slide:
            r0, r1, c0, c1 = region
            h, w = (r1 - r0) // 2, (c1 - c0) // 2
            shift = {"left": (0, w), "right": (0, -w), "top": (h, 0), "bottom": (-h, 0)}[side]
            move = lambda r, c, m=move, s=shift: (r + s[0], c + s[1]) if m(r, c) != (r, c) else (r, c)  # noqa: E731
        where = {k: move(*p) for k, p in where.items()}
        region = new
    return where


def sheet(img: np.ndarray, box, n: int, region: Region) -> tuple[float, float, float]:
    """The faint full sheet of n x n cells in ``box`` with the paper on ``region``. Returns (x, y, cell)."""
    x0, y0, x1, y1 = box
    s = min(x1 - x0, y1 - y0) / n
    x, y = (x0 + x1 - s * n) / 2, (y0 + y1 - s * n) / 2
    outline_rect(img, x, y, x + s * n + 1, y + s * n + 1, FAINT, 1)
    r0, r1, c0, c1 = region
    fill_rect(img, x + c0 * s, y + r0 * s, x + c1 * s, y + r1 * s, PAPER)
    outline_rect(img, x + c0 * s, y + r0 * s, x + c1 * s + 1, y + r1 * s + 1, INK, max(1, int(s // 12)))
    return x, y, s


@functools.lru_cache(maxsize=16)
def _open_sheets(H: int, W: int, k: int, stem: float, cards: int, fill: float, question: bool, n: int) -> np.ndarray:
    """The `_layout` board with an open n x n sheet drawn in every candidate panel (read-only)."""
    base, boxes, _ = _layout(H, W, k, stem, cards, fill, question)
    img = base.copy()
    for box in boxes:
        sheet(img, panel_inner(box), n, (0, n, 0, n))
    img.setflags(write=False)
    return img


class PaperFolding(PanelChoiceEnv):
    """Pick the candidate sheet that shows where the holes are once the folded, punched paper is opened.

    ## Description
    The top row shows the steps: a square sheet (its cells are a faint grid) is folded in half one
    or more times, each card showing the paper before a fold with the fold line dashed and an arrow
    on the half that is folded over; the last card before the '?' shows the folded paper with the
    hole(s) punched through every layer. The paper is then unfolded. Which of the
    ``num_options`` lettered candidate sheets (default 4) shows the holes? The answer follows from
    a cell-level model (every fold reflects the moving half onto the other); the candidates are
    near misses (only the punched layer, one fold slid instead of turned, the holes mirrored the
    wrong way or shifted by a cell, one hole missing or added), each verified to differ.

    ## Action Space
    ``answer_format="open"``: `Text`, a panel letter (``C``, ``panel C``). ``"mcq"``:
    `Discrete(num_options)`, option i is panel i.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the folding steps on top, the candidate sheets below.

    ## Rewards
    1.0 for the right sheet, else 0.0.

    ## Starting State
    Folds, punch positions and the right panel's place (uniform) come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: a 4 x 4 sheet, one fold; 1: two folds; 2: an 8 x 8 sheet, three folds, two
    holes), ``num_options``, ``answer_format``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    stem_fraction = 0.36

    def _configure(self) -> None:
        self.n, self.folds, self.punches_n = LEVELS[self.difficulty]
        self.stem_cards = self.folds + 2

    def _make(self, rng: np.random.Generator, k: int) -> None:
        n = self.n
        for self.tries in range(200):
            region: Region = (0, n, 0, n)
            sides, regions = [], [region]
            for _ in range(self.folds):
                r0, r1, c0, c1 = region
                options = [s for s, ok in (("left", (c1 - c0) % 2 == 0 and c1 - c0 > 1), ("right", (c1 - c0) % 2 == 0 and c1 - c0 > 1),
                                           ("top", (r1 - r0) % 2 == 0 and r1 - r0 > 1), ("bottom", (r1 - r0) % 2 == 0 and r1 - r0 > 1)) if ok]
                side = options[int(rng.integers(len(options)))]
                sides.append(side)
                region = fold(region, side)[0]
                regions.append(region)
            r0, r1, c0, c1 = region
            cells = [(r, c) for r in range(r0, r1) for c in range(c0, c1)]
            punches = [cells[int(i)] for i in rng.permutation(len(cells))[:self.punches_n]]
            answer = unfolded_holes(n, sides, punches)
            near = [frozenset(punches)] + [unfolded_holes(n, sides, punches, slide=i) for i in range(self.folds)]
            near += [frozenset((n - 1 - r, c) for r, c in answer), frozenset((r, n - 1 - c) for r, c in answer)]
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                moved = frozenset((r + dr, c + dc) for r, c in answer)
                if all(0 <= r < n and 0 <= c < n for r, c in moved):
                    near.append(moved)
            hole = sorted(answer)[int(rng.integers(len(answer)))]
            near.append(answer - {hole})
            free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in answer]
            near.append(answer | {free[int(rng.integers(len(free)))]})
            seen, wrong = {answer}, []
            for i in rng.permutation(len(near)).tolist():
                if near[i] and near[i] not in seen:
                    seen.add(near[i])
                    wrong.append(near[i])
            if len(wrong) >= k - 1:
                break
        else:
            raise RuntimeError("PaperFolding: not enough distinct candidates")
        self.sides, self.regions, self.punches = sides, regions, punches
        self.correct = int(rng.integers(k))
        self.candidates = wrong[:k - 1]
        self.candidates.insert(self.correct, answer)

    def _cached(self, img: np.ndarray, box, key: tuple, draw) -> None:
        """``draw(img)`` for a card whose picture depends only on ``box`` and ``key``: drawn once on a
        copy of the empty layout and pasted from then on (the box is untouched when it is drawn, so
        the pixels are the same). Drawn directly when the drawing strays outside the box."""
        H, W = img.shape[:2]
        x0, y0, x1, y1 = box
        a, b, c, d = max(0, int(x0) - 2), max(0, int(y0) - 2), min(W, int(x1) + 3), min(H, int(y1) + 3)
        full = (H, W, self.num_options, self.stem_cards, self.stem_fraction, self.n, tuple(box), key)
        patch = _PATCHES.get(full)
        if patch is None:
            base = _layout(H, W, self.num_options, self.stem_fraction, self.stem_cards, self.stem_fill,
                           self.stem_question)[0]
            scratch = base.copy()
            draw(scratch)
            region = scratch[b:d, a:c].copy()
            changed = (region != base[b:d, a:c]).any(axis=2)
            scratch[b:d, a:c] = base[b:d, a:c]
            if not np.array_equal(scratch, base):  # drawn outside the box: not cached
                draw(img)
                return
            # the pixels the drawing changed (as 3-byte items, one masked copy)
            patch = (np.ascontiguousarray(region).view(PIXEL)[..., 0], changed)
            if len(_PATCHES) >= 4096:
                _PATCHES.clear()
            _PATCHES[full] = patch
        np.copyto(img.view(PIXEL)[b:d, a:c, 0], patch[0], where=patch[1])  # (img: a fresh, contiguous frame)

    def _draw_stem(self, img: np.ndarray, boxes) -> None:
        for i, box in enumerate(boxes[:-1]):
            key = ("fold", self.regions[i], self.sides[i]) if i < self.folds else ("folded", self.regions[i])
            self._cached(img, box, key, lambda im, i=i, box=box: self._card(im, i, box))
            if i == self.folds:  # the holes punched through the folded paper, on its cached picture
                self._draw_candidate(img, -1, box, self.punches)

    def _card(self, img: np.ndarray, i: int, box) -> None:
        x, y, s = sheet(img, box, self.n, self.regions[i])
        r0, r1, c0, c1 = self.regions[i]
        t = max(1, int(s // 10))
        if i < self.folds:
            side = self.sides[i]
            half = list(self.regions[i])
            mid_c, mid_r = (c0 + c1) / 2, (r0 + r1) / 2
            if side in ("left", "right"):
                half[2:] = (c0, mid_c) if side == "left" else (mid_c, c1)
                for yy in np.arange(y + r0 * s, y + r1 * s, max(2, s / 2)):
                    fill_rect(img, x + mid_c * s - t, yy, x + mid_c * s + t + 1, yy + max(1, s / 4), INK)
            else:
                half[:2] = (r0, mid_r) if side == "top" else (mid_r, r1)
                for xx in np.arange(x + c0 * s, x + c1 * s, max(2, s / 2)):
                    fill_rect(img, xx, y + mid_r * s - t, xx + max(1, s / 4), y + mid_r * s + t + 1, INK)
            a0, a1, b0, b1 = half
            fill_rect(img, x + b0 * s + t + 1, y + a0 * s + t + 1, x + b1 * s - t, y + a1 * s - t, SHADE)
            size = max(3, int(min(a1 - a0, b1 - b0) * s * 0.7))
            stamp_centred(img, glyph("arrow", size, INK, float(ARROW_ANGLE[side])), x + (b0 + b1) / 2 * s, y + (a0 + a1) / 2 * s)

    def _empty_board(self, H: int, W: int) -> np.ndarray:  # with the candidates' open sheets
        return _open_sheets(H, W, self.num_options, self.stem_fraction, self.stem_cards, self.stem_fill,
                            self.stem_question, self.n)

    def _draw_candidate(self, img: np.ndarray, i: int, box, cells=None) -> None:
        """The holes of candidate ``i`` (or on ``cells``) on the sheet in ``box`` (candidates' sheets: on the board)."""
        x0, y0, x1, y1 = box
        s = min(x1 - x0, y1 - y0) / self.n
        x, y = (x0 + x1 - s * self.n) / 2, (y0 + y1 - s * self.n) / 2
        for r, c in self.candidates[i] if cells is None else cells:
            stamp_centred(img, glyph("circle", max(3, int(s * 0.72)), INK), x + (c + 0.5) * s, y + (r + 0.5) * s)

    def _task_text(self) -> str:
        return ("The top row of the image shows a square sheet of paper being folded: each card shows the paper "
                "before a fold, with the fold line dashed and an arrow on the half that is folded over onto the "
                "other half. The last card before the '?' shows the folded paper with hole(s) punched through all "
                f"layers. The paper is then completely unfolded. Which of the {self.num_options} lettered candidate "
                "sheets shows the holes?")

    def _state_text(self) -> str:
        cands = "; ".join(f"{chr(65 + i)}: {sorted(c)}" for i, c in enumerate(self.candidates))
        return f"folds {self.sides}, punched at {self.punches} (row, col); candidates {cands}"


SPECS = (
    TaskSpec(name="PaperFolding", entry_point=PaperFolding, max_episode_steps=1,
             tags=("spatial-reasoning", "folding", "mental-simulation")),
)
