"""Cave flyer: hold to rise, let go to fall; fly a helicopter through a winding scrolling cave."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, ArcadeEnv

FW, FH, COLW = 160.0, 100.0, 2.0                 # view, the width of one cave column (units)
HX, HW, HH = 30.0, 10.0, 6.0                     # the helicopter's left edge and size
G, LIFT, VMAX = 0.12, 0.26, 2.2                  # gravity, upward push while held, top vertical speed
# per difficulty: cave length (units), scroll speed, gap at the start and at the end, slope change, top slope
LEVELS = {0: (1500.0, 1.0, 50.0, 40.0, 0.12, 0.6), 1: (2000.0, 1.25, 44.0, 34.0, 0.16, 0.8),
          2: (2600.0, 1.5, 40.0, 30.0, 0.2, 1.0)}
HELI = ("XXXXXXXXXX", "....XX....", ".XXXXXXX..", "XXXXXXXXXX", ".XXXXXXX..", "..X...X...")
ROCK, AIR, YOU, GOAL = (95, 70, 50), (20, 24, 40), (250, 210, 60), (90, 230, 120)


def cave(rng: np.random.Generator, length: float, gap0: float, gap1: float, turn: float, slope: float) -> np.ndarray:
    """Per column of the cave (and a screen beyond its end): the (top, bottom) of the open gap."""
    n = int((length + FW) / COLW) + 2
    out, c, s = np.empty((n, 2)), float(rng.uniform(FH / 2 - 12, FH / 2 + 12)), 0.0
    turns = rng.uniform(-turn, turn, size=n).tolist()
    for i in range(n):
        gap = gap0 + (gap1 - gap0) * min(1.0, i * COLW / length)
        if i * COLW > HX + HW + 16:  # a straight start
            s = min(slope, max(-slope, s + turns[i]))
            c += s
            lo, hi = gap / 2 + 4, FH - gap / 2 - 4
            if not lo <= c <= hi:
                c, s = min(hi, max(lo, c)), -s * 0.5
        out[i] = (c - gap / 2, c + gap / 2)
    return out


def fly(y: float, vy: float, thrust: bool) -> tuple[float, float]:
    """One frame of the helicopter's height (top edge) and vertical speed."""
    vy += G - LIFT if thrust else G
    vy = vy if vy < VMAX else VMAX  # (min, then max, without the calls)
    vy = vy if vy > -VMAX else -VMAX
    return y + vy, vy


class CaveFlyer(ArcadeEnv):
    """Fly a helicopter through a winding cave to its end.

    ## Description
    A real-time side-view flying game. The cave scrolls from right to left past your helicopter at a
    steady speed; holding FIRE pushes the helicopter up, letting go lets it fall (it keeps its
    momentum). Touching the rock above or below costs a life; you then go on from the middle of the
    gap, blinking and safe for a moment. The green line is the cave's end. Motion is only visible over
    consecutive frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(2)` minimal set ``NOOP`` (fall), ``FIRE`` (rise); ``full_action_space=True``: the 18 ALE
    actions (those with ``FIRE`` rise, the rest fall).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, score bar: how far you are) above the cave.

    ## Rewards
    +1 per hundredth of the cave flown (``max_return`` 100).

    ## Starting State
    The helicopter in the middle of a short straight stretch; the cave's shape (and so the starting
    height) comes from the seed.

    ## Episode End
    Success at the cave's end; failure when the last of 3 lives is lost.

    ## Arguments
    ``difficulty``: 0 (a wide, gently winding cave, slow), 1, 2 (longer, narrower, more winding,
    faster); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "FIRE")
    target = 100.0
    field = (FW, FH)
    field_color = AIR
    transient_attrs = ArcadeEnv.transient_attrs + ("_strip",)

    def _setup(self) -> None:
        self.length, self.scroll, self.gap0, self.gap1, self.turn, self.slope = LEVELS[self.difficulty]

    def _new_game(self, rng: np.random.Generator) -> None:
        self.walls = cave(rng, self.length, self.gap0, self.gap1, self.turn, self.slope)
        self.tops, self.bottoms = self.walls[:, 0].tolist(), self.walls[:, 1].tolist()
        self.x, self.y, self.vy, self.safe = 0.0, float(self.walls[0].mean()) - HH / 2, 0.0, 0
        self._strip, self._spans = None, {}

    def _won(self) -> bool:
        return self.x >= self.length

    def _span(self, x: float) -> tuple[float, float]:
        """The narrowest gap (lowest top, highest bottom) over the columns the helicopter covers at ``x``."""
        i0, i1 = int((x + HX) // COLW), int((x + HX + HW) // COLW) + 1
        span = self._spans.get((i0, i1))  # (per level: a few hundred spans, each asked for many times)
        if span is None:
            span = self._spans[i0, i1] = (max(self.tops[i0:i1]), min(self.bottoms[i0:i1]))
        return span

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        x = self.x = self.x + self.scroll
        y, self.vy = fly(self.y, self.vy, fire)
        self.y = y
        done = int(100 * x / self.length)
        self.score = float(done if done < 100 else 100)
        top, bottom = self._span(x)
        if self.safe:
            self.safe -= 1
            y = y if y > top else top  # (max, then min, without the calls)
            self.y = bottom - HH if bottom - HH < y else y
            return
        if y < top or y + HH > bottom:
            self.y, self.vy, self.safe = (top + bottom - HH) / 2, 0.0, 40
            self.lose_life("you hit the rock")

    # -- draw: the cave is drawn in screen-wide chunks as the view reaches them; each frame shows a window
    def _chunk(self, k: int) -> np.ndarray:
        """Pixel columns [k*W, (k+1)*W) of the whole cave's picture (cached, the two in view kept)."""
        chunks = self._strip if self._strip is not None else {}
        img = chunks.get(k)
        if img is None:
            fh, w = self.obs_size[0] - self.hud, self.obs_size[1]
            px = np.arange(k * w, (k + 1) * w)
            cols = (px / self.sx / COLW).astype(int).clip(0, len(self.walls) - 1)
            ys = (np.arange(fh)[:, None] + 0.5) / self.sy
            rock = (ys < self.walls[cols, 0][None, :]) | (ys > self.walls[cols, 1][None, :])
            img = np.array((AIR, ROCK), np.uint8).take(rock.view(np.uint8), axis=0)  # a lookup: 4x a masked fill
            end = int((self.length + HX + HW) * self.sx) - k * w
            line = slice(max(0, end), max(0, end + max(1, int(self.sx))))
            img[:, line][~rock[:, line]] = GOAL
            chunks = {j: c for j, c in chunks.items() if j >= k - 1}
            chunks[k] = img
            self._strip = chunks
        return img

    def _draw_field(self, frame: np.ndarray) -> None:
        w, hud = frame.shape[1], self.hud
        x0 = int(self.x * self.sx)
        k, off = divmod(x0, w)
        # the two chunks cover the whole field every frame: written straight in, not as dirty boxes that
        # the next frame would first restore from the background
        frame[hud:, :w - off] = self._chunk(k)[:, off:]
        if off:
            frame[hud:, w - off:] = self._chunk(k + 1)[:, :off]
        if not self.safe or (self.frames // 4) % 2:
            self.sprite(frame, HELI, HX, self.y, HW, HH, YOU)

    def _task_text(self) -> str:
        return ("You fly the yellow helicopter through a cave that scrolls from right to left. Hold FIRE to push "
                "the helicopter up; NOOP lets it fall (it keeps its momentum). Touching the brown rock above or "
                "below costs one of your 3 lives (the red marks at the top left; you then blink, safe, for a "
                "moment). Reach the green line at the cave's end to win; the bar at the top shows how far you "
                "are. One action lasts a few frames and may be repeated by the game (sticky actions).")

    def _state_text(self) -> str:
        top, bottom = self._span(self.x)
        return (f"at {100 * self.x / self.length:.0f}% of the cave; height {self.y:.1f} (gap {top:.0f}-{bottom:.0f}), "
                f"vertical speed {self.vy:+.2f}; " + super()._state_text())

    # -- oracle
    def _steer(self, x: float, y: float, vy: float) -> bool:
        """The base controller: thrust when the height a few frames on is below the middle of the gap ahead."""
        top, bottom = self._span(x + 12 * self.scroll)
        return y + HH / 2 + 8 * vy > (top + bottom) / 2

    def _rollout(self, first: bool, hold: int, lag: int, frames: int) -> float:
        """The smallest clearance to the rock over ``frames`` frames: ``first`` for ``hold`` steps (the previous
        action held for ``lag`` frames at the start), then the base controller each step."""
        x, y, vy, a, prev, clear = self.x, self.y, self.vy, first, self.held[2], 1e9
        for t in range(frames):
            if t and t % self.frameskip == 0:
                prev, a = a, (first if t < hold * self.frameskip else self._steer(x, y, vy))
            x += self.scroll
            y, vy = fly(y, vy, prev if t < lag else a)
            if x >= self.length:
                break
            top, bottom = self._span(x)
            clear = min(clear, y - top, bottom - y - HH)
        return clear

    def oracle_action(self) -> int:
        """Of rising and falling for one to three steps, the plan whose rollout (the base controller after it,
        on time and a frame or two late) keeps the most clearance to the rock; its first action."""
        if self._terminated:
            return 0
        best, fire = -1e9, False
        for hold in (1, 2, 3):
            for first in (False, True):
                score = min(self._rollout(first, hold, lag, 48) for lag in (0, 1, 2))
                if score > best + 1e-9:
                    best, fire = score, first
        return self.action_index("FIRE" if fire else "NOOP")


CaveFlyer.__doc__ = CaveFlyer.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="CaveFlyer", entry_point=CaveFlyer, max_episode_steps=1500, max_return=100.0,
             tags=("arcade", "real-time", "control", "flying")),
)
