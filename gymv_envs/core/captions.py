"""What the instruction adds, drawn into the frame: a caption strip and a panel of lettered options.

With ``text_in_image=True`` an env draws its own picture natively in the space left (the frame
minus the strip and the panel, never resized) and the base puts around it:

- a caption strip on top, from the task's ``_caption()``: a list of parts drawn left to right,
  each a string or a ``(shape, colour name)`` icon (``("heart", "cyan")``), so a policy that sees
  only pixels sees which landmark is the goal, which colour to collect, which question is asked;
- for single-turn ``mcq`` ids, a panel below with the lettered options, one per row.

Both are cached per content, so drawing a frame costs one copy of each.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from gymv_envs.core.canvas import (
    INK,
    PALETTE,
    SHAPES,
    WHITE,
    draw_shape,
    draw_text,
    fill_rect,
    fit_text_size,
    new_frame,
)

CaptionPart = str | tuple[str, str]
STRIP_BG = (226, 228, 236)
PANEL_BG = WHITE
RULE = (150, 150, 160)


def caption_height(frame_h: int) -> int:
    """Pixels of the caption strip in a frame ``frame_h`` high (about a ninth, at least 8)."""
    return max(8, int(round(frame_h / 9)))


def panel_height(frame_h: int, options: int) -> int:
    """Pixels of the options panel: a row per option, each about a sixteenth of the frame (at least 5;
    at RL sizes the rows are patterns to tell apart rather than text to read)."""
    return options * max(5, int(round(frame_h / 16)))


def wrap_to_fit(text: str, w: int, h: int, max_lines: int = 3, bold: bool = True) -> tuple[str, int]:
    """``text`` broken into at most ``max_lines`` lines at spaces, and the font size, so it is as large as fits."""
    words = text.split()
    best = (text, fit_text_size(text or " ", w, h, bold=bold))
    for lines in range(2, max_lines + 1):
        if len(words) < lines:
            break
        per = len(text) / lines
        out, cur = [], ""
        for word in words:
            if cur and len(cur) + 1 + len(word) > per and len(out) < lines - 1:
                out.append(cur)
                cur = word
            else:
                cur = f"{cur} {word}".strip()
        wrapped = "\n".join([*out, cur])
        size = fit_text_size(wrapped, w, h, bold=bold)
        if size > best[1]:
            best = (wrapped, size)
    return best


@functools.lru_cache(maxsize=512)
def caption_strip(parts: tuple[CaptionPart, ...], h: int, w: int) -> np.ndarray:
    """The strip showing ``parts`` left to right, read-only (cached). A caption that is one long
    string is wrapped onto up to three lines, whichever gives the largest font."""
    strip = new_frame(h, w, STRIP_BG)
    fill_rect(strip, 0, h - max(1, h // 12), w, h, RULE)
    pad = max(1, h // 8)
    inner_h = h - 2 * pad - max(1, h // 12)
    texts = [p for p in parts if isinstance(p, str)]
    icons = len(parts) - len(texts)
    if len(parts) == 1 and texts:
        wrapped, size = wrap_to_fit(texts[0], w - 2 * pad, inner_h)
        draw_text(strip, wrapped, (pad, pad + inner_h / 2), size, INK, anchor="lm", bold=True)
        strip.setflags(write=False)
        return strip
    room = w - 2 * pad - icons * (inner_h + pad) - pad * len(texts)
    size = fit_text_size("  ".join(texts) or " ", max(8, room), inner_h, bold=True)
    x, cy = pad, pad + inner_h / 2
    for part in parts:
        if isinstance(part, str):
            box = draw_text(strip, part, (x, cy), size, INK, anchor="lm", bold=True)
            x = box[2] + pad
        else:
            shape, colour = part
            if shape not in SHAPES or colour not in PALETTE:
                raise ValueError(f"caption icon {part!r}: shape must be one of {SHAPES} and colour one of {tuple(PALETTE)}")
            draw_shape(strip, shape, x + inner_h / 2, cy, inner_h, PALETTE[colour])
            x += inner_h + pad
    strip.setflags(write=False)
    return strip


@functools.lru_cache(maxsize=256)
def options_panel(options: tuple[str, ...], letters: str, h: int, w: int) -> np.ndarray:
    """The panel of lettered options, one per row (``A) ...``), read-only (cached)."""
    panel = new_frame(h, w, PANEL_BG)
    fill_rect(panel, 0, 0, w, max(1, h // 60), RULE)
    row = h / max(1, len(options))
    pad = max(1, int(row // 8))
    lines = [f"{letters[i]}) {text}" for i, text in enumerate(options)]
    longest = max(lines, key=len)
    size = fit_text_size(longest, w - 2 * pad, int(row) - 2 * pad)
    for i, line in enumerate(lines):
        draw_text(panel, line, (pad, (i + 0.5) * row), size, INK, anchor="lm")
    panel.setflags(write=False)
    return panel


def compose(inner: np.ndarray, frame_size: tuple[int, int], parts: Sequence[CaptionPart] | None,
            options: Sequence[str] | None, letters: str) -> np.ndarray:
    """The full frame: caption strip (when ``parts``), the env's own picture, options panel (when ``options``)."""
    H, W = frame_size
    out = np.empty((H, W, 3), dtype=np.uint8)
    top = caption_height(H) if parts is not None else 0
    bottom = panel_height(H, len(options)) if options is not None else 0
    if parts is not None:
        out[:top] = caption_strip(tuple(parts), top, W)
    out[top:H - bottom] = inner
    if options is not None:
        out[H - bottom:] = options_panel(tuple(options), letters, bottom, W)
    return out
