"""Isometric drawing of unit cubes: stacked columns (height maps) and free polycubes.

The viewer looks from the (+x, +y, +z) side: a point (x, y, z) is drawn at screen
``((x - y) * s * cos 30, (x + y) * s / 2 - z * s)`` for cube edge ``s`` pixels, and a cube shows its
top (+z), right (+x) and left (+y) faces. Cubes are painted back to front (ascending x + y + z),
so nearer cubes cover farther ones. Sprites are cached per size; `id_buffer` paints the same
masks with indices, which the tests use to check what a picture shows.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from gymv_envs.core.canvas import INK, PIXEL, Color
from gymv_envs.domains.cognition._sprites import Sprite, stamp, stamp_all

C30 = math.cos(math.pi / 6)
TOP, RIGHT, LEFT = 1.0, 0.72, 0.86  # shading of the faces


def shade(colour: Color, k: float) -> Color:
    return tuple(int(min(255, v * k)) for v in colour)


def project(x: float, y: float, z: float, s: float) -> tuple[float, float]:
    return (x - y) * s * C30, (x + y) * s / 2 - z * s


def _faces(h: int, s: float) -> dict[str, list[tuple[float, float]]]:
    """The three visible faces of a column of ``h`` cubes, relative to the projection of its base corner."""
    P = lambda dx, dy, dz: project(dx, dy, dz, s)  # noqa: E731
    return {"top": [P(0, 0, h), P(1, 0, h), P(1, 1, h), P(0, 1, h)],
            "right": [P(1, 0, 0), P(1, 1, 0), P(1, 1, h), P(1, 0, h)],
            "left": [P(0, 1, 0), P(1, 1, 0), P(1, 1, h), P(0, 1, h)]}


def origin(h: int, s: float) -> tuple[int, int]:
    """Offset of a column sprite's top-left corner from the projection of the column's base corner."""
    return -int(math.ceil(s * C30)) - 1, -int(math.ceil(h * s)) - 1


@functools.lru_cache(maxsize=2048)
def column(h: int, s: int, colour: Color, lines: bool = True, part: str = "all") -> Sprite:
    """A column of ``h`` cubes of edge ``s`` (lines between the cubes), or one face of it
    (``part`` "top", "right", "left": masks for the id buffer)."""
    ox, oy = origin(h, s)
    w, hh = 2 * int(math.ceil(s * C30)) + 3, int(math.ceil((h + 1) * s)) + 3
    img = Image.new("RGBA", (w, hh), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    faces = _faces(h, s)
    width = max(1, s // 16)
    for name, k in (("right", RIGHT), ("left", LEFT), ("top", TOP)):
        if part not in ("all", name):
            continue
        pts = [(x - ox, y - oy) for x, y in faces[name]]
        d.polygon(pts, fill=(*shade(colour, k), 255), outline=(*INK, 255) if part == "all" else None, width=width)
    if lines and part == "all":
        for z in range(1, h):
            a, b, c = project(1, 0, z, s), project(1, 1, z, s), project(0, 1, z, s)
            d.line([(a[0] - ox, a[1] - oy), (b[0] - ox, b[1] - oy), (c[0] - ox, c[1] - oy)], fill=(*INK, 255), width=width)
    arr = np.asarray(img)
    rgb, mask = np.ascontiguousarray(arr[..., :3]), arr[..., 3] > 127
    rgb.setflags(write=False)
    mask.setflags(write=False)
    return rgb, mask


@functools.lru_cache(maxsize=8)
def blank(H: int, W: int, colour: Color, floor: tuple | None = None) -> np.ndarray:
    """An H x W frame of ``colour`` with the floor ``(n, m, s, ox, oy, colour)`` drawn when given
    (read-only, cached per size: copy it to draw on)."""
    img = Image.new("RGB", (W, H), colour)
    if floor is not None:
        draw_floor(ImageDraw.Draw(img), *floor)
    frame = np.array(img)
    frame.setflags(write=False)
    return frame


def draw_floor(d: ImageDraw.ImageDraw, n: int, m: int, s: float, ox: float, oy: float, colour: Color) -> None:
    edge = shade(colour, 0.75)
    for x in range(n):
        for y in range(m):
            d.polygon([(ox + px, oy + py) for px, py in
                       (project(x, y, 0, s), project(x + 1, y, 0, s), project(x + 1, y + 1, 0, s), project(x, y + 1, 0, s))],
                      fill=colour, outline=edge)


@functools.lru_cache(maxsize=64)
def _back_to_front(n: int, m: int) -> tuple[tuple[int, int], ...]:
    """The cells of an n x m floor sorted by x + y (stable: row-major within a diagonal), per size."""
    return tuple(sorted(((x, y) for x in range(n) for y in range(m)), key=lambda p: p[0] + p[1]))


@functools.lru_cache(maxsize=64)
def _face_table(n: int, m: int, s: float, ox: float, oy: float, zmax: int) -> tuple:
    """Per cell (row-major) of an n x m floor: its right (+x) and left (+y) side squares at z = 0 ..
    zmax - 1 and its tops at h = 0 .. zmax, as the polygons `column_faces` draws, per size."""
    P = lambda x, y, z: (ox + (x - y) * s * C30, oy + (x + y) * s / 2 - z * s)  # noqa: E731
    cells = [(x, y) for x in range(n) for y in range(m)]
    rights = tuple(tuple([P(x + 1, y, z), P(x + 1, y + 1, z), P(x + 1, y + 1, z + 1), P(x + 1, y, z + 1)]
                         for z in range(zmax)) for x, y in cells)
    lefts = tuple(tuple([P(x, y + 1, z), P(x + 1, y + 1, z), P(x + 1, y + 1, z + 1), P(x, y + 1, z + 1)]
                        for z in range(zmax)) for x, y in cells)
    tops = tuple(tuple([P(x, y, h), P(x + 1, y, h), P(x + 1, y + 1, h), P(x, y + 1, h)]
                       for h in range(zmax + 1)) for x, y in cells)
    return rights, lefts, tops


def column_faces(heights: np.ndarray, s: float, ox: float, oy: float, colour: Color,
                 tops: dict[int, Color] | None = None, table: tuple | None = None) -> list[tuple[list[tuple[float, float]], Color]]:
    """The faces of a height map the viewer sees, back to front, as (polygon, fill): every column's
    top and the parts of its right (+x) and left (+y) sides above the neighbour in front.
    ``tops`` colours the top faces by height. The polygons come from a table cached per size (shared:
    do not change them); ``table``, laid out as `_face_table`'s and tall enough, gives its entries
    in their place."""
    n, m = heights.shape
    out = []
    right_fill, left_fill = shade(colour, RIGHT), shade(colour, LEFT)  # the same for every face
    hs = heights.tolist()
    if min(min(r) for r in hs) < 0:
        raise ValueError("column_faces: heights must be >= 0")
    rights, lefts, top_faces = table or _face_table(n, m, s, ox, oy, max(max(r) for r in hs))
    add = out.append
    for x, y in _back_to_front(n, m):
        row = hs[x]
        h = int(row[y])
        if h <= 0:
            continue
        i = x * m + y
        for poly in rights[i][int(hs[x + 1][y]) if x + 1 < n else 0:h]:  # above the neighbour in front
            add((poly, right_fill))
        for poly in lefts[i][int(row[y + 1]) if y + 1 < m else 0:h]:
            add((poly, left_fill))
        add((top_faces[i][h], colour if tops is None else tops.get(h, colour)))
    return out


def fit(n: int, m: int, top: int, box: tuple[int, int, int, int]) -> tuple[int, float, float]:
    """Cube edge and the screen position of the point (0, 0, 0) that fit an n x m floor with
    columns up to ``top`` cubes high in ``box``."""
    x0, y0, x1, y1 = box
    s = max(3, int(min((x1 - x0) / ((n + m) * C30), (y1 - y0) / ((n + m) / 2 + top)) * 0.96))
    width = (n + m) * s * C30
    left = (x0 + x1 - width) / 2 + m * s * C30
    top_y = (y0 + y1 - ((n + m) / 2 + top) * s) / 2 + top * s
    return s, left, top_y


def outlined_polygons(d: ImageDraw.ImageDraw, faces, outline: Color) -> None:
    """``d.polygon(poly, fill=fill, outline=outline)`` for each (poly, fill) of ``faces``, with each
    colour's ink looked up once (``_getink``) instead of per polygon: the same two draw calls."""
    inks: dict = {}
    draw = d.draw.draw_polygon
    for poly, fill in faces:
        hit = inks.get(fill)
        if hit is None:
            hit = inks[fill] = d._getink(outline, fill)
        ink, fill_ink = hit
        if fill_ink is not None:
            draw(poly, fill_ink, 1)
        if ink is not None and ink != fill_ink:
            draw(poly, ink, 0, 1)


def cut(scratch: Image.Image, points: Sequence[tuple[float, float]], pad: int = 3) -> tuple | None:
    """What is drawn on the clear RGBA ``scratch`` within ``pad`` pixels of the box around ``points``
    (each drawing is opaque), as a `stamp_faces` entry ``(pixels, mask, x, y)``: its 3-byte pixels and
    their mask with the top-left corner at (x, y) (None: no pixel); the box is cleared again."""
    W, H = scratch.size
    xs, ys = [x for x, _ in points], [y for _, y in points]
    x0, y0 = max(0, int(min(xs)) - pad), max(0, int(min(ys)) - pad)
    x1, y1 = max(x0, min(W, int(max(xs)) + pad + 1)), max(y0, min(H, int(max(ys)) + pad + 1))
    box = scratch.crop((x0, y0, x1, y1)).getbbox()
    if box is None:
        return None
    box = (box[0] + x0, box[1] + y0, box[2] + x0, box[3] + y0)
    arr = np.asarray(scratch.crop(box))
    scratch.paste((0, 0, 0, 0), box)
    pixels, mask = np.ascontiguousarray(arr[..., :3]).view(PIXEL)[..., 0], arr[..., 3] > 0
    pixels.setflags(write=False)
    mask.setflags(write=False)
    return pixels, mask, box[0], box[1]


@functools.lru_cache(maxsize=4)
def face_sprites(H: int, W: int, n: int, m: int, s: float, ox: float, oy: float, zmax: int, colour: Color,
                 outline: Color, tops: tuple[tuple[int, Color], ...] = ()) -> tuple:
    """`_face_table` of an n x m floor in an H x W frame with each face drawn as `outlined_polygons`
    draws it (filled in ``colour``, its sides shaded, the top at height h in ``dict(tops).get(h,
    colour)``, then outlined), as `cut` entries. Each face is drawn at its own place in a picture of
    the frame's size, so `stamp_faces` copying them back to front gives the pixels `outlined_polygons`
    paints (fill and outline are opaque)."""
    scratch = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(scratch)

    def sprite(poly, fill):
        outlined_polygons(d, [(poly, (*fill, 255))], (*outline, 255))
        return cut(scratch, poly)  # it draws between the rounded corners

    rights, lefts, tops_table = _face_table(n, m, s, ox, oy, zmax)
    right, left, top = shade(colour, RIGHT), shade(colour, LEFT), dict(tops)
    return (tuple(tuple(sprite(p, right) for p in cell) for cell in rights),
            tuple(tuple(sprite(p, left) for p in cell) for cell in lefts),
            tuple(tuple(sprite(p, top.get(h, colour)) for h, p in enumerate(cell)) for cell in tops_table))


def stamp_faces(img: np.ndarray, faces: Sequence[tuple | None]) -> None:
    """Copy `cut` entries (such as `face_sprites` gives) onto ``img`` (C-contiguous, of their frame's
    size) in turn: one masked copy of 3-byte pixels each (None: nothing)."""
    H, W = img.shape[:2]
    frame_pixels = img.view(PIXEL).reshape(H, W)
    for face in faces:
        if face is not None:
            pixels, mask, x, y = face
            h, w = mask.shape
            np.copyto(frame_pixels[y:y + h, x:x + w], pixels, where=mask)


def painter(cells: Sequence[tuple[int, int, int]]) -> list[int]:
    """Indices of (x, y, z) cells in drawing order: far to near."""
    return sorted(range(len(cells)), key=lambda i: (cells[i][0] + cells[i][1] + cells[i][2], cells[i][2]))


def place(frame: np.ndarray, sprite: Sprite, h: int, s: int, px: float, py: float) -> tuple[int, int]:
    """Stamp a column sprite whose base corner projects to (px, py); returns the sprite's top-left."""
    ox, oy = origin(h, s)
    x, y = int(round(px)) + ox, int(round(py)) + oy
    stamp(frame, sprite, x, y)
    return x, y


def place_all(frame: np.ndarray, sprite: Sprite, h: int, s: int, points: Sequence[tuple[float, float]]) -> None:
    """`place` the column sprite at each base-corner projection (px, py) in turn."""
    ox, oy = origin(h, s)
    stamp_all(frame, sprite, [(int(round(px)) + ox, int(round(py)) + oy) for px, py in points])


def id_buffer(shape: tuple[int, int], items: Sequence[tuple[tuple[int, int, int], int, str]], s: int,
              ox: float, oy: float) -> np.ndarray:
    """Paint ``((x, y, z), height, part)`` items' masks (a column of ``height`` standing on z) in the
    given order with their indices into an int array (-1: nothing)."""
    buf = np.full(shape, -1, dtype=np.int32)
    H, W = shape
    for i, ((x, y, z), h, part) in enumerate(items):
        _, mask = column(h, s, (128, 128, 128), part=part)
        px, py = project(x, y, z, s)
        gx, gy = origin(h, s)
        X, Y = int(round(ox + px)) + gx, int(round(oy + py)) + gy
        mh, mw = mask.shape
        a, b, c, d = max(X, 0), max(Y, 0), min(X + mw, W), min(Y + mh, H)
        if a < c and b < d:
            region = buf[b:d, a:c]
            region[mask[b - Y:d - Y, a - X:c - X]] = i
    return buf
