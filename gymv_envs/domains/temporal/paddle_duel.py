"""Paddle duel: a table-tennis match against a built-in opponent, first to five points."""

from __future__ import annotations

import math

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, ArcadeEnv

FW, FH = 160.0, 150.0
WALL = 4.0                                         # top and bottom walls
PX, AX, PAD_W = 150.0, 7.0, 3.0                    # your paddle's x, the opponent's, paddle width
BALL = 2.5                                         # half size of the ball
POINTS = 5
# per difficulty: paddle half height, your speed, ball speed (start, max), opponent speed, reaction line
LEVELS = {0: (13.0, 3.0, 1.6, 2.4, 1.0, 70.0), 1: (12.0, 3.0, 1.8, 2.8, 1.3, 95.0), 2: (11.0, 3.0, 2.0, 3.2, 1.5, 115.0)}
MAX_ANGLE = math.radians(55)
NET = (70, 70, 90)
# the colours drawn every frame, as uint8 arrays (numpy fills a box from one without converting a tuple)
YOU, THEM, BALL_C = (np.array(c, np.uint8) for c in ((110, 200, 255), (255, 150, 90), (250, 250, 250)))


def reflect_y(y: float, lo: float, hi: float) -> float:
    """Fold a straight-line height into [lo, hi] as the walls bounce it."""
    span = hi - lo
    k = (y - lo) % (2 * span)
    return lo + (k if k <= span else 2 * span - k)


class PaddleDuel(ArcadeEnv):
    """Win a table-tennis match against a built-in opponent.

    ## Description
    A real-time arcade game seen from above. You move the blue paddle on the right up and down;
    the orange paddle on the left is the opponent, played by the game: it follows the ball once the
    ball comes toward it past a reaction line, at a limited speed. The ball bounces off the top and
    bottom walls; off a paddle it leaves at an angle set by where it hit (centre: straight, ends:
    55 degrees), a little faster each time. A ball that gets past a paddle is a point for the other
    side, and the next serve goes from the centre toward the side that lost the point. Motion is
    only visible over consecutive frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(3)` minimal set ``NOOP``, ``UP``, ``DOWN``; ``full_action_space=True``: the 18 ALE
    actions (those with ``UP`` or ``DOWN`` alone act as such, the rest as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (score bar: your points) above the table.

    ## Rewards
    +1 for each point you win, -1 for each point the opponent wins (ALE's Pong convention).
    ``max_return`` 5: a match won 5-0.

    ## Starting State
    Paddles centred; the first serve's direction and angle are drawn from the seed, as is every
    later serve and the opponent's aiming error.

    ## Episode End
    Success when you reach 5 points; failure when the opponent does.

    ## Arguments
    ``difficulty``: 0 (slow ball, slow opponent that reacts late), 1, 2 (faster ball and opponent,
    earlier reaction, shorter paddles); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "UP", "DOWN")
    start_lives = 0
    target = float(POINTS)
    field = (FW, FH)
    field_color = (16, 60, 40)
    transient_attrs = ArcadeEnv.transient_attrs + ("_shown",)

    def _setup(self) -> None:
        self.half, self.pspeed, self.v0, self.vmax, self.aspeed, self.react = LEVELS[self.difficulty]
        self._shown = None  # (frame, ball box, your paddle's box, the opponent's) as last drawn

    def _new_game(self, rng: np.random.Generator) -> None:
        self.you = self.them = FH / 2
        self.points = [0, 0]
        self.rally, self._plan = 0, None
        self._serve(rng, toward_you=bool(rng.random() < 0.5))

    def _serve(self, rng: np.random.Generator, toward_you: bool) -> None:
        a = math.radians(rng.uniform(-35, 35))
        self.bx, self.by = FW / 2, float(rng.uniform(40, FH - 40))
        self.speed = self.v0
        self.vx, self.vy = self.speed * math.cos(a) * (1 if toward_you else -1), self.speed * math.sin(a)
        self.aim_error = float(rng.uniform(-0.9, 0.9)) * self.half
        self.pause = 20  # frames before the ball moves
        self.rally += 1

    def _won(self) -> bool:
        return self.points[0] >= POINTS

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        lo, hi = WALL + self.half, FH - WALL - self.half
        self.you = min(hi, max(lo, self.you + dy * self.pspeed))
        if self.vx < 0 and self.bx < self.react:   # the opponent tracks the ball (with its aiming error)
            goal = self.by + self.aim_error
        else:
            goal = FH / 2
        aspeed = self.aspeed
        self.them = min(hi, max(lo, self.them + max(-aspeed, min(aspeed, goal - self.them))))
        if self.pause:
            self.pause -= 1
            return
        x0, vx = self.bx, self.vx
        self.bx = bx = x0 + vx
        self.by += self.vy
        if not WALL + BALL <= self.by <= FH - WALL - BALL:
            self.by = reflect_y(self.by, WALL + BALL, FH - WALL - BALL)
            self.vy = -self.vy
        if vx > 0:
            if x0 + BALL <= PX - PAD_W / 2 < bx + BALL:
                self._hit(self.you, -1)
        elif vx < 0 and x0 - BALL >= AX + PAD_W / 2 > bx - BALL:
            self._hit(self.them, 1)
            self.aim_error = float(self.np_random.uniform(-0.9, 0.9)) * self.half
        if not -BALL <= self.bx <= FW + BALL:
            side = 0 if self.bx < 0 else 1
            self.points[side] += 1
            self.score += 1 if side == 0 else -1
            self.events.append(f"{'you' if side == 0 else 'the opponent'} won the point ({self.points[0]}-{self.points[1]})")
            if self.points[1] >= POINTS:
                self.game_over = True
            self._serve(self.np_random, toward_you=side == 0)

    def _hit(self, paddle: float, sign: int) -> None:
        off = (self.by - paddle) / self.half
        if abs(off) > 1 + BALL / self.half:
            return
        a = max(-1.0, min(1.0, off)) * MAX_ANGLE
        self.speed = min(self.vmax, self.speed * 1.06)
        self.vx, self.vy = sign * self.speed * math.cos(a), self.speed * math.sin(a)
        self.bx = (PX - PAD_W / 2 - BALL) if sign < 0 else (AX + PAD_W / 2 + BALL)
        self.rally += 1

    # -- draw
    def _paint_background(self, frame: np.ndarray) -> None:
        self.rect(frame, 0, 0, FW, WALL, (200, 200, 200))
        self.rect(frame, 0, FH - WALL, FW, WALL, (200, 200, 200))
        for y in range(int(WALL) + 2, int(FH - WALL), 10):
            self.rect(frame, FW / 2 - 0.6, y, 1.2, 5, NET)

    def _paddle_box(self, x: float, y: float) -> tuple[int, int, int, int]:
        """The frame box (rows, columns) ``rect`` fills for a paddle centred at (x, y); a paddle stays
        between the walls, so the box never needs clipping."""
        x, y = x - PAD_W / 2, y - self.half
        x0, y0 = int(x * self.sx), int(y * self.sy)
        x1, y1 = max(x0 + 1, int((x + PAD_W) * self.sx)), max(y0 + 1, int((y + 2 * self.half) * self.sy))
        return self.hud + y0, self.hud + y1, x0, x1

    def _draw_field(self, frame: np.ndarray) -> None:
        # The paddles stay on the frame from one frame to the next: one is drawn again only when it moved
        # or the ball's last box (which the next frame restores from the background) cut into it. The
        # ball is a dirty box, drawn every frame, last.
        shown = self._shown if self._shown is not None and self._shown[0] is frame else (frame, None, None, None)
        ball, boxes = shown[1], []
        for (x, y, color), was in zip(((PX, self.you, YOU), (AX, self.them, THEM)), shown[2:]):
            box = self._paddle_box(x, y)
            if box != was or (ball is not None and ball[0] < was[1] and was[0] < ball[1]
                              and ball[2] < was[3] and was[2] < ball[3]):
                if was is not None:
                    frame[was[0]:was[1], was[2]:was[3]] = self._bg[was[0]:was[1], was[2]:was[3]]
                frame[box[0]:box[1], box[2]:box[3]] = color
            boxes.append(box)
        x, y = self.bx - BALL, self.by - BALL
        x0, y0 = int(x * self.sx), int(y * self.sy)
        ball = self._box(frame, x0, y0, max(x0 + 1, int((x + 2 * BALL) * self.sx)), max(y0 + 1, int((y + 2 * BALL) * self.sy)))
        if ball is not None:
            frame[ball[0]:ball[1], ball[2]:ball[3]] = BALL_C
        self._shown = (frame, ball, *boxes)

    def _task_text(self) -> str:
        return ("You play a table-tennis match seen from above: you are the blue paddle on the right, the "
                "game plays the orange paddle on the left. The white ball bounces off the top and bottom "
                "walls; where it meets a paddle sets its angle (the paddle's centre sends it straight, its "
                "ends at up to 55 degrees), and each hit makes it a little faster. A ball that gets past a "
                "paddle is a point for the other side. Move your paddle UP or DOWN (NOOP stays) to return "
                "the ball. First to 5 points wins; the bar at the top shows your lead. One action lasts a "
                "few frames and may be repeated by the game (sticky actions).")

    def _state_text(self) -> str:
        return (f"points you {self.points[0]} - opponent {self.points[1]}; ball x={self.bx:.0f} y={self.by:.0f} "
                f"moving {'right' if self.vx > 0 else 'left'}; your paddle y={self.you:.0f}, opponent y={self.them:.0f}")

    # -- oracle
    def _arrival(self, x: float, y: float, vx: float, vy: float, x_line: float) -> tuple[float, float]:
        """(frames, height) at which a ball at (x, y) moving (vx, vy) reaches ``x_line``."""
        t = (x_line - x) / vx
        return t, reflect_y(y + vy * t, WALL + BALL, FH - WALL - BALL)

    def oracle_action(self) -> int:
        """Meet the ball where it will cross your paddle's line, with the offset (one of nine, chosen once
        per rally) that sends it farthest beyond where the opponent can get to; else wait mid-table."""
        goal = FH / 2
        if self.vx > 0 and not self._terminated:
            t, y = self._arrival(self.bx, self.by, self.vx, self.vy, PX - PAD_W / 2 - BALL)
            if self._plan is None or self._plan[0] != self.rally:
                self._plan = (self.rally, self._aim(y, t + self.pause))
            goal = y - self._plan[1] * self.half
        d = goal - self.you
        if abs(d) <= self.pspeed * self.frameskip / 2:
            return self.action_index("NOOP")
        return self.action_index("DOWN" if d > 0 else "UP")

    def _aim(self, y: float, t: float) -> float:
        """The paddle offset (in half heights) to meet a ball arriving at height ``y`` in ``t`` frames."""
        best, aim = -1e9, 0.0
        speed = min(self.vmax, self.speed * 1.06)
        for k in range(-4, 5):
            off = k / 4 * 0.35
            if k and abs(y - off * self.half - self.you) > self.pspeed * (t - 2 * self.frameskip):
                continue  # not reachable with a margin
            a = off * MAX_ANGLE
            vx, vy = -speed * math.cos(a), speed * math.sin(a)
            _, y2 = self._arrival(PX - PAD_W / 2 - BALL, y, vx, vy, AX + PAD_W / 2 + BALL)
            margin = abs(y2 - FH / 2) - self.aspeed * (self.react - AX) / -vx  # beyond the opponent's reach
            if margin > best:
                best, aim = margin, off
        return aim


PaddleDuel.__doc__ = PaddleDuel.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="PaddleDuel", entry_point=PaddleDuel, max_episode_steps=4000, max_return=float(POINTS),
             tags=("arcade", "real-time", "control", "two-sided")),
)
