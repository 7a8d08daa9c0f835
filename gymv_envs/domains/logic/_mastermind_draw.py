"""Drawing for MastermindDeduce: the peg colours, and the guess rows stamped from cached tiles."""

from __future__ import annotations

import functools

import numpy as np

from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    WHITE,
    blend_mask,
    fill_rect,
    is_uniform,
    new_frame,
    shape_mask,
    text_mask,
)

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
LETTER = {name: name[0].upper() for name in COLOURS}


def _mask(kind: str, text: str, size: int) -> np.ndarray:
    return shape_mask("circle", int(size)) if kind == "circle" else text_mask(text, int(size), True)


def _corner(mask: np.ndarray, kind: str, size: int, cx: float, cy: float) -> tuple[int, int]:
    """Where `draw_shape` (a circle) or `draw_text` (centred) puts the mask's top-left corner."""
    if kind == "circle":
        return int(round(cx - size / 2)), int(round(cy - size / 2))
    h, w = mask.shape
    return int(round(cx - w / 2)), int(round(cy - h / 2))


@functools.lru_cache(maxsize=1024)
def _stamp_tile(bg: tuple[int, int, int], parts: tuple) -> np.ndarray:
    """``(kind, text, size, colour, x, y)`` parts (corners relative to the tile) blended in order over a
    ``bg`` tile (read-only)."""
    masks = [_mask(kind, text, size) for kind, text, size, *_ in parts]
    h = max(p[5] + m.shape[0] for p, m in zip(parts, masks, strict=True))
    w = max(p[4] + m.shape[1] for p, m in zip(parts, masks, strict=True))
    tile = new_frame(h, w, bg)
    for (_, _, _, colour, x, y), mask in zip(parts, masks, strict=True):
        blend_mask(tile, mask, x, y, colour)
    tile.setflags(write=False)
    return tile


def _stamp(img: np.ndarray, bg: tuple[int, int, int], parts: tuple) -> None:
    """Draw ``(kind, text, size, colour, cx, cy)`` parts in order, as `draw_shape` (a circle) and
    `draw_text` (bold, centred) would; over a plain ``bg`` patch this copies a cached tile of the
    same pixels instead of blending again."""
    masks = [_mask(kind, text, size) for kind, text, size, *_ in parts]
    corners = [_corner(m, p[0], p[2], p[4], p[5]) for p, m in zip(parts, masks, strict=True)]
    x0, y0 = min(x for x, _ in corners), min(y for _, y in corners)
    tile = _stamp_tile(bg, tuple((*p[:4], x - x0, y - y0) for p, (x, y) in zip(parts, corners, strict=True)))
    h, w = tile.shape[:2]
    if is_uniform(img, x0, y0, x0 + w, y0 + h, bg):
        img[y0:y0 + h, x0:x0 + w] = tile
        return
    for p, m, (x, y) in zip(parts, masks, corners, strict=True):
        blend_mask(img, m, x, y, p[3])


def _geometry(H: int, W: int, n: int, L: int) -> tuple[float, int, float, float, int]:
    pitch = min(H / (n + 0.3), W / (L + 3.2))
    return pitch, max(3, int(pitch * 0.8)), (W - (L + 3.2) * pitch) / 2, (H - n * pitch) / 2, max(5, int(pitch * 0.42))


TINT = (232, 232, 226)


def _slot(H: int, W: int, n: int, L: int, names: tuple[str, ...], i: int, k: int, what) -> tuple:
    """The `_stamp` call ``(background, parts)`` of slot ``k`` of row ``i``: 0 the row number (``what``
    True) or ``?``, 1..L a peg (a colour index, None for the secret's ``?``), then the score dots
    (``what`` "black", "white" or None)."""
    pitch, peg, x0, y0, text_size = _geometry(H, W, n, L)
    cy = y0 + (i + 0.5) * pitch
    bg = TINT if i % 2 == 0 else BACKGROUND
    if k == 0:
        return bg, (("text", str(i + 1) if what else "?", text_size, INK, x0 + 0.5 * pitch, cy),)
    if k <= L:
        cx = x0 + (k - 1 + 1.5) * pitch
        if what is None:
            return bg, (("circle", "", peg, (200, 200, 200), cx, cy), ("text", "?", text_size, INK, cx, cy))
        name = names[what]
        return bg, (("circle", "", peg, PALETTE[name], cx, cy),
                    ("text", LETTER[name], text_size, INK if name == "yellow" else WHITE, cx, cy))
    j = k - L - 1
    per_row = (L + 1) // 2
    dot = max(2, int(pitch * 0.34))
    cx = x0 + (L + 1.4 + (j % per_row + 0.5) * 1.6 / per_row) * pitch
    ry = cy + (-0.2 if j < per_row else 0.2) * pitch
    if what is None:
        return bg, (("circle", "", max(2, dot // 3), (170, 170, 170), cx, ry),)
    if what == "white":
        return bg, (("circle", "", dot, INK, cx, ry), ("circle", "", max(1, dot - 2 * max(1, dot // 6)), WHITE, cx, ry))
    return bg, (("circle", "", dot, INK, cx, ry),)


def _row(L: int, guess, fb) -> list[tuple[int, object]]:
    """The slots of a row and what each shows."""
    if guess is None:
        return [(0, False)] + [(j + 1, None) for j in range(L)]
    black, white = divmod(fb, 16)
    return ([(0, True)] + [(j + 1, guess[j]) for j in range(L)]
            + [(L + 1 + j, "black" if j < black else "white" if j < black + white else None) for j in range(L)])


def _tint(img: np.ndarray, H: int, W: int, n: int, L: int, i: int) -> None:
    pitch, _, x0, y0, _ = _geometry(H, W, n, L)
    cy = y0 + (i + 0.5) * pitch
    fill_rect(img, x0, cy - pitch / 2, x0 + (L + 3.2) * pitch, cy + pitch / 2, TINT)


def _placed(bg: tuple[int, int, int], parts: tuple) -> tuple[int, int, np.ndarray]:
    """Where `_stamp` puts the tile of ``parts`` and the tile."""
    masks = [_mask(kind, text, size) for kind, text, size, *_ in parts]
    corners = [_corner(m, p[0], p[2], p[4], p[5]) for p, m in zip(parts, masks, strict=True)]
    x0, y0 = min(x for x, _ in corners), min(y for _, y in corners)
    return x0, y0, _stamp_tile(bg, tuple((*p[:4], x - x0, y - y0) for p, (x, y) in zip(parts, corners, strict=True)))


@functools.lru_cache(maxsize=16384)
def _slot_tile(H: int, W: int, n: int, L: int, names: tuple[str, ...], i: int, k: int, what) -> tuple:
    x, y, tile = _placed(*_slot(H, W, n, L, names, i, k, what))
    return slice(y, y + tile.shape[0]), slice(x, x + tile.shape[1]), tile


@functools.lru_cache(maxsize=64)
def _plan(H: int, W: int, n: int, L: int, names: tuple[str, ...]) -> np.ndarray | None:
    """For ``n`` rows: the frame with the row tints (read-only), when every stamp any slot can hold
    sits on its row's plain colour there and apart from every other slot's; None otherwise (then the
    frame is stamped part by part, checking each time)."""
    base = new_frame(H, W, BACKGROUND)
    for i in range(0, n, 2):
        _tint(base, H, W, n, L, i)
    base.setflags(write=False)
    choices = {0: (True, False), **{k: (None, *range(len(names))) for k in range(1, L + 1)},
               **{k: (None, "black", "white") for k in range(L + 1, 2 * L + 1)}}
    boxes: list[tuple[int, int, int, int]] = []
    for i in range(n):
        for k, options in choices.items():
            x0 = y0 = 1 << 30
            x1 = y1 = -1
            for what in options:
                bg, parts = _slot(H, W, n, L, names, i, k, what)
                x, y, tile = _placed(bg, parts)
                if not is_uniform(base, x, y, x + tile.shape[1], y + tile.shape[0], bg):
                    return None
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + tile.shape[1]), max(y1, y + tile.shape[0])
            boxes.append((x0, y0, x1, y1))
    for a, (ax0, ay0, ax1, ay1) in enumerate(boxes):
        for bx0, by0, bx1, by1 in boxes[a + 1:]:
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                return None
    return base


def draw_board(H: int, W: int, guesses: tuple, length: int, names: tuple[str, ...]) -> np.ndarray:
    """The numbered guesses with their scores, then the secret's row of question marks."""
    n, L = len(guesses) + 1, length
    rows = [_row(L, g, fb) for g, fb in (*guesses, (None, None))]
    base = _plan(H, W, n, L, names)
    if base is not None:  # slots apart, each on its plain row colour: copy the cached stamps
        img = base.copy()
        for i, row in enumerate(rows):
            for k, what in row:
                r, c, tile = _slot_tile(H, W, n, L, names, i, k, what)
                img[r, c] = tile
        return img
    img = new_frame(H, W, BACKGROUND)
    for i, row in enumerate(rows):
        if i % 2 == 0:
            _tint(img, H, W, n, L, i)
        for k, what in row:
            _stamp(img, *_slot(H, W, n, L, names, i, k, what))
    return img
