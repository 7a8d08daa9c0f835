"""Rubik's cube net: the colours of one face, one sticker's colour, or a colour's count, after a sequence of turns."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.answers import parse_count
from gymv_envs.core.canvas import INK, color_block, draw_text
from gymv_envs.core.rng import ScalarDraws, choice
from gymv_envs.domains.puzzles._rubik_cube import (
    FACES,
    ORDER,
    SOLVED,
    apply_moves,
    as_faces,
)
from gymv_envs.domains.puzzles._rubik_net_draw import COLOURS, NET, net_base

# difficulty -> (scramble turns, turns asked about, allow prime and double turns)
LEVELS = {0: (4, 1, False), 1: (6, 2, True), 2: (8, 4, True)}
_NAMES = {name.upper(): k for k, (name, _) in COLOURS.items()}
QUESTIONS = ("face", "sticker", "count")
PLACES = ("top-left", "top-middle", "top-right", "middle-left", "centre", "middle-right", "bottom-left",
          "bottom-middle", "bottom-right")


class RubikNet(SingleTurnEnv):
    """After turns of a Rubik's cube drawn as a net: one face's colours, one sticker's, or a colour's count.

    ## Description
    A scrambled 3x3x3 cube is drawn as an unfolded net (U on top; L, F, R, B in a row; D
    below; each centre marked with its face letter). The instruction lists turns in standard
    notation (``R`` clockwise as seen from the right face, ``R'`` anticlockwise, ``R2`` half
    turn) and asks for the nine colours of one face afterwards, row by row as that face is
    drawn in the net (``question="face"``); or the colour of one named sticker of a face
    (``"sticker"``); or how many stickers of one colour a face shows (``"count"``). The answer is
    checked against a sticker-level simulation.

    ## Action Space
    ``answer_format="open"``: `Text`, nine colour initials (W Y G B R O) or names, row by
    row, such as ``W W G / R G G / O B Y``; with ``question="sticker"`` one colour (``G`` or
    ``green``); with ``"count"`` a whole number from 0 to 9. ``"mcq"``: `Discrete(k)` over candidate
    answers (the face, colour or count after a turn reversed, dropped or reordered, and near misses).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the cube net before the turns.

    ## Rewards
    1.0 if the answer matches the simulated cube (all nine colours, the sticker's colour, or the
    count), else 0.0.

    ## Starting State
    A solved cube scrambled by random turns; the turns asked about and the face asked for
    (one the turns change) are drawn from the seed; then the sticker asked about (one the turns
    change where there is one, never the centre) or the colour counted.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: one quarter turn; 1: two turns; 2: four turns, half and anticlockwise
    turns allowed from 1), ``question`` (``"face"``: the nine colours of one face, the default;
    ``"sticker"``: the colour of one named sticker of a face; ``"count"``: how many stickers of a
    named colour a face shows), ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    questions = QUESTIONS
    _HINTS = {"face": "the nine colour initials of the face, row by row (for example `W W G / R G G / O B Y`)",
              "sticker": "the sticker's colour, an initial or a name (for example `G` or `green`)",
              "count": "the number of stickers of that colour on the face, a whole number (for example `3`)"}

    def _configure(self) -> None:
        self.scramble, self.num_moves, self.fancy = LEVELS[self.difficulty]
        self.answer_hint = self._HINTS[self.question]

    # -- generate
    def _random_moves(self, d: ScalarDraws, k: int, fancy: bool) -> list[str]:
        out: list[str] = []
        while len(out) < k:
            m = ORDER[d.integers(6)] + (("", "'", "2")[d.integers(3)] if fancy else ("", "")[d.integers(2)])
            if not out or out[-1][0] != m[0]:
                out.append(m)
        return out

    def _generate(self, rng: np.random.Generator) -> None:
        with ScalarDraws(rng) as d:  # `rng.integers` one by one, at Python speed
            self.state = apply_moves(SOLVED, self._random_moves(d, self.scramble, True))
            self.moves = tuple(self._random_moves(d, self.num_moves, self.fancy))
            before = as_faces(self.state)
            after = self._after(self.moves)
            changed = [f for f in FACES if after[f] != before[f]] or list(FACES)
            self.face = changed[d.integers(len(changed))]
            self.sticker, self.colour = 4, ""
            if self.question == "sticker":  # a sticker the turns change where there is one, never the centre
                moved = [i for i in range(9) if i != 4 and after[self.face][i] != before[self.face][i]]
                places = moved or [i for i in range(9) if i != 4]
                self.sticker = places[d.integers(len(places))]
            elif self.question == "count":
                self.colour = tuple(COLOURS)[d.integers(len(COLOURS))]
        self._target = after[self.face]

    def _after(self, moves) -> dict[str, list[str]]:
        return as_faces(apply_moves(self.state, moves))

    # -- draw
    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        base, boxes, centre = net_base(H, W)
        img = base.copy()
        for f, grid in as_faces(self.state).items():
            for i, col in enumerate(grid):
                box = boxes[f][i]
                if box is not None:
                    a, b, c, e = box
                    img[b:e, a:c] = color_block(e - b, c - a, COLOURS[col][1])
            tile = centre(f, grid[4])
            if tile is not None:
                img[tile[0], tile[1]] = tile[2]
            else:
                s = min(W / 12.4, H / 9.4)
                br, bc = NET[f]
                fx, fy = (W - 12 * s) / 2 + bc * 3 * s, (H - 9 * s) / 2 + br * 3 * s
                ink = INK if grid[4] in "WYO" else (255, 255, 255)
                draw_text(img, f, (fx + 1.5 * s, fy + 1.5 * s), max(5, int(s * 0.6)), ink, bold=True)
        return img

    def _task_text(self) -> str:
        names = ", ".join(f"{k} = {name}" for k, (name, _) in COLOURS.items())
        return ("The image shows a Rubik's cube unfolded as a net: the up face U on top, then the left L, "
                "front F, right R and back B faces in a row, and the down face D below; each centre square "
                "carries its face letter. Turns use standard notation: a letter turns that face a quarter "
                "clockwise as seen looking at that face, a letter with ' turns it anticlockwise, and a letter "
                f"with 2 turns it half way round. After the turns {' '.join(self.moves)}, {self._ask()}"
                + ("" if self.question == "count" else f" Use the initials {names}."))

    def _ask(self) -> str:
        if self.question == "sticker":
            return (f"what colour is the {PLACES[self.sticker]} sticker of the {self.face} face, as that face is "
                    "drawn in the net?")
        if self.question == "count":
            return f"how many stickers of the {self.face} face are {COLOURS[self.colour][0]}? Answer with one number."
        return f"what are the nine colours of the {self.face} face, row by row as that face is drawn in the net?"

    def _caption(self) -> list:
        what = {"face": f"the {self.face} face", "sticker": f"{self.face} {PLACES[self.sticker]}",
                "count": f"{COLOURS[self.colour][0] if self.colour else ''} on {self.face}"}[self.question]
        return [f"After {' '.join(self.moves)}: {what}?"]

    def _state_text(self) -> str:
        return "\n".join(f"{f}: " + " / ".join(" ".join(g[3 * r: 3 * r + 3]) for r in range(3))
                         for f, g in as_faces(self.state).items())

    # -- verify
    def _parse_answer(self, text: str):
        if self.question == "count":
            return parse_count(text, 9)
        t = text.strip().upper()
        if not t or len(t) > 400:
            return None
        t = re.sub(r"\b(" + "|".join(_NAMES) + r")\b", lambda m: _NAMES[m.group(1)], t)
        if self.question == "sticker":
            letters = re.sub(r"[\s,;/|.:\-\[\](){}\"'`*]+", "", t)
            return letters if len(letters) == 1 and letters in COLOURS else None
        t = re.sub(r"\b(ROW\s*\d?|TOP|MIDDLE|BOTTOM|FACE|[UDFBRL]\s*FACE)\b\s*:?", " ", t)
        letters = re.sub(r"[\s,;/|.:\-\[\](){}\"']+", "", t)
        if len(letters) != 9 or any(ch not in COLOURS for ch in letters):
            return None
        return tuple(letters)

    def _check(self, answer) -> bool:
        return answer == self._solve()

    def _format(self, answer) -> str:
        if self.question != "face":
            return str(answer)
        return " / ".join(" ".join(answer[3 * r: 3 * r + 3]) for r in range(3))

    # -- oracle
    def _solve(self):
        return self._answer_of(self._target)

    def _answer_of(self, face: list[str]):
        """The answer the question asks of a face's nine colours."""
        if self.question == "sticker":
            return face[self.sticker]
        if self.question == "count":
            return face.count(self.colour)
        return tuple(face)

    def _near_misses(self, rng: np.random.Generator) -> list:
        inverse = {"": "'", "'": "", "2": "2"}
        variants = [self.moves[:i] + (m[0] + inverse[m[1:]],) + self.moves[i + 1:] for i, m in enumerate(self.moves)]
        variants += [self.moves[::-1], self.moves[:-1], ()]
        if self.question != "face":  # the answer after a slipped turn, then the other colours or counts
            slips = [self._answer_of(self._after(v)[self.face]) for v in variants]
            rest = list(COLOURS) if self.question == "sticker" else [self._solution + k for k in (1, -1, 2, -2, 3, -3)]
            rest = [r for r in rest if r not in slips and (self.question == "sticker" or 0 <= r <= 9)]
            return [slips[int(i)] for i in rng.permutation(len(slips))] + [rest[int(i)] for i in rng.permutation(len(rest))]
        sol = list(self._solution)
        out = [tuple(self._after(v)[self.face]) for v in variants]
        out += [tuple(sol[i] for i in (6, 3, 0, 7, 4, 1, 8, 5, 2)), tuple(sol[::-1]),
                tuple(sol[i] for i in (2, 5, 8, 1, 4, 7, 0, 3, 6)), tuple(sol[i] for i in (2, 1, 0, 5, 4, 3, 8, 7, 6))]
        for _ in range(6):
            i = int(rng.integers(9))
            if i != 4:
                out.append(tuple(sol[:i] + [choice(rng, tuple(c for c in COLOURS if c != sol[i]))] + sol[i + 1:]))
        head = out[: len(variants)]
        tail = out[len(variants):]
        return [head[int(i)] for i in rng.permutation(len(head))] + [tail[int(i)] for i in rng.permutation(len(tail))]


SPECS = (
    TaskSpec(name="RubikNet", entry_point=RubikNet, version=1, max_episode_steps=1,
             tags=("spatial-reasoning", "mental-rotation")),
)
