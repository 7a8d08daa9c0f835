"""Missile defence: steer a cursor and fire counter-missiles whose blasts stop falling missiles."""

from __future__ import annotations

import math

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS
from gymv_envs.domains.temporal._arcade_a import ArcadeEnvA

FW, FH = 160.0, 150.0
GROUND, BASE = 140.0, (80.0, 136.0)                 # ground level, the launcher's muzzle
CITIES = (16.0, 36.0, 56.0, 104.0, 124.0, 144.0)
CITY_W, CITY_H = 12.0, 6.0
CURSOR_SPEED, SHOT_SPEED, MAX_SHOTS = 3.0, 5.0, 3
BLAST_R, GROW, BLAST_LIFE = 11.0, 6, 18             # blast radius, frames to full size, frames it lasts
KILLS = 30
TOP = 20.0                                          # the cursor stays below this height (and above the ground)
# per difficulty: missile speed range, frames between missiles, share that split in two halfway down
LEVELS = {0: ((0.3, 0.4), 48, 0.0), 1: ((0.4, 0.55), 40, 0.0), 2: ((0.45, 0.6), 40, 0.35)}
SKY, EARTH, CITY, RUBBLE = (8, 10, 30), (110, 80, 40), (80, 200, 230), (90, 70, 50)
MISSILE, TRAIL, SHOT, BLAST, CURSOR, LAUNCHER = (255, 80, 60), (150, 40, 40), (120, 220, 255), (255, 230, 120), (240, 240, 240), (200, 200, 210)


def blast_radius(age: float) -> float:
    """The radius of a blast ``age`` frames old (it grows, then holds)."""
    return BLAST_R * min(1.0, age / GROW)


CITY_ROWS = ("..X...XX..X.", ".XX..XXX.XX.", "XXXX.XXXXXXX", "XXXXXXXXXXXX")


class MissileDefence(ArcadeEnvA):
    """Protect six cities from falling missiles with counter-missile blasts.

    ## Description
    A real-time arcade game. Enemy missiles fall from the top of the sky, each toward one of your
    six cities (at difficulty 2 some split into two halfway down). You move a white cross-hair cursor
    with the eight joystick directions; FIRE launches a counter-missile from the launcher in the
    middle of the ground toward the cursor's place (three at most in flight); there it explodes
    into a blast that grows, lasts a moment and destroys every missile inside it. A missile reaching
    the ground destroys its city. Motion is only visible over consecutive frames (the SB3 stack
    stacks four).

    ## Action Space
    `Discrete(10)` minimal set ``NOOP``, ``FIRE``, ``UP``, ``RIGHT``, ``LEFT``, ``DOWN``,
    ``UPRIGHT``, ``UPLEFT``, ``DOWNRIGHT``, ``DOWNLEFT``; ``full_action_space=True``: the 18 ALE
    actions (those moving and firing at once act as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives = cities standing, score bar) above the sky.

    ## Rewards
    +1 per enemy missile destroyed (``max_return`` 30).

    ## Starting State
    Six cities standing, the cursor in the middle of the sky; the missiles' start points, targets,
    speeds and times are drawn from the seed (and, at difficulty 2, which of them split).

    ## Episode End
    Success at 30 missiles destroyed; failure when the last city falls.

    ## Arguments
    ``difficulty``: 0 (slow, sparse missiles), 1 (faster, more frequent), 2 (faster, some split in
    two); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT")
    start_lives = len(CITIES)
    target = float(KILLS)
    field = (FW, FH)
    field_color = SKY

    def _setup(self) -> None:
        self.speeds, self.period, self.splits = LEVELS[self.difficulty]

    def _new_game(self, rng: np.random.Generator) -> None:
        self.cx, self.cy = FW / 2, 70.0
        self.standing = [True] * len(CITIES)
        self.missiles: list[list[float]] = []   # x, y, vx, vy, start x, start y, splits (1/0)
        self.shots: list[list[float]] = []      # x, y, target x, target y
        self.blasts: list[list[float]] = []     # x, y, age
        self.clock = 0
        for k in range(2 + self.difficulty):
            self._launch(rng, y=float(10 + 12 * k))

    def _launch(self, rng: np.random.Generator, y: float = 0.0) -> None:
        m = self._missile(rng, None, y, None)
        if m is not None:
            self.missiles.append(m)

    def _missile(self, rng: np.random.Generator, x: float | None, y: float, split: bool | None) -> list[float] | None:
        """A missile from (x, y) (x drawn when None) toward a standing city; None when none stands."""
        alive = [i for i, up in enumerate(self.standing) if up]
        if not alive:
            return None
        tx = CITIES[alive[int(rng.integers(len(alive)))]] + float(rng.uniform(-3, 3))
        x = float(rng.uniform(5, FW - 5)) if x is None else x
        speed = float(rng.uniform(*self.speeds))
        n = math.hypot(tx - x, GROUND - y)
        splits = bool(rng.random() < self.splits) if split is None else split
        return [x, y, speed * (tx - x) / n, speed * (GROUND - y) / n, x, y, float(splits)]

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        rng = self.np_random
        self.cx = min(FW - 3, max(3.0, self.cx + dx * CURSOR_SPEED))
        self.cy = min(GROUND - 12, max(TOP, self.cy + dy * CURSOR_SPEED))
        if fire and len(self.shots) < MAX_SHOTS and not any(s[2:] == [self.cx, self.cy] for s in self.shots):
            self.shots.append([BASE[0], BASE[1], self.cx, self.cy])
        for s in self.shots:
            ox, oy = s[2] - s[0], s[3] - s[1]
            d = math.hypot(ox, oy)
            if d <= SHOT_SPEED:
                self.blasts.append([s[2], s[3], 0.0])
                s[1] = -1e9
            else:
                s[0], s[1] = s[0] + SHOT_SPEED * ox / d, s[1] + SHOT_SPEED * oy / d
        self.shots = [s for s in self.shots if s[1] > -1e8]
        for b in self.blasts:
            b[2] += 1
        self.blasts = [b for b in self.blasts if b[2] <= BLAST_LIFE]
        self.clock += 1
        if self.clock >= self.period:
            self.clock = 0
            self._launch(rng)
        survivors, born = [], []
        for m in self.missiles:
            m[0], m[1] = m[0] + m[2], m[1] + m[3]
            if any((m[0] - b[0]) ** 2 + (m[1] - b[1]) ** 2 < blast_radius(b[2]) ** 2 for b in self.blasts):
                self.score += 1
            elif m[6] and m[1] >= 60:
                born += [self._missile(rng, m[0], m[1], False) for _ in range(2)]
            elif m[1] >= GROUND:
                self._hit_ground(m[0])
            else:
                survivors.append(m)
        self.missiles = survivors + [c for c in born if c is not None]

    def _hit_ground(self, x: float) -> None:
        for i, cx in enumerate(CITIES):
            if self.standing[i] and abs(x - cx) < CITY_W / 2 + 2:
                self.standing[i] = False
                self.paint_static(cx - CITY_W / 2, GROUND - CITY_H, CITY_W, CITY_H, SKY)
                self.paint_static(cx - CITY_W / 2, GROUND - 1.5, CITY_W, 1.5, RUBBLE)
                self.lose_life("a missile destroyed a city")
                return

    # -- draw
    def _paint_background(self, frame: np.ndarray) -> None:
        self.rect(frame, 0, GROUND, FW, FH - GROUND, EARTH)
        self.rect(frame, BASE[0] - 6, GROUND - 4, 12, 4, LAUNCHER)
        self.rect(frame, BASE[0] - 1, BASE[1] - 1, 2, 4, LAUNCHER)
        for up, x in zip(self.standing, CITIES):
            if up:
                self.sprite(frame, CITY_ROWS, x - CITY_W / 2, GROUND - CITY_H, CITY_W, CITY_H, CITY)
            else:
                self.rect(frame, x - CITY_W / 2, GROUND - 1.5, CITY_W, 1.5, RUBBLE)

    def _draw_field(self, frame: np.ndarray) -> None:
        for x, y, age in self.blasts:
            r = max(1.0, blast_radius(age))
            self.disc(frame, x, y, r, color=BLAST)
        for x, y, vx, vy, *_ in self.missiles:
            n = math.hypot(vx, vy) or 1.0
            for k in (9, 6, 3):
                self.rect(frame, x - vx / n * k - 0.5, y - vy / n * k - 0.5, 1.0, 1.0, TRAIL)
            self.rect(frame, x - 1, y - 1, 2, 2, MISSILE)
        for x, y, tx, ty in self.shots:
            self.rect(frame, x - 1, y - 1, 2, 2, SHOT)
            self.rect(frame, tx - 1.5, ty - 0.4, 3, 0.8, SHOT)
        self.rect(frame, self.cx - 3, self.cy - 0.5, 6, 1, CURSOR)
        self.rect(frame, self.cx - 0.5, self.cy - 3, 1, 6, CURSOR)

    def _task_text(self) -> str:
        split = " Some split in two halfway down." if self.splits else ""
        return ("Enemy missiles (red dots with dark trails) fall from the top of the sky toward your six blue cities "
                f"on the ground.{split} Move the white cross-hair with UP, DOWN, LEFT, RIGHT and the diagonals; FIRE "
                "launches a counter-missile from the launcher in the middle of the ground to the cross-hair's place "
                "(three at most in flight), where it explodes into a yellow blast that grows, lasts a moment and "
                "destroys every missile inside it. A missile reaching the ground destroys its city; the game ends "
                "when none is left (the red marks at the top left count the cities standing). Destroy 30 missiles "
                "to win. One action lasts a few frames and may be repeated (sticky actions).")

    def _state_text(self) -> str:
        ms = ", ".join(f"({m[0]:.0f}, {m[1]:.0f})" for m in self.missiles)
        return f"cursor ({self.cx:.0f}, {self.cy:.0f}); missiles at {ms or 'none'}; " + super()._state_text()

    # -- oracle
    def _covered(self, m: list[float]) -> bool:
        """Whether a blast now or to come (from a counter-missile in flight) will catch missile ``m``."""
        pending = [(b[0], b[1], b[2], 0.0) for b in self.blasts]
        pending += [(s[2], s[3], 0.0, math.ceil(math.hypot(s[2] - s[0], s[3] - s[1]) / SHOT_SPEED)) for s in self.shots]
        for bx, by, age, wait in pending:
            for t in range(int(wait) + 1, int(wait) + BLAST_LIFE - int(age) + 1):
                x, y = m[0] + m[2] * t, m[1] + m[3] * t
                if (x - bx) ** 2 + (y - by) ** 2 < (blast_radius(age + t - wait) - 1.5) ** 2:
                    return True
        return False

    def _aim(self, m: list[float]) -> tuple[float, float, float]:
        """(x, y, frames) of the point where a blast fired at the cursor's arrival there meets missile ``m``."""
        t = 0.0
        for _ in range(6):
            x, y = m[0] + m[2] * t, m[1] + m[3] * t
            y = min(GROUND - 12, max(TOP, y))
            move = max(abs(x - self.cx), abs(y - self.cy)) / CURSOR_SPEED + 2 * self.frameskip
            t = move + math.hypot(x - BASE[0], y - BASE[1]) / SHOT_SPEED + GROW
        return x, y, t

    def oracle_action(self) -> int:
        """Aim at the uncovered missile due to land first: move the cursor to where a blast fired on
        arrival there would meet it, stop, and fire."""
        if self._terminated:
            return 0
        best, aim = None, None
        for m in self.missiles:
            if self._covered(m):
                continue
            x, y, t = self._aim(m)
            slack = (GROUND - 4 - m[1]) / m[3] - t
            key = (slack < 0, slack if slack < 90 else 90 + t)   # the most urgent that can still be met, else the nearest
            if best is None or key < best:
                best, aim = key, (x, y)
        if aim is None:
            return self.action_index("NOOP")
        ox, oy = aim[0] - self.cx, aim[1] - self.cy
        step = CURSOR_SPEED * self.frameskip / 2
        if abs(ox) <= 4.5 and abs(oy) <= 4.5 and len(self.shots) < MAX_SHOTS:
            return self.action_index("FIRE")
        dx = 0 if abs(ox) <= min(4.5, step) else (1 if ox > 0 else -1)
        dy = 0 if abs(oy) <= min(4.5, step) else (1 if oy > 0 else -1)
        name = {-1: "UP", 0: "", 1: "DOWN"}[dy] + {-1: "LEFT", 0: "", 1: "RIGHT"}[dx]
        return self.action_index(name or "NOOP")


MissileDefence.__doc__ = MissileDefence.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="MissileDefence", entry_point=MissileDefence, max_episode_steps=1500, max_return=float(KILLS),
             tags=("arcade", "real-time", "control", "shooter")),
)
