"""Lunar lander: turn and fire the main engine to set the lander down softly on the landing pad."""

from __future__ import annotations

import math

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, disc_mask
from gymv_envs.domains.temporal._arcade_a import ArcadeEnvA, rotated_mask

FW, FH = 160.0, 150.0
HALF_W, HALF_H = 4.0, 3.5                           # the lander's half width and half height
THRUST, TURN, MAX_TILT = 0.03, 0.05, 1.2
SOFT_VY, SOFT_VX, SOFT_TILT = 0.45, 0.3, 0.25       # the most a landing may have and still be soft
LANDINGS = 3
STEP = 10.0                                         # the terrain's points are this far apart
# per difficulty: gravity, pad width, terrain height range, start sideways speed, wind (most, sideways)
LEVELS = {0: (0.010, 34.0, (118.0, 140.0), 0.2, 0.0),
          1: (0.012, 26.0, (100.0, 140.0), 0.35, 0.0),
          2: (0.014, 20.0, (88.0, 140.0), 0.45, 0.0025)}
SKY, ROCK, PAD, YOU, FLAME = (4, 4, 14), (120, 120, 130), (250, 210, 60), (220, 220, 235), (255, 140, 40)
ANGLES = 48


class LunarLander(ArcadeEnvA):
    """Land softly on the pad, three times.

    ## Description
    A real-time arcade game seen from the side. The lander falls under the moon's gravity over a
    jagged ground with one flat, yellow landing pad. LEFT and RIGHT turn the lander; UP fires its
    main engine, which pushes along the lander's up direction (UPLEFT and UPRIGHT do both). Touching
    the ground anywhere but the pad, or touching the pad too fast, too fast sideways or tilted,
    crashes the lander and costs a life; a soft landing with both legs on the pad scores, and a new
    lander then starts from the top. The sides of the screen are walls and the top a ceiling. At
    difficulty 2 a steady wind pushes the lander sideways. Motion is only visible over consecutive
    frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(6)` minimal set ``NOOP``, ``UP``, ``RIGHT``, ``LEFT``, ``UPRIGHT``, ``UPLEFT``;
    ``full_action_space=True``: the 18 ALE actions (the others act as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, score bar) above the moonscape.

    ## Rewards
    +1 per soft landing (``max_return`` 3).

    ## Starting State
    The ground, the pad's place and height (and the wind) are drawn from the seed; every lander
    starts near the top, upright, at a place and sideways speed drawn from the seed.

    ## Episode End
    Success at the third soft landing; failure when the last of 3 lives is lost.

    ## Arguments
    ``difficulty``: 0 (weak gravity, wide pad, low hills), 1 (stronger gravity, narrower pad,
    higher hills), 2 (stronger still, narrow pad, high hills, wind); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "UP", "RIGHT", "LEFT", "UPRIGHT", "UPLEFT")
    target = float(LANDINGS)
    field = (FW, FH)
    field_color = SKY

    def _setup(self) -> None:
        self.gravity, self.pad_w, self.hills, self.v0, self.wind_max = LEVELS[self.difficulty]

    def _new_game(self, rng: np.random.Generator) -> None:
        n = int(FW / STEP) + 1
        self.heights = rng.uniform(*self.hills, size=n)
        self.pad_x = float(rng.uniform(12, FW - 12 - self.pad_w))
        self.pad_y = float(rng.uniform(max(self.hills[0], 110.0), 136.0))
        lo, hi = int(self.pad_x // STEP), int(math.ceil((self.pad_x + self.pad_w) / STEP))
        self.heights[lo:hi + 1] = self.pad_y
        self.heights = [float(h) for h in self.heights]
        self.clear_above = min(self.heights) - 1e-9   # the ground is nowhere higher (rounding aside)
        self.wind = float(rng.uniform(-self.wind_max, self.wind_max))
        self.thrusting = False
        self._spawn(rng)

    def _spawn(self, rng: np.random.Generator) -> None:
        self.x, self.y = float(rng.uniform(20, FW - 20)), 12.0
        self.vx, self.vy, self.a = float(rng.uniform(-self.v0, self.v0)), 0.0, 0.0

    def ground(self, x: float) -> float:
        """The ground's height at ``x`` (y grows downward; the pad is flat)."""
        if self.pad_x <= x <= self.pad_x + self.pad_w:
            return self.pad_y
        i = min(len(self.heights) - 2, max(0, int(x // STEP)))
        f = min(1.0, max(0.0, x / STEP - i))
        return self.heights[i] * (1 - f) + self.heights[i + 1] * f

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        self.a = a = min(MAX_TILT, max(-MAX_TILT, self.a + dx * TURN))
        self.thrusting = dy < 0
        vx, vy = self.vx, self.vy
        if dy < 0:
            vx, vy = vx + THRUST * math.sin(a), vy - THRUST * math.cos(a)
        self.vx, self.vy = vx, vy = vx + self.wind, vy + self.gravity
        self.x, self.y = x, y = self.x + vx, self.y + vy
        if not HALF_W <= x <= FW - HALF_W:
            x = min(FW - HALF_W, max(HALF_W, x))
            self.x, self.vx = x, 0.0
        if y < HALF_H:
            y = HALF_H
            self.y, self.vy = y, 0.0
        foot = y + HALF_H
        if foot < self.clear_above or all(foot < self.ground(g) for g in (x - HALF_W, x, x + HALF_W)):
            return
        on_pad = self.pad_x <= self.x - HALF_W and self.x + HALF_W <= self.pad_x + self.pad_w
        if on_pad and self.vy <= SOFT_VY and abs(self.vx) <= SOFT_VX and abs(self.a) <= SOFT_TILT:
            self.score += 1
            self.events.append(f"soft landing {int(self.score)}")
        else:
            why = "too fast" if on_pad and self.vy > SOFT_VY else "off the pad" if not on_pad else "too fast sideways or tilted"
            self.lose_life(f"the lander crashed ({why})")
        self._spawn(self.np_random)

    # -- draw
    def _paint_background(self, frame: np.ndarray) -> None:
        H, W = frame.shape[:2]
        cols = (np.arange(W) + 0.5) / self.sx
        tops = np.array([self.ground(x) for x in cols]) * self.sy + self.hud
        rows = np.arange(H)[:, None]
        frame[rows >= tops[None, :]] = ROCK
        self.rect(frame, self.pad_x, self.pad_y, self.pad_w, 2.0, PAD)

    def _draw_field(self, frame: np.ndarray) -> None:
        k = round(self.a / (2 * math.pi) * ANGLES) % ANGLES
        x0, y0, pw, ph = self._px_box(self.x - HALF_W - 0.5, self.y - HALF_H - 0.5, 2 * HALF_W + 1, 2 * HALF_H + 1)
        self._mask_at(frame, rotated_mask("lander", k, ANGLES, pw, ph), x0, y0, YOU)
        if self.thrusting:  # self.disc(frame, fx, fy, 1.5, color=FLAME), from a cached tile
            fx, fy = self.x - math.sin(self.a) * (HALF_H + 1.5), self.y + math.cos(self.a) * (HALF_H + 1.5)
            x0, y0, pw, ph = self._px_box(fx - 1.5, fy - 1.5, 3.0, 3.0)
            self._mask_at(frame, disc_mask(pw, ph), x0, y0, FLAME)

    def _task_text(self) -> str:
        wind = " A steady wind pushes the lander sideways." if self.wind_max else ""
        return ("You fly the white lander over the grey moonscape, seen from the side; gravity pulls it down. "
                "LEFT and RIGHT turn it; UP fires the main engine (the orange flame), pushing along the lander's up "
                f"direction; UPLEFT and UPRIGHT do both.{wind} Land softly, upright and slowly, with both legs on "
                "the flat yellow pad: that scores and a new lander starts from the top. Touching the ground anywhere "
                "else, or the pad too hard, too fast sideways or tilted, crashes and costs one of your 3 lives (the "
                "red marks at the top left). Land three times to win. One action lasts a few frames and may be "
                "repeated (sticky actions).")

    def _state_text(self) -> str:
        return (f"lander at ({self.x:.0f}, {self.y:.0f}) moving ({self.vx:.2f}, {self.vy:.2f}) tilted "
                f"{math.degrees(self.a):.0f} degrees; pad from x={self.pad_x:.0f} to {self.pad_x + self.pad_w:.0f} "
                f"at height {self.pad_y:.0f}; " + super()._state_text())

    # -- oracle
    def oracle_action(self) -> int:
        """A cascade of proportional controllers: the wanted sideways speed (toward the pad's middle)
        sets the wanted tilt; the wanted fall speed (slow near the pad, held above the hills on the
        way there) sets the engine."""
        if self._terminated:
            return 0
        tx = self.pad_x + self.pad_w / 2
        off = tx - self.x
        vx_want = max(-0.8, min(0.8, off * 0.025))
        a_want = max(-0.6, min(0.6, (vx_want - self.vx) * 2.2 - self.wind * 60))
        lo, hi = sorted((self.x, tx))
        peak = min(self.ground(x) for x in np.arange(lo - HALF_W - 4, hi + HALF_W + 4, 2.0))
        near = abs(off) < self.pad_w / 2 - HALF_W - 1
        h = (self.pad_y if near else peak - 10) - (self.y + HALF_H)
        if near and abs(self.vx) < 0.2:
            vy_want = min(0.9, 0.15 + 0.02 * max(0.0, h))
        else:
            vy_want = max(-0.3, min(0.6, 0.02 * h)) if h > 0 else -0.3
        if h < 12:
            a_want *= 0.3 if near else 1.0
        turn = 0 if abs(a_want - self.a) < TURN * 1.5 else (1 if a_want > self.a else -1)
        lead = self.vy + self.gravity * self.frameskip * 1.5
        fire = lead > vy_want and abs(self.a) < 1.0
        name = ("UP" if fire else "") + {0: "", 1: "RIGHT", -1: "LEFT"}[turn]
        return self.action_index(name or "NOOP")


LunarLander.__doc__ = LunarLander.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="LunarLander", entry_point=LunarLander, max_episode_steps=1500, max_return=float(LANDINGS),
             tags=("arcade", "real-time", "control", "physics")),
)
