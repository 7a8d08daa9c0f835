"""Endless runner: jump over cacti and duck under birds coming at you faster and faster."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, ArcadeEnv

FW, FH, GROUND = 160.0, 100.0, 88.0             # field, the ground line
RX, RW, STAND, DUCK = 24.0, 8.0, 14.0, 7.0       # the runner's left edge, width, height standing and ducking
G, JUMP, DIVE = 0.3, 3.7, 3.0                    # gravity, jump speed, gravity factor when DOWN in the air
BIRD_LOW, BIRD_HIGH = 10.0, 19.0                 # a bird's body spans these heights above the ground
PASSES = 30
# per difficulty: start speed, speed gain per frame, top speed, frames between obstacles (range), bird share
LEVELS = {0: (1.6, 0.0008, 2.6, (55, 95), 0.0), 1: (1.9, 0.0012, 3.2, (45, 85), 0.3), 2: (2.2, 0.0016, 3.8, (40, 75), 0.45)}
RUNNER = ("...XXX", "...XXX", "....X.", "..XXXX", ".X.XX.", "X..XX.", "...XX.", "..X.X.", ".X..X.", "X...XX")
CROUCH = ("......XXX", "XXXXXXXXX", ".XXXXXX..", "X.X..X...")
CACTUS = ("..X..", "X.X..", "X.X.X", "XXX.X", "..XXX", "..X..", "..X..")
BIRD = ("X.....X", "XX...XX", ".XXXXX.", "..XXX..")
SKY, SAND, YOU, PLANT, FOE = (235, 230, 215), (200, 170, 110), (60, 60, 70), (50, 140, 60), (150, 80, 60)


def advance(p: list[float], obs: list[list[float]], speed: float, jump: bool, duck: bool) -> int:
    """One frame of the runner ``p = [height above ground, vertical speed]`` and the obstacles
    ``[x, width, bottom, top, kind]`` (heights above the ground; mutated): -1 on a hit, else how many
    obstacles the runner got past this frame."""
    h, v = p
    if h <= 0.0 and jump:
        v = JUMP
    if h > 0.0 or v > 0.0:
        v -= G * (DIVE if duck else 1.0)
        h += v
        h = h if h > 0.0 else 0.0  # (max without the call)
        if h == 0.0:
            v = 0.0
    p[0], p[1] = h, v
    top = h + (DUCK if duck and h == 0.0 else STAND)
    passed = 0
    for o in obs:
        x0 = o[0]
        o[0] -= speed
        if o[0] < RX + RW and o[0] + o[1] > RX and h < o[3] and top > o[2]:
            return -1
        if x0 + o[1] >= RX > o[0] + o[1]:
            passed += 1
    return passed


class EndlessRunner(ArcadeEnv):
    """Run on and on: jump the cacti, duck the birds.

    ## Description
    A real-time side-view runner. Your runner stays at the left of the screen while the desert
    scrolls toward it ever faster; cacti on the ground must be jumped over, and (difficulty 1 and up)
    birds flying at head height must be ducked under (a jump takes you into them). A hit costs a life
    (you blink, safe, for a moment after). Holding DOWN in the air brings you down faster. Motion is
    only visible over consecutive frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(3)` minimal set ``NOOP``, ``UP`` (jump), ``DOWN`` (duck); ``full_action_space=True``: the
    18 ALE actions (``UP`` or ``DOWN`` alone act as such, the rest as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, score bar) above the desert.

    ## Rewards
    +1 per obstacle you get past (``max_return`` 30).

    ## Starting State
    The runner on the ground; when each obstacle comes and what it is (cactus size, bird) are drawn
    from the seed.

    ## Episode End
    Success at 30 obstacles passed; failure when the last of 3 lives is lost.

    ## Arguments
    ``difficulty``: 0 (cacti only, slow), 1 (birds, faster, closer together), 2 (more birds, faster
    still); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "UP", "DOWN")
    target = float(PASSES)
    field = (FW, FH)
    field_color = SKY

    def _setup(self) -> None:
        self.v0, self.accel, self.vmax, self.gaps, self.birds = LEVELS[self.difficulty]

    def _new_game(self, rng: np.random.Generator) -> None:
        self.p = [0.0, 0.0]
        self.speed, self.safe, self.duck = self.v0, 0, False
        self.obs: list[list[float]] = []
        self.clock = 40
        self.dunes = [float(rng.uniform(0, FW)) for _ in range(6)]

    def _spawn(self, rng: np.random.Generator) -> None:
        if rng.random() < self.birds:
            self.obs.append([FW, 9.0, BIRD_LOW, BIRD_HIGH, 1.0])
        else:
            w, h = float(rng.choice((5.0, 7.0, 10.0))), float(rng.uniform(9.0, 15.0))
            self.obs.append([FW, w, 0.0, h, 0.0])
        lo, hi = self.gaps
        self.clock = int(rng.integers(lo, hi + 1))

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        rng = self.np_random
        speed = self.speed + self.accel
        self.speed = speed if speed < self.vmax else self.vmax  # (min without the call)
        self.clock -= 1
        if self.clock <= 0:
            self._spawn(rng)
        self.duck = dy > 0
        event = advance(self.p, self.obs, self.speed, dy < 0, self.duck)
        drift = self.speed * 0.5
        self.dunes = [x - drift if x > -20 else FW + float(rng.uniform(0, 30)) for x in self.dunes]
        if event > 0:
            self.score += event
        obs = self.obs  # spawned at the right edge in turn and moving as one, so the first is the leftmost
        if obs and obs[0][0] + obs[0][1] <= 0:
            self.obs = [o for o in obs if o[0] + o[1] > 0]
        if self.safe:
            self.safe -= 1
        elif event < 0:
            self.obs = [o for o in self.obs if o[0] > RX + RW]
            self.safe = 45
            self.lose_life("you ran into an obstacle")

    # -- draw
    def _paint_background(self, frame: np.ndarray) -> None:
        self.rect(frame, 0, GROUND, FW, FH - GROUND, SAND)

    def _draw_field(self, frame: np.ndarray) -> None:
        self.rects(frame, self.dunes, GROUND + 4, 6, 1.5, (170, 140, 90))
        for x, w, lo, hi, kind in self.obs:
            if kind:
                self.sprite(frame, BIRD, x, GROUND - hi, w, hi - lo, FOE)
            else:
                self.sprite(frame, CACTUS, x, GROUND - hi, w, hi, PLANT)
        if not self.safe or (self.frames // 4) % 2:
            h = self.p[0]
            if self.duck and h == 0.0:
                self.sprite(frame, CROUCH, RX - 2, GROUND - DUCK, RW + 3, DUCK, YOU)
            else:
                self.sprite(frame, RUNNER, RX, GROUND - h - STAND, RW, STAND, YOU)

    def _task_text(self) -> str:
        birds = (" Brown birds fly at head height: DOWN ducks under them (a jump takes you into them)."
                 if self.birds else "")
        return ("You are the dark runner at the left; the desert scrolls toward you ever faster. UP jumps over "
                f"the green cacti on the ground.{birds} DOWN in the air brings you down faster. Get past 30 "
                "obstacles to win (the bar at the top shows how many); running into one costs one of your 3 lives "
                "(the red marks at the top left; you blink, safe, for a moment after). One action lasts a few "
                "frames and may be repeated by the game (sticky actions).")

    def _state_text(self) -> str:
        ahead = [f"{'bird' if o[4] else 'cactus'} at {o[0] - RX:.0f}" for o in self.obs if o[0] + o[1] > RX]
        return (f"speed {self.speed:.2f}, height {self.p[0]:.1f}; ahead: {', '.join(ahead) or 'nothing'}; "
                + super()._state_text())

    # -- oracle
    def _rollout(self, plan: list[int], lag: int, frames: int) -> bool:
        """Simulate ``plan`` (one dy per step) ``frames`` ahead, each step's action starting ``lag`` frames
        late (the previous one held, as sticky actions do): whether the runner gets through unhurt."""
        p, obs, prev, speed, t = self.p[:], [o[:] for o in self.obs], self.held[1], self.speed, 0
        for dy in plan:
            for i in range(self.frameskip):
                a = prev if i < lag else dy
                speed = min(self.vmax, speed + self.accel)
                if advance(p, obs, speed, a < 0, a > 0) < 0:
                    return False
                t += 1
                if t >= frames:
                    return True
            prev = dy
        return True

    def oracle_action(self) -> int:
        """Model-predictive control: of a few plans (duck for a while, then run on, or jump in 0-5 steps),
        each simulated 48 frames ahead on time and a frame or two late, take the first action of the first
        that is safe in every case (running on is tried first)."""
        if self._terminated:
            return 0
        n = 48 // self.frameskip + 2
        plans = []
        for k in (0, 3, 6, n):  # duck for k steps, then run on, or jump after j steps (coming down fast or not)
            plans += [[1] * k + [0] * n] + [[1] * k + [0] * j + [-1] + [0] * n for j in range(6)]
            plans += [[1] * k + [0] * j + [-1] + [1] * n for j in range(3)]
        best, choice = -1, plans[0]
        for plan in plans:
            safe = sum(self._rollout(plan, lag, 48) for lag in (0, 1, 2))
            if safe > best:
                best, choice = safe, plan
            if safe == 3:
                break
        return self.action_index({0: "NOOP", -1: "UP", 1: "DOWN"}[choice[0]])


EndlessRunner.__doc__ = EndlessRunner.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="EndlessRunner", entry_point=EndlessRunner, max_episode_steps=2500, max_return=float(PASSES),
             tags=("arcade", "real-time", "control", "runner")),
)
