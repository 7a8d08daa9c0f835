"""Shared drawing: numpy frames, a bundled font, cached glyph and shape masks, grid tiles.

Frames are ``(H, W, 3) uint8`` arrays drawn natively at the requested size. Anything that is
drawn more than once (text, shapes, grid tiles) is rendered once with PIL and cached as a
numpy mask or tile, so per-step drawing is array slicing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from contextlib import contextmanager
from importlib import resources

import numpy as np
from PIL import Image, ImageDraw, ImageFont

Color = tuple[int, int, int]

# Colours a model can name; every task that says a colour in text uses these names.
PALETTE: dict[str, Color] = {
    "red": (220, 50, 47),
    "green": (40, 160, 60),
    "blue": (38, 110, 220),
    "yellow": (240, 200, 20),
    "purple": (140, 70, 190),
    "orange": (245, 130, 30),
    "cyan": (30, 190, 200),
    "pink": (240, 110, 170),
    "brown": (140, 90, 50),
    "gray": (128, 128, 128),
}
WHITE: Color = (255, 255, 255)
BLACK: Color = (0, 0, 0)
BACKGROUND: Color = (245, 245, 240)
INK: Color = (30, 30, 35)
GRID_LINE: Color = (90, 90, 100)
ROAD: Color = (200, 200, 196)  # asphalt: the Rush Hour lots

SHAPES = ("circle", "square", "triangle", "diamond", "star", "cross", "hexagon", "heart")


def _font_path(bold: bool, mono: bool) -> str:
    name = "DejaVuSansMono-Bold.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return str(resources.files("gymv_envs.core").joinpath("assets", "fonts", name))


@functools.lru_cache(maxsize=256)
def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu font at ``size`` pixels."""
    return ImageFont.truetype(_font_path(bold, mono), max(4, int(size)))


@functools.lru_cache(maxsize=8192)
def text_mask(text: str, size: int, bold: bool = False, mono: bool = False) -> np.ndarray:
    """An 8-bit coverage mask of ``text`` (read-only, cached)."""
    f = font(size, bold, mono)
    lines = text.split("\n")
    boxes = [f.getbbox(line or " ") for line in lines]
    line_h = int(size * 1.2)
    width = max(1, max(b[2] for b in boxes) + 2)
    height = max(1, line_h * (len(lines) - 1) + max(boxes[-1][3], 1) + 2)
    img = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((1, 1 + i * line_h), line, fill=255, font=f)
    mask = np.asarray(img)
    rows, cols = np.nonzero(mask)
    if rows.size:
        mask = mask[rows.min(): rows.max() + 1, cols.min(): cols.max() + 1]
    mask = np.ascontiguousarray(mask)
    mask.setflags(write=False)
    return mask


_BLEND_TERMS: dict[tuple[int, Color], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
_BLEND_TERMS_MAX = 4096


def _blend_terms(mask: np.ndarray, color: Color) -> tuple[np.ndarray, np.ndarray]:
    """``(255 - m, color * m + 128)`` as uint16 (h, w, 3) for a mask and colour (both whole: numpy's loops over a
    channel axis of length 1 broadcast run at half the speed); cached for read-only (cached) masks."""
    key = (id(mask), color)
    hit = _BLEND_TERMS.get(key)
    if hit is not None and hit[0] is mask:
        return hit[1], hit[2]
    m = mask.astype(np.uint16)[..., None]
    inv = np.repeat(255 - m, 3, axis=2)
    add = np.asarray(color, dtype=np.uint16) * m + 128
    if not mask.flags.writeable:
        if len(_BLEND_TERMS) >= _BLEND_TERMS_MAX:
            _BLEND_TERMS.clear()
        _BLEND_TERMS[key] = (mask, inv, add)
    return inv, add


def blend_mask(frame: np.ndarray, mask: np.ndarray, x: int, y: int, color: Color) -> None:
    """Alpha-blend ``color`` through ``mask`` onto ``frame`` with the mask's top-left at (x, y).

    Each pixel becomes ``(pixel * (255 - m) + color * m + 127) // 255``, computed in uint16 with
    the division by 255 done as ``(u + (u >> 8)) >> 8`` on ``u = v + 1`` (exact for every v up to
    65534, and v never exceeds 255 * 255 + 127); the mask's terms are cached with the mask.
    """
    h, w = mask.shape
    fh, fw = frame.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, fw), min(y + h, fh)
    if x0 >= x1 or y0 >= y1:
        return
    inv, add = _blend_terms(mask, color if type(color) is tuple else tuple(int(v) for v in color))
    if x0 != x or y0 != y or x1 - x0 != w or y1 - y0 != h:  # cut by the frame's border
        rows, cols = slice(y0 - y, y1 - y), slice(x0 - x, x1 - x)
        inv, add = inv[rows, cols], add[rows, cols]
    region = frame[y0:y1, x0:x1]
    v = region.astype(np.uint16)
    v *= inv
    v += add
    v += v >> 8
    v >>= 8
    region[...] = v


def _bad_anchor(anchor: str):
    raise ValueError(f"anchor {anchor!r}: two letters, l/m/r then t/m/b (for example 'mm', 'lt')")


def draw_text(
    frame: np.ndarray,
    text: str,
    xy: tuple[float, float],
    size: int,
    color: Color = INK,
    anchor: str = "mm",
    bold: bool = False,
    mono: bool = False,
) -> tuple[int, int, int, int]:
    """Draw ``text`` anchored at ``xy``; ``anchor`` is two letters (l/m/r, t/m/b). Returns the box."""
    mask = text_mask(text, int(size), bold, mono)
    h, w = mask.shape
    ax, ay = anchor
    x = xy[0] - w / 2 if ax == "m" else xy[0] if ax == "l" else xy[0] - w if ax == "r" else _bad_anchor(anchor)
    y = xy[1] - h / 2 if ay == "m" else xy[1] if ay == "t" else xy[1] - h if ay == "b" else _bad_anchor(anchor)
    x, y = int(round(x)), int(round(y))
    blend_mask(frame, mask, x, y, color)
    return x, y, x + w, y + h


def fit_text_size(text: str, max_w: int, max_h: int, bold: bool = False, mono: bool = False) -> int:
    """The largest font size (<= max_h) at which ``text`` fits in max_w x max_h."""
    size = max(4, int(max_h))
    while size > 4:
        h, w = text_mask(text, size, bold, mono).shape
        if w <= max_w and h <= max_h:
            break
        size = int(size * 0.9)
    return size


PIXEL = np.dtype((np.void, 3))  # an RGB pixel as one 3-byte item: a scatter or masked copy of pixels is one
# numpy call on a frame's ``view(PIXEL)``, not one per channel
_RGB: dict[tuple, np.ndarray] = {}


def rgb_array(color: Color) -> Color | np.ndarray:
    """A tuple colour as a cached read-only uint8 array (numpy converts a tuple again on every assignment: about
    0.5 us; also what ``np.copyto(..., where=mask)`` wants); any other colour as it is."""
    if type(color) is tuple:
        arr = _RGB.get(color)
        if arr is None:
            bad = [v for v in color if type(v) is int and not 0 <= v <= 255]
            if bad:  # as numpy 2 says; numpy 1.x would only warn and wrap
                raise OverflowError(f"colour {color}: Python integer {bad[0]} out of bounds for uint8")
            arr = np.array(color, dtype=np.uint8)
            arr.setflags(write=False)
            if len(_RGB) < 4096:
                _RGB[color] = arr
        return arr
    return color


def fill(region: np.ndarray, color: Color) -> None:
    """Set every pixel of an (h, w, 3) view to ``color``.

    Broadcasting a 3-vector over a whole image is ~60x slower in numpy than filling one row
    and copying rows, which is what this does (a region of a few pixels is broadcast: faster there).
    """
    h, w = region.shape[0], region.shape[1]
    color = rgb_array(color)
    if h * w <= 96:  # a few pixels (a dot, a short line): one broadcast is cheaper than two copies
        if h and w:
            region[...] = color
    else:
        region[0] = color
        region[1:] = region[0]


def new_frame(h: int, w: int, color: Color = BACKGROUND) -> np.ndarray:
    """A new (h, w, 3) uint8 frame filled with ``color``."""
    frame = np.empty((h, w, 3), dtype=np.uint8)
    fill(frame, color)
    return frame


def fill_rect(frame: np.ndarray, x0: float, y0: float, x1: float, y1: float, color: Color) -> None:
    """Fill the pixel box [x0, x1) x [y0, y1), clipped to the frame."""
    fh, fw = frame.shape[:2]
    a, b, c, d = int(x0), int(x1), int(y0), int(y1)
    if a < 0:  # (clipped with compares: a call to max or min costs more than the rest of a small box)
        a = 0
    if b > fw:
        b = fw
    if c < 0:
        c = 0
    if d > fh:
        d = fh
    if a < b and c < d:
        fill(frame[c:d, a:b], color)


def paste(frame: np.ndarray, tile: np.ndarray, x: int, y: int) -> None:
    """Copy ``tile`` onto ``frame`` with its top-left at (x, y), clipped to the frame."""
    fh, fw = frame.shape[:2]
    h, w = tile.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, fw), min(y + h, fh)
    if x0 < x1 and y0 < y1:
        frame[y0:y1, x0:x1] = tile[y0 - y:y1 - y, x0 - x:x1 - x]


def rect_box(shape: tuple[int, ...], x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int] | None:
    """The pixel box (x0, y0, x1, y1) that `fill_rect` fills on a frame of ``shape``, None when empty."""
    fh, fw = shape[:2]
    a, b = max(int(x0), 0), min(int(x1), fw)
    c, d = max(int(y0), 0), min(int(y1), fh)
    return (a, c, b, d) if a < b and c < d else None


def inside(layers: Sequence[Layer], box: tuple[int, int, int, int]) -> bool:
    """Whether every layer's mask lies within ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    return all(x >= x0 and y >= y0 and x + m.shape[1] <= x1 and y + m.shape[0] <= y1 for m, x, y, _ in layers)


def outline_rect(frame: np.ndarray, x0: float, y0: float, x1: float, y1: float, color: Color, width: int = 1) -> None:
    width = max(1, int(width))
    fill_rect(frame, x0, y0, x1, y0 + width, color)
    fill_rect(frame, x0, y1 - width, x1, y1, color)
    fill_rect(frame, x0, y0, x0 + width, y1, color)
    fill_rect(frame, x1 - width, y0, x1, y1, color)


def _polygon(kind: str, s: float) -> list[tuple[float, float]]:
    c = s / 2
    if kind == "triangle":
        return [(c, 0.06 * s), (0.95 * s, 0.9 * s), (0.05 * s, 0.9 * s)]
    if kind == "diamond":
        return [(c, 0.02 * s), (0.98 * s, c), (c, 0.98 * s), (0.02 * s, c)]
    if kind == "hexagon":
        return [(c + 0.48 * s * np.cos(a), c + 0.48 * s * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 7)[:-1]]
    if kind == "star":
        pts = []
        for i in range(10):
            r = 0.49 * s if i % 2 == 0 else 0.2 * s
            a = -np.pi / 2 + i * np.pi / 5
            pts.append((c + r * np.cos(a), c + 0.04 * s + r * np.sin(a)))
        return pts
    if kind == "cross":
        t = 0.17 * s
        return [(c - t, 0.02 * s), (c + t, 0.02 * s), (c + t, c - t), (0.98 * s, c - t), (0.98 * s, c + t),
                (c + t, c + t), (c + t, 0.98 * s), (c - t, 0.98 * s), (c - t, c + t), (0.02 * s, c + t),
                (0.02 * s, c - t), (c - t, c - t)]
    raise ValueError(f"unknown shape {kind!r}; valid shapes: {', '.join(SHAPES)}")


@functools.lru_cache(maxsize=4096)
def shape_mask(kind: str, size: int) -> np.ndarray:
    """An anti-aliased ``size`` x ``size`` coverage mask of a named shape (cached)."""
    if kind not in SHAPES:
        raise ValueError(f"unknown shape {kind!r}; valid shapes: {', '.join(SHAPES)}")
    scale = 4
    s = max(1, int(size)) * scale
    img = Image.new("L", (s, s), 0)
    draw = ImageDraw.Draw(img)
    if kind == "circle":
        draw.ellipse((0.03 * s, 0.03 * s, 0.97 * s, 0.97 * s), fill=255)
    elif kind == "square":
        draw.rectangle((0.08 * s, 0.08 * s, 0.92 * s, 0.92 * s), fill=255)
    elif kind == "heart":
        draw.ellipse((0.04 * s, 0.1 * s, 0.54 * s, 0.6 * s), fill=255)
        draw.ellipse((0.46 * s, 0.1 * s, 0.96 * s, 0.6 * s), fill=255)
        draw.polygon([(0.07 * s, 0.47 * s), (0.93 * s, 0.47 * s), (0.5 * s, 0.95 * s)], fill=255)
    else:
        draw.polygon(_polygon(kind, s), fill=255)
    mask = np.asarray(img.resize((max(1, int(size)),) * 2, Image.Resampling.LANCZOS))
    mask = np.ascontiguousarray(mask)
    mask.setflags(write=False)
    return mask


def draw_shape(frame: np.ndarray, kind: str, cx: float, cy: float, size: int, color: Color) -> None:
    """Draw a named shape of ``size`` pixels centred on (cx, cy)."""
    mask = shape_mask(kind, int(size))
    blend_mask(frame, mask, int(round(cx - size / 2)), int(round(cy - size / 2)), color)


@functools.lru_cache(maxsize=4096)
def shape_tile(kind: str, size: int, color: Color, bg: Color) -> np.ndarray:
    """`draw_shape`'s pixels over a uniform ``bg`` block of the mask's size (read-only, cached): where
    the box the shape covers is all ``bg``, copying the tile there gives the very pixels of blending."""
    mask = shape_mask(kind, int(size))
    tile = new_frame(mask.shape[0], mask.shape[1], bg)
    blend_mask(tile, mask, 0, 0, color)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=1024)
def color_block(h: int, w: int, color: Color) -> np.ndarray:
    """An ``h x w`` block of one colour (read-only, cached): copying it is `fill`'s result, in one step."""
    out = new_frame(h, w, color)
    out.setflags(write=False)
    return out


def is_uniform(frame: np.ndarray, x0: int, y0: int, x1: int, y1: int, color: Color) -> bool:
    """Whether the box [x0, x1) x [y0, y1) lies inside ``frame`` and every pixel of it is ``color``
    (where a pre-blended tile may replace a blend). Compares with a cached block of that colour:
    several times faster than broadcasting the colour."""
    h, w = frame.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h or x0 >= x1 or y0 >= y1:
        return False
    return bool((frame[y0:y1, x0:x1] == color_block(y1 - y0, x1 - x0, color)).all())


# ----------------------------------------------------------------- pre-blended stamps
# A blend's result depends only on the pixels under the mask: where they are all one colour, a tile
# blended once over a block of that colour is exactly what blending again would give. A *layer* is one
# blend, ``(mask, x, y, colour)`` with the mask's top-left at (x, y), placed as `draw_text` and
# `draw_shape` place theirs. `stamp` draws a list of them from a cached tile where the box they span
# is one colour on the frame now (checked each time); `draw_layers` draws groups of them from tiles
# where their boxes are one colour on the frame's cached (read-only) base, checked once per box.
Layer = tuple[np.ndarray, int, int, Color]

_UNIFORM: dict[tuple[int, int, int, int, int, Color], tuple[np.ndarray, bool]] = {}
_LAYER_TILES: dict[tuple, tuple[tuple[np.ndarray, ...], np.ndarray]] = {}
_STAMP_CACHE_MAX = 8192


def text_layer(text: str, xy: tuple[float, float], size: int, color: Color = INK, anchor: str = "mm",
               bold: bool = False, mono: bool = False) -> Layer:
    """The blend `draw_text` would make, as a layer."""
    mask = text_mask(text, int(size), bold, mono)
    h, w = mask.shape
    x = {"l": xy[0], "m": xy[0] - w / 2, "r": xy[0] - w}[anchor[0]]
    y = {"t": xy[1], "m": xy[1] - h / 2, "b": xy[1] - h}[anchor[1]]
    return mask, int(round(x)), int(round(y)), color


@functools.lru_cache(maxsize=1024)
def _solid(h: int, w: int) -> np.ndarray:
    out = np.full((h, w), 255, dtype=np.uint8)
    out.setflags(write=False)
    return out


def rect_layer(shape: tuple[int, ...], x0: float, y0: float, x1: float, y1: float, color: Color) -> Layer | None:
    """`fill_rect` on a frame of ``shape`` as a layer (a blend through a full mask gives the colour
    itself), or None when the box is empty."""
    box = rect_box(shape, x0, y0, x1, y1)
    if box is None:
        return None
    a, b, c, d = box
    return _solid(d - b, c - a), a, b, color


def shape_layer(kind: str, cx: float, cy: float, size: int, color: Color) -> Layer:
    """The blend `draw_shape` would make, as a layer."""
    return shape_mask(kind, int(size)), int(round(cx - size / 2)), int(round(cy - size / 2)), color


def base_is_uniform(base: np.ndarray, x0: int, y0: int, x1: int, y1: int, color: Color) -> bool:
    """`is_uniform` for a read-only (cached, never changing) base image, remembered per box."""
    key = (id(base), x0, y0, x1, y1, color)
    hit = _UNIFORM.get(key)
    if hit is not None and hit[0] is base:
        return hit[1]
    ok = is_uniform(base, x0, y0, x1, y1, color)
    if not base.flags.writeable:
        if len(_UNIFORM) >= _STAMP_CACHE_MAX:
            _UNIFORM.clear()
        _UNIFORM[key] = (base, ok)
    return ok


def layers_tile(layers: Sequence[Layer], x0: int, y0: int, x1: int, y1: int, bg: Color) -> np.ndarray:
    """The box [x0, x1) x [y0, y1) filled with ``bg`` and the layers blended on it in turn (read-only,
    cached; the layers' positions are in frame pixels). Where the box on the frame is all ``bg``, or
    is filled with ``bg`` first, copying the tile there gives the pixels of drawing it."""
    key = (bg, x1 - x0, y1 - y0, tuple((id(m), x - x0, y - y0, tuple(c)) for m, x, y, c in layers))
    hit = _LAYER_TILES.get(key)
    masks = tuple(m for m, _, _, _ in layers)
    if hit is not None and all(a is b for a, b in zip(hit[0], masks)):
        return hit[1]
    tile = new_frame(y1 - y0, x1 - x0, bg)
    for m, x, y, c in layers:
        blend_mask(tile, m, x - x0, y - y0, c)
    tile.setflags(write=False)
    if all(not m.flags.writeable for m in masks):
        if len(_LAYER_TILES) >= _STAMP_CACHE_MAX:
            _LAYER_TILES.clear()
        _LAYER_TILES[key] = (masks, tile)
    return tile


def _span(layers: Sequence[Layer]) -> tuple[int, int, int, int]:
    return (min(x for _, x, _, _ in layers), min(y for _, _, y, _ in layers),
            max(x + m.shape[1] for m, x, _, _ in layers), max(y + m.shape[0] for m, _, y, _ in layers))


def stamp(frame: np.ndarray, layers: Sequence[Layer], bg: Color) -> None:
    """Blend the layers onto ``frame`` in turn, copying a cached tile instead when the box they span
    is all ``bg`` on the frame now: the very pixels either way, whatever was drawn before."""
    if not layers:
        return
    x0, y0, x1, y1 = _span(layers)
    if is_uniform(frame, x0, y0, x1, y1, bg):
        frame[y0:y1, x0:x1] = layers_tile(layers, x0, y0, x1, y1, bg)
        return
    for m, x, y, c in layers:
        blend_mask(frame, m, x, y, c)


def draw_layers(frame: np.ndarray, groups: Sequence[Sequence[Layer]], base: np.ndarray | None = None,
                bg: Color | None = None) -> None:
    """Blend every layer of every group onto ``frame`` in turn, with the very pixels of `blend_mask`.

    With ``base`` (the read-only image ``frame`` is a fresh copy of) and ``bg``: when the box each
    group spans lies in the frame and is all ``bg`` on the base, each group is copied from a tile
    blended once over ``bg`` (cached) instead. The caller promises that such boxes do not overlap
    (each group drawn inside its own cell, between grid lines, for example); when one is not all
    ``bg``, every layer is blended, in order.
    """
    if base is not None and bg is not None:
        spans = [_span(g) for g in groups if g]
        if all(base_is_uniform(base, *box, bg) for box in spans):
            for g, (x0, y0, x1, y1) in zip((g for g in groups if g), spans):
                frame[y0:y1, x0:x1] = layers_tile(g, x0, y0, x1, y1, bg)
            return
    for g in groups:
        for m, x, y, c in g:
            blend_mask(frame, m, x, y, c)


def disc(tile: np.ndarray, color: Color, frac: float = 0.78, edge: Color | None = None) -> np.ndarray:
    """Blend a centred disc (optionally with a darker rim) into ``tile`` in place; returns it."""
    h, w = tile.shape[:2]
    for col, f in ((edge, frac), (color, frac * 0.86 if edge else frac)):
        if col is None:
            continue
        size = max(1, int(round(min(h, w) * f)))
        m = shape_mask("circle", size)[..., None].astype(np.uint16)
        y, x = (h - size) // 2, (w - size) // 2
        reg = tile[y:y + size, x:x + size]
        reg[...] = ((reg.astype(np.uint16) * (255 - m) + np.asarray(col, np.uint16) * m + 127) // 255).astype(np.uint8)
    return tile


@contextmanager
def pil_draw(frame: np.ndarray):
    """Draw on ``frame`` with PIL's ImageDraw (for one-off lines and polygons); writes back."""
    img = Image.fromarray(frame)
    yield ImageDraw.Draw(img)
    frame[...] = np.asarray(img)


class GridPainter:
    """Draws a rows x cols board of tiles into a frame, redrawing only cells that changed.

    ``tile(key, h, w) -> (h, w, 3) uint8`` draws one cell's content for a hashable key; each
    (key, size) is drawn once and cached (``tile=None``: a board drawn only with `paint_colours`). The board fills the frame below an optional
    header band, square cells centred, with ``margin`` pixels around.

    >>> p = GridPainter((64, 64), 2, 2, lambda k, h, w: new_frame(h, w, (k * 60, 0, 0)))
    >>> p.paint([[0, 1], [2, 3]]).shape
    (64, 64, 3)
    """

    def __init__(
        self,
        obs_size: tuple[int, int],
        rows: int,
        cols: int,
        tile: Callable[[Hashable, int, int], np.ndarray] | None,
        header: int = 0,
        margin: int | None = None,
        line: int | None = None,
        background: Color = BACKGROUND,
        line_color: Color = GRID_LINE,
    ) -> None:
        H, W = obs_size
        self.rows, self.cols, self._tile_fn = rows, cols, tile
        self.header = int(header)
        margin = max(1, min(H, W) // 32) if margin is None else margin
        avail_h, avail_w = H - self.header - 2 * margin, W - 2 * margin
        self.line = max(1, min(H, W) // 256) if line is None else line
        self.cell = max(2, min((avail_h - self.line) // rows, (avail_w - self.line) // cols))
        grid_h, grid_w = rows * self.cell + self.line, cols * self.cell + self.line
        self.y0 = self.header + (H - self.header - grid_h) // 2
        self.x0 = (W - grid_w) // 2
        self._cache: dict[Hashable, np.ndarray] = {}
        self._base = new_frame(H, W, background)
        fill_rect(self._base, self.x0, self.y0, self.x0 + grid_w, self.y0 + grid_h, line_color)
        self._frame = self._base.copy()
        self._keys: list[tuple[Hashable, ...]] | None = None
        self.labelled = False
        # (rows, cols) of each cell's pixel box as a slice pair, so painting a cell is one assignment
        self._slices = [[self._cell_slice(r, c) for c in range(cols)] for r in range(rows)]

    def _cell_slice(self, r: int, c: int) -> tuple[slice, slice]:
        x0, y0, x1, y1 = self.cell_box(r, c)
        return slice(y0, y1), slice(x0, x1)

    def cell_box(self, r: int, c: int) -> tuple[int, int, int, int]:
        """Pixel box (x0, y0, x1, y1) of cell (r, c), inside the grid lines."""
        x = self.x0 + c * self.cell + self.line
        y = self.y0 + r * self.cell + self.line
        return x, y, x + self.cell - self.line, y + self.cell - self.line

    def cell_center(self, r: int, c: int) -> tuple[float, float]:
        x0, y0, x1, y1 = self.cell_box(r, c)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def _tile(self, key: Hashable) -> np.ndarray:
        t = self._cache.get(key)
        if t is None:
            if self._tile_fn is None:
                raise ValueError("this GridPainter has no tile function (tile=None): draw with paint_colours")
            s = self.cell - self.line
            t = np.ascontiguousarray(self._tile_fn(key, s, s), dtype=np.uint8)
            if t.shape != (s, s, 3):
                raise ValueError(f"tile for {key!r} has shape {t.shape}, expected {(s, s, 3)}")
            self._cache[key] = t
        return t

    def paint(self, keys, frame: np.ndarray | None = None) -> np.ndarray:
        """Draw the board whose cell (r, c) shows ``keys[r][c]``; returns the internal frame.

        With ``frame`` given, draws into it instead (no incremental reuse).
        """
        target = self._frame if frame is None else frame
        prev = self._keys if frame is None else None
        rows = [tuple(keys[r][: self.cols]) for r in range(self.rows)]
        slices = self._slices
        for r, row in enumerate(rows):
            if prev is not None and prev[r] == row:
                continue  # the whole row is unchanged: one comparison in C
            old = prev[r] if prev is not None else None
            for c, k in enumerate(row):
                if old is not None and old[c] == k:
                    continue
                target[slices[r][c]] = self._tile(k)
        if frame is None:
            self._keys = rows
        return target

    def paint_colours(self, colours: np.ndarray) -> np.ndarray:
        """Draw a board whose cells are each one flat colour, ``colours[r, c]`` (``(rows, cols, 3)``
        uint8), for a painter without grid lines (``line=0``): whole rows at once in numpy, the pixels
        that `paint` with one-colour tiles would give. Returns the internal frame; the next `paint`
        redraws every cell."""
        if self.line != 0:
            raise ValueError(f"paint_colours needs a painter without grid lines (line=0), not line={self.line}")
        rows, cols, cell = self.rows, self.cols, self.cell
        # a view of the frame: splitting the first axis never copies (numpy 2.5 deprecates setting .shape)
        block = self._frame[self.y0:self.y0 + rows * cell, self.x0:self.x0 + cols * cell].reshape(rows, cell, cols * cell, 3)
        block[...] = np.asarray(colours, dtype=np.uint8).repeat(cell, axis=1)[:, None]
        self._keys = None
        return self._frame

    def base(self) -> np.ndarray:
        """A fresh copy of the empty board (background and grid lines)."""
        return self._base.copy()

    @property
    def band(self) -> float:
        """The width of the free band around the board (the smaller of its left and top margins)."""
        return min(self.x0, self.y0)

    def draw_labels(self, frame: np.ndarray, columns: Sequence[str], rows: Sequence[str], size: int) -> None:
        """Column names centred in the band above the board and row names in the band left of it.

        Labels sit outside the cells, which are all that `paint` redraws, so drawing them once
        on the painter's frame keeps them (``labelled`` records that).
        """
        band = self.band
        for c, name in enumerate(columns):
            cx, _ = self.cell_center(0, c)
            draw_text(frame, name, (cx, self.y0 - band / 2), size, INK, bold=True)
        for r, name in enumerate(rows):
            _, cy = self.cell_center(r, 0)
            draw_text(frame, name, (self.x0 - band / 2, cy), size, INK, bold=True)
        self.labelled = True
