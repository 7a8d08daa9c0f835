"""Symmetry completion: which candidate completes a half-drawn symmetric cell pattern?"""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import INK, PIXEL, draw_shape, draw_text, fill_rect
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.cognition._cells import CELL_COLOURS, LINE, blit_cells
from gymv_envs.domains.cognition._choice import PanelChoiceEnv, _layout, panel_inner

# difficulty -> (pattern side, colours besides white, symmetries a level may use)
LEVELS = {0: (4, 2, ("mirror-v",)), 1: (6, 3, ("mirror-v", "mirror-h")), 2: (6, 4, ("mirror-v", "mirror-h", "turn"))}
AXIS = (220, 40, 40)


def complete(half: np.ndarray, kind: str) -> np.ndarray:
    """The missing half: the mirror image across the axis, or the shown half turned by 180 degrees."""
    return {"mirror-v": half[:, ::-1], "mirror-h": half[::-1], "turn": half[::-1, ::-1]}[kind].copy()


@functools.lru_cache(maxsize=16)
def _flips(h: int, w: int) -> dict[str, tuple[int, ...]]:
    """Per symmetry, where each cell of an h x w half (flat, row by row) comes from in its `complete` image."""
    cells = np.arange(h * w).reshape(h, w)
    return {kind: tuple(complete(cells, kind).ravel().tolist()) for kind in ("mirror-v", "mirror-h", "turn")}


def _stem_cells(img: np.ndarray, box, n: int, kind: str, half: np.ndarray, colours: np.ndarray = CELL_COLOURS,
                line=LINE) -> tuple[int, int, int]:
    """The whole n x n pattern (the shown half, the other half white) as cells centred in the stem ``box``."""
    x0, y0, x1, y1 = box
    full = np.zeros((n, n), dtype=half.dtype)
    if kind == "mirror-h":
        full[: n // 2] = half
    else:
        full[:, : n // 2] = half
    side = min(x1 - x0, y1 - y0) * 0.9
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return blit_cells(img, full, (int(cx - side / 2), int(cy - side / 2), int(cx + side / 2), int(cy + side / 2)),
                      colours, line)


def draw_stem(img: np.ndarray, box, n: int, kind: str, half: np.ndarray) -> None:
    """The stem: the pattern with its missing half a grey '?', and the mirror axis (dashed) or the half-turn dot."""
    horizontal = kind == "mirror-h"
    x, y, s = _stem_cells(img, box, n, kind, half)
    qx0, qy0 = (x, y + n // 2 * s) if horizontal else (x + n // 2 * s, y)
    qx1, qy1 = (x + n * s, y + n * s)
    fill_rect(img, qx0 + 1, qy0 + 1, qx1, qy1, (215, 215, 222))
    draw_text(img, "?", ((qx0 + qx1) / 2, (qy0 + qy1) / 2), max(4, int(s * 1.4)), INK, bold=True)
    t = max(1, s // 8)
    if kind == "turn":
        draw_shape(img, "circle", x + n * s / 2, y + n * s / 2, max(3, s // 2), AXIS)
    elif horizontal:
        for i in range(0, n * s, max(2, s // 2)):
            fill_rect(img, x + i, y + n // 2 * s - t, x + i + max(1, s // 4), y + n // 2 * s + t + 1, AXIS)
    else:
        for i in range(0, n * s, max(2, s // 2)):
            fill_rect(img, x + n // 2 * s - t, y + i, x + n // 2 * s + t + 1, y + i + max(1, s // 4), AXIS)


class SymmetryCompletion(PanelChoiceEnv):
    """Pick the candidate half that makes the cell pattern symmetric.

    ## Description
    The top shows a square pattern of coloured cells of which one half is drawn and the other is a
    '?'. A dashed red line is a mirror axis (the missing half is the mirror image of the drawn half
    across it); a red dot in the middle instead means the whole pattern looks the same after a half
    turn. The ``num_options`` lettered candidates (default 8) are halves: the right one and near
    misses (the half copied without mirroring, mirrored across the wrong axis, turned instead of
    mirrored, one or two cells changed), each verified to differ from the right half.

    ## Action Space
    ``answer_format="open"``: `Text`, a panel letter (``C``, ``panel C``). ``"mcq"``:
    `Discrete(num_options)`, option i is panel i.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the half pattern with its axis on top, the candidates below.

    ## Rewards
    1.0 for the completing half, else 0.0.

    ## Starting State
    The pattern, the symmetry and the right panel's place (uniform) come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 4 x 4 cells, 2 colours, a vertical axis; 1: 6 x 6, 3 colours, a vertical or
    horizontal axis; 2: 6 x 6, 4 colours, or a half turn), ``num_options`` (candidates, default 8
    as registered; 4 works too), ``answer_format``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    stem_fraction = 0.42

    def _make(self, rng: np.random.Generator, k: int) -> None:
        n, n_col, kinds = LEVELS[self.difficulty]
        # halves as flat tuples (row by row), drawn one value at a time: the same draws, in the same order, as
        # ``rng.integers`` called on the generator (the half's array row by row), at Python speed
        with ScalarDraws(rng) as d:
            draw = d.integers
            for self.tries in range(100):
                kind = kinds[draw(len(kinds))]
                h, w = (n, n // 2) if kind != "mirror-h" else (n // 2, n)
                flips = _flips(h, w)
                half = tuple([draw(0, n_col + 1) for _ in range(h * w)])
                answer = tuple(map(half.__getitem__, flips[kind]))
                near = [half] + [tuple(map(half.__getitem__, flips[f])) for f in ("mirror-h", "mirror-v", "turn")]
                for _ in range(8):
                    p = list(answer)
                    at = draw(h) * w + draw(w)
                    p[at] = (p[at] + 1 + draw(n_col)) % (n_col + 1)
                    if d.random() < 0.4:
                        to = draw(h) * w + draw(w)
                        p[at], p[to] = p[to], p[at]
                    near.append(tuple(p))
                seen, wrong = {answer}, []
                for cand in near:
                    if cand not in seen:
                        seen.add(cand)
                        wrong.append(cand)
                if len(wrong) >= k - 1:
                    break
            else:
                raise RuntimeError("SymmetryCompletion: not enough distinct halves")
            self.correct = draw(k)
        order = rng.permutation(len(wrong))[:k - 1].tolist()
        grid = lambda cells: np.array(cells, dtype=np.int8).reshape(h, w)  # noqa: E731
        self.kind, self.half, self.answer = kind, grid(half), grid(answer)
        self.candidates = [grid(wrong[i]) for i in order]
        self.candidates.insert(self.correct, grid(answer))

    def _draw_stem(self, img: np.ndarray, boxes) -> None:
        draw_stem(img, boxes[0], LEVELS[self.difficulty][0], self.kind, self.half)

    def _draw_candidate(self, img: np.ndarray, i: int, box) -> None:
        blit_cells(img, self.candidates[i], box)

    def _draw(self) -> np.ndarray:
        """`PanelChoiceEnv._draw`'s picture: the level's cell colours put into a cached frame of white cells."""
        cells = _cell_pixels(tuple(self.obs_size), self.num_options, LEVELS[self.difficulty][0], self.kind)
        if cells is None:
            return super()._draw()
        frame, pix, cell = cells
        img = frame.copy()
        values = np.array([self.half, *self.candidates]).ravel()
        img.reshape(-1, 3).view(PIXEL).ravel().put(pix, _CELL_PIXELS.take(values.take(cell)))
        return img

    def _task_text(self) -> str:
        return (f"The top of the image shows a square pattern of coloured cells; half of it is drawn and the "
                "other half is a grey '?'. A dashed red line is a mirror axis: the pattern is mirror-symmetric "
                "across it. A red dot in the middle means instead that the pattern looks the same after a "
                f"half turn. Which of the {self.num_options} lettered candidate halves fills the '?'?")

    def _state_text(self) -> str:
        rows = lambda g: "/".join("".join(map(str, r)) for r in g.tolist())  # noqa: E731
        cands = "; ".join(f"{chr(65 + i)}: {rows(c)}" for i, c in enumerate(self.candidates))
        return f"{self.kind}, shown half {rows(self.half)}; candidates {cands}"


SPECS = (
    TaskSpec(name="SymmetryCompletion", entry_point=SymmetryCompletion, max_episode_steps=1,
             kwargs={"num_options": 8}, tags=("abstract-reasoning", "symmetry", "figures")),
)


_CELL_PIXELS = CELL_COLOURS.view(PIXEL).ravel()
_CELL_NUMBERS = np.array([(v, 0, 0) for v in range(256)], dtype=np.uint8)  # cell v drawn in colour (v, 0, 0)


@functools.lru_cache(maxsize=32)
def _cell_pixels(size: tuple[int, int], k: int, n: int, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The picture of a level of ``k`` candidates whose cells are all white (read-only), the pixels that show
    one cell's colour and nothing over it (flat indices), and the cell each one shows (the shown half's
    cells, then each candidate's, row by row). None where a mark is blended over some cell pixels (the
    half-turn dot), or where there are too many cells or pixels to put one by one (above about 200 x 200
    px the cells' rows are cheaper): the picture is drawn in full then."""
    H, W = size
    cls = SymmetryCompletion
    base, boxes, stem = _layout(H, W, k, cls.stem_fraction, cls.stem_cards, cls.stem_fill, cls.stem_question)
    shape = (n, n // 2) if kind != "mirror-h" else (n // 2, n)
    cells = shape[0] * shape[1] * (k + 1)
    if cells > 255:
        return None
    inner = [panel_inner(b) for b in boxes]
    frames = []
    for v in (0, 1):  # all cells white, then all blue: the pixels that differ show their cell
        img = base.copy()
        grid = np.full(shape, v, dtype=np.int8)
        draw_stem(img, stem[0], n, kind, grid)
        for box in inner:
            blit_cells(img, grid, box)
        frames.append(img)
    numbers = np.zeros((H, W, 3), dtype=np.uint8)  # each cell's pixels in colour (its number + 1, 0, 0)
    grids = np.arange(1, cells + 1).reshape(k + 1, *shape)
    _stem_cells(numbers, stem[0], n, kind, grids[0], _CELL_NUMBERS, (0, 0, 0))
    for grid, box in zip(grids[1:], inner):
        blit_cells(numbers, grid, box, _CELL_NUMBERS, (0, 0, 0))
    white, blue = (f.reshape(-1, 3) for f in frames)
    pix = np.flatnonzero((white != blue).any(axis=1))
    if len(pix) > 6000:
        return None
    cell = numbers[..., 0].ravel().take(pix).astype(np.intp) - 1
    if (cell < 0).any() or (white[pix] != CELL_COLOURS[0]).any() or (blue[pix] != CELL_COLOURS[1]).any():
        return None
    for arr in (frames[0], pix, cell):
        arr.setflags(write=False)
    return frames[0], pix, cell
