"""Gradient direction: towards which side do the shades of a gradient board get darker?"""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.cognition._gradient import DIRECTIONS, GradientEnv

COMPASS = {"up": "N", "down": "S", "right": "E", "left": "W", "up-right": "NE", "up-left": "NW",
           "down-right": "SE", "down-left": "SW"}
_FROM_COMPASS = {"n": "up", "s": "down", "e": "right", "w": "left", "ne": "up-right", "nw": "up-left",
                 "se": "down-right", "sw": "down-left"}
_SYNONYM = {"top": "up", "bottom": "down", "north": "up", "south": "down", "east": "right", "west": "left",
            "upward": "up", "upwards": "up", "downward": "down", "downwards": "down", "rightward": "right",
            "rightwards": "right", "leftward": "left", "leftwards": "left"}
_WORDS = re.compile(r"[a-z]+")


def read_direction(text: str) -> str | None:
    """A direction of `DIRECTIONS` from a compass letter pair (``SE``) or words such as ``down-right``,
    ``bottom right``, ``south east``, ``right and down``; None when it names none (or contradicts itself)."""
    if len(text) > 60:
        return None
    key = text.strip().strip(".").replace("-", "").replace(" ", "").lower()
    if key in _FROM_COMPASS:
        return _FROM_COMPASS[key]
    words = [_SYNONYM.get(w, w) for w in _WORDS.findall(text.lower()) if w not in ("and", "to", "the", "towards", "toward", "direction", "corner")]
    if not words or any(w not in ("up", "down", "left", "right") for w in words) or len(set(words)) > 2:
        return None
    vert = [w for w in words if w in ("up", "down")]
    horiz = [w for w in words if w in ("left", "right")]
    if len(set(vert)) > 1 or len(set(horiz)) > 1:
        return None
    name = "-".join([*sorted(set(vert)), *sorted(set(horiz))])
    return name if name in DIRECTIONS else None


class GradientDirection(GradientEnv):
    """Say in which direction the shades of a colour gradient board get darker.

    ## Description
    A square board of cells shades from a light colour to a dark one, one legend step per cell
    along a direction: one of the four sides at difficulty 0, and from difficulty 1 also one of
    the four diagonals. A legend below numbers every shade from 1 (lightest) to m (darkest).
    Towards which side (or corner) do the shade numbers rise? Harder levels have bigger boards and
    more, closer shades.

    ## Action Space
    ``answer_format="open"``: `Text`, a compass point: ``N`` (up), ``S``, ``E`` (right), ``W``,
    ``NE``, ``NW``, ``SE``, ``SW`` (words such as ``down-right``, ``top right``, ``south-east``,
    ``right and down`` are read too). ``"mcq"``: `Discrete(k)` over directions (the opposite, the neighbours).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board and the numbered legend below it.

    ## Rewards
    1.0 for the direction of the gradient, else 0.0.

    ## Starting State
    Direction and colour ramp come from the seed.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty`` (0: 5 x 5, the four sides; 1: 6 x 6, diagonals too; 2: 7 x 7),
    ``answer_format``, ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = ("the direction as a compass point: N (up), S (down), E (right), W (left), or NE, NW, SE, SW "
                   "for the corners (for example `SE` for down and to the right)")

    def _generate(self, rng: np.random.Generator) -> None:
        self._board(rng)
        self._image = None

    def _draw(self) -> np.ndarray:
        if self._image is None:
            self._image = self._paint({})
        return self._image.copy()

    def _task_text(self) -> str:
        return ("The image shows a board of coloured cells whose shade changes step by step across the board, and "
                "below it a legend numbering the shades from 1 (lightest) to the darkest. In which direction do the "
                "shades get darker: towards a side of the board or towards a corner?")

    def _state_text(self) -> str:
        return f"shades {self._board_text()}"

    def _parse_answer(self, text: str) -> str | None:
        return read_direction(text)

    def _check(self, answer) -> bool:
        return answer == self.direction

    def _format(self, answer) -> str:
        return COMPASS[answer]

    def _solve(self) -> str:
        return self.direction

    def _near_misses(self, rng: np.random.Generator) -> list[str]:
        dr, dc = DIRECTIONS[self.direction]
        by_vec = {v: k for k, v in DIRECTIONS.items()}
        near = [by_vec[(-dr, -dc)], by_vec.get((dr, -dc)), by_vec.get((-dr, dc)),
                by_vec.get((dc, dr)), by_vec.get((-dc, -dr))]
        return [d for d in near if d] + [d for d in DIRECTIONS if d != self.direction]


SPECS = (
    TaskSpec(name="GradientDirection", entry_point=GradientDirection, max_episode_steps=1,
             tags=("perception", "colour", "gradient", "direction")),
)
