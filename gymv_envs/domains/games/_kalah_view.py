"""Kalah's board drawing: the wooden board, pits and stores with their seed counts, pit letters, the pits
changed by the last step lit; each pit pasted from a cached patch.

`KalahView` is a mixin placed before `BoardGameEnv` in Kalah's bases.
"""

from __future__ import annotations

import numpy as np

from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    draw_text,
    fit_text_size,
    new_frame,
    pil_draw,
)
from gymv_envs.domains.games._board import ME, THEM, BoardGameEnv
from gymv_envs.domains.games._kalah_rules import FIRST, PITS, STORE

WOOD, WOOD_EDGE, PIT_C, LIT_C = (205, 160, 95), (110, 75, 35), (245, 225, 185), (255, 215, 60)
SIDE_C = {ME: (40, 70, 160), THEM: (170, 50, 45)}


class KalahView:
    """The drawing of a Kalah board (see the module docstring)."""

    transient_attrs = (*BoardGameEnv.transient_attrs, "_base")

    def _layout(self):
        """Cached per obs_size: (background, pit centres by board index, pit radius, store half-height, count
        text size, patches of `_patch`)."""
        H, W = self.obs_size
        unit = min(W / 8.4, H / 3.6)
        x0, y0 = (W - 8 * unit) / 2, (H - 3 * unit) / 2
        base = new_frame(H, W, BACKGROUND)
        centres = {}
        for i in range(PITS):
            centres[i] = (x0 + (i + 1.5) * unit, y0 + 2.0 * unit)
            centres[FIRST[THEM] + i] = (x0 + (PITS - i + 0.5) * unit, y0 + 1.0 * unit)
        centres[STORE[ME]], centres[STORE[THEM]] = (x0 + 7.5 * unit, y0 + 1.5 * unit), (x0 + 0.5 * unit, y0 + 1.5 * unit)
        r, sh = 0.42 * unit, 0.95 * unit
        with pil_draw(base) as d:
            d.rounded_rectangle((x0, y0 + 0.45 * unit, x0 + 8 * unit, y0 + 2.55 * unit), radius=unit / 2, fill=WOOD,
                                outline=WOOD_EDGE, width=max(1, round(unit / 20)))
        lsize = max(4, fit_text_size("A", int(unit * 0.6), int(unit * 0.4), bold=True))
        for i in range(PITS):
            draw_text(base, "ABCDEF"[i], (centres[i][0], y0 + 2.75 * unit), lsize, SIDE_C[ME], bold=True)
            j = FIRST[THEM] + i
            draw_text(base, "abcdef"[i], (centres[j][0], y0 + 0.25 * unit), lsize, SIDE_C[THEM], bold=True)
        size = max(4, fit_text_size("20", int(1.3 * r), int(1.1 * r), bold=True))
        self._base = (base, centres, r, sh, size, {})   # patches by (pit, seeds, lit): at most 14 * 2 * 49, ~15 MB at 512x512
        return self._base

    def _paint(self, frame: np.ndarray, d, i: int, seeds: int, lit: bool) -> None:
        """Pit or store ``i``'s shape (with PIL draw ``d``) on ``frame``; the seed count is drawn by the caller."""
        _, centres, r, sh, _, _ = self._base
        cx, cy = centres[i]
        fill = LIT_C if lit else PIT_C
        if i in (STORE[ME], STORE[THEM]):
            d.rounded_rectangle((cx - r, cy - sh, cx + r, cy + sh), radius=r, fill=fill, outline=SIDE_C[ME if i == STORE[ME] else THEM],
                                width=max(1, round(r / 8)))
        else:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=WOOD_EDGE, width=max(1, round(r / 10)))

    def _patch(self, i: int, seeds: int, lit: bool):
        """Pit or store ``i`` drawn alone on the empty board, cut to its cell of the layout's grid (pits one
        unit square, stores their whole column), or None when the drawing leaves its cell."""
        base, centres, r, sh, size, _ = self._base
        H, W = self.obs_size
        unit = min(W / 8.4, H / 3.6)
        x0, y0 = (W - 8 * unit) / 2, (H - 3 * unit) / 2
        col = 7 if i == STORE[ME] else 0 if i == STORE[THEM] else i + 1 if i < PITS else 2 * PITS + 1 - i
        rows = (-0.5, 2.5) if i in (STORE[ME], STORE[THEM]) else (1, 2) if i < PITS else (0, 1)
        xa, xb = int(round(x0 + col * unit)), int(round(x0 + (col + 1) * unit))
        ya, yb = (int(round(y0 + (k + 0.5) * unit)) for k in rows)
        f = base.copy()
        with pil_draw(f) as d:
            self._paint(f, d, i, seeds, lit)
        draw_text(f, str(seeds), centres[i], size, INK, bold=True)
        out = f != base   # changed channels; per pixel (``.any(axis=2)``) the same verdict, at 100 times the cost
        out[max(ya, 0):max(yb, 0), max(xa, 0):max(xb, 0)] = False
        if out.any() or xa < 0 or ya < 0:
            return None
        tile = f[ya:yb, xa:xb].copy()
        return ya, yb, xa, xb, tile

    def _draw(self) -> np.ndarray:
        """The empty board with each pit and store pasted from a cached patch (`_patch`): the pits' cells do
        not overlap, so the frame is the one drawing every shape and then every count would give."""
        base, centres, r, sh, size, patches = getattr(self, "_base", None) or self._layout()
        b, prev = self.state[0], self.before[0]
        cut = []
        for i in centres:
            key = (i, b[i], b[i] != prev[i])
            hit = patches.get(key, False)
            if hit is False:
                hit = patches[key] = self._patch(*key)
            if hit is None:
                return self._draw_whole()
            cut.append(hit)
        frame = base.copy()
        for ya, yb, xa, xb, tile in cut:
            frame[ya:yb, xa:xb] = tile
        return frame

    def _draw_whole(self) -> np.ndarray:
        base, centres, r, sh, size, _ = self._base
        frame = base.copy()
        b, prev = self.state[0], self.before[0]
        with pil_draw(frame) as d:
            for i in centres:
                self._paint(frame, d, i, b[i], b[i] != prev[i])
        for i, (cx, cy) in centres.items():
            draw_text(frame, str(b[i]), (cx, cy), size, INK, bold=True)
        return frame
