"""Mastermind deduction: find the secret code from scored guesses."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
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
from gymv_envs.core.rng import ScalarDraws
from gymv_envs.domains.logic._mastermind_codes import all_codes, score, score_all, score_table

# difficulty -> (code length, colours, repeats allowed)
LEVELS = {0: (3, 4, False), 1: (4, 6, False), 2: (5, 6, True)}
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
LETTER = {name: name[0].upper() for name in COLOURS}
MAX_GUESSES = 10
_WORD = re.compile(r"[A-Z]+")


def _score(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """`score` of one code against another: black * 16 + white."""
    black = sum(x == y for x, y in zip(a, b))
    common = sum(min(a.count(k), b.count(k)) for k in set(a))
    return black * 16 + common - black


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


class MastermindDeduce(SingleTurnEnv):
    """Deduce the secret Mastermind code from the guesses already made and their scores.

    ## Description
    Each row of the image is a guess of coloured pegs (each peg also shows its colour's
    initial) followed by its score: one black dot per peg of the right colour in the right
    position, one white dot per further peg of a right colour in a wrong position. The guesses
    are chosen so that exactly one code fits every score (checked by enumerating all codes).

    ## Action Space
    ``answer_format="open"``: `Text`, the code as colour names or initials in order, e.g.
    ``red blue green`` or ``R B G`` or ``RBG``. ``"mcq"``: `Discrete(k)` over codes.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the numbered guesses and their scores, and a row of
    question marks for the secret.

    ## Rewards
    1.0 if the answered code gives every row's score, else 0.0.

    ## Starting State
    A random secret; random guesses are added (each one cutting down the codes that fit)
    until only the secret fits.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 3 pegs of 4 colours, all different; 1: 4 pegs of 6 colours, all
    different; 2: 5 pegs of 6 colours, repeats allowed), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    answer_hint = "the secret code as colour initials in order, separated by spaces (for example `R B G`)"

    def _configure(self) -> None:
        self.length, self.colours, self.repeats = LEVELS[self.difficulty]
        self.names = COLOURS[: self.colours]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        codes, counts = all_codes(self.length, self.colours, self.repeats)
        table = score_table(self.length, self.colours, self.repeats)  # (few codes: every score, as lists)
        with ScalarDraws(rng) as d:  # `rng.integers` and `rng.random` one by one, at Python speed
            while True:
                secret = d.integers(len(codes))
                hidden = tuple(codes[secret].tolist())
                alive = list(range(len(codes))) if table else np.arange(len(codes))  # the codes every score fits
                guesses: list[tuple[tuple[int, ...], int]] = []
                for _ in range(8 * MAX_GUESSES):
                    if d.random() < 0.4:
                        g = int(alive[d.integers(len(alive))])
                    else:
                        g = d.integers(len(codes))
                    if g == secret:
                        continue
                    guess = tuple(codes[g].tolist())
                    fb = table[g][secret] if table else _score(guess, hidden)
                    if table:
                        keep = [c for c in alive if table[g][c] == fb]
                    elif len(alive) > 600:  # scores against every code, by sums of cached rows
                        keep = alive[score_all(self.length, self.colours, self.repeats, guess)[alive] == fb]
                    else:
                        keep = alive[score(codes[alive], counts[alive], codes[g], self.colours) == fb]
                    if len(keep) == len(alive):
                        continue
                    alive = keep
                    guesses.append((guess, fb))
                    if len(alive) == 1 or len(guesses) == MAX_GUESSES:
                        break
                if len(alive) == 1:
                    break
        self.guesses = tuple(guesses)
        self._secret = hidden  # the one code every score fits

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        n, L = len(self.guesses) + 1, self.length
        rows = [_row(L, g, fb) for g, fb in (*self.guesses, (None, None))]
        base = _plan(H, W, n, L, self.names)
        if base is not None:  # slots apart, each on its plain row colour: copy the cached stamps
            img = base.copy()
            for i, row in enumerate(rows):
                for k, what in row:
                    r, c, tile = _slot_tile(H, W, n, L, self.names, i, k, what)
                    img[r, c] = tile
            return img
        img = new_frame(H, W, BACKGROUND)
        for i, row in enumerate(rows):
            if i % 2 == 0:
                _tint(img, H, W, n, L, i)
            for k, what in row:
                _stamp(img, *_slot(H, W, n, L, self.names, i, k, what))
        return img

    def _task_text(self) -> str:
        names = ", ".join(f"{n} ({LETTER[n]})" for n in self.names)
        rep = "Colours may repeat in the code." if self.repeats else "The code uses each colour at most once."
        return (f"The image shows a game of Mastermind. The secret code is a row of {self.length} coloured pegs; "
                f"the colours are {names}. {rep} Each numbered row is a guess, followed by its score: one black dot "
                "for each peg of the right colour in the right position, and one white dot for each other peg whose "
                "colour is in the code but in a different position (small grey dots are empty). Exactly one code "
                "fits every score. What is the secret code?")

    def _state_text(self) -> str:
        return "\n".join(f"{i + 1}: {' '.join(LETTER[self.names[v]] for v in g)}  black={fb // 16} white={fb % 16}"
                         for i, (g, fb) in enumerate(self.guesses))

    # -- verify
    def _parse_answer(self, text: str) -> tuple[int, ...] | None:
        t = text.strip().upper()
        if not t or len(t) > 400 or re.search(r"[^A-Z\s,;/|>\-()\[\].'\"]", t):
            return None
        words = [w for w in _WORD.findall(t) if w not in ("AND", "THEN")]
        by_name = {n.upper(): i for i, n in enumerate(self.names)}
        by_letter = {LETTER[n]: i for i, n in enumerate(self.names)}
        if len(words) == 1 and len(words[0]) == self.length and all(ch in by_letter for ch in words[0]):
            return tuple(by_letter[ch] for ch in words[0])
        code = [by_name.get(w, by_letter.get(w)) for w in words]
        return tuple(code) if len(code) == self.length and None not in code else None

    def _check(self, answer: tuple[int, ...]) -> bool:
        return all(_score(answer, g) == fb for g, fb in self.guesses)

    def _format(self, answer: tuple[int, ...]) -> str:
        return " ".join(LETTER[self.names[v]] for v in answer)

    # -- oracle
    def _solve(self) -> tuple[int, ...]:
        return self._secret

    def _near_misses(self, rng: np.random.Generator) -> list[tuple[int, ...]]:
        codes, counts = all_codes(self.length, self.colours, self.repeats)
        fits = np.zeros(len(codes), dtype=np.int64)
        for g, fb in self.guesses:
            fits += score_all(self.length, self.colours, self.repeats, g) == fb
        close = [tuple(int(v) for v in codes[i]) for i in np.flatnonzero(fits == len(self.guesses) - 1)]
        closer = [tuple(int(v) for v in codes[i]) for i in np.flatnonzero(fits == len(self.guesses) - 2)]
        sol = list(self._solution)
        swaps = [tuple(sol[:i] + [sol[i + 1], sol[i]] + sol[i + 2:]) for i in range(len(sol) - 1)]
        return interleave(rng, close, swaps) + interleave(rng, closer)


SPECS = (
    TaskSpec(name="MastermindDeduce", entry_point=MastermindDeduce, version=1, max_episode_steps=1,
             tags=("puzzle", "deduction", "colour")),
)
