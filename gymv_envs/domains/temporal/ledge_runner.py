"""Ledge runner: a side-scrolling run-and-jump platformer; reach the flag at the end of the level."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, ArcadeEnv
from gymv_envs.domains.temporal._ledge_physics import (
    BASE,
    EH,
    EW,
    FH,
    FW,
    PH,
    PW,
    T,
    advance,
    surface,
)

# per difficulty: level length (tiles), widest pit, highest step, enemy speed, share of flats with an enemy
LEVELS = {0: (120, 2, 1, 0.4, 0.3), 1: (160, 3, 2, 0.55, 0.5), 2: (200, 3, 2, 0.7, 0.7)}
RUNNER = ("..XXX.", "..XXX.", "...X..", ".XXXXX", "X.XXX.", "..XXX.", "..X.X.", ".X...X", ".X...X", "XX..XX")
WALKER = ("..XXX..", ".XXXXX.", "XX.X.XX", "XXXXXXX", ".XXXXX.", "X.....X", "XX...XX")
SKY, DIRT, GRASS, YOU, FOE, POLE, FLAG = (120, 180, 240), (150, 95, 50), (70, 170, 60), (230, 60, 60), (120, 70, 30), (230, 230, 230), (250, 220, 40)


class LedgeRunner(ArcadeEnv):
    """Run and jump to the flag at the end of a side-scrolling level.

    ## Description
    A real-time platformer seen from the side. The view scrolls with the red runner through a level
    of ground, steps up and down, pits and brown walkers pacing back and forth. RIGHT and LEFT run;
    FIRE or UP jumps (about three tiles high and three and a half far at a run). Landing on a
    walker from above squashes it; touching one otherwise, or falling into a pit, costs a life and
    sends you back to the last checkpoint you passed. Motion is only visible over consecutive
    frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(6)` minimal set ``NOOP``, ``FIRE``, ``RIGHT``, ``LEFT``, ``RIGHTFIRE``, ``LEFTFIRE``;
    ``full_action_space=True``: the 18 ALE actions (those with ``UP`` jump like ``FIRE``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, a bar of the distance covered) above the view.

    ## Rewards
    The score is the distance covered in percent of the level (``max_return`` 100: the flag).

    ## Starting State
    The level (pits, steps, walkers) is generated from the seed; the runner stands at its start.

    ## Episode End
    Success on reaching the flag; failure when the last of 3 lives is lost.

    ## Arguments
    ``difficulty``: 0 (120 tiles, pits up to 2 wide, slow walkers), 1 (160 tiles, pits up to 3, steps
    up to 2), 2 (200 tiles, more and faster walkers); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE")
    target = 100.0
    field = (FW, FH)
    field_color = SKY
    transient_attrs = ArcadeEnv.transient_attrs + ("_strip",)

    def _setup(self) -> None:
        self.length, self.max_pit, self.max_step, self.foe_speed, self.foe_share = LEVELS[self.difficulty]
        self._strip = None

    def _new_game(self, rng: np.random.Generator) -> None:
        h, foes, checks = [2] * 8, [], [0]
        steps = [-2, -1, 1, 2] if self.max_step > 1 else [-1, 1]
        while len(h) < self.length - 10:
            kind = rng.random()
            if kind < 0.35:
                h += [0] * int(rng.integers(1, self.max_pit + 1))
                checks.append(len(h))
                h += [self._last_top(h)] * 3
            elif kind < 0.6:
                top = int(np.clip(h[-1] + steps[int(rng.integers(len(steps)))], 1, 5))
                checks.append(len(h))
                h += [top] * int(rng.integers(3, 6))
            else:
                n = int(rng.integers(7, 12))
                checks.append(len(h))
                if rng.random() < self.foe_share:
                    lo, hi = (len(h) + 1) * T, (len(h) + n - 1) * T - EW
                    foes.append([float(rng.uniform(lo, hi)), 1.0 if rng.random() < 0.5 else -1.0, lo, hi, BASE - h[-1] * T])
                h += [h[-1]] * n
        self.h = h + [h[-1]] * 10
        self.goal = (len(self.h) - 5) * T
        self.checks, self.foes = checks, foes
        self.foe_starts = [f[:] for f in foes]
        self._respawn(0)
        self.best, self.cam, self.safe = self.p[0], 0.0, 0
        self._strip = None

    @staticmethod
    def _last_top(h: list[int]) -> int:
        return next(v for v in reversed(h) if v)

    def _respawn(self, c: int) -> None:
        x = c * T + 1
        self.p, self.safe = [x, surface(self.h, x, PW), 0.0, 1.0], 90

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        event = advance(self.h, self.p, self.foes, dx, fire or dy < 0, self.foe_speed)
        if event.startswith("stomp"):
            self.foes[int(event[6:])][1] = 0.0
        elif event == "fell" or (event == "hit" and not self.safe):
            self.lose_life("you fell into a pit" if event == "fell" else "a walker got you")
            self._respawn(max(c for c in self.checks if c * T <= self.best))
        if self.safe:  # (never below 0)
            self.safe -= 1
        x = self.p[0]
        if x > self.best:
            self.best = x
            self.score = 100.0 if x >= self.goal else float(int(100 * x / self.goal))
        cam, end = x - FW * 0.4, len(self.h) * T - FW  # (max, then min, without the calls)
        cam = cam if cam > 0.0 else 0.0
        self.cam = end if end < cam else cam

    def _won(self) -> bool:
        return self.p[0] >= self.goal

    # -- draw
    def _paint_strip(self) -> np.ndarray:
        """The whole level at pixel scale on the sky colour (scrolled through each frame)."""
        sx, sy = self.sx, self.sy
        fh = self.obs_size[0] - self.hud
        strip = np.empty((fh, int(len(self.h) * T * sx) + 1, 3), np.uint8)
        strip[...] = SKY
        for c, top in enumerate(self.h):
            if top:
                x0, x1, y0 = int(c * T * sx), int((c + 1) * T * sx), int((BASE - top * T) * sy)
                strip[y0:, x0:x1] = DIRT
                strip[y0:y0 + max(1, int(2 * sy)), x0:x1] = GRASS
        gx = int(self.goal * sx)
        strip[int(20 * sy):int((BASE - self.h[-1] * T) * sy), gx:gx + max(1, int(sx))] = POLE
        strip[int(20 * sy):int(30 * sy), gx + max(1, int(sx)):gx + int(12 * sx)] = FLAG
        return strip

    def _draw_field(self, frame: np.ndarray) -> None:
        if self._strip is None:
            self._strip = self._paint_strip()
        cx, w = int(self.cam * self.sx), frame.shape[1]
        view = self._strip[:, cx:cx + w]
        if view.shape[1] == w:  # the whole field: written straight in, not a dirty box the next frame restores
            frame[self.hud:] = view
        else:
            self.paste(frame, view, 0, 0)
        cam = self.cam
        for f in self.foes:
            if f[1] and cam - EW < f[0] < cam + FW:
                self.sprite(frame, WALKER, f[0] - cam, f[4] - EH, EW, EH, FOE)
        x, y = self.p[0], self.p[1]
        if not self.safe or (self.frames // 4) % 2:
            self.sprite(frame, RUNNER, x - cam, y - PH, PW, PH, YOU)

    def _task_text(self) -> str:
        return ("You are the red runner in a side-scrolling level seen from the side; the view follows you. RIGHT "
                "and LEFT run, FIRE jumps (RIGHTFIRE and LEFTFIRE jump while running), about three tiles high and "
                "three and a half far. Gaps in the ground are pits; brown walkers pace back and forth: land on "
                "one from above to squash it, touching it otherwise costs a life, as does falling into a pit "
                "(you restart at the last checkpoint passed). Reach the yellow flag at the end of the level to "
                "win; the bar at the top shows how far you got. One action lasts a few frames and may be "
                "repeated (sticky actions).")

    def _state_text(self) -> str:
        return f"at {100 * self.p[0] / self.goal:.0f}% of the level, {'on the ground' if self.p[3] else 'in the air'}; " + super()._state_text()

    # -- oracle
    def _rollout(self, plan: list[tuple[int, bool]], lag: int, frames: int) -> tuple[bool, float]:
        """Simulate ``plan`` (one (dx, jump) per step) from now, each step's action starting ``lag``
        frames late (the previous one held, as sticky actions do): (survived, x reached)."""
        p, foes, prev = self.p[:], [f[:] for f in self.foes], (self.held[0], self.held[2] or self.held[1] < 0)
        skip, t = self.frameskip, 0
        for dx, jump in plan:
            for i in range(skip):
                a = prev if i < lag else (dx, jump)
                event = advance(self.h, p, foes, a[0], a[1], self.foe_speed)
                if event.startswith("stomp"):
                    foes[int(event[6:])][1] = 0.0
                elif event:
                    return False, p[0]
                t += 1
                if t >= frames:
                    return True, p[0]
            prev = (dx, jump)
        return True, p[0]

    def oracle_action(self) -> int:
        """Model-predictive control: of a few plans (run, jump now or in 1-4 steps, wait, back off),
        each simulated 40 frames ahead on time and a frame late, keep the safe ones and take the first
        action of the one that gets farthest."""
        if self._terminated:
            return 0
        run, jump, wait, back = (1, False), (1, True), (0, False), (-1, False)
        n = 40 // self.frameskip + 2
        plans = [[run] * n] + [[run] * j + [jump] + [run] * n for j in range(5)]
        plans += [[wait] * k + [run] * n for k in (1, 3)] + [[back] * k + [run] * n for k in (2, 4)]
        best, choice = None, plans[0]
        for plan in plans:
            runs = [self._rollout(plan, lag, 40) for lag in (0, 1)]
            key = (all(ok for ok, _ in runs), min(x for _, x in runs))
            if best is None or key > best:
                best, choice = key, plan
            if plan is plans[0] and key[0] and key[1] > self.p[0] + 30:
                break  # running on is safe and free
        dx, jmp = choice[0]
        name = ("RIGHT" if dx > 0 else "LEFT" if dx < 0 else "") + ("FIRE" if jmp else "")
        return self.action_index(name or "NOOP")


LedgeRunner.__doc__ = LedgeRunner.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="LedgeRunner", entry_point=LedgeRunner, max_episode_steps=1200, max_return=100.0,
             tags=("arcade", "real-time", "control", "platformer")),
)
