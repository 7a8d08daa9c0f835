"""Procedural textures of world3d (numpy, drawn once per process) and text painted into textures.

Every world declares the same textures in the same order (the GL context is shared by every
world of one frame size, see `_render`): the surface textures of `SURFACES` (brick, plaster,
wood, grass, road, water, stone, tiles) and `TEXT_SLOTS` text textures that a world
fills with its signs' and shops' words (`text_texture`). Surface textures are grey-ish detail
patterns; a material's colour (the level's visual theme) tints them.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from gymv_envs.core.canvas import draw_text, fit_text_size

SURFACE_SIZE = 128
SURFACES = ("brick", "plaster", "wood", "grass", "road", "water", "stone", "tiles")
TEXT_SLOTS = 16
TEXT_SIZE = (96, 256)   # (height, width) of a text texture


def _noise(rng: np.random.Generator, size: int, scale: int) -> np.ndarray:
    """Smooth value noise in [0, 1] (bilinear upsampling of a coarse random grid, tiling)."""
    coarse = rng.random((scale, scale))
    coarse = np.vstack([coarse, coarse[:1]])
    coarse = np.hstack([coarse, coarse[:, :1]])
    t = np.linspace(0, scale, size, endpoint=False)
    i = t.astype(int)
    f = t - i
    rows = coarse[i] * (1 - f)[:, None] + coarse[i + 1] * f[:, None]
    return rows[:, i] * (1 - f)[None, :] + rows[:, i + 1] * f[None, :]


def _octaves(rng: np.random.Generator, size: int, scales: tuple[int, ...] = (4, 8, 16, 32)) -> np.ndarray:
    out = sum(_noise(rng, size, s) / (k + 1) for k, s in enumerate(scales))
    out -= out.min()
    return out / max(out.max(), 1e-9)


def _to_rgb(gray: np.ndarray, lo: tuple, hi: tuple) -> np.ndarray:
    lo_, hi_ = np.array(lo, dtype=np.float64), np.array(hi, dtype=np.float64)
    return np.clip(lo_ + gray[..., None] * (hi_ - lo_), 0, 255).astype(np.uint8)


def _brick(rng: np.random.Generator, n: int) -> np.ndarray:
    img = np.empty((n, n, 3), dtype=np.float64)
    rows, cols = 8, 4
    bh, bw = n // rows, n // cols
    base = _octaves(rng, n)
    for r in range(rows):
        shift = (bw // 2) * (r % 2)
        for c in range(cols + 1):
            tone = 0.75 + 0.25 * rng.random()
            x0 = c * bw - shift
            xs = slice(max(0, x0), min(n, x0 + bw))
            img[r * bh:(r + 1) * bh, xs] = tone
    img *= 0.85 + 0.15 * base[..., None]
    mortar = np.zeros((n, n), dtype=bool)
    mortar[::bh] = mortar[1::bh] = True
    for r in range(rows):
        shift = (bw // 2) * (r % 2)
        for c in range(cols + 1):
            x = c * bw - shift
            if 0 <= x < n:
                mortar[r * bh:(r + 1) * bh, x:x + 2] = True
    img[mortar] = 1.25
    return np.clip(img * 200, 0, 255).astype(np.uint8)


@cache
def surface(name: str) -> np.ndarray:
    """The (SURFACE_SIZE, SURFACE_SIZE, 3) uint8 detail texture ``name`` (same pixels in every process)."""
    rng = np.random.default_rng(SURFACES.index(name) + 7)
    n = SURFACE_SIZE
    if name == "brick":
        return _brick(rng, n)
    if name == "plaster":
        return _to_rgb(_octaves(rng, n, (8, 16, 32, 64)), (205, 205, 205), (250, 250, 250))
    if name == "wood":
        grain = _noise(rng, n, 6)[:, :1] * 0 + _octaves(rng, n, (4, 32))  # streaks along x
        streaks = np.sin(np.linspace(0, 18 * np.pi, n))[:, None] * 0.25 + grain * 0.75
        planks = (np.arange(n) // (n // 4)) % 2
        img = _to_rgb(streaks, (150, 150, 150), (235, 235, 235)).astype(np.int16)
        img[:, :] -= (planks[:, None, None] * 12).astype(np.int16)
        img[:: n // 4] = 110
        return np.clip(img, 0, 255).astype(np.uint8)
    if name == "grass":
        blades = rng.random((n, n)) * 0.35
        return _to_rgb(np.clip(_octaves(rng, n) * 0.65 + blades, 0, 1), (150, 150, 150), (255, 255, 255))
    if name == "road":
        grit = rng.random((n, n)) * 0.3
        return _to_rgb(np.clip(_octaves(rng, n, (16, 32, 64)) * 0.7 + grit, 0, 1), (150, 150, 150), (235, 235, 235))
    if name == "water":
        x = np.linspace(0, 2 * np.pi, n, endpoint=False)
        waves = 0.5 + 0.25 * np.sin(4 * x[None, :] + 2 * np.sin(2 * x[:, None])) + 0.25 * _octaves(rng, n)
        return _to_rgb(np.clip(waves, 0, 1), (170, 170, 170), (255, 255, 255))
    img = _to_rgb(_octaves(rng, n, (8, 16, 32)), (185, 185, 185), (245, 245, 245))
    step = n // (4 if name == "stone" else 8)
    img[::step] = 150
    img[:, ::step] = 150
    return img


def sky_rows(height: int, fov: float, pitch: float, top: tuple, bottom: tuple) -> np.ndarray:
    """The sky behind a view, one colour per image row: ``bottom`` at the horizon fading to
    ``top`` overhead, for a camera pitched up by ``pitch`` degrees; only the rows down to a
    little below the horizon (``(rows, 3) uint8``, rows <= height)."""
    half = np.tan(np.radians(fov) / 2)
    ndc = (height / 2 - (np.arange(height) + 0.5)) / (height / 2)
    elev = np.degrees(np.arctan(ndc * half)) + pitch
    t = np.clip(elev / 60.0, 0.0, 1.0)[:, None] ** 0.7
    rows = ((np.array(bottom) * (1 - t) + np.array(top) * t) * 255).astype(np.uint8)
    return rows[: max(1, min(height, int(np.sum(elev > -3.0)) + 1))]


def text_texture(lines: tuple[str, ...], fg: tuple[int, int, int] = (25, 25, 30),
                 bg: tuple[int, int, int] = (245, 240, 220), mirror: bool = True) -> np.ndarray:
    """Words on a board: ``lines`` centred on a ``TEXT_SIZE`` texture (mirrored left-right by
    default, because a box face seen from its front shows its texture mirrored)."""
    h, w = TEXT_SIZE
    img = np.empty((h, w, 3), dtype=np.uint8)
    img[...] = bg
    img[:4] = img[-4:] = img[:, :4] = img[:, -4:] = fg
    n = max(1, len(lines))
    band = (h - 12) // n
    for k, line in enumerate(lines):
        size = fit_text_size(line, w - 20, band - 4, bold=True)
        draw_text(img, line, (w / 2, 6 + band * (k + 0.5)), size, fg, anchor="mm", bold=True)
    return np.ascontiguousarray(img[:, ::-1]) if mirror else img
