"""Breakout's ball: its flight against the walls and bricks, its rebound off the paddle, and where it
meets the paddle line (the oracle's prediction)."""

from __future__ import annotations

import math

# The field is [0, 1] x [0, 1] (y down); physics is float maths.
COLS = 6                                       # bricks per row
BRICK_TOP, BRICK_H = 0.12, 0.05
BALL_R = 0.015
PADDLE_Y = 0.92                                # top surface of the paddle
UNIT = 0.0025                                  # paddle positions are integers of this size: exact maths
PADDLE_HALF = 40                               # in units: width 0.2
MAX_ANGLE = math.radians(60)                   # rebound angle from vertical at the paddle's ends


def _brick_at(x: float, y: float, bricks: bytearray, rows: int) -> int:
    """Index of the live brick nearest the ball whose box overlaps the ball's box, or -1."""
    if y + BALL_R <= BRICK_TOP or y - BALL_R >= BRICK_TOP + rows * BRICK_H:
        return -1
    r0, r1 = max(0, int((y - BALL_R - BRICK_TOP) / BRICK_H)), min(rows - 1, int((y + BALL_R - BRICK_TOP) / BRICK_H))
    c0, c1 = max(0, int((x - BALL_R) * COLS)), min(COLS - 1, int((x + BALL_R) * COLS))
    best, dist = -1, 9.0
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            k = r * COLS + c
            if bricks[k]:
                d = abs((c + 0.5) / COLS - x) + abs(BRICK_TOP + (r + 0.5) * BRICK_H - y)
                if d < dist:
                    best, dist = k, d
    return best


def ball_step(x: float, y: float, vx: float, vy: float, bricks: bytearray, rows: int):
    """One substep of the ball against walls and bricks (axis by axis, no penetration).

    Mutates ``bricks``; returns ``(x, y, vx, vy, bricks_hit)``.
    """
    hits = 0
    nx = x + vx
    if nx < BALL_R:
        nx, vx = 2 * BALL_R - nx, -vx
    elif nx > 1 - BALL_R:
        nx, vx = 2 * (1 - BALL_R) - nx, -vx
    k = _brick_at(nx, y, bricks, rows)
    if k >= 0:
        bricks[k], hits, vx, nx = 0, 1, -vx, x
    ny = y + vy
    if ny < BALL_R:
        ny, vy = 2 * BALL_R - ny, -vy
    k = _brick_at(nx, ny, bricks, rows)
    if k >= 0:
        bricks[k], hits, vy, ny = 0, hits + 1, -vy, y
    return nx, ny, vx, vy, hits


def crosses_paddle_line(y0: float, y1: float) -> bool:
    return y1 + BALL_R >= PADDLE_Y > y0 + BALL_R


def rebound(x: float, p: int, speed: float) -> tuple[float, float] | None:
    """Velocity after the ball at ``x`` meets the paddle centred at unit ``p``, or None for a miss."""
    off = (x - p * UNIT) / (PADDLE_HALF * UNIT)
    if abs(off) > 1 + BALL_R / (PADDLE_HALF * UNIT):
        return None
    a = max(-1.0, min(1.0, off)) * MAX_ANGLE
    return speed * math.sin(a), -speed * math.cos(a)


def fly(x: float, y: float, vx: float, vy: float, bricks: bytearray, rows: int, stop_at_brick: bool):
    """Follow the ball (mutating ``bricks``) to the paddle line: ``(n, (x, vx, vy))`` after n substeps;
    ``(n, None)`` if a brick breaks first (with ``stop_at_brick``) or none are left; ``(n, False)`` if it falls."""
    for n in range(1, 4000):
        y0 = y
        x, y, vx, vy, hits = ball_step(x, y, vx, vy, bricks, rows)
        if hits and (stop_at_brick or not any(bricks)):
            return n, None
        if vy > 0 and crosses_paddle_line(y0, y):
            return n, (x, vx, vy)
        if y - BALL_R > 1.0:
            break
    return n, False


def aim_score(x: float, p: int, bricks: bytearray, rows: int, speed: float, depth: int) -> float:
    """Substeps until a brick breaks after the ball at ``x`` meets paddle unit ``p`` (inf: none), looking
    ``depth`` more paddle bounces ahead (those with any paddle position, on a grid of offsets)."""
    v = rebound(x, p, speed)
    if v is None:
        return math.inf
    b = bytearray(bricks)
    n, land = fly(x, PADDLE_Y - BALL_R, v[0], v[1], b, rows, True)
    if land is None:
        return n
    if not land or depth == 0:
        return math.inf
    c = round(land[0] / UNIT)
    return n + min(aim_score(land[0], c + k, b, rows, speed, depth - 1) for k in range(-PADDLE_HALF, PADDLE_HALF + 1, 8))
