"""Artillery's drawing: the field (sky, ground, wall, target, cannon, distance ticks), the header panel with
cached labels, and the shots' paths (`ArtilleryView`, a mixin placed before `MultiTurnEnv`)."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core import canvas
from gymv_envs.domains.spatial._ballistics import WORLD_W

SKY, EARTH, GRASS, OUTSIDE = (214, 234, 248), (150, 112, 70), (88, 160, 70), (190, 190, 190)
PANEL, WALL, SHOT, FADED = (236, 236, 230), (105, 105, 115), (215, 60, 20), (150, 158, 178)


class ArtilleryView:
    """The drawing of a level and its shots (see the module docstring)."""

    def _px(self, x, y):
        return self.ox + np.asarray(x) * self.scale, self.obs_size[0] - np.asarray(y) * self.scale

    def _background(self) -> np.ndarray:
        H, W = self.obs_size
        img = canvas.new_frame(H, W, SKY)
        s, xw = self.scale, (np.arange(W) + 0.5 - self.ox) / self.scale
        depth = np.arange(H)[:, None] - (H - np.interp(xw, self.gx, self.gy) * s)[None, :]  # below ground
        img[depth >= 0] = EARTH
        img[(depth >= 0) & (depth < max(1, s * 0.8))] = GRASS
        img[:, (xw < 0) | (xw > WORLD_W)] = OUTSIDE
        if self.wall is not None:
            (a, top_), (b, _) = self._px(self.wall[0], self.wall[2]), self._px(self.wall[1], 0)
            canvas.fill_rect(img, a, top_, b, H, WALL)
            canvas.outline_rect(img, a, top_, b, H, canvas.INK, max(1, int(s * 0.2)))
        (a, b), (c, d) = self._px(self.target[0], self.target[3]), self._px(self.target[2], self.target[1])
        canvas.fill_rect(img, a, b, c, d, (220, 40, 40))
        canvas.fill_rect(img, a, b + (d - b) / 3, c, d - (d - b) / 3, (255, 255, 255))
        canvas.outline_rect(img, a, b, c, d, canvas.INK, max(1, int(s * 0.25)))
        mx, my = self._px(*self.muzzle)
        canvas.draw_shape(img, "circle", mx, my + 0.3 * s, max(3, int(2.8 * s)), canvas.INK)
        tick = max(6, int(s * 2.2))
        for m in range(10, int(WORLD_W), 10):
            px, _ = self._px(m, 0)
            canvas.fill_rect(img, px, H - max(2, s), px + max(1, s * 0.25), H, (255, 255, 255))
            if tick >= 9 and m % 20 == 0:
                canvas.draw_text(img, f"{m} m", (px, H - max(2, s) - 1), tick, (255, 255, 255), anchor="mb")
        canvas.fill_rect(img, 0, 0, W, self.header, PANEL)
        canvas.fill_rect(img, 0, self.header - max(1, H // 256), W, self.header, canvas.INK)
        label = f"wind {abs(self.wind):.1f} m/s\u00b2" if self.wind else "no wind"
        wsize = max(5, int(min(H, W) * 0.035))
        x1, y1, x2, y2 = canvas.draw_text(img, label, (W - wsize * 0.6, self.header + wsize * 0.5), wsize, anchor="rt")
        if self.wind:
            y, a, sign = y2 + wsize * 0.9, max(2.0, wsize * 0.45), float(np.sign(self.wind))
            tail, head = (x2, x1) if sign < 0 else (x1, x2)
            with canvas.pil_draw(img) as d:
                d.line([(tail, y), (head - sign * a, y)], fill=(30, 90, 200), width=max(1, int(a * 0.6)))
                d.polygon([(head, y), (head - sign * 1.6 * a, y - a), (head - sign * 1.6 * a, y + a)], fill=(30, 90, 200))
        return img

    def _stroke(self, xs: np.ndarray, ys: np.ndarray, thick: int) -> np.ndarray:
        """Flat channel-0 indices (into ``frame.reshape(-1)``) of a polyline ``thick`` pixels wide."""
        H, W = self.obs_size
        px, py = self._px(xs, ys)
        o = np.arange(thick) - thick // 2
        px = (px.astype(np.int64)[:, None] + np.tile(o, thick)).ravel()
        py = (py.astype(np.int64)[:, None] + np.repeat(o, thick)).ravel()
        keep = (px >= 0) & (px < W) & (py >= self.header) & (py < H)
        return (py[keep] * W + px[keep]) * 3

    def _shot_pixels(self, shot: tuple) -> np.ndarray:
        x, y = self._path(shot[0], shot[1], shot[5], 33)
        n = int(min(20000, np.hypot(np.diff(x), np.diff(y)).sum() * self.scale / (0.75 * self.thick))) + 2
        return self._stroke(*self._path(shot[0], shot[1], shot[5], n), self.thick)

    @staticmethod
    def _paint(img: np.ndarray, idx: np.ndarray, color: tuple[int, int, int]) -> None:
        flat = img.reshape(-1)
        for c in range(3):
            flat[idx + c] = color[c]

    def _label(self, img: np.ndarray, text: str, x: float, size: int, cells: bool = False) -> float:
        """Blit a header label (cached, pre-blended on the panel); returns its right edge. Numbers
        that change every shot (``cells``) are assembled from cached per-character cells."""
        patch = np.concatenate([self._line(ch, size) for ch in text], axis=1) if cells else self._line(text, size)
        x0, y0 = int(x), max(0, int(self.header / 2 - patch.shape[0] / 2))
        h, w = min(patch.shape[0], self.header - 1 - y0), min(patch.shape[1], img.shape[1] - x0)
        if w > 0 and h > 0:
            img[y0:y0 + h, x0:x0 + w] = patch[:h, :w]
        return x0 + w

    def _line(self, text: str, size: int) -> np.ndarray:
        """``text`` on the panel colour, on a line box of fixed height (shared baseline), cached."""
        patch = self._cache.get((text, size))
        if patch is None:
            f = canvas.font(size)
            im = Image.new("L", (max(1, round(f.getlength(text))), sum(f.getmetrics())), 0)
            ImageDraw.Draw(im).text((0, 0), text, fill=255, font=f)
            patch = self._cache[(text, size)] = canvas.new_frame(im.size[1], im.size[0], PANEL)
            canvas.blend_mask(patch, np.asarray(im), 0, 0, canvas.INK)
        return patch

    def _draw(self) -> np.ndarray:
        if self._image is not None:
            return self._image
        if self._trail is None:  # a new level, or just unpickled
            self._trail = self._background()
            for shot in self._shots[:-1]:
                self._paint(self._trail, self._shot_pixels(shot), FADED)
        if self._cache is None or len(self._cache) > 512:
            self._cache = {}  # header labels and barrel pixels, cached across steps and levels
        img, s = self._trail.copy(), self.scale
        angle = round(self._shots[-1][0]) if self._shots else 45
        barrel = self._cache.get(("barrel", angle))
        if barrel is None:
            d, th = np.linspace(0.0, 5.0, max(2, int(5.0 * s / 2))), math.radians(angle)
            barrel = self._cache[("barrel", angle)] = self._stroke(
                self.muzzle[0] + d * math.cos(th), self.muzzle[1] + d * math.sin(th), max(2, int(s * 1.3)))
        self._paint(img, barrel, (50, 50, 60))
        size = max(5, int(self.header * 0.5))
        right = self._label(img, f"shots: {len(self._shots)}", size * 0.3, size)
        if self._shots:
            shot = self._shots[-1]
            pix = self._shot_pixels(shot)
            self._paint(img, pix, SHOT)
            x, y = self._px(shot[3], shot[4])
            canvas.draw_shape(img, "star" if shot[2] == "hit" else "cross", x, y, max(4, int(2.4 * s)),
                       (250, 200, 0) if shot[2] == "hit" else (40, 40, 40))
            for text, digits in (("last shot:  angle", False), (f"{shot[0]:.1f}\u00b0", True),
                                 ("power", False), (f"{shot[1]:.2f}", True)):
                right = self._label(img, text, right + size * (0.3 if digits else 0.9), size, digits)
            self._paint(self._trail, pix, FADED)  # the trail for later frames
        self._image = img
        return img
