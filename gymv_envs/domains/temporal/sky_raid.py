"""Sky raid: a vertical scrolling shooter; shoot down the raiders flying at you."""

from __future__ import annotations

import math

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, ArcadeEnv

FW, FH = 160.0, 150.0
PY, PW, PH, PSPEED = 132.0, 10.0, 9.0, 1.8         # your plane (top edge), size, speed
EW, EH = 10.0, 8.0                                  # raider size
SHOT_SPEED, COOLDOWN, MAX_SHOTS = 4.0, 8, 2
KILLS = 30
# per difficulty: frames between raiders, raider speed, kinds drawn from, frames between raider shots,
# raider shot speed (shots are aimed at you), share of two-hit raiders
LEVELS = {0: (36, (0.7, 1.0), ("straight",), 60, 1.6, 0.0),
          1: (36, (0.8, 1.2), ("straight", "zigzag"), 60, 1.8, 0.0),
          2: (36, (0.9, 1.3), ("straight", "zigzag", "diver"), 50, 2.0, 0.4)}
PLANE = ("....X....", "....X....", "...XXX...", "X.XXXXX.X", "XXXXXXXXX", "...XXX...", "...XXX...", "..XXXXX..")
RAIDER = ("XX......XX", "XXX....XXX", ".XXXXXXXX.", "..XXXXXX..", "...XXXX...", "....XX....")
YOU, SHOT, BULLET = (120, 210, 255), (255, 255, 200), (255, 90, 60)
KIND_COLORS = {"straight": (230, 160, 60), "zigzag": (200, 110, 230), "diver": (240, 80, 80)}
ARMOUR, SEA, CLOUD = (210, 210, 220), (20, 50, 110), (60, 90, 150)


class SkyRaid(ArcadeEnv):
    """Shoot down raiders over a scrolling sea.

    ## Description
    A real-time vertical scrolling shooter. You fly the blue plane along the bottom of the screen
    while the sea scrolls past below; raiders fly in from the top, some straight down, some weaving
    from side to side (difficulty 1 and up) and some diving at you (difficulty 2), and they fire
    shots aimed at where you are. FIRE shoots straight up (two shots at most in the air).
    A raider shot or a raider hitting your plane costs a life. Motion is only visible over
    consecutive frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(6)` minimal set ``NOOP``, ``FIRE``, ``RIGHT``, ``LEFT``, ``RIGHTFIRE``, ``LEFTFIRE``;
    ``full_action_space=True``: the 18 ALE actions (the others act as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, score bar) above the sea.

    ## Rewards
    +1 per raider shot down (``max_return`` 30).

    ## Starting State
    Your plane in the middle; where and when raiders come and what kind they are is drawn from the
    seed (as the game goes on, too).

    ## Episode End
    Success at 30 raiders shot down; failure when the last of 3 lives is lost.

    ## Arguments
    ``difficulty``: 0 (straight raiders), 1 (weaving raiders, faster), 2 (divers, faster and more
    frequent fire, silver raiders that take two hits); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE")
    target = float(KILLS)
    field = (FW, FH)
    field_color = SEA

    def _setup(self) -> None:
        self.period, self.speeds, self.kinds, self.fire_period, self.bullet_speed, self.armoured = LEVELS[self.difficulty]

    def _new_game(self, rng: np.random.Generator) -> None:
        self.px, self.cool, self.safe = FW / 2, 0, 0
        self.shots: list[list[float]] = []
        self.bullets: list[list[float]] = []
        self.raiders: list[list] = []
        self.clouds = [[float(rng.uniform(0, FW - 30)), float(rng.uniform(0, FH)), float(rng.uniform(14, 30))] for _ in range(5)]
        self.clock = self.period - 10
        for _ in range(2):
            self._spawn(rng, y=float(rng.uniform(10, 50)))

    def _spawn(self, rng: np.random.Generator, y: float = -EH) -> None:
        kind = self.kinds[int(rng.integers(len(self.kinds)))]
        x = float(rng.uniform(EW, FW - EW))
        hp = 2 if rng.random() < self.armoured else 1
        # x, y, vx, vy, kind, hp, phase, centre x, frames to its next shot
        self.raiders.append([x, y, 0.0, float(rng.uniform(*self.speeds)), kind, hp, float(rng.uniform(0, 6.3)), x,
                             int(rng.integers(10, self.fire_period))])

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        rng = self.np_random
        self.px = min(FW - PW / 2, max(PW / 2, self.px + dx * PSPEED))
        self.cool = max(0, self.cool - 1)
        if fire and not self.cool and len(self.shots) < MAX_SHOTS:
            self.shots.append([self.px, PY - 4])
            self.cool = COOLDOWN
        for c in self.clouds:
            c[1] += 0.5
            if c[1] > FH:
                c[0], c[1] = float(rng.uniform(0, FW - 30)), -20.0
        self.clock += 1
        if self.clock >= self.period:
            self.clock = 0
            self._spawn(rng)
        self._move_raiders()
        for b in self.bullets:
            b[0] += b[2]
            b[1] += b[3]
        self.bullets = [b for b in self.bullets if -2 < b[0] < FW + 2 and b[1] < FH]
        for s in self.shots:
            s[1] -= SHOT_SPEED
            for r in self.raiders:
                if r[5] > 0 and abs(s[0] - r[0]) < EW / 2 + 0.5 and r[1] - EH / 2 - SHOT_SPEED < s[1] < r[1] + EH / 2:
                    r[5] -= 1
                    s[1] = -99.0
                    if r[5] == 0:
                        self.score += 1
                    break
        self.shots = [s for s in self.shots if s[1] > -5]
        self.raiders = [r for r in self.raiders if r[5] > 0 and r[1] < FH + EH]
        if self.safe:
            self.safe -= 1
            return
        hit = any(abs(b[0] - self.px) < PW / 2 and PY < b[1] < PY + PH for b in self.bullets)
        crash = [r for r in self.raiders if abs(r[0] - self.px) < (PW + EW) / 2 - 2 and abs(r[1] - (PY + PH / 2)) < (PH + EH) / 2 - 2]
        if hit or crash:
            for r in crash:
                r[5] = 0
            self.raiders = [r for r in self.raiders if r[5] > 0]
            self.bullets, self.safe = [], 60
            self.lose_life("you were shot down" if hit else "a raider rammed you")

    def _move_raiders(self) -> None:
        for r in self.raiders:
            x0 = r[0]
            r[1] += r[3]
            if r[4] == "zigzag":
                r[6] += 0.05
                r[0] = min(FW - EW / 2, max(EW / 2, r[7] + 22 * math.sin(r[6])))
            elif r[4] == "diver" and r[1] < PY - 30:
                r[0] += max(-0.6, min(0.6, (self.px - r[0]) * 0.03))
            r[2] = r[0] - x0
            r[8] -= 1
            if r[8] <= 0 and 0 < r[1] < PY - 40:
                r[8] = self.fire_period
                ddx, ddy = self.px - r[0], PY - r[1]  # aimed at where you are
                n = math.hypot(ddx, ddy) or 1.0
                self.bullets.append([r[0], r[1] + EH / 2, self.bullet_speed * ddx / n, self.bullet_speed * ddy / n])

    # -- draw
    def _draw_field(self, frame: np.ndarray) -> None:
        for x, y, w in self.clouds:
            self.rect(frame, x, y, w, w * 0.45, CLOUD)
        for r in self.raiders:
            color = ARMOUR if r[5] > 1 else KIND_COLORS[r[4]]
            self.sprite(frame, RAIDER, r[0] - EW / 2, r[1] - EH / 2, EW, EH, color)
        if not self.safe or (self.frames // 4) % 2:
            self.sprite(frame, PLANE, self.px - PW / 2, PY, PW, PH, YOU)
        for x, y in self.shots:
            self.rect(frame, x - 0.6, y, 1.2, 4, SHOT)
        for x, y, _, _ in self.bullets:
            self.rect(frame, x - 1, y - 1, 2, 2, BULLET)

    def _task_text(self) -> str:
        extra = ("; silver raiders take two hits" if self.armoured else "")
        return ("You fly the blue plane at the bottom of the screen over a scrolling sea. Raiders fly in from the "
                "top (orange ones straight down, purple ones weaving, red ones diving at you) and fire red shots at you"
                f"{extra}. FIRE shoots straight up (at most two of your shots fly at once); RIGHT and LEFT move "
                "the plane. Shoot down 30 raiders to win. A raider shot or a raider hitting you costs one of "
                "your 3 lives (the red marks at the top left; you blink, safe, for a moment after). One action "
                "lasts a few frames and may be repeated (sticky actions).")

    # -- oracle
    def oracle_action(self) -> int:
        """Keep clear of shots and raiders (the arcade dodge planner), else line up under the raider a
        shot fired now would meet and fire."""
        if self._terminated:
            return 0
        threats = [(b[0], b[1], b[2], b[3], PW / 2 + 1.0) for b in self.bullets]
        threats += [(r[0], r[1], r[2], r[3], (PW + EW) / 2 + (6.0 if r[4] == "diver" else 1.0)) for r in self.raiders]
        clear = self.dodge(self.px, PSPEED, PW / 2, FW - PW / 2, (PY - EH / 2 - 2, PY + PH + EH / 2 + 2), threats)
        best, aim = 1e9, FW / 2
        for r in self.raiders:
            if r[1] < PY - 20:
                t = (PY - r[1]) / (SHOT_SPEED + r[3])
                x = r[0] + r[2] * t
                if abs(x - self.px) < best and EW / 2 < x < FW - EW / 2:
                    best, aim = abs(x - self.px), x
        fire = best < EW / 2 - 1.5
        want = 0 if abs(aim - self.px) < PSPEED * 2 else (1 if aim > self.px else -1)
        move = want if clear[(0, 1, -1).index(want)] >= 3.0 else (0, 1, -1)[int(np.argmax(clear))]
        name = {0: "", 1: "RIGHT", -1: "LEFT"}[move] + ("FIRE" if fire else "")
        return self.action_index(name or "NOOP")


SkyRaid.__doc__ = SkyRaid.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="SkyRaid", entry_point=SkyRaid, max_episode_steps=3000, max_return=float(KILLS),
             tags=("arcade", "real-time", "control", "shooter")),
)
