"""Mental rotation: which candidate is the reference block figure turned, not its mirror image?"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.cognition import _iso
from gymv_envs.domains.cognition._choice import PanelChoiceEnv

Cells = tuple[tuple[int, int, int], ...]
# difficulty -> (cubes, arms: straight runs of 2-3 cubes turning by 90 degrees, whether wrong shapes join the mirrors)
LEVELS = {0: (5, 3, False), 1: (7, 4, False), 2: (8, 5, True)}
CUBE = (235, 150, 70)
MIN_VISIBLE = 0.18  # every cube shows at least this share of its outline


@functools.lru_cache(maxsize=1)
def rotations() -> tuple[np.ndarray, ...]:
    """The 24 rotation matrices of the cube."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=np.int64)
            for i, (p, sgn) in enumerate(zip(perm, signs)):
                m[i, p] = sgn
            if round(np.linalg.det(m)) == 1:
                out.append(m)
    return tuple(out)


def normal(cells: np.ndarray | list[tuple[int, int, int]]) -> Cells:
    """The cells moved to the origin (each coordinate's least value 0), sorted: in Python, as the
    figures have a few cubes."""
    c = cells.tolist() if isinstance(cells, np.ndarray) else cells
    mx, my, mz = map(min, zip(*c))
    return tuple(sorted([(x - mx, y - my, z - mz) for x, y, z in c]))


@functools.lru_cache(maxsize=1)
def _rotation_stack() -> np.ndarray:
    """The 24 rotations transposed, (24, 3, 3): ``cells @ stack`` turns (n, 3) cells by each one,
    ``(24, n, 3)`` (one integer matmul; read-only)."""
    out = np.ascontiguousarray(np.stack(rotations()).transpose(0, 2, 1))
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=1)
def _turn_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per turn r (of `rotations`), as float matrices (read-only): ``codes`` (6, 24) maps a cube's row
    (x - min x, y - min y, z - min z, max x - x, max y - y, max z - z) to its cell code (32 x 32
    weights) in turn r moved to the origin; ``pair`` (6, 48): ``codes``, then the codes of the mirror
    image's turns (its rows are the figure's with the first and fourth swapped)."""
    codes = np.zeros((6, 24))
    for r, m in enumerate(rotations()):
        for k in range(3):  # turned coordinate k is sign * x_p: its least value is 0 or minus the greatest
            p = int(np.flatnonzero(m[k])[0])
            codes[p if m[k, p] > 0 else p + 3, r] = (1024, 32, 1)[k]
    pair = np.concatenate([codes, codes[[3, 1, 2, 0, 4, 5]]], axis=1)
    for a in (codes, pair):
        a.setflags(write=False)
    return codes, pair


@functools.lru_cache(maxsize=8192)
def canonical(cells: Cells) -> bytes:
    """The same key for every turned copy of a figure: the smallest sorted cell code over the 24 turns
    (each turn's codes as int64 bytes; one small float matmul, exact for these whole numbers)."""
    lo, hi = [min(v) for v in zip(*cells)], [max(v) for v in zip(*cells)]
    rows = [v for x, y, z in cells for v in (x - lo[0], y - lo[1], z - lo[2], hi[0] - x, hi[1] - y, hi[2] - z)]
    codes = np.sort(np.array(rows, dtype=float).reshape(-1, 6) @ _turn_tables()[0], axis=0).T.astype(np.int64)
    raw, size = codes.tobytes(), codes.shape[1] * codes.itemsize  # each turn's bytes: a slice of the whole
    return min(raw[i:i + size] for i in range(0, len(raw), size))


@functools.lru_cache(maxsize=4096)
def _chiral_keys(cells: Cells) -> tuple[bytes, bytes]:
    """``(canonical(cells), canonical(mirrored(cells)))`` from one float matmul."""
    lo, hi = [min(v) for v in zip(*cells)], [max(v) for v in zip(*cells)]
    rows = [v for x, y, z in cells for v in (x - lo[0], y - lo[1], z - lo[2], hi[0] - x, hi[1] - y, hi[2] - z)]
    codes = np.sort(np.array(rows, dtype=float).reshape(-1, 6) @ _turn_tables()[1], axis=0).T.astype(np.int64)
    raw, size = codes.tobytes(), codes.shape[1] * codes.itemsize  # each turn's bytes: a slice of the whole
    keys = [raw[i:i + size] for i in range(0, len(raw), size)]
    return min(keys[:24]), min(keys[24:])


def mirrored(cells: Cells) -> Cells:
    return normal([(-x, y, z) for x, y, z in cells])


_UNIT = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
_NEXT_AXIS = {a: tuple(b for b in range(3) if b != a) for a in (-1, 0, 1, 2)}  # a run turns off its axis
_STEPS = tuple((tuple(-v for v in unit), unit) for unit in _UNIT)  # per axis: the step for bit 4 clear, set


def chain(rng: np.random.Generator, n: int, arms: int) -> Cells | None:
    """A Shepard-Metzler-like figure: ``arms`` straight runs along the axes, each turning 90 degrees
    (None when the runs cross)."""
    draws = rng.integers(0, 1 << 30, size=n + 2 * arms).tolist()
    lengths = [2] * arms
    for x in draws[:n - 1 - arms]:
        lengths[x % arms] += 1
    pos, cells, axis = (0, 0, 0), [(0, 0, 0)], -1
    for k, length in enumerate(lengths):
        x = draws[n + 2 * k]
        axis = _NEXT_AXIS[axis][x % 2]
        dx, dy, dz = _STEPS[axis][(x >> 4) % 2]
        for _ in range(length - 1):
            pos = (pos[0] + dx, pos[1] + dy, pos[2] + dz)
            if pos in cells:
                return None
            cells.append(pos)
    return normal(cells) if len(cells) == n else None


def _spans(cells: Cells) -> tuple[float, float]:
    """The figure's width and height on screen in cube edges, with a margin of one edge (`layout`)."""
    xs = [x - y for x, y, _ in cells]
    ys = [(x + y) / 2 - z for x, y, z in cells]
    return (max(xs) - min(xs) + 2) * _iso.C30, max(ys) - min(ys) + 2


def _fit(spans: tuple[float, float], width: int, height: int) -> int:
    """The largest cube edge (at least 3) at which a figure of ``spans`` fits a box of ``width`` x ``height`` px."""
    return max(3, int(min(width / spans[0], height / spans[1]) * 0.9))


def layout(cells: Cells, box: tuple[int, int, int, int], edge: int | None = None) -> tuple[int, float, float]:
    """Cube edge (``edge``, or the largest that fits) and origin that centre the figure in ``box``."""
    xs = [x - y for x, y, _ in cells]
    ys = [(x + y) / 2 - z for x, y, z in cells]
    x0, y0, x1, y1 = box
    xlo, xhi, ylo, yhi = min(xs), max(xs), min(ys), max(ys)
    s = edge or _fit(((xhi - xlo + 2) * _iso.C30, yhi - ylo + 2), x1 - x0, y1 - y0)
    ox = (x0 + x1) / 2 - (xhi + xlo) / 2 * s * _iso.C30
    oy = (y0 + y1) / 2 - ((yhi + ylo) / 2 + 0.5) * s
    return s, ox, oy


def drawn_shares(cells: Cells, s: int = 16) -> np.ndarray:
    """For each cube, the share of its outline in view once nearer cubes are painted (an id buffer
    of the real drawing, at cube edge ``s``)."""
    order = _iso.painter(cells)
    items = [(cells[i], 1, "all") for i in order]
    side = int(s * (len(cells) + 2) * 2)
    buf = _iso.id_buffer((side, side), items, s, side / 2, side / 2)
    seen = np.bincount(buf[buf >= 0].ravel(), minlength=len(cells))
    full = _iso.column(1, s, (128, 128, 128))[1].sum()
    out = np.zeros(len(cells))
    out[order] = seen / full
    return out


@functools.lru_cache(maxsize=1)
def _overlap_table() -> np.ndarray:
    """Share of a cube's outline covered by a cube drawn over it at screen offset (du, dw) in lattice
    units (du = dx - dy, dw = dx + dy - 2 dz), for |du| <= 2, |dw| <= 4 (a per-process table)."""
    table = np.zeros((5, 9))
    for du in range(-2, 3):
        for dw in range(-4, 5):
            if (du + dw) % 2 == 0:  # lattice offsets have du and dw of the same parity
                # b sits at that offset on screen and nearer: adding (1, 1, 1) keeps the screen place
                a, b = (0, 0, 0), ((du + dw) // 2 + 5, (dw - du) // 2 + 5, 5)
                table[du + 2, dw + 4] = 1 - drawn_shares((a, b), 24)[0]
    return table


_SCREEN = np.array([[1, 1, 1], [-1, 1, 1], [0, -2, 1]], dtype=np.int64)  # (x, y, z) @ it: (u, w, depth)
_SCREEN.setflags(write=False)


@functools.lru_cache(maxsize=8)
def _cover_table(span: int) -> np.ndarray:
    """Per turn r, per offset d = (dx, dy, dz) between two cubes with |dx|, |dy|, |dz| <= ``span``
    (at ``(dx + span) * w * w + (dy + span) * w + dz + span``, w = 2 span + 1): the share of the first
    cube's outline the second covers in turn r: `_overlap_table` at the turned offset's screen place
    (u = x - y, w = x + y - 2 z; 0 when the second lies behind, depth x + y + z, or off the table).
    Read-only, (24, w ** 3); 8 spans cached, about 0.6 MB at span 7."""
    r = np.arange(-span, span + 1)
    d = np.stack(np.meshgrid(r, r, r, indexing="ij"), -1).reshape(-1, 3)
    du, dw, depth = (d @ _rotation_stack() @ _SCREEN).transpose(2, 0, 1)  # each (24, w ** 3)
    on = (depth > 0) & (np.abs(du) <= 2) & (np.abs(dw) <= 4)
    table = np.zeros(du.shape)
    table[on] = _overlap_table()[du[on] + 2, dw[on] + 4]
    table.setflags(write=False)
    return table


def _good_turns(cells: Cells, flips: tuple[int, ...]) -> np.ndarray:
    """Per figure ``cells`` with x times ``flip`` (one per flip: 1, or -1 for the mirror image), whether each
    of the 24 turns shows every cube, (24, len(flips)): one minus the summed covers of the cubes drawn
    over each cube (a lower bound of its share in view: the union of the covers is at most their sum)
    at least `MIN_VISIBLE`, the covers read per pair of cubes from `_cover_table` by their offset (a
    turn's offsets are the turned offsets of the figure)."""
    n = len(cells)
    span = max(map(max, cells)) - min(map(min, cells))
    w = 2 * span + 1
    mid = span * (w * w + w + 1)
    codes = []
    for flip in flips:
        keys = [flip * x * w * w + y * w + z for x, y, z in cells]
        codes += [kj - ki + mid for ki in keys for kj in keys]  # [i, j]: the offset of cube j from cube i
    cover = _cover_table(span).take(codes, axis=1).reshape(24, len(flips), n, n)
    return (1 - cover.sum(axis=-1)).min(axis=-1) >= MIN_VISIBLE


@functools.lru_cache(maxsize=4096)
def _drawable_turns(cells: Cells) -> tuple[np.ndarray, np.ndarray]:
    """The figure's 24 turned copies (r, n, 3) and the indices of those whose drawing shows every cube
    (`_good_turns`)."""
    turned = np.array(cells) @ _rotation_stack()
    turned.setflags(write=False)
    return turned, np.flatnonzero(_good_turns(cells, (1,))[:, 0])


@functools.lru_cache(maxsize=2048)
def _drawable_pair(cells: Cells) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """`_drawable_turns` of the figure and of its mirror image in one pass: the mirror's turned copies
    come from the figure with x negated, so each is `mirrored`'s turned copy shifted (`normal` removes
    the shift; the shares depend on offsets only)."""
    a = np.array(cells)
    turned = (a @ _rotation_stack(), a * np.array((-1, 1, 1)) @ _rotation_stack())
    good = _good_turns(cells, (1, -1))
    for t in turned:
        t.setflags(write=False)
    return (turned[0], np.flatnonzero(good[:, 0])), (turned[1], np.flatnonzero(good[:, 1]))


_PIXEL = np.dtype((np.void, 3))  # an RGB pixel as one item


@functools.lru_cache(maxsize=1024)
def _figure_patch(cells: Cells, box: tuple[int, int, int, int], edge: int | None) -> tuple[int, int, np.ndarray, np.ndarray]:
    """A figure drawn in ``box`` (`layout`) as one patch: its top-left pixel, its pixels (3-byte items) and
    where it covers (read-only). The cube sprites are stamped far to near on an empty patch, as
    `_iso.place_all` stamps them on the frame (opaque: a later one covers an earlier one), so pasting
    the covered pixels gives the frame the same pixels."""
    s, ox, oy = layout(cells, box, edge)
    rgb, mask = _iso.column(1, s, CUBE)
    gx, gy = _iso.origin(1, s)
    corners = []
    for i in _iso.painter(cells):
        px, py = _iso.project(*cells[i], s)
        corners.append((int(round(ox + px)) + gx, int(round(oy + py)) + gy))
    h, w = mask.shape
    x0, y0 = min(x for x, _ in corners), min(y for _, y in corners)
    width, height = max(x for x, _ in corners) + w - x0, max(y for _, y in corners) + h - y0
    pixels = np.zeros((height, width), dtype=_PIXEL)
    cover = np.zeros((height, width), dtype=bool)
    src = np.ascontiguousarray(rgb).view(_PIXEL).reshape(h, w)
    for x, y in corners:
        np.copyto(pixels[y - y0:y - y0 + h, x - x0:x - x0 + w], src, where=mask)
        cover[y - y0:y - y0 + h, x - x0:x - x0 + w] |= mask
    pixels.setflags(write=False)
    cover.setflags(write=False)
    return x0, y0, pixels, cover


class MentalRotation3D(PanelChoiceEnv):
    """Pick the candidate that is the reference block figure turned in space (the others are mirrors).

    ## Description
    The top shows a reference figure of cubes joined face to face (runs of cubes along the three
    axes, each run turning 90 degrees from the last), drawn in isometric view. Of the
    ``num_options`` lettered candidates (default 4), exactly one is the same object turned in
    space; the others are turned copies of its mirror image (difficulty 2: or a figure with one
    run changed, once). The reference is chiral (checked over the cube's 24 rotations), so no mirror
    image can be turned into it, and every drawing is checked to show each cube (at least 18% of
    its outline in view).

    ## Action Space
    ``answer_format="open"``: `Text`, a panel letter (``C``, ``panel C``). ``"mcq"``:
    `Discrete(num_options)`, option i is panel i.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the reference on top, the candidates below.

    ## Rewards
    1.0 for the turned copy, else 0.0.

    ## Starting State
    The figure, the turns and the right panel's place (uniform) come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 cubes in 3 runs; 1: 7 cubes in 4 runs; 2: 8 cubes in 5 runs, other
    shapes among the wrong ones), ``num_options``, ``answer_format``, ``obs_size``,
    ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    stem_fraction = 0.42
    stem_cards = 1
    stem_question = False

    @staticmethod
    def _views(rng: np.random.Generator, turns: tuple[np.ndarray, np.ndarray], count: int) -> list[Cells]:
        """``count`` different turns of a figure whose drawings show every cube (fewer if there are not),
        from its `_drawable_turns`."""
        turned, good = turns
        out: list[Cells] = []
        for i in rng.permutation(good.size).tolist():
            view = normal(turned[int(good[i])])
            if view not in out:
                out.append(view)
            if len(out) == count:
                break
        return out

    def _make(self, rng: np.random.Generator, k: int) -> None:
        n, arms, others = LEVELS[self.difficulty]
        n_alt = 1 if others else 0
        for self.tries in range(300):
            shape = chain(rng, n, arms)
            if shape is None:
                continue  # the runs cross
            keys = _chiral_keys(shape)  # canonical(shape), canonical(mirrored(shape))
            if keys[0] == keys[1]:
                continue  # a figure that equals its own mirror image
            turns, mirror_turns = _drawable_pair(shape)
            extents = sorted(map(max, zip(*shape)))  # (the figures are `normal`: least coordinates 0)
            views = self._views(rng, turns, 2)
            wrong = self._views(rng, mirror_turns, k - 1 - n_alt)
            for _ in range(n_alt * 4):
                if len(wrong) >= k - 1:  # the figure is not needed: only its draws are made
                    rng.integers(0, 1 << 30, size=n + 2 * arms)
                    continue
                alt = chain(rng, n, arms)
                # a turned copy of the figure or of its mirror image has their sorted extents: test those first
                if alt is not None and (sorted(map(max, zip(*alt))) != extents or canonical(alt) not in keys):
                    wrong += self._views(rng, _drawable_turns(alt), 1)
            if len(views) == 2 and len(wrong) == k - 1 and len({views[1], *wrong}) == k:
                break
        else:
            raise RuntimeError("MentalRotation3D: no drawable figure in 300 draws")
        self._edges: dict[tuple[int, int], int] = {}
        self._spans: list[tuple[float, float]] | None = None  # each candidate's `_spans`, once drawn
        self.reference, self.correct = views[0], int(rng.integers(k))
        self.candidates = [wrong[int(i)] for i in rng.permutation(k - 1)]
        self.candidates.insert(self.correct, views[1])

    def _figure(self, img: np.ndarray, cells: Cells, box, edge: int | None = None) -> None:
        H, W = img.shape[:2]
        # a cached patch where the figures recur (difficulty 0 has 42) and the sprites are small; else each cube
        if self.difficulty > 0 or H * W > 160 * 160:
            s, ox, oy = layout(cells, box, edge)
            points = []
            for i in _iso.painter(cells):
                px, py = _iso.project(*cells[i], s)
                points.append((ox + px, oy + py))
            _iso.place_all(img, _iso.column(1, s, CUBE), 1, s, points)
            return
        x, y, pixels, cover = _figure_patch(cells, tuple(box), edge)
        h, w = cover.shape
        a, b, c, d = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
        if a < c and b < d:
            np.copyto(img.view(_PIXEL).reshape(H, W)[b:d, a:c], pixels[b - y:d - y, a - x:c - x],
                      where=cover[b - y:d - y, a - x:c - x])

    def _draw_stem(self, img: np.ndarray, boxes) -> None:
        a, b, c, d = boxes[0]
        self._figure(img, self.reference, (a + 4, b + 4, c - 4, d - 4))

    def _draw_candidate(self, img: np.ndarray, i: int, box) -> None:
        # one cube size for every candidate (the largest that fits them all): fair to compare, one sprite
        size = (box[2] - box[0], box[3] - box[1])  # the edge depends on the box's size only
        if size not in self._edges:
            if self._spans is None:
                self._spans = [_spans(c) for c in self.candidates]
            self._edges[size] = min(_fit(sp, *size) for sp in self._spans)
        edge = self._edges[size]
        self._figure(img, self.candidates[i], box, edge)

    def _task_text(self) -> str:
        return ("The top of the image shows a reference figure made of cubes joined face to face. Exactly one of "
                f"the {self.num_options} lettered candidates below is the same object turned in space; the others "
                "are turned copies of its mirror image or of a different figure. Which candidate is the reference "
                "turned?")

    def _state_text(self) -> str:
        cands = "; ".join(f"{chr(65 + i)}: {list(c)}" for i, c in enumerate(self.candidates))
        return f"reference cubes (x, y, z) {list(self.reference)}; candidates {cands}"


SPECS = (
    TaskSpec(name="MentalRotation3D", entry_point=MentalRotation3D, max_episode_steps=1,
             tags=("spatial-reasoning", "3d", "mental-rotation")),
)
