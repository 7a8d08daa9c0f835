"""Mastermind deduction: find the secret code from scored guesses."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import interleave
from gymv_envs.core.canvas import (
    BACKGROUND,
    BLACK,
    INK,
    PALETTE,
    WHITE,
    blend_mask,
    fill_rect,
    new_frame,
    shape_mask,
    text_mask,
)
from gymv_envs.domains.logic._mastermind_codes import all_codes, score, score_all

# difficulty -> (code length, colours, repeats allowed)
LEVELS = {0: (3, 4, False), 1: (4, 6, False), 2: (5, 6, True)}
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
LETTER = {name: name[0].upper() for name in COLOURS}
MAX_GUESSES = 10
_WORD = re.compile(r"[A-Z]+")


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
    region = img[y0:y0 + h, x0:x0 + w] if x0 >= 0 and y0 >= 0 else img[:0]
    if region.shape[:2] == (h, w) and (region == np.asarray(bg, dtype=np.uint8)).all():
        region[...] = tile
        return
    for p, m, (x, y) in zip(parts, masks, corners, strict=True):
        blend_mask(img, m, x, y, p[3])


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
        while True:
            secret = int(rng.integers(len(codes)))
            alive = np.ones(len(codes), dtype=bool)
            guesses: list[tuple[tuple[int, ...], int]] = []
            for _ in range(8 * MAX_GUESSES):
                pool = np.flatnonzero(alive) if rng.random() < 0.4 else np.arange(len(codes))
                g = int(pool[int(rng.integers(len(pool)))])
                if g == secret:
                    continue
                fb = score_all(self.length, self.colours, self.repeats, codes[g])
                keep = alive & (fb == fb[secret])
                if keep.sum() == alive.sum():
                    continue
                alive = keep
                guesses.append((tuple(int(v) for v in codes[g]), int(fb[secret])))
                if alive.sum() == 1 or len(guesses) == MAX_GUESSES:
                    break
            if alive.sum() == 1:
                break
        self.guesses = tuple(guesses)

    def _fits(self, code: tuple[int, ...]) -> list[bool]:
        c = np.asarray(code, dtype=np.int8)[None]
        cnt = np.stack([(c == k).sum(1) for k in range(self.colours)], axis=1)
        return [int(score(c, cnt, np.asarray(g, dtype=np.int8), self.colours)[0]) == fb for g, fb in self.guesses]

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        img = new_frame(H, W, BACKGROUND)
        n, L = len(self.guesses) + 1, self.length
        pitch = min(H / (n + 0.3), W / (L + 3.2))
        peg = max(3, int(pitch * 0.8))
        x0 = (W - (L + 3.2) * pitch) / 2
        y0 = (H - n * pitch) / 2
        text_size = max(5, int(pitch * 0.42))
        tint = (232, 232, 226)
        for i, (guess, fb) in enumerate((*self.guesses, (None, None))):
            cy = y0 + (i + 0.5) * pitch
            bg = tint if i % 2 == 0 else BACKGROUND
            if i % 2 == 0:
                fill_rect(img, x0, cy - pitch / 2, x0 + (L + 3.2) * pitch, cy + pitch / 2, tint)
            _stamp(img, bg, (("text", str(i + 1) if guess else "?", text_size, INK, x0 + 0.5 * pitch, cy),))
            for j in range(L):
                cx = x0 + (j + 1.5) * pitch
                if guess is None:
                    _stamp(img, bg, (("circle", "", peg, (200, 200, 200), cx, cy), ("text", "?", text_size, INK, cx, cy)))
                    continue
                name = self.names[guess[j]]
                _stamp(img, bg, (("circle", "", peg, PALETTE[name], cx, cy),
                                 ("text", LETTER[name], text_size, INK if name == "yellow" else WHITE, cx, cy)))
            if guess is None:
                continue
            black, white = divmod(fb, 16)
            per_row = (L + 1) // 2
            dot = max(2, int(pitch * 0.34))
            for k in range(L):
                kind = BLACK if k < black else WHITE if k < black + white else None
                cx = x0 + (L + 1.4 + (k % per_row + 0.5) * 1.6 / per_row) * pitch
                ry = cy + (-0.2 if k < per_row else 0.2) * pitch
                if kind is None:
                    _stamp(img, bg, (("circle", "", max(2, dot // 3), (170, 170, 170), cx, ry),))
                elif kind == WHITE:
                    _stamp(img, bg, (("circle", "", dot, INK, cx, ry),
                                     ("circle", "", max(1, dot - 2 * max(1, dot // 6)), WHITE, cx, ry)))
                else:
                    _stamp(img, bg, (("circle", "", dot, INK, cx, ry),))
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
        return all(self._fits(answer))

    def _format(self, answer: tuple[int, ...]) -> str:
        return " ".join(LETTER[self.names[v]] for v in answer)

    # -- oracle
    def _solve(self) -> tuple[int, ...]:
        codes, counts = all_codes(self.length, self.colours, self.repeats)
        alive = np.ones(len(codes), dtype=bool)
        for g, fb in self.guesses:
            alive &= score_all(self.length, self.colours, self.repeats, g) == fb
        return tuple(int(v) for v in codes[np.flatnonzero(alive)[0]])

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
