"""Breakout: keep the ball in play with a paddle and clear every brick."""

from __future__ import annotations

import math
import os

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec, VisionEnv
from gymv_envs.core.canvas import PALETTE
from gymv_envs.domains.games._breakout_physics import (
    BALL_R,
    BRICK_H,
    BRICK_TOP,
    COLS,
    PADDLE_HALF,
    PADDLE_Y,
    UNIT,
    aim_score,
    ball_step,
    crosses_paddle_line,
    fly,
    rebound,
)

# The field is [0, 1] x [0, 1] (y down) below a status band; physics is float maths, drawing is pygame.
ROWS = {0: 1, 1: 2, 2: 3}                     # rows of bricks
SPEED = {0: 0.006, 1: 0.0075, 2: 0.009}       # ball distance per substep
SUBSTEPS, LIVES = 4, 3
PADDLE_H = 0.025                               # the paddle's thickness below its top surface
PADDLE_SPEED = 4                               # in units: 0.01 per substep
P_LO, P_HI = PADDLE_HALF, round(1 / UNIT) - PADDLE_HALF
MOVES = (0, -1, 1)                             # noop, left, right
ROW_COLORS = tuple(PALETTE[c] for c in ("red", "orange", "yellow"))
RGB_MASKS = (0x0000FF, 0x00FF00, 0xFF0000, 0)  # 24-bit surfaces stored R, G, B: surfarray copies are row copies
BG, BAND, WALL, BALL, PADDLE = (18, 20, 32), (40, 42, 58), (120, 120, 135), (250, 250, 250), (90, 170, 255)


class Breakout(MultiTurnEnv):
    """Bounce the ball off your paddle to break every brick.

    ## Description
    A real-time arcade game. The ball flies at constant speed, bouncing off the side and top
    walls and off bricks, which break when hit. The paddle at the bottom sends the ball back;
    where the ball lands on it sets the rebound angle (centre: straight up, ends: 60 degrees
    to that side). Each step advances the game by 4 fixed physics substeps (float maths, no
    wall clock), so episodes are deterministic. The ball's position one step ago is drawn as
    a faint trail.

    ## Action Space
    `Discrete(3)`: ``noop``, ``left``, ``right`` (the paddle moves 0.04 field widths per step).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band with one dot per remaining life, then the
    field: grey side walls, coloured bricks, the white ball and the blue paddle.

    ## Rewards
    ``+1 / number_of_bricks`` per brick broken (``max_return`` 1).

    ## Starting State
    The paddle is centred; the ball is served downwards from mid-field at a position and
    angle (15-45 degrees from vertical) drawn from the seed, as is every later serve.

    ## Episode End
    Success when every brick is broken; failure when the ball falls past the paddle with no
    lives left (3 lives).

    ## Arguments
    ``difficulty``: 0 (1 row of 6 bricks, slow ball), 1 (2 rows, faster), 2 (3 rows, fastest);
    ``obs_size``.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """

    action_names = ("noop", "left", "right")
    transient_attrs = VisionEnv.transient_attrs + ("_surface", "_base_surface", "_base_key")

    def _configure(self) -> None:
        self.rows, self.speed = ROWS[self.difficulty], SPEED[self.difficulty]
        self.num_bricks = self.rows * COLS
        self._surface = self._base_surface = self._base_key = None
        H, W = self.obs_size
        band = max(4, round(H * 0.07))  # status band (lives) above the field
        self._layout = (band, H - band, W)

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        self.bricks = bytearray([1] * self.num_bricks)
        self.paddle = (P_LO + P_HI) // 2
        self.lives, self.t = LIVES, 0
        self._serve(rng)
        self._plan = None

    def _serve(self, rng: np.random.Generator) -> None:
        a = math.radians(rng.uniform(15, 45)) * (1 if rng.random() < 0.5 else -1)
        self.x, self.y = float(rng.uniform(0.25, 0.75)), 0.45
        self.vx, self.vy = self.speed * math.sin(a), self.speed * math.cos(a)
        self.trail = (self.x, self.y)

    # -- rules
    def _apply(self, action: int) -> Outcome:
        move, hits, text = MOVES[action] * PADDLE_SPEED, 0, ""
        self.trail = (self.x, self.y)
        for _ in range(SUBSTEPS):
            self.t += 1
            self.paddle = min(P_HI, max(P_LO, self.paddle + move))
            y0 = self.y
            self.x, self.y, self.vx, self.vy, h = ball_step(self.x, self.y, self.vx, self.vy, self.bricks, self.rows)
            hits += h
            if self.vy > 0 and crosses_paddle_line(y0, self.y) and (v := rebound(self.x, self.paddle, self.speed)):
                (self.vx, self.vy), self.y = v, PADDLE_Y - BALL_R
            if not any(self.bricks):
                return Outcome(reward=hits / self.num_bricks, terminated=True, success=True, feedback="all bricks cleared")
            if self.y - BALL_R > 1.0:
                self.lives -= 1
                text = f"the ball fell; {self.lives} lives left"
                if self.lives == 0:
                    return Outcome(reward=hits / self.num_bricks, terminated=True, feedback=text)
                self._serve(self.np_random)
                break
        return Outcome(reward=hits / self.num_bricks, feedback=text or (f"broke {hits} brick(s)" if hits else ""))

    # -- draw
    def _to_px(self, x: float, y: float) -> tuple[int, int]:
        band, fh, fw = self._layout
        return round(x * fw), band + round(y * fh)

    def _draw(self) -> np.ndarray:
        if self._surface is None:  # pygame's variables are set once, before its first import
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            if self.render_mode != "human":
                os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame

        H, W = self.obs_size
        band, fh, fw = self._layout
        key = (bytes(self.bricks), self.lives)
        if self._base_surface is None or self._base_key != key:
            self._base_surface, self._base_key = self._paint_base(pygame), key
        if self._surface is None:
            self._surface = pygame.Surface((W, H), 0, 24, RGB_MASKS)
        s = self._surface
        s.blit(self._base_surface, (0, 0))
        rad = max(2, round(BALL_R * min(fw, fh)))
        pygame.draw.circle(s, (110, 110, 120), self._to_px(*self.trail), max(1, rad - 1))
        pygame.draw.circle(s, BALL, self._to_px(self.x, self.y), rad)
        x0, y0 = self._to_px((self.paddle - PADDLE_HALF) * UNIT, PADDLE_Y)
        x1, y1 = self._to_px((self.paddle + PADDLE_HALF) * UNIT, PADDLE_Y + PADDLE_H)
        pygame.draw.rect(s, PADDLE, (x0, y0, max(2, x1 - x0), max(2, y1 - y0)))
        view = pygame.surfarray.pixels3d(s)
        frame = view.transpose(1, 0, 2).copy(order="C")
        del view  # unlocks the surface
        return frame

    def _paint_base(self, pygame) -> object:
        """Background, walls, lives and bricks: redrawn only when a brick breaks or a life is lost."""
        H, W = self.obs_size
        band, fh, fw = self._layout
        base = pygame.Surface((W, H), 0, 24, RGB_MASKS)
        base.fill(WALL)
        base.fill(BAND, (0, 0, W, band))
        wall = max(1, W // 128)
        base.fill(BG, (wall, band + wall, W - 2 * wall, fh - wall))
        dot = max(1, band // 3)
        for i in range(self.lives):
            pygame.draw.circle(base, BALL, (band // 2 + i * 3 * dot, band // 2), dot)
        gap = max(1, W // 200)
        for k, alive in enumerate(self.bricks):
            if alive:
                r, c = divmod(k, COLS)
                x0, y0 = self._to_px(c / COLS, BRICK_TOP + r * BRICK_H)
                x1, y1 = self._to_px((c + 1) / COLS, BRICK_TOP + (r + 1) * BRICK_H)
                base.fill(ROW_COLORS[r % len(ROW_COLORS)], (x0 + gap, y0 + gap, max(1, x1 - x0 - 2 * gap), max(1, y1 - y0 - 2 * gap)))
        return base

    def _task_text(self) -> str:
        return ("You play Breakout. A white ball bounces off the grey walls and the coloured bricks at the top; "
                "every brick it hits breaks. Move the blue paddle at the bottom to bounce the ball back up: "
                "hitting it with the paddle's centre sends it straight up, its ends send it off at up to 60 "
                "degrees to that side. The faint grey dot is where the ball was one step ago, showing its "
                "direction. Each step moves the paddle (left, right, or noop to stay) and advances the game a "
                "little. Break every brick to win; the ball falling past the paddle costs one of your lives "
                "(the dots at the top left), and the game ends when none are left.")

    # -- verify
    def _progress(self) -> float:
        return 1.0 - sum(self.bricks) / self.num_bricks

    def _state_text(self) -> str:
        rows = "\n".join("".join("#" if self.bricks[r * COLS + c] else "." for c in range(COLS)) for r in range(self.rows))
        return (f"ball at x={self.x:.2f} y={self.y:.2f} moving {'up' if self.vy < 0 else 'down'} and "
                f"{'left' if self.vx < 0 else 'right'}; paddle centre x={self.paddle * UNIT:.2f}; "
                f"lives {self.lives}; bricks (top row first, # = present):\n{rows}")

    # -- oracle
    def oracle_action(self) -> int:
        """Predict where the ball meets the paddle line, pick the reachable paddle position whose rebound
        breaks a brick soonest (looking one bounce further when none does), and move there."""
        if self._terminated:
            return 0
        b = bytearray(self.bricks)
        n, land = fly(self.x, self.y, self.vx, self.vy, b, self.rows, False)
        if not land:  # the last brick breaks first, or the ball is already past the paddle
            return 0
        key = (self.t + n, land)
        plan = self._plan
        if plan is None or plan[0] != key or plan[1].get(self.t) != self.paddle:
            self._plan = plan = (key, *self._make_plan(n, land[0], b))
        return plan[2].get(self.t, 0)

    def _make_plan(self, n: int, x: float, bricks: bytearray) -> tuple[dict[int, int], dict[int, int]]:
        """Paddle positions and actions per step (keyed by substep clock) to meet the ball ``n`` substeps ahead."""
        m = (n + SUBSTEPS - 1) // SUBSTEPS      # the ball arrives during step m ...
        j = n - (m - 1) * SUBSTEPS              # ... at its j-th substep
        options: dict[int, tuple[int, int]] = {}  # paddle unit at impact -> cheapest (a, b)
        for a in range(-(m - 1), m):           # move |a| steps, wait, then move b in the last step
            p = min(P_HI, max(P_LO, self.paddle + a * SUBSTEPS * PADDLE_SPEED))
            for b in (0, -1, 1):
                q = min(P_HI, max(P_LO, p + b * j * PADDLE_SPEED))
                if rebound(x, q, self.speed) is not None and (q not in options or abs(a) + abs(b) < sum(map(abs, options[q]))):
                    options[q] = (a, b)
        if not options:
            q = int(round(x / UNIT))
            a = int(np.clip(round((q - self.paddle) / (SUBSTEPS * PADDLE_SPEED)), 1 - m, m - 1))
            options[q] = (a, 0)  # out of reach: get as close as possible
        for depth in (0, 1):
            scored = sorted((aim_score(x, q, bricks, self.rows, self.speed, depth), abs(a) + abs(b), q) for q, (a, b) in options.items())
            if scored[0][0] < math.inf:
                break
        a, b = options[scored[0][2]]
        acts = [MOVES.index(int(np.sign(a)))] * abs(a) + [0] * (m - 1 - abs(a)) + [MOVES.index(b)]
        positions, moves, p = {}, {}, self.paddle
        for i, act in enumerate(acts):
            t = self.t + i * SUBSTEPS
            positions[t], moves[t] = p, act
            p = min(P_HI, max(P_LO, p + MOVES[act] * PADDLE_SPEED * SUBSTEPS))
        return positions, moves


SPECS = (
    TaskSpec(name="Breakout", entry_point=Breakout, version=1, max_episode_steps=2000,
             tags=("arcade", "real-time", "control")),
)
