"""Logic circuits for the gate puzzles: random acyclic circuits of named gates, evaluation, answers, drawing.

A circuit has ``inputs`` input wires (nodes ``0 .. inputs - 1``, named A, B, C, ...) and gates (node
``inputs + j`` is gate j), each ``(op, a, b)`` over earlier nodes (``b`` is -1 for NOT). Its outputs
are the gates nothing else reads, named P, Q, R, ... from the top of the picture (OUT when there
is one).

The picture is a schematic: inputs on the left, each gate a box labelled with its operation in the
column of its depth, output terminals on the right. Every node has a row of its own, so a wire
leaves its source horizontally along the source's row, turns down or up in a channel of the gap
left of the target's column (one channel per source in each gap), and enters the target along the
row of one of its pins: a horizontal run never meets a box other than its own ends. A dot marks
where a wire branches; wires that cross without a dot are not connected. Wires take the colour of
their source.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from dataclasses import dataclass

import numpy as np

from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    WHITE,
    Color,
    blend_mask,
    color_block,
    draw_shape,
    draw_text,
    fill_rect,
    fit_text_size,
    new_frame,
    text_mask,
)

OPS = ("AND", "OR", "XOR", "NAND", "NOR", "NOT")
INPUT_NAMES = "ABCDEFGH"
OUTPUT_NAMES = "PQRSTU"
WIRE_COLOURS: tuple[Color, ...] = ((38, 90, 200), (205, 45, 35), (30, 140, 60), (150, 60, 180), (225, 125, 10),
                                   (20, 150, 160), (125, 80, 40), (110, 125, 0), (90, 90, 90))
GATE_FILL = (236, 240, 250)


def apply(op: str, a: int, b: int) -> int:
    """The value of gate ``op`` on input values ``a`` and ``b`` (``b`` is ignored by NOT)."""
    if op == "AND":
        return a & b
    if op == "OR":
        return a | b
    if op == "XOR":
        return a ^ b
    if op == "NAND":
        return 1 - (a & b)
    if op == "NOR":
        return 1 - (a | b)
    return 1 - a


def apply_table(op: str, x: int, y: int, full: int) -> int:
    """The truth table of gate ``op`` on truth tables ``x`` and ``y`` (``y`` is ignored by NOT), as bits of ``full``."""
    return (x & y if op == "AND" else x | y if op == "OR" else x ^ y if op == "XOR"
            else ~(x & y) if op == "NAND" else ~(x | y) if op == "NOR" else ~x) & full


@dataclass(frozen=True)
class Circuit:
    inputs: int
    gates: tuple[tuple[str, int, int], ...]

    @property
    def size(self) -> int:
        return self.inputs + len(self.gates)

    def values(self, assignment: tuple[int, ...]) -> list[int]:
        """Every node's value when the inputs take ``assignment``."""
        vals = list(assignment)
        for op, a, b in self.gates:
            vals.append(apply(op, vals[a], vals[b] if b >= 0 else 0))
        return vals

    @functools.cached_property
    def outputs(self) -> tuple[int, ...]:
        """The gates no other gate reads, from the top of the picture down."""
        read = {x for _, a, b in self.gates for x in (a, b)}
        return tuple(sorted((self.inputs + j for j in range(len(self.gates)) if self.inputs + j not in read),
                            key=lambda v: self.rows[v]))

    @functools.cached_property
    def rows(self) -> tuple[int, ...]:
        """A row of the picture per node: inputs spread down the left, each gate near the mean row of
        what it reads."""
        keys = [float(i) * self.size / self.inputs for i in range(self.inputs)]
        for j, (_, a, b) in enumerate(self.gates):
            keys.append((keys[a] + (keys[b] if b >= 0 else keys[a])) / 2 + 0.01 * j + 0.3)
        order = sorted(range(self.size), key=lambda v: keys[v])
        rows = [0] * self.size
        for r, v in enumerate(order):
            rows[v] = r
        return tuple(rows)

    def truth_tables(self) -> list[int]:
        """Every node's truth table as a bit mask over the ``2 ** inputs`` assignments (bit x: input i
        takes bit ``inputs - 1 - i`` of x, so x counts A B C ... as a binary number)."""
        k = self.inputs
        full = (1 << (1 << k)) - 1
        tabs = list(input_tables(k))
        for op, a, b in self.gates:
            tabs.append(apply_table(op, tabs[a], tabs[b] if b >= 0 else 0, full))
        return tabs

    def output_values(self, assignment: tuple[int, ...]) -> tuple[int, ...]:
        vals = self.values(assignment)
        return tuple(vals[o] for o in self.outputs)

    @functools.cached_property
    def levels(self) -> tuple[int, ...]:
        """Depth of every node: 0 for inputs, one more than the deepest input of a gate."""
        lv = [0] * self.inputs
        for _, a, b in self.gates:
            lv.append(1 + max(lv[a], lv[b] if b >= 0 else 0))
        return tuple(lv)

    def netlist(self) -> str:
        """The circuit as text, for the state text: one gate per line."""
        def name(v: int) -> str:
            return INPUT_NAMES[v] if v < self.inputs else f"g{v - self.inputs + 1}"
        lines = [f"{name(self.inputs + j)} = {op}({name(a)}{', ' + name(b) if b >= 0 else ''})"
                 for j, (op, a, b) in enumerate(self.gates)]
        names = output_names(len(self.outputs))
        lines += [f"{names[i]} = {name(o)}" for i, o in enumerate(self.outputs)]
        return "\n".join(lines)


@functools.cache
def input_tables(k: int) -> tuple[int, ...]:
    """The truth tables of ``k`` inputs (see `Circuit.truth_tables`)."""
    return tuple(sum(1 << x for x in range(1 << k) if x >> (k - 1 - i) & 1) for i in range(k))


def output_names(k: int) -> tuple[str, ...]:
    return ("OUT",) if k == 1 else tuple(OUTPUT_NAMES[:k])


def random_circuit(rng: np.random.Generator, inputs: int, gates: int, outputs: int, min_depth: int,
                   not_share: float = 0.15) -> Circuit:
    """A circuit where every input and every gate is used and exactly ``outputs`` gates are unread, at
    least ``min_depth`` deep. Each gate's inputs are unread nodes when the unread nodes left would
    otherwise outnumber ``outputs`` at the end, read (or any) nodes when reading more would leave too
    few, else either at random, leaning towards recent nodes; drawn again until the depth holds."""
    two = OPS[:5]
    while True:
        unread, done = list(range(inputs)), []  # nodes nothing reads yet, nodes read: each in order
        levels = [0] * inputs
        made: list[tuple[str, int, int]] = []
        for j in range(gates):
            node, later = inputs + j, gates - j - 1
            need = len(unread) + 1 + later - outputs  # unread nodes that must still be read
            op = "NOT" if rng.random() < not_share and need <= 1 + 2 * later else two[int(rng.integers(len(two)))]
            k = 1 if op == "NOT" else 2
            picks: list[int] = []
            for i in range(k):
                # a first pick is read by now: the second one's pools leave it out
                others = [v for v in done if v not in picks] if picks else done
                others = others or [v for v in range(node) if v not in picks]
                left = k - i - 1 + 2 * later  # picks after this one
                if need > left or (need > 0 and unread and rng.random() < 0.6):
                    pool = unread or others
                else:
                    pool = others if need <= 0 or not unread else others + unread
                upto = list(itertools.accumulate(1 + levels[v] for v in pool))  # weight 1 + depth
                v = pool[min(bisect.bisect_right(upto, rng.random() * upto[-1]), len(pool) - 1)]
                if v in unread:
                    need -= 1
                    unread.remove(v)
                    bisect.insort(done, v)
                picks.append(v)
            unread.append(node)
            levels.append(1 + max(levels[picks[0]], levels[picks[-1]]))
            made.append((op, picks[0], picks[1] if k > 1 else -1))
        # every input read, the unread gates are the outputs
        if len(unread) == outputs and unread[0] >= inputs and max(levels) >= min_depth:
            return Circuit(inputs, tuple(made))


# ----------------------------------------------------------------- answers
def parse_bits(text: str, names: tuple[str, ...]) -> tuple[int, ...] | None:
    """Values 0/1 for ``names``, said as ``P=1, Q=0`` (any order, ``:`` or ``=``) or as a bare sequence in
    order (``1 0``, ``10``, ``1,0``); ``None`` otherwise."""
    t = text.strip()
    if not t or len(t) > 400:
        return None
    t = re.sub(r"(?i)\btrue\b", "1", re.sub(r"(?i)\bfalse\b", "0", t))
    pairs = re.findall(r"\b([A-Za-z]{1,3})\s*(?:=|:|is)\s*([01])\b", t)
    if pairs:
        got: dict[str, str] = {}
        for k, v in pairs:
            k = k.upper()
            if k not in names or got.get(k, v) != v:
                return None
            got[k] = v
        return tuple(int(got[k]) for k in names) if len(got) == len(names) else None
    bits = re.sub(r"[\s,;/|()\[\]{}]+", "", t)
    if len(bits) == len(names) and set(bits) <= {"0", "1"}:
        return tuple(int(ch) for ch in bits)
    return None


def format_bits(values: tuple[int, ...], names: tuple[str, ...]) -> str:
    return " ".join(f"{k}={v}" for k, v in zip(names, values, strict=True))


# ----------------------------------------------------------------- drawing
def draw_circuit(obs_size: tuple[int, int], c: Circuit, input_text: list[str]) -> np.ndarray:
    """The schematic of ``c`` (see the module docstring); ``input_text`` is written in the input boxes."""
    H, W = obs_size
    img = new_frame(H, W, BACKGROUND)
    depth = max(c.levels)
    cols = depth + 2
    colw = W / (cols + 0.1)
    pitch = H / (c.size + 0.4)
    bw, bh = colw * 0.52, pitch * 0.74
    line = max(1, int(min(colw, pitch) / 15))
    rows = c.rows
    outs = c.outputs
    names = output_names(len(outs))

    left = [0.05 * colw + col * colw + (colw - bw) / 2 for col in range(cols)]  # per column, its boxes' left side
    ymid = [0.2 * pitch + (r + 0.5) * pitch for r in rows]  # per node, the middle of its row

    def pins(j: int) -> list[float]:
        op = c.gates[j][0]
        y = ymid[c.inputs + j]
        return [y] if op == "NOT" else [y - bh * 0.24, y + bh * 0.24]

    # channels: per gap (left of a column), one x per source that feeds that column
    feeds: dict[int, list[int]] = {}
    for j, (_, a, b) in enumerate(c.gates):
        col = c.levels[c.inputs + j]
        for s in (a, b):
            if s >= 0 and s not in feeds.setdefault(col, []):
                feeds[col].append(s)
    chan: dict[tuple[int, int], float] = {}
    for col, srcs in feeds.items():
        lo, hi = left[col - 1] + bw + 2 * line, left[col] - 2 * line
        for i, s in enumerate(sorted(srcs, key=rows.__getitem__)):
            chan[col, s] = lo + (i + 1) * (hi - lo) / (len(srcs) + 1)
    dot = max(3, int(min(colw, pitch) * 0.2))
    # a colour per source, none shared by two sources whose wires' bounding boxes meet (when 9 allow it)
    boxes: dict[int, list[float]] = {}
    for j, (_, a, b) in enumerate(c.gates):
        col = c.levels[c.inputs + j]
        for s, py in zip((a, b), pins(j), strict=False):
            x0, x1 = left[c.levels[s]] + bw, chan[col, s]
            bx = boxes.setdefault(s, [x0, x1, ymid[s], ymid[s]])
            bx[1], bx[2], bx[3] = max(bx[1], x1), min(bx[2], py), max(bx[3], py)
    colour_of: dict[int, Color] = {}
    used = [0] * len(WIRE_COLOURS)
    done: list[tuple[int, list[float]]] = []  # (colour index, box) of the sources coloured so far
    for s in sorted(boxes, key=rows.__getitem__):
        x0, x1, y0, y1 = bx = boxes[s]
        taken = [0] * len(WIRE_COLOURS)
        for k, (a0, a1, b0, b1) in done:
            if a0 <= x1 + line and x0 <= a1 + line and b0 <= y1 + line and y0 <= b1 + line:
                taken[k] += 1
        k = min(zip(taken, used, range(len(WIRE_COLOURS))))[2]  # fewest meeting it, then least used, then first
        colour_of[s] = WIRE_COLOURS[k]
        used[k] += 1
        done.append((k, bx))
    for o in outs:
        colour_of.setdefault(o, WIRE_COLOURS[o % len(WIRE_COLOURS)])

    # wires, under the boxes: per channel a vertical run over the source's row and its pins there
    spans: dict[tuple[int, int], list[float]] = {}
    for j, (_, a, b) in enumerate(c.gates):
        col = c.levels[c.inputs + j]
        for s, py in zip((a, b), pins(j), strict=False):
            spans.setdefault((col, s), [ymid[s]]).append(py)
            _paint(img, chan[col, s], py - line / 2, left[col] + 1, py + line / 2 + 1, colour_of[s])
    ends: dict[int, list[float]] = {o: [left[cols - 1]] for o in outs}  # where each source's horizontal run turns
    for (col, s), ys in spans.items():
        colour, x = colour_of[s], chan[col, s]
        lo, hi = min(ys), max(ys)
        _paint(img, x - line / 2, lo - line / 2, x + line / 2 + 1, hi + line / 2 + 1, colour)
        ends.setdefault(s, []).append(x)
        for y in set(ys):
            if lo < y < hi:  # a pin (or the run) joins the vertical part way along: a branch
                draw_shape(img, "circle", x, y, dot, colour)
    for s, xs in ends.items():
        colour, y = colour_of[s], ymid[s]
        _paint(img, left[c.levels[s]] + bw, y - line / 2, max(xs) + line / 2 + 1, y + line / 2 + 1, colour)
        for x in sorted(set(xs))[:-1]:  # the run goes on past this turn: a branch
            draw_shape(img, "circle", x, y, dot, colour)
    # boxes
    size = fit_text_size("NAND", int(bw * 0.86), int(bh * 0.62), bold=True)
    for v in range(c.size):
        x0, y0 = left[c.levels[v]], ymid[v] - bh / 2
        text = input_text[v] if v < c.inputs else c.gates[v - c.inputs][0]
        _box(img, x0, y0, bw, bh, line, WHITE if v < c.inputs else GATE_FILL, text, (x0 + bw / 2, ymid[v]), size)
    for k, o in enumerate(outs):
        x0, y0 = left[cols - 1], ymid[o] - bh / 2
        _box(img, x0, y0, bw * 0.8, bh, line, WHITE, names[k], (x0 + bw * 0.4, ymid[o]), size)
    return img


def _paint(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, colour: Color) -> None:
    """`fill_rect` (clipped with compares, as there), copied from a cached block of the colour: faster on a thin box."""
    fh, fw = img.shape[:2]
    a, b = int(x0) if x0 > 0 else 0, int(x1) if x1 < fw else fw
    c, d = int(y0) if y0 > 0 else 0, int(y1) if y1 < fh else fh
    if a < b and c < d:
        img[c:d, a:b] = color_block(fh, fw, colour)[:d - c, :b - a]


def _box(img: np.ndarray, x0: float, y0: float, w: float, h: float, line: int, fill_colour: Color, text: str,
         xy: tuple[float, float], size: int) -> None:
    """A box with an ink rim, then ``text`` centred on ``xy``: copied from a cached tile when box and text lie
    inside the frame and the text inside the box (the box hides whatever was under it), else drawn."""
    fh, fw = img.shape[:2]
    a, b, c, d = int(x0), int(y0), int(x0 + w), int(y0 + h)
    mh, mw = text_mask(text, size, True).shape
    tx, ty = int(round(xy[0] - mw / 2)), int(round(xy[1] - mh / 2))
    if 0 <= a and 0 <= b and c <= fw and d <= fh and a <= tx and b <= ty and tx + mw <= c and ty + mh <= d:
        inner = (int(x0 + line) - a, int(y0 + line) - b, int(x0 + w - line) - a, int(y0 + h - line) - b)
        img[b:d, a:c] = _box_tile(c - a, d - b, inner, fill_colour, text, size, tx - a, ty - b)
        return
    fill_rect(img, x0, y0, x0 + w, y0 + h, INK)
    fill_rect(img, x0 + line, y0 + line, x0 + w - line, y0 + h - line, fill_colour)
    draw_text(img, text, xy, size, INK, bold=True)


@functools.lru_cache(maxsize=4096)
def _box_tile(w: int, h: int, inner: tuple[int, int, int, int], fill_colour: Color, text: str, size: int,
              tx: int, ty: int) -> np.ndarray:
    """The pixels `_box` draws, as a read-only ``h x w`` tile: ink, the ``inner`` box (x0, y0, x1, y1) filled,
    the text blended with its top-left at (tx, ty)."""
    tile = new_frame(h, w, INK)
    fill_rect(tile, *inner, fill_colour)
    blend_mask(tile, text_mask(text, size, True), tx, ty, INK)
    tile.setflags(write=False)
    return tile


WIRE_RULES = ("Each box is a gate labelled with its operation (AND, OR, XOR, NAND, NOR: two inputs; NOT: one), "
              "reading the wires that enter its left side and sending its value out of its right side. Wires run "
              "left to right; a dot marks where a wire branches, and wires that cross without a dot are not "
              "connected. NAND and NOR are the negations of AND and OR; XOR is 1 when exactly one input is 1.")
