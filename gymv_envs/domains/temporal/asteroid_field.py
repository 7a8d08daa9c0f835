"""Asteroid field: turn, thrust and fire a ship among drifting asteroids that split when shot."""

from __future__ import annotations

import math

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS
from gymv_envs.domains.temporal._arcade_a import ArcadeEnvA, rotated_mask
from gymv_envs.domains.temporal._wrap_field import FH, FW, torus, wrapped

SHIP_R, TURN, THRUST, DRAG, VMAX = 4.0, 0.12, 0.06, 0.985, 2.2
SHOT_SPEED, SHOT_LIFE, COOLDOWN, MAX_SHOTS = 4.0, 22, 7, 3
RADII = (9.0, 5.5, 3.2)                             # large, medium, small; a hit splits one size down
POINTS = (1, 2, 4)                                  # per piece shot, by size (a large asteroid is worth 21 in all)
TARGET = 4 * (POINTS[0] + 2 * POINTS[1] + 4 * POINTS[2])
AMMO = 38                                           # shots in the magazine (28 pieces make four large asteroids)
SAFE = 60                                           # frames of safety after losing a ship
# per difficulty: large asteroids per wave, their speed range, speed factor of the pieces a hit makes
LEVELS = {0: (2, (0.25, 0.45), 1.25), 1: (3, (0.35, 0.6), 1.35), 2: (4, (0.45, 0.75), 1.45)}
YOU, SHOT, ROCK = (120, 210, 255), (255, 255, 200), ((170, 150, 130), (190, 170, 140), (210, 190, 150))
SPACE, AMMO_C = (6, 6, 18), (240, 210, 60)
ANGLES = 32


class AsteroidField(ArcadeEnvA):
    """Shoot the drifting asteroids to pieces without being hit.

    ## Description
    A real-time arcade game on a wrap-around field (what leaves one edge comes back at the
    opposite one). You fly the blue ship: LEFT and RIGHT turn it, UP thrusts along its nose (it
    then glides, slowing down little by little), FIRE shoots along the nose (three shots at most in
    flight, each flying a limited distance; 38 in all, the yellow bar along the bottom). Large
    asteroids drift across the field; a shot splits a large one into two medium ones, a medium one
    into two small ones, and a small one is destroyed; the pieces fly off faster than their parent. When the field is clear, a new wave comes. An
    asteroid touching the ship costs a life (the ship then blinks, safe, for a moment). Motion is
    only visible over consecutive frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(10)` minimal set ``NOOP``, ``FIRE``, ``UP``, ``RIGHT``, ``LEFT``, ``UPRIGHT``,
    ``UPLEFT``, ``UPFIRE``, ``RIGHTFIRE``, ``LEFTFIRE``; ``full_action_space=True``: the 18 ALE
    actions (the others act as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, score bar) above the field.

    ## Rewards
    Per piece shot: 1 for a large asteroid, 2 for a medium one, 4 for a small one (ALE's Asteroids also
    pays more for smaller pieces), so a large asteroid shot to dust is worth 21; asteroids shattered by
    ramming score nothing. ``max_return`` 84 (four large asteroids).

    ## Starting State
    The ship still in the middle, pointing up; the first wave's asteroids at places, headings and
    speeds drawn from the seed, away from the ship (so are later waves and the pieces' headings).

    ## Episode End
    Success at 84 points; failure when the last of 3 lives is lost, or when the 38 shots of the
    magazine (the yellow bar along the bottom) are spent without reaching 84.

    ## Arguments
    ``difficulty``: 0 (waves of 2 slow asteroids), 1 (3, faster), 2 (4, faster still, faster
    pieces); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "UPRIGHT", "UPLEFT", "UPFIRE", "RIGHTFIRE", "LEFTFIRE")
    target = float(TARGET)
    field = (FW, FH)
    field_color = SPACE

    def _setup(self) -> None:
        self.wave, self.speeds, self.split = LEVELS[self.difficulty]

    def _new_game(self, rng: np.random.Generator) -> None:
        self.x, self.y, self.vx, self.vy, self.a = FW / 2, FH / 2, 0.0, 0.0, 0.0
        self.cool, self.safe, self.ammo = 0, 0, AMMO
        self.shots: list[list[float]] = []     # x, y, vx, vy, frames left
        self.rocks: list[list[float]] = []     # x, y, vx, vy, size (0 large .. 2 small)
        self._wave(rng)

    def _wave(self, rng: np.random.Generator) -> None:
        for _ in range(self.wave):
            x, y = float(rng.uniform(0, FW)), float(rng.uniform(0, FH))
            while math.hypot(*torus(x - self.x, y - self.y)) <= 55:
                x, y = float(rng.uniform(0, FW)), float(rng.uniform(0, FH))
            h, s = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(*self.speeds))
            self.rocks.append([x, y, s * math.cos(h), s * math.sin(h), 0])

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        rng = self.np_random
        self.a = (self.a + dx * TURN) % (2 * math.pi)
        nx, ny = math.sin(self.a), -math.cos(self.a)
        if dy < 0:
            self.vx, self.vy = self.vx + THRUST * nx, self.vy + THRUST * ny
            speed = math.hypot(self.vx, self.vy)
            if speed > VMAX:
                self.vx, self.vy = self.vx * VMAX / speed, self.vy * VMAX / speed
        self.vx, self.vy = self.vx * DRAG, self.vy * DRAG
        self.x, self.y = (self.x + self.vx) % FW, (self.y + self.vy) % FH
        self.cool = max(0, self.cool - 1)
        if fire and not self.cool and len(self.shots) < MAX_SHOTS and self.ammo:
            self.ammo -= 1
            self.shots.append([self.x + nx * SHIP_R, self.y + ny * SHIP_R, SHOT_SPEED * nx, SHOT_SPEED * ny, SHOT_LIFE])
            self.cool = COOLDOWN
        for r in self.rocks:
            r[0], r[1] = (r[0] + r[2]) % FW, (r[1] + r[3]) % FH
        for s in self.shots:
            s[0], s[1], s[4] = (s[0] + s[2]) % FW, (s[1] + s[3]) % FH, s[4] - 1
            for r in self.rocks:
                if r[4] >= 3:
                    continue
                ox, oy = torus(s[0] - r[0], s[1] - r[1])
                if ox * ox + oy * oy < (RADII[int(r[4])] + 1.0) ** 2:
                    s[4] = 0
                    self.score += POINTS[int(r[4])]
                    self._shatter(r, rng)
                    break
        self.shots = [s for s in self.shots if s[4] > 0]
        if not self.ammo and not self.shots and self.score < self.target:
            self.game_over = True
            self.events.append("out of ammunition")
        self.rocks = [r for r in self.rocks if r[4] < 3]
        if not self.rocks:
            self._wave(rng)
        if self.safe:
            self.safe -= 1
            return
        for r in self.rocks:
            ox, oy = torus(self.x - r[0], self.y - r[1])
            if ox * ox + oy * oy < (RADII[int(r[4])] + SHIP_R - 1.0) ** 2:
                self._shatter(r, rng)
                self.rocks = [r for r in self.rocks if r[4] < 3]
                self.x, self.y, self.vx, self.vy, self.safe = FW / 2, FH / 2, 0.0, 0.0, SAFE
                self.lose_life("an asteroid hit your ship")
                break

    def _shatter(self, r: list[float], rng: np.random.Generator) -> None:
        """A piece hit: two smaller ones fly off (none from a small one)."""
        r[4] += 1
        if r[4] < 3:
            speed = math.hypot(r[2], r[3]) * self.split
            h = math.atan2(r[3], r[2])
            for turn in (float(rng.uniform(0.4, 1.1)), -float(rng.uniform(0.4, 1.1))):
                self.rocks.append([r[0], r[1], speed * math.cos(h + turn), speed * math.sin(h + turn), r[4]])
            r[4] = 3  # the parent is gone

    # -- draw
    def _draw_field(self, frame: np.ndarray) -> None:
        for x, y, _, _, size in self.rocks:
            rad = RADII[int(size)]
            for cx, cy in wrapped(x, y, rad):
                self.disc(frame, cx, cy, rad, color=ROCK[int(size)])
        for x, y, *_ in self.shots:
            self.rect(frame, x - 0.8, y - 0.8, 1.6, 1.6, SHOT)
        if self.ammo:
            self.rect(frame, 0, FH - 1.5, FW * self.ammo / AMMO, 1.5, AMMO_C)
        if not self.safe or (self.frames // 4) % 2:
            k = round(self.a / (2 * math.pi) * ANGLES) % ANGLES
            x0, y0, pw, ph = self._px_box(self.x - SHIP_R - 1, self.y - SHIP_R - 1, 2 * SHIP_R + 2, 2 * SHIP_R + 2)
            self._mask_at(frame, rotated_mask("dart", k, ANGLES, max(pw, ph), max(pw, ph)), x0, y0, YOU)

    def _task_text(self) -> str:
        return ("You fly the blue ship on a wrap-around field of drifting asteroids (what leaves one edge comes back "
                "at the opposite one). LEFT and RIGHT turn the ship, UP thrusts along its nose (it then glides, "
                "slowing little by little), FIRE shoots along its nose (three shots at most in flight, each flying a "
                "limited distance); UPFIRE and the like do both. A shot splits a large asteroid into two medium ones, a "
                "medium one into two small ones, and destroys a small one. A cleared field brings a new wave. A hit scores 1 on "
                "a large asteroid, 2 on a medium one and 4 on a small one; reach 84 points to win. You have 38 shots in "
                "all (the yellow bar along the bottom): running out before 84 points ends the game. An asteroid touching your ship costs one of your 3 lives (the red marks at the top "
                "left; you blink, safe, for a moment after). One action lasts a few frames and may be repeated "
                "(sticky actions).")

    def _state_text(self) -> str:
        rocks = ", ".join(f"{('large', 'medium', 'small')[int(r[4])]} at ({r[0]:.0f}, {r[1]:.0f})" for r in self.rocks)
        return (f"{self.ammo} shots left; ship at ({self.x:.0f}, {self.y:.0f}) heading {math.degrees(self.a):.0f} degrees; asteroids: {rocks}; "
                + super()._state_text())

    # -- oracle
    def _intercept(self, r: list[float]) -> tuple[float, float, float]:
        """(heading, frames until a shot fired now meets it, distance) for asteroid ``r``."""
        px, py = torus(r[0] - self.x, r[1] - self.y)
        vx, vy = r[2], r[3]
        a, b, c = vx * vx + vy * vy - SHOT_SPEED ** 2, 2 * (px * vx + py * vy), px * px + py * py
        t = (-b - math.sqrt(max(0.0, b * b - 4 * a * c))) / (2 * a)
        ix, iy = px + vx * t, py + vy * t
        return math.atan2(ix, -iy) % (2 * math.pi), t, math.sqrt(c)

    @staticmethod
    def _will_hit(s: list[float], r: list[float]) -> bool:
        """Whether shot ``s`` flying on meets asteroid ``r`` (closest approach within its life)."""
        px, py = torus(r[0] - s[0], r[1] - s[1])
        vx, vy = r[2] - s[2], r[3] - s[3]
        t = min(s[4], max(0.0, -(px * vx + py * vy) / (vx * vx + vy * vy + 1e-9)))
        return math.hypot(px + vx * t, py + vy * t) < RADII[int(r[4])] + 1.0

    def _threat(self, r: list[float]) -> float:
        """Frames until asteroid ``r`` touches the ship if both glide on (1e9 if it never does)."""
        px, py = torus(r[0] - self.x, r[1] - self.y)
        vx, vy = r[2] - self.vx, r[3] - self.vy
        reach = RADII[int(r[4])] + SHIP_R + 3.0
        a, b, c = vx * vx + vy * vy, 2 * (px * vx + py * vy), px * px + py * py - reach * reach
        if c <= 0:
            return 0.0
        disc = b * b - 4 * a * c
        if a < 1e-9 or disc < 0 or b >= 0:
            return 1e9
        return (-b - math.sqrt(disc)) / (2 * a)

    def oracle_action(self) -> int:
        """Turn toward the intercept heading of the asteroid that would reach the ship first (else the one
        quickest to turn to), fire once lined up, and thrust away from one about to hit."""
        if self._terminated or not self.rocks:
            return 0
        best, goal, aligned = None, self.a, False
        for r in self.rocks:
            heading, t, dist = self._intercept(r)
            if t > SHOT_LIFE - 2 or any(self._will_hit(s, r) for s in self.shots):
                continue
            turn = abs((heading - self.a + math.pi) % (2 * math.pi) - math.pi)
            key = (min(self._threat(r), 400.0) + 12 * turn / TURN * 0.5, turn)
            if best is None or key < best:
                best, goal = key, heading
                aligned = turn < max(0.04, math.atan2(RADII[int(r[4])] * 0.6, dist + 1e-6))
        d = (goal - self.a + math.pi) % (2 * math.pi) - math.pi
        steer = 0 if abs(d) < TURN * self.frameskip / 2 or aligned else (1 if d > 0 else -1)
        fire = aligned and self.cool <= 1 and len(self.shots) < MAX_SHOTS
        name = {0: "", 1: "RIGHT", -1: "LEFT"}[steer] + ("FIRE" if fire else "")
        return self.action_index(name or "NOOP")


AsteroidField.__doc__ = AsteroidField.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="AsteroidField", entry_point=AsteroidField, max_episode_steps=1500, max_return=float(TARGET),
             tags=("arcade", "real-time", "control", "shooter")),
)
