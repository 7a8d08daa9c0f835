"""Colour gradient boards: cells whose shade steps by one per cell along a direction, with a legend."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    draw_text,
    fill_rect,
    fit_text_size,
    new_frame,
)
from gymv_envs.domains.cognition._cells import blit_cells

# difficulty -> (board side, directions allowed: axes only or diagonals too)
LEVELS = {0: (5, False), 1: (6, True), 2: (7, True)}
DIRECTIONS = {"right": (0, 1), "left": (0, -1), "down": (1, 0), "up": (-1, 0),
              "down-right": (1, 1), "down-left": (1, -1), "up-right": (-1, 1), "up-left": (-1, -1)}
RAMPS = (((255, 240, 170), PALETTE["blue"]), ((250, 250, 250), PALETTE["red"]), ((255, 235, 160), PALETTE["purple"]),
         ((220, 250, 230), PALETTE["green"]), ((255, 245, 225), PALETTE["brown"]))
_NUMBER = re.compile(r"^\s*(?:shade\s*(?:number\s*)?)?#?\s*(\d{1,2})\s*\.?\s*$", re.IGNORECASE)


def shade_rgb(ramp: int, m: int) -> np.ndarray:
    """``m`` colours stepping evenly from the ramp's light end to its dark end."""
    a, b = (np.array(c, dtype=float) for c in RAMPS[ramp])
    t = np.linspace(0, 1, m)[:, None]
    return np.round(a + (b - a) * t).astype(np.uint8)


@functools.lru_cache(maxsize=256)
def legend(H: int, W: int, ramp: int, m: int) -> np.ndarray:
    """The legend band: the ``m`` shades numbered 1..m (read-only, cached)."""
    band = max(8, int(H * 0.15))
    img = new_frame(band, W, BACKGROUND)
    cols = shade_rgb(ramp, m)
    sw = W * 0.94 / m
    size = fit_text_size(str(m), int(sw * 0.8), int(band * 0.32), bold=True)
    for i in range(m):
        x = W * 0.03 + i * sw
        fill_rect(img, x + 1, band * 0.42, x + sw - 1, band * 0.95, tuple(int(v) for v in cols[i]))
        draw_text(img, str(i + 1), (x + sw / 2, band * 0.2), size, INK, bold=True)
    img.setflags(write=False)
    return img


class GradientEnv(SingleTurnEnv):
    """Base of the gradient-board ids (not registered): ``self.shades`` (board of 0-based shade
    indices), ``self.direction`` and the ramp; the subclass adds its question."""

    def _board(self, rng: np.random.Generator) -> None:
        n, diagonal = LEVELS[self.difficulty]
        names = list(DIRECTIONS) if diagonal else list(DIRECTIONS)[:4]
        self.direction = names[int(rng.integers(len(names)))]
        dr, dc = DIRECTIONS[self.direction]
        r, c = np.mgrid[0:n, 0:n]
        value = r * dr + c * dc
        self.shades = (value - value.min()).astype(np.int8)
        self.m = int(self.shades.max()) + 1
        self.ramp = int(rng.integers(len(RAMPS)))

    def _paint(self, marks: dict[tuple[int, int], str]) -> np.ndarray:
        """The board above the legend; ``marks`` maps cells to "ring" (outlined), "?" (blanked with a
        '?') or "blank" (plain grey)."""
        H, W = self.obs_size
        band = max(8, int(H * 0.15))
        img = new_frame(H, W, BACKGROUND)
        colours = np.concatenate([shade_rgb(self.ramp, self.m), [[200, 200, 205]]]).astype(np.uint8)
        board = self.shades.copy()
        for cell, kind in marks.items():
            if kind in ("?", "blank"):
                board[cell] = self.m
        pad = max(2, int(min(H, W) * 0.04))
        x, y, s = blit_cells(img, board, (pad, pad, W - pad, H - band - pad), colours, (90, 90, 100))
        for (r, c), kind in marks.items():
            x0, y0 = x + c * s, y + r * s
            if kind == "blank":
                continue
            if kind == "?":
                draw_text(img, "?", (x0 + s / 2, y0 + s / 2), max(4, int(s * 0.7)), INK, bold=True)
            else:
                t = max(2, s // 7)
                for k, col in ((0, INK), (t, (255, 255, 255))):
                    fill_rect(img, x0 + k, y0 + k, x0 + s - k, y0 + t + k, col)
                    fill_rect(img, x0 + k, y0 + s - t - k, x0 + s - k, y0 + s - k, col)
                    fill_rect(img, x0 + k, y0 + k, x0 + t + k, y0 + s - k, col)
                    fill_rect(img, x0 + s - t - k, y0 + k, x0 + s - k, y0 + s - k, col)
        img[H - band:] = legend(H, W, self.ramp, self.m)
        return img

    def _board_text(self) -> str:
        return "/".join(" ".join(str(v + 1) for v in row) for row in self.shades.tolist())

    def _read_number(self, text: str) -> int | None:
        m = _NUMBER.match(text) if len(text) < 40 else None
        return int(m.group(1)) if m else None


class ShadeQuestion(GradientEnv):
    """A gradient task whose answer is one legend number, ``self.answer`` (1 to ``self.m``)."""

    answer: int

    def _parse_answer(self, text: str) -> int | None:
        return self._read_number(text)

    def _check(self, answer) -> bool:
        return int(answer) == self.answer

    def _format(self, answer) -> str:
        return str(int(answer))

    def _solve(self) -> int:
        return self.answer

    def _near_misses(self, rng: np.random.Generator) -> list[int]:
        a = self.answer
        out = [a + d for d in (1, -1, 2, -2, 3, -3, 4, -4) if 1 <= a + d <= self.m]
        return out + [v for v in range(1, self.m + 3) if v != a and v not in out]
