"""Tangram pieces: the area of a hole in a tangram square, the turn that fits a loose piece, or which piece fits."""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.geometry._common import (
    LETTERS,
    fmt_exact,
    parse_exact,
    parse_letters,
    shoelace2,
)
from gymv_envs.domains.geometry._plot import FILLS, GeometryQuestion, centres_px
from gymv_envs.domains.geometry._tangram import (
    square_pieces,
    turn_keys,
    turned_corners,
    wrong_pieces,
)

QUESTIONS = ("area", "rotation", "placement")
KIND_FILL = {"large triangle": FILLS[0], "medium triangle": FILLS[1], "square": FILLS[2],
             "small triangle": FILLS[3], "parallelogram": FILLS[4]}
HOLE, EDGE, HOLE_EDGE, LOOSE = (255, 255, 255), (60, 60, 80), (200, 60, 60), (235, 200, 120)
# the placement question's grid width per difficulty: the widest row of loose pieces (the hole and the
# widest distinct others, each turned its widest, one unit apart) fits, so the square recurs
PLACEMENT_WIDTH = {0: 23, 1: 23, 2: 26}


class TangramPieces(GeometryQuestion):
    """Tangram puzzles on a grid: the area of a hole, the turn that fits a loose piece, or which piece fits.

    ## Description
    A tangram square (two large triangles, a medium and two small ones, a square and a
    parallelogram, all with corners on grid points) is drawn on a grid, turned or mirrored as a
    whole at higher levels. Pieces are missing, leaving a hole outlined in red dashes.

    - ``question="area"``: two or three pieces are missing; the answer is the hole's area in grid
      squares (exact).
    - ``question="rotation"``: one piece is missing and a copy of it lies beside the square, turned;
      the answer is by how many degrees it must be turned clockwise (a multiple of 45 from 0 to 315)
      to fill the hole without flipping. Every angle that fits is accepted (a parallelogram fits
      two ways).
    - ``question="placement"``: one piece is missing and four or five lettered loose pieces lie
      beside the square, each turned; exactly one of them fills the hole when turned (not flipped);
      the answer is its letter.

    ## Action Space
    ``answer_format="open"``: `Text`: a number (area), an angle in degrees (rotation) or a letter
    (placement). ``"mcq"``: `Discrete(k)`; wrong options are the area of one piece fewer or more and
    doubled, the other angles, or the other letters.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the grid with the square, the hole and any loose pieces.

    ## Rewards
    1.0 for a right answer, else 0.0.

    ## Starting State
    The square, its transform, the missing pieces and the loose pieces' turns are random.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"area"``, ``"rotation"``, ``"placement"``), ``difficulty`` (0: the square
    upright, side 4; 1: turned, and side 8 for the area and rotation questions; 2: turned or mirrored, one more
    missing piece (area) or loose piece (placement: 5, else 4)), ``answer_format``, ``num_options``,
    ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    - v1 (placement): the grid is a fixed 23 units wide (26 at difficulty 2) with a whole number of
      pixels per unit (31, 28 at the default size; it was as wide as the row of loose pieces), the
      loose pieces are drawn shape by shape and moved into place, and the letters' halos and letters
      are blended in one pass. The same levels. (Area and rotation stay at v0.)
    """

    default_obs_size = (384, 768)

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        return {"area": "the hole's area, one number",
                "rotation": "the clockwise turn in degrees, a multiple of 45 from 0 to 315",
                "placement": "the letter of the loose piece that fills the hole"}[self.question]

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        d = self.difficulty
        self.scale = 2 if self.question in ("area", "rotation") and d >= 1 else 1
        turns = int(rng.integers(4)) if d >= 1 else 0
        mirror = d == 2 and rng.random() < 0.5
        self.square = (self.scale, turns, bool(mirror))  # the square's layout: `square_pieces`' arguments
        pieces = self.pieces = list(square_pieces(*self.square))
        missing = 3 if self.question == "area" and d == 2 else 2 if self.question == "area" else 1
        choices = list(range(7))
        if self.question == "rotation":  # the square fits every turn: not a question
            choices = [i for i, (k, _) in enumerate(pieces) if k != "square"]
        self.missing = sorted(int(i) for i in rng.permutation(choices)[:missing])
        self.loose: list[np.ndarray] = []
        if self.question == "area":
            self.answer = Fraction(sum(shoelace2(pieces[i][1]) for i in self.missing), 2)
            return
        hole = pieces[self.missing[0]][1]
        if self.question == "rotation":
            t = int(rng.integers(1, 4))
            turned = [turned_corners(hole.tobytes(), -t)]  # turned back by t: t quarter turns clockwise refit it
            self.answer = t * 90
        else:
            count = 5 if d == 2 else 4
            distinct = wrong_pieces(*self.square, self.missing[0])
            pick = [distinct[int(i)] for i in rng.permutation(len(distinct))[: count - 1]]
            slot = int(rng.integers(count))
            pick.insert(slot, hole)
            turned = [turned_corners(p.tobytes(), int(rng.integers(4))) for p in pick]
            self.answer = slot
        x = 4 * self.scale + 3
        for q, w, h in turned:  # side by side to the right of the square, one unit apart
            self.loose.append(q + (x, 1 + (4 * self.scale - h) // 2))
            x += w + 1
        self.width = x

    # -- draw
    def _draw(self) -> np.ndarray:
        side = 4 * self.scale
        placement = self.question == "placement"
        if placement:  # a fixed grid of whole pixels per unit: the square and each loose shape recur
            p = self.plot(0, PLACEMENT_WIDTH[self.difficulty], 0, side + 2, whole=True)
        else:
            p = self.plot(0, max(getattr(self, "width", 0), side + 2) if self.loose else side + 2, 0, side + 2)
        # the square recurs across levels (a few layouts: its turn, mirror and missing pieces), kept
        # as a box of pixels; the loose pieces lie apart from it, drawn after
        p.recurring(("tangram square", self.square, tuple(self.missing)), self._draw_square, (1, 1, side + 1, side + 1))
        if placement:  # a few shapes (piece and turn) in many places: each drawn once, moved
            p.tiles(self.loose, LOOSE, EDGE)
            p.stamped_labels(centres_px(p.ax, self.loose), list(LETTERS[: len(self.loose)]))
            return p.frame()
        if self.loose:  # rotation: one loose piece in a few places, its fill and outline recur
            p.fill_polygons(self.loose, [LOOSE])
            p.polylines(self.loose, EDGE, closed=True, cached=True)
        return p.frame()

    def _draw_square(self, p) -> None:
        present = [poly for i, (_, poly) in enumerate(self.pieces) if i not in self.missing]
        holes = [self.pieces[i][1] for i in self.missing]
        # all seven fills (kept per layout), then the holes' over them: outside a hole, the last present fill shows
        p.recurring(("tangram fills", self.square), self._fill_pieces, (1, 1, 4 * self.scale + 1, 4 * self.scale + 1))
        p.fill_polygons(holes, [HOLE] * len(holes))
        p.polylines(present, EDGE, closed=True, cached=True)
        p.polylines(holes, HOLE_EDGE, closed=True, dash=True, cached=True)

    def _fill_pieces(self, p) -> None:
        p.fill_polygons([poly for _, poly in self.pieces], [KIND_FILL[k] for k, _ in self.pieces])

    def _task_text(self) -> str:
        if self.question == "area":
            return ("The image shows a tangram square on a grid with some pieces missing; the hole is outlined with "
                    "red dashes and every corner is a grid point. What is the area of the hole in grid squares?")
        if self.question == "rotation":
            return ("The image shows a tangram square on a grid with one piece missing (outlined with red dashes) "
                    "and a loose piece beside it. By how many degrees must the loose piece be turned clockwise "
                    "(a multiple of 45 from 0 to 315; no flipping) so that it fits the hole exactly?")
        return ("The image shows a tangram square on a grid with one piece missing (outlined with red dashes) and "
                "lettered loose pieces beside it. Which loose piece fills the hole exactly when turned (without "
                "flipping it over)?")

    def _state_text(self) -> str:
        return "\n".join([_square_text(*self.square, tuple(self.missing))]
                         + [f"loose {LETTERS[i]}: {_corners_text(p)}" for i, p in enumerate(self.loose)])

    # -- verify
    def _parse_answer(self, text: str):
        if self.question == "area":
            return parse_exact(text)
        if self.question == "rotation":
            got = parse_exact(text.lower().replace("degrees", "").replace("°", "").replace("clockwise", ""))
            return int(got) % 360 if got is not None and got.denominator == 1 and got % 45 == 0 else None
        seq = parse_letters(text, len(self.loose))
        return seq[0] if seq and len(seq) == 1 else None

    def _check(self, answer) -> bool:
        if self.question == "rotation":
            hole_key = turn_keys(self.pieces[self.missing[0]][1])[0]
            return answer % 90 == 0 and turn_keys(self.loose[0])[answer // 90 % 4] == hole_key
        return answer == self.answer

    def _format(self, answer) -> str:
        if self.question == "area":
            return fmt_exact(answer)
        if self.question == "rotation":
            return str(answer)
        return LETTERS[answer]

    def _solve(self):
        return self.answer

    def _near_misses(self, rng: np.random.Generator) -> list:
        if self.question == "area":
            a, s2 = self.answer, self.scale ** 2
            return [a + s2, a - s2, 2 * a, a + 2 * s2, a - Fraction(s2, 2), a + Fraction(s2, 2), a + 4 * s2]
        if self.question == "rotation":  # the other quarter turns, then the eighth turns between them
            return [0, 90, 180, 270] + [int(a) for a in rng.permutation([45, 135, 225, 315])]
        return [i for i in range(len(self.loose)) if i != self.answer]


def _corners_text(poly) -> str:
    return " ".join(f"({x},{y})" for x, y in np.asarray(poly).tolist())


@functools.lru_cache(maxsize=256)
def _square_text(scale: int, turns: int, mirror: bool, missing: tuple[int, ...]) -> str:
    """The state text's lines for the square's pieces, the ``missing`` ones marked."""
    return "\n".join(f"{k}: {_corners_text(p)}" + (" (missing)" if i in missing else "")
                     for i, (k, p) in enumerate(square_pieces(scale, turns, mirror)))


SPECS = (
    TaskSpec(name="TangramArea", entry_point=TangramPieces, max_episode_steps=1, kwargs={"question": "area"},
             tags=("geometry", "tangram", "area")),
    TaskSpec(name="TangramRotation", entry_point=TangramPieces, max_episode_steps=1, kwargs={"question": "rotation"},
             tags=("geometry", "tangram", "rotation", "mental-rotation")),
    TaskSpec(name="TangramPlacement", version=1, entry_point=TangramPieces, max_episode_steps=1, kwargs={"question": "placement"},
             tags=("geometry", "tangram", "shape-matching")),
)
