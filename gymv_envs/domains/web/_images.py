"""Pictures the generated sites show, drawn by us with PIL and served from the env's loopback server.

`picture(kind, colour, variant, flag)` draws one 160x120 picture (cached per process, PNG bytes):
a product (jacket, shoe, bag, lamp, mug, shirt, hat, chair, phone, bike), a house (``flag``: it
has a pool), a hotel (``flag``: a pool), a dish, a book cover, a video thumbnail, a map tile with
a pin, an avatar with initials, a logo, a document or ticket icon. ``colour`` is one of `COLOURS`
and is what a task may ask about ("the red jacket"): the colour appears in the picture only.
The URL of a picture is `url(kind, colour, variant, flag, text)`; the site answers
``/img/...`` paths through `serve`.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

COLOURS = {"red": (210, 40, 45), "blue": (40, 90, 200), "green": (40, 150, 70), "yellow": (235, 190, 30),
           "black": (30, 30, 34), "white": (245, 245, 240), "orange": (240, 120, 30), "purple": (130, 60, 170),
           "pink": (235, 120, 170), "grey": (140, 140, 145), "brown": (125, 80, 45), "teal": (20, 140, 140)}
KINDS = ("jacket", "shoe", "bag", "lamp", "mug", "shirt", "hat", "chair", "phone", "bike", "house", "hotel", "dish",
         "book", "video", "map", "avatar", "logo", "doc", "ticket", "course", "car")
W, H = 160, 120
FONT = Path(__file__).resolve().parents[2] / "core" / "assets" / "fonts" / "DejaVuSans-Bold.ttf"


def url(kind: str, colour: str, variant: int = 0, flag: bool = False, text: str = "") -> str:
    t = "".join(c for c in text if c.isalnum())[:3]
    return f"/img/{kind}-{colour}-{int(variant) % 8}-{int(bool(flag))}-{t or 'x'}.png"


def serve(path: str) -> tuple[int, str, bytes]:
    """``/img/<kind>-<colour>-<variant>-<flag>-<text>.png`` -> (status, type, body)."""
    try:
        kind, colour, variant, flag, text = path.rsplit("/", 1)[-1].removesuffix(".png").split("-")
        return 200, "image/png", picture(kind, colour, int(variant), flag == "1", "" if text == "x" else text)
    except (ValueError, KeyError):
        return 404, "text/plain", b"no such picture"


def _shade(c: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return tuple(max(0, min(255, round(v * f))) for v in c)


@functools.lru_cache(maxsize=2048)
def picture(kind: str, colour: str, variant: int = 0, flag: bool = False, text: str = "") -> bytes:
    if kind not in KINDS:
        raise KeyError(kind)
    c = COLOURS[colour]
    dark, light = _shade(c, 0.6), _shade(c, 1.25)
    bgs = ((238, 240, 244), (246, 241, 232), (232, 243, 238), (240, 236, 246))
    img = Image.new("RGB", (W, H), bgs[variant % 4])
    d = ImageDraw.Draw(img)
    v = variant % 8
    ink = (40, 40, 46)
    if kind == "jacket" or kind == "shirt":
        d.polygon([(55, 22), (80, 30), (105, 22), (135, 45), (122, 58), (112, 50), (112, 104), (48, 104), (48, 50), (38, 58), (25, 45)], fill=c, outline=dark)
        if kind == "jacket":
            d.line([(80, 30), (80, 104)], fill=dark, width=3)
            for y in range(44, 100, 14):
                d.ellipse([83, y, 87, y + 4], fill=dark)
        else:
            d.polygon([(68, 24), (80, 40), (92, 24)], fill=bgs[variant % 4])
    elif kind == "shoe":
        d.polygon([(20, 80), (30, 48), (60, 52), (80, 66), (130, 72), (142, 88), (20, 92)], fill=c, outline=dark)
        d.rectangle([20, 90, 142, 98], fill=dark)
        for x in range(42, 70, 8):
            d.line([(x, 54), (x + 6, 64)], fill=light, width=2)
    elif kind == "bag":
        d.arc([55, 14, 105, 64], 180, 360, fill=dark, width=6)
        d.rounded_rectangle([35, 40, 125, 106], 10, fill=c, outline=dark)
        d.rectangle([72, 56, 88, 66], fill=light)
    elif kind == "lamp":
        d.polygon([(55, 20), (105, 20), (120, 60), (40, 60)], fill=c, outline=dark)
        d.rectangle([77, 60, 83, 96], fill=ink)
        d.ellipse([52, 94, 108, 106], fill=ink)
    elif kind == "mug":
        d.rounded_rectangle([45, 30, 105, 100], 8, fill=c, outline=dark)
        d.arc([92, 45, 128, 85], 270, 90, fill=dark, width=7)
    elif kind == "hat":
        d.ellipse([25, 78, 135, 100], fill=dark)
        d.rounded_rectangle([50, 30, 110, 90], 14, fill=c)
        d.rectangle([50, 70, 110, 80], fill=light)
    elif kind == "chair":
        d.rectangle([50, 20, 60, 100], fill=dark)
        d.rectangle([50, 20, 105, 58], fill=c)
        d.rectangle([50, 60, 110, 70], fill=c)
        d.rectangle([100, 70, 108, 100], fill=dark)
    elif kind == "phone":
        d.rounded_rectangle([58, 12, 102, 108], 8, fill=c, outline=ink, width=3)
        d.rectangle([63, 22, 97, 94], fill=light)
    elif kind == "bike":
        d.ellipse([20, 60, 64, 104], outline=ink, width=4)
        d.ellipse([96, 60, 140, 104], outline=ink, width=4)
        d.line([(42, 82), (70, 50), (118, 82), (80, 82), (42, 82)], fill=c, width=5)
        d.line([(70, 50), (66, 40)], fill=c, width=5)
    elif kind in ("house", "hotel"):
        d.rectangle([0, 92, W, H], fill=(120, 180, 90))
        if kind == "house":
            d.rectangle([38, 52, 112, 96], fill=(236, 226, 206), outline=ink)
            d.polygon([(30, 54), (75, 20), (120, 54)], fill=c, outline=dark)
            d.rectangle([68, 70, 82, 96], fill=dark)
            for x in (46, 92):
                d.rectangle([x, 62, x + 12, 74], fill=(170, 210, 240), outline=ink)
        else:
            floors = 3 + v % 3
            top = 92 - floors * 14
            d.rectangle([30, top, 100, 94], fill=c, outline=dark)
            for f in range(floors):
                for x in range(36, 96, 14):
                    d.rectangle([x, top + 4 + f * 14, x + 8, top + 11 + f * 14], fill=(250, 240, 190))
        if flag:
            d.rounded_rectangle([104, 96, 156, 116], 6, fill=(70, 170, 235), outline=(30, 110, 190), width=2)
    elif kind == "dish":
        d.ellipse([20, 14, 140, 110], fill=(250, 250, 250), outline=(200, 200, 205), width=3)
        for i in range(4 + v % 3):
            x, y = 50 + (i * 23) % 55, 38 + (i * 17) % 40
            d.ellipse([x, y, x + 22, y + 18], fill=c if i % 2 == 0 else light)
    elif kind in ("book", "doc", "ticket", "course"):
        if kind == "ticket":
            d.rounded_rectangle([20, 30, 140, 90], 8, fill=c)
            d.line([(100, 30), (100, 90)], fill=bgs[variant % 4], width=3)
        else:
            d.rectangle([46, 10, 114, 110], fill=c, outline=dark, width=2)
            d.rectangle([46, 30 + 6 * (v % 4), 114, 46 + 6 * (v % 4)], fill=light)
            if kind == "course":
                d.polygon([(70, 70), (70, 96), (94, 83)], fill=(255, 255, 255))
    elif kind == "video":
        d.rectangle([0, 0, W, H], fill=_shade(c, 0.8))
        for i in range(3):
            d.ellipse([10 + i * 45 + v * 3, 60 - i * 12, 60 + i * 45 + v * 3, 110 - i * 12], fill=light)
        d.ellipse([60, 40, 100, 80], fill=(255, 255, 255))
        d.polygon([(74, 50), (74, 70), (92, 60)], fill=ink)
    elif kind == "map":
        d.rectangle([0, 0, W, H], fill=(228, 236, 220))
        d.line([(0, 30 + v * 5), (W, 70)], fill=(255, 255, 255), width=8)
        d.line([(40 + v * 7, 0), (90, H)], fill=(255, 255, 255), width=6)
        d.rectangle([100, 10, 150, 40], fill=(190, 220, 240))
        d.ellipse([70, 40, 90, 60], fill=c, outline=dark, width=2)
        d.polygon([(72, 54), (88, 54), (80, 72)], fill=c)
    elif kind == "car":
        d.rounded_rectangle([20, 56, 140, 90], 10, fill=c, outline=dark)
        d.polygon([(45, 56), (60, 34), (105, 34), (120, 56)], fill=light, outline=dark)
        for x in (35, 105):
            d.ellipse([x, 80, x + 22, 102], fill=ink)
    else:  # avatar, logo
        d.ellipse([30, 10, 130, 110], fill=c)
        if kind == "logo":
            d.polygon([(80, 24), (116, 90), (44, 90)], fill=light)
        if text:
            font = ImageFont.truetype(str(FONT), 36)
            d.text((80, 60), text[:3].upper(), fill=(255, 255, 255) if colour not in ("white", "yellow") else ink,
                   font=font, anchor="mm")
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()
