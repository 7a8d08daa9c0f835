"""`ArcEnv`: the shared base of the ARC-style ids (generation until unique, drawing, answers).

A family subclass gives its hypothesis cores (`_cores`), the learned recolouring keys and symmetries
its rules may use (``keys``, ``modifiers``), and `_sample(rng)`: the intended `Rule` and the input
scenes (demonstrations, then the test). The base computes the outputs, checks with `_search.unique`
that no other hypothesis up to the level's depth (difficulty + 1 steps) explains every
demonstration but answers the test differently, and draws again until that holds.
"""

from __future__ import annotations

import functools
import re
from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import SingleTurnEnv
from gymv_envs.core.canvas import (
    BACKGROUND,
    draw_text,
    fill_rect,
    fit_text_size,
    new_frame,
    outline_rect,
    pil_draw,
)
from gymv_envs.core.parsing import MAX_SCAN, strip_reasoning
from gymv_envs.domains.arc._scenes import colour_table
from gymv_envs.domains.arc._search import Core, Rule, apply_rule, partial_outputs, unique
from gymv_envs.domains.arc._transforms import Scene, d4, translate

ARC_RGB = ((0, 0, 0), (0, 116, 217), (255, 65, 54), (46, 204, 64), (255, 220, 0), (170, 170, 170),
           (240, 18, 190), (255, 133, 27), (127, 219, 255), (135, 12, 37))
ARC_NAMES = ("black", "blue", "red", "green", "yellow", "gray", "magenta", "orange", "azure", "maroon")
_ALIASES = {"grey": 5, "pink": 6, "fuchsia": 6, "purple": 6, "cyan": 8, "light blue": 8, "sky blue": 8,
            "brown": 9, "dark red": 9, **{n: i for i, n in enumerate(ARC_NAMES)}}
_WORD = re.compile(r"\b(" + "|".join(sorted(_ALIASES, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_GRID_LINE = re.compile(r"^[\d\s,/|;]*\d[\d\s,/|;]*$")
_CANONICAL = re.compile(r"^\d+(?:/\d+)*$")
_TAG = re.compile(r"</?[A-Za-z_]{1,20}>")
LINE = (85, 85, 95)
PANEL = (228, 229, 235)
TEST = (245, 130, 30)
MAX_TRIES = 400


def arc_doc(summary: str, description: str, levels: str) -> str:
    """The docstring of an ARC family: its summary, description and levels with the shared sections."""
    return f"""{summary}

    ## Description
    {description.strip()} Each task is regenerated until no other composition of the library
    (the family's transformations, the symmetries of the square it allows, a colour map that keeps
    the background, learned from the demonstrations) of at most as many steps explains every
    demonstration but answers the test differently, so the answer is unique.

    ## Action Space
    ``answer_format="open"``: `Text`, the output grid as rows of colour digits separated by ``/``
    (spaces, commas, new lines, colour names and JSON lists are read too; the last grid in the
    reply counts). ``"mcq"``: `Discrete(k)` over candidate grids (the output of another rule that
    fits most demonstrations, the answer turned or mirrored, shifted by one cell, with a colour
    swapped or one cell changed, the test input).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: one grey panel per pair (input, arrow, output), the test
    framed in orange with a '?' for its output, and a legend of the ten colour digits.

    ## Rewards
    1.0 for the exact output grid, else 0.0.

    ## Starting State
    The rule's steps, grid sizes, objects and colours are drawn from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    {levels.strip()} ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """


_DIGITS = bytes(range(48, 58)) + bytes(245) + b"/"  # bytes.translate: colours 0-9 -> digits, -1 -> '/'


def format_grid(grid: np.ndarray) -> str:
    """Rows of digits separated by ``/`` (``0120/0300``)."""
    return _format_grids([np.asarray(grid)])[0]


def _format_grids(grids: list[np.ndarray]) -> list[str]:
    """`format_grid` of each grid: its cells and a -1 after each row as bytes, turned to text at once."""
    out = []
    for g in grids:
        h, w = g.shape
        buf = np.empty((h, w + 1), dtype=np.int8)
        buf[:, w] = -1
        buf[:, :w] = g
        out.append(buf.tobytes()[:-1].translate(_DIGITS).decode("ascii"))
    return out


def parse_grid(text: str) -> np.ndarray | None:
    """A grid from a reply: rows of digits (or colour names) separated by ``/``, ``|``, ``;`` or new
    lines, cells optionally separated by spaces or commas, or a JSON list of lists. The last grid in
    the reply counts. None when no grid can be read or the rows differ in length."""
    if not isinstance(text, str):
        return None
    if len(text) < 2000 and _CANONICAL.match(text):  # the canonical form, read directly
        rows = text.strip().split("/")
        if len(rows) > 40 or len(rows[0]) > 40 or any(len(r) != len(rows[0]) for r in rows):
            return None
        return (np.frombuffer("".join(rows).encode(), dtype=np.uint8) - 48).astype(np.int8).reshape(len(rows), -1)
    text = _WORD.sub(lambda m: str(_ALIASES[m.group(1).lower()]), strip_reasoning(text)[-MAX_SCAN:])
    if "[" in text:
        blocks = re.findall(r"\[\s*\[[\d\s,\[\]]*\]\s*\]", text)
        if blocks:
            rows = [re.findall(r"\d+", r) for r in re.findall(r"\[([^\[\]]*)\]", blocks[-1])]
            return _rows(rows)
    lines = []
    for raw in _TAG.sub("\n", text).replace("`", " ").replace("\\n", "\n").splitlines():
        line = raw.strip().strip("[](){}\"'*")
        if ":" in line and not _GRID_LINE.match(line):
            line = line.rsplit(":", 1)[1].strip()
        lines.append(line if line and _GRID_LINE.match(line) else None)
    run: list[str] = []
    for line in reversed(lines):
        if line is None:
            if run:
                break
            continue
        run.insert(0, line)
    if not run:
        return None
    rows = []
    for row in re.split(r"[/|;\n]", "\n".join(run)):
        row = row.strip()
        if row:
            rows.append(re.split(r"[\s,]+", row) if re.search(r"\d[\s,]+\d", row) else list(row.replace(",", "")))
    return _rows(rows)


def _rows(rows: list[list[str]]) -> np.ndarray | None:
    if not rows or not rows[0] or len(rows) > 40 or any(len(r) != len(rows[0]) for r in rows):
        return None
    if any(len(v) != 1 or not v.isdigit() for r in rows for v in r) or len(rows[0]) > 40:
        return None
    return np.array([[int(v) for v in r] for r in rows], dtype=np.int8)


_RGB = np.array(ARC_RGB, dtype=np.uint8)


@functools.lru_cache(maxsize=64)
def _tiles(s: int) -> np.ndarray:
    """(10, s, s, 3): one cell of each colour, with a grid line on its top and left when s >= 5."""
    t = np.empty((10, s, s, 3), dtype=np.uint8)
    t[:] = np.array(ARC_RGB, dtype=np.uint8)[:, None, None]
    if s >= 5:
        t[:, 0, :] = LINE
        t[:, :, 0] = LINE
    t.setflags(write=False)
    return t


@functools.lru_cache(maxsize=128)
def _board(H: int, W: int, n: int, cols: int) -> np.ndarray:
    """The static picture of a layout: pair panels, arrows, the test frame with '?', the legend."""
    img = new_frame(H, W, BACKGROUND)
    rows, legend = -(-n // cols), max(5, H // 13)
    cw, ch = W / cols, (H - legend) / rows
    pad = max(1, int(min(cw, ch) * 0.03))
    for i in range(n):
        r, c = divmod(i, cols)
        x0, y0 = c * cw, r * ch
        fill_rect(img, x0 + pad, y0 + pad, x0 + cw - pad, y0 + ch - pad, PANEL)
        if i == n - 1:
            outline_rect(img, x0 + pad, y0 + pad, x0 + cw - pad, y0 + ch - pad, TEST, max(1, int(min(cw, ch) / 40)))
            q = int(min(cw * 0.42, ch * 0.84) * 0.6)
            cx, cy = x0 + cw * 0.95 - cw * 0.21, y0 + ch / 2
            fill_rect(img, cx - q / 2, cy - q / 2, cx + q / 2, cy + q / 2, (200, 200, 205))
            draw_text(img, "?", (cx, cy), max(4, int(q * 0.7)), (60, 60, 70), bold=True)
        ax, ay, aw = x0 + cw / 2, y0 + ch / 2, min(cw * 0.035, ch * 0.12)
        with pil_draw(img) as d:
            d.polygon([(ax - aw, ay - aw * 0.35), (ax + aw * 0.1, ay - aw * 0.35), (ax + aw * 0.1, ay - aw * 0.8),
                       (ax + aw, ay), (ax + aw * 0.1, ay + aw * 0.8), (ax + aw * 0.1, ay + aw * 0.35),
                       (ax - aw, ay + aw * 0.35)], fill=(70, 70, 80))
    sw = min(W / 10, legend) * 0.9
    x0 = (W - 10 * W / 10) / 2
    size = fit_text_size("0", int(sw), int(sw * 0.8), bold=True)
    for k in range(10):
        cx, cy = x0 + (k + 0.5) * W / 10, H - legend / 2
        fill_rect(img, cx - sw / 2, cy - sw / 2, cx + sw / 2, cy + sw / 2, ARC_RGB[k])
        ink = (0, 0, 0) if sum(ARC_RGB[k]) > 380 else (255, 255, 255)
        draw_text(img, str(k), (cx, cy), size, ink, bold=True)
    img.setflags(write=False)
    return img


_LINE = np.array(LINE, dtype=np.uint8)


@functools.lru_cache(maxsize=64)
def _strips(s: int) -> np.ndarray:
    """(10, s, 3): one pixel row of a cell of each colour, the grid line first when s >= 5 (contiguous)."""
    return np.ascontiguousarray(_tiles(s)[:, 1 if s >= 5 else 0])


@functools.lru_cache(maxsize=256)
def _line_row(n: int) -> np.ndarray:
    """(n, 3): a pixel row of grid line (read-only)."""
    row = np.empty((n, 3), dtype=np.uint8)
    row[:] = _LINE
    row.setflags(write=False)
    return row


def blit_grid(img: np.ndarray, grid: np.ndarray, cx: float, cy: float, s: int) -> tuple[int, int, int, int]:
    """Draw ``grid`` with cells of ``s`` pixels centred on (cx, cy), clipped to the frame; returns
    the box of the pixels it may have written, (y0, y1, x0, x1) within the frame."""
    h, w = grid.shape
    x, y = int(cx - w * s / 2), int(cy - h * s / 2)
    H, W = img.shape[:2]
    written = (max(0, y), max(0, min(H, y + h * s + 1)), max(0, x), max(0, min(W, x + w * s + 1)))
    if x >= 0 and y >= 0 and x + w * s <= W and y + h * s <= H:
        # inside the frame (the usual case): each cell's pixel row (grid line first) gathered into the
        # grid's pixel rows, broadcast down each cell, then the grid lines across: the same pixels as
        # the tiles, written in place (2.5x faster than widening and repeating the colours); the box
        # holds the bottom and right lines too where they are in the frame
        box = img[y:y + h * s + 1, x:x + w * s + 1]
        rows = _strips(s).reshape(10, s * 3).take(grid, axis=0)
        box[:h * s, :w * s].reshape(h, s, w * s * 3)[:] = rows.reshape(h, 1, w * s * 3)
        if s >= 5:
            box[::s] = _line_row(box.shape[1])  # the top line of each row of cells, and the bottom line
            box[:, w * s:] = _LINE
        return written
    block = _tiles(s)[grid].transpose(0, 2, 1, 3, 4).reshape(h * s, w * s, 3)
    bx, by = max(0, -x), max(0, -y)
    x1, y1 = min(W, x + w * s), min(H, y + h * s)
    if x1 > x + bx and y1 > y + by:
        img[y + by:y1, x + bx:x1] = block[by:y1 - y, bx:x1 - x]
    if s >= 5:
        fill_rect(img, x, y + h * s, x + w * s + 1, y + h * s + 1, LINE)
        fill_rect(img, x + w * s, y, x + w * s + 1, y + h * s + 1, LINE)
    return written


class ArcEnv(SingleTurnEnv):
    """Base of the ARC-style ids (see the module docstring); not registered itself."""

    modifiers: ClassVar[tuple[int, ...]] = tuple(range(8))
    keys: ClassVar[tuple[str, ...]] = ("colour",)
    answer_hint = ("the test output grid as rows of colour digits, top row first, rows separated by `/` "
                   "(for example `0120/0300`)")

    transient_attrs = (*SingleTurnEnv.transient_attrs, "_core_table", "_shown_cores", "_scratch")

    def _configure(self) -> None:
        self.depth = self.difficulty + 1
        self._core_table: tuple[list[Core], dict] | None = None
        self._scratch: tuple[np.ndarray, np.ndarray, list] | None = None  # (board, frame, boxes drawn)

    @property
    def cores(self) -> list[Core]:
        """The family's hypothesis cores (closures: rebuilt after unpickling, not pickled)."""
        if self._core_table is None:
            cores = self._cores()
            self._core_table = (cores, {name: fn for name, _, fn in cores})
        return self._core_table[0]

    @property
    def core_fns(self) -> dict:
        self.cores  # noqa: B018 - builds the table
        return self._core_table[1]

    # -- family hooks
    def _cores(self) -> list[Core]:
        raise NotImplementedError

    def _sample(self, rng: np.random.Generator) -> tuple[Rule, list[Scene]]:
        raise NotImplementedError

    def _cores_showing(self, *grids: np.ndarray) -> list[Core]:
        """The cores whose name does not end in a colour digit, or ends in one of the colours the
        ``grids`` show (cached per set of colours shown)."""
        shown = frozenset(b"".join(np.asarray(g).astype(np.uint8).tobytes() for g in grids))
        table = getattr(self, "_shown_cores", None)
        if table is None:
            table = self._shown_cores = {}
        hit = table.get(shown)
        if hit is None:
            hit = table[shown] = [c for c in self.cores if not c[0][-1].isdigit() or int(c[0][-1]) in shown]
        return hit

    def _search_cores(self, demos: list[tuple[Scene, np.ndarray]]) -> list[Core]:
        """The cores the uniqueness search tries (a family may drop cores whose colour parameter
        is absent from the first output: with a colour map after them they only restate another)."""
        return self.cores

    def _rule(self, rng: np.random.Generator, core: str, extras: tuple[str, ...], palette: list[int]) -> Rule:
        """The intended rule: ``core``, then a colour map of ``palette`` ("cmap" in extras), then a
        symmetry other than the identity ("g" in extras)."""
        g = int(self.modifiers[int(rng.integers(1, len(self.modifiers)))]) if "g" in extras else 0
        table = colour_table(rng, palette) if "cmap" in extras else ()
        return Rule(core, "colour" if table else None, table, g)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        for _ in range(MAX_TRIES):
            rule, scenes = self._sample(rng)
            fns = self.core_fns
            outs = [apply_rule(rule, fns, s) for s in scenes]
            if any(o is None or (o.shape == s.grid.shape and (o == s.grid).all()) for o, s in zip(outs, scenes)):
                continue
            demos = list(zip(scenes[:-1], outs[:-1]))
            if unique(self._search_cores(demos), self.keys, self.modifiers, demos, scenes[-1], self.depth, outs[-1]):
                break
        else:
            raise RuntimeError(f"{type(self).__name__}: no unique task in {MAX_TRIES} draws")
        self.rule, self.demos, self.test, self.truth = rule, demos, scenes[-1], outs[-1]
        self._text: str | None = None

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        grids = [g for s, y in self.demos for g in (s.grid, y)] + [self.test.grid]
        n = len(self.demos) + 1
        best = None
        for cols in (1, 2):
            rows = -(-n // cols)
            cw, ch = W / cols, (H - max(5, H // 13)) / rows
            s = min(min(cw * 0.4 / g.shape[1], ch * 0.82 / g.shape[0]) for g in grids)
            if best is None or s > best[0] * 1.05:
                best = (s, cols, cw, ch)
        s, cols, cw, ch = best
        s = max(1, int(s))
        img, written = self._canvas(_board(H, W, n, cols))
        for i in range(n):
            r, c = divmod(i, cols)
            x0, cy = c * cw, r * ch + ch / 2
            written.append(blit_grid(img, grids[2 * i], x0 + cw * 0.05 + cw * 0.21, cy, s))
            if i < n - 1:
                written.append(blit_grid(img, grids[2 * i + 1], x0 + cw * 0.95 - cw * 0.21, cy, s))
        return img

    def _canvas(self, board: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
        """A frame showing ``board``, and the list to record the boxes drawn on it: the env's own
        frame, whose last grids' boxes are copied back from the board (the frame is copied whole
        only when the board changes). The observation is a copy of it, so no frame handed out
        changes; the env redraws it at each reset."""
        hit = self._scratch
        if hit is None or hit[0] is not board:
            hit = self._scratch = (board, board.copy(), [])
        else:
            img, written = hit[1], hit[2]
            for y0, y1, x0, x1 in written:
                img[y0:y1, x0:x1] = board[y0:y1, x0:x1]
            written.clear()
        return hit[1], hit[2]

    def _task_text(self) -> str:
        return ("The image shows an ARC-style puzzle. Each grey panel holds an input grid of coloured cells, an "
                "arrow and the output grid that one hidden rule makes from it; the same rule holds for every "
                "panel. The last panel (framed in orange) is the test: its output is a '?'. Work out the rule "
                "from the demonstrations and give the test output grid. Colours are digits, as in the legend "
                "at the bottom: 0 black, 1 blue, 2 red, 3 green, 4 yellow, 5 gray, 6 magenta, 7 orange, "
                "8 azure, 9 maroon. The output may differ in size from the input.")

    def _state_text(self) -> str:
        if self._text is not None:
            return self._text
        rows = _format_grids([g for s, y in self.demos for g in (s.grid, y)] + [self.test.grid])
        demos = "; ".join(f"demo {i + 1}: {rows[2 * i]} -> {rows[2 * i + 1]}" for i in range(len(self.demos)))
        self._text = f"{demos}; test: {rows[-1]} -> ?"
        return self._text

    # -- verify
    def _parse_answer(self, text: str) -> np.ndarray | None:
        return parse_grid(text)

    def _read(self, text: str) -> np.ndarray | None:
        # the whole reply first, as the base does, but the base's candidate extraction only when needed
        return parse_grid(text) if _CANONICAL.match(text[:2000]) else super()._read(text)

    def _check(self, answer: Any) -> bool:
        a = np.asarray(answer)
        return a.shape == self.truth.shape and bool((a == self.truth).all())

    def _format(self, answer: Any) -> str:
        return format_grid(np.asarray(answer))

    # -- oracle
    def _solve(self) -> np.ndarray:
        return self.truth

    def _near_misses(self, rng: np.random.Generator) -> list[np.ndarray]:
        t = self.truth
        rival = partial_outputs(self.cores, self.modifiers, self.demos, self.test, self.depth + 1)[:4]
        turned = [d4(t, int(k)) for k in rng.permutation(np.arange(1, 8))]
        shifted = [translate(t, dr, dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
        colours = np.unique(t).tolist()
        swapped = []
        for _ in range(3):
            a = int(colours[int(rng.integers(len(colours)))])  # rng.choice(colours): the same draw
            swapped.append(np.where(t == a, int(rng.integers(1, 10)), t).astype(np.int8))
        poked = []
        for _ in range(3):
            p = t.copy()
            p[int(rng.integers(t.shape[0])), int(rng.integers(t.shape[1]))] = int(rng.integers(10))
            poked.append(p)
        out = []
        for group in zip(*(g + [None] * 8 for g in (rival, turned[:4], shifted, swapped, poked))):
            out += [g for g in group if g is not None]
        return [*out, self.test.grid, *turned[4:]]
