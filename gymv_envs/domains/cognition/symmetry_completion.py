"""Symmetry completion: which candidate completes a half-drawn symmetric cell pattern?"""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import INK, draw_shape, draw_text, fill_rect
from gymv_envs.domains.cognition._cells import blit_cells
from gymv_envs.domains.cognition._choice import PanelChoiceEnv

# difficulty -> (pattern side, colours besides white, symmetries a level may use)
LEVELS = {0: (4, 2, ("mirror-v",)), 1: (6, 3, ("mirror-v", "mirror-h")), 2: (6, 4, ("mirror-v", "mirror-h", "turn"))}
AXIS = (220, 40, 40)


def complete(half: np.ndarray, kind: str) -> np.ndarray:
    """The missing half: the mirror image across the axis, or the shown half turned by 180 degrees."""
    return {"mirror-v": half[:, ::-1], "mirror-h": half[::-1], "turn": half[::-1, ::-1]}[kind].copy()


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
        for self.tries in range(100):
            kind = kinds[int(rng.integers(len(kinds)))]
            shape = (n, n // 2) if kind != "mirror-h" else (n // 2, n)
            half = rng.integers(0, n_col + 1, size=shape).astype(np.int8)
            answer = complete(half, kind)
            near = [half.copy(), half[::-1].copy(), half[:, ::-1].copy(), half[::-1, ::-1].copy()]
            for _ in range(8):
                p = answer.copy()
                r, c = int(rng.integers(shape[0])), int(rng.integers(shape[1]))
                p[r, c] = (p[r, c] + 1 + int(rng.integers(n_col))) % (n_col + 1)
                if rng.random() < 0.4:
                    r2, c2 = int(rng.integers(shape[0])), int(rng.integers(shape[1]))
                    p[r, c], p[r2, c2] = p[r2, c2], p[r, c]
                near.append(p)
            seen, wrong = {answer.tobytes()}, []
            for cand in near:
                if cand.tobytes() not in seen:
                    seen.add(cand.tobytes())
                    wrong.append(cand)
            if len(wrong) >= k - 1:
                break
        else:
            raise RuntimeError("SymmetryCompletion: not enough distinct halves")
        self.kind, self.half, self.answer = kind, half, answer
        self.correct = int(rng.integers(k))
        order = [int(i) for i in rng.permutation(len(wrong))[:k - 1]]
        self.candidates = [wrong[i] for i in order]
        self.candidates.insert(self.correct, answer)

    def _draw_stem(self, img: np.ndarray, boxes) -> None:
        x0, y0, x1, y1 = boxes[0]
        n = LEVELS[self.difficulty][0]
        full = np.zeros((n, n), dtype=np.int8)
        horizontal = self.kind == "mirror-h"
        if horizontal:
            full[: n // 2] = self.half
        else:
            full[:, : n // 2] = self.half
        side = min(x1 - x0, y1 - y0) * 0.9
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        x, y, s = blit_cells(img, full, (int(cx - side / 2), int(cy - side / 2), int(cx + side / 2), int(cy + side / 2)))
        qx0, qy0 = (x, y + n // 2 * s) if horizontal else (x + n // 2 * s, y)
        qx1, qy1 = (x + n * s, y + n * s)
        fill_rect(img, qx0 + 1, qy0 + 1, qx1, qy1, (215, 215, 222))
        draw_text(img, "?", ((qx0 + qx1) / 2, (qy0 + qy1) / 2), max(4, int(s * 1.4)), INK, bold=True)
        t = max(1, s // 8)
        if self.kind == "turn":
            draw_shape(img, "circle", x + n * s / 2, y + n * s / 2, max(3, s // 2), AXIS)
        elif horizontal:
            for i in range(0, n * s, max(2, s // 2)):
                fill_rect(img, x + i, y + n // 2 * s - t, x + i + max(1, s // 4), y + n // 2 * s + t + 1, AXIS)
        else:
            for i in range(0, n * s, max(2, s // 2)):
                fill_rect(img, x + n // 2 * s - t, y + i, x + n // 2 * s + t + 1, y + i + max(1, s // 4), AXIS)

    def _draw_candidate(self, img: np.ndarray, i: int, box) -> None:
        blit_cells(img, self.candidates[i], box)

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
