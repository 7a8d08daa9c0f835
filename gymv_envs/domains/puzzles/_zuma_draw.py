"""Zuma chain's spiral drawing: ball centres along the track, gap pointers and their labels, the empty track."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.canvas import BACKGROUND, new_frame, pil_draw

TRACK = (205, 200, 185)


@functools.lru_cache(maxsize=32)
def spiral(obs_size: tuple[int, int], n: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Centres of ``n`` balls along an inward spiral (outer end first), the dense track points and the
    ball spacing in pixels."""
    H, W = obs_size
    s = min(H, W)
    theta = np.linspace(0, 2 * np.pi * 1.8, 3000)
    r = s * (0.405 - 0.255 * theta / theta[-1])
    pts = np.stack([W / 2 + r * np.cos(theta - np.pi / 2), H / 2 + r * np.sin(theta - np.pi / 2) * 0.98], 1)
    length = np.concatenate([[0], np.cumsum(np.hypot(*np.diff(pts, axis=0).T))])
    step = min(length[-1] / (n + 1.5), s * 0.088)
    idx = np.searchsorted(length, step * (np.arange(n) + 0.5))
    return pts[idx], pts, step


@functools.lru_cache(maxsize=32)
def ball_corners(obs_size: tuple[int, int], n: int, size: int) -> tuple[tuple[int, int], ...]:
    """The top-left pixel of each ball's ``size``-pixel tile."""
    centres, _, _ = spiral(obs_size, n)
    return tuple((int(round(x - size / 2)), int(round(y - size / 2))) for x, y in centres.tolist())


@functools.lru_cache(maxsize=32)
def gap_marks(obs_size: tuple[int, int], n: int) -> tuple[tuple[tuple[int, int, int], tuple[float, float]], ...]:
    """Per gap between balls g and g+1: the pointer's centre and direction (of 32, `pointer`) just
    outside the chain, and where its number goes."""
    H, W = obs_size
    centres, _, step = spiral(obs_size, n)
    out = []
    for p in (centres[:-1] + centres[1:]) / 2:
        d = p - np.array([W / 2, H / 2])
        angle = float(np.arctan2(d[1], d[0]))
        d /= max(1e-9, float(np.hypot(*d)))
        q, label = p + d * step * 0.72, p + d * step * 1.3
        out.append(((int(q[0]), int(q[1]), int(round(angle / (2 * np.pi) * 32)) % 32), (float(label[0]), float(label[1]))))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def pointer(size: int, direction: int) -> np.ndarray:
    """A triangle mask pointing against direction ``direction`` of 32 (0: +x, turning towards +y): at the
    chain, from outside it."""
    img = np.zeros((size, size, 3), dtype=np.uint8)
    a = direction * 2 * np.pi / 32
    c, r = size / 2, size * 0.48
    pts = [(c - r * np.cos(a), c - r * np.sin(a))]
    pts += [(c + r * np.cos(a + da), c + r * np.sin(a + da)) for da in (-0.9, 0.9)]
    with pil_draw(img) as d:
        d.polygon(pts, fill=(255, 255, 255))
    mask = np.ascontiguousarray(img[..., 0])
    mask.setflags(write=False)
    return mask


@functools.lru_cache(maxsize=32)
def track(obs_size: tuple[int, int], n: int) -> np.ndarray:
    """The empty spiral track and the hole at its inner end (read-only)."""
    H, W = obs_size
    _, pts, step = spiral(obs_size, n)
    img = new_frame(H, W, BACKGROUND)
    with pil_draw(img) as d:
        d.line([tuple(p) for p in pts[::6]], fill=TRACK, width=max(1, int(step * 0.3)), joint="curve")
        e = pts[-1]
        r = step * 0.45
        d.ellipse((e[0] - r, e[1] - r, e[0] + r, e[1] + r), fill=(60, 50, 40))
    img.setflags(write=False)
    return img
