"""LedgeRunner's physics: the field's sizes and one frame of the runner and the walkers over a ground profile."""

from __future__ import annotations

FW, FH, T = 128.0, 96.0, 8.0                     # view size, tile size (units)
BASE = 92.0                                        # the bottom of the ground
PW, PH, RUN, G, JUMP, VMAX = 6.0, 10.0, 1.1, 0.32, 4.0, 4.5
EW, EH = 7.0, 7.0


def surface(h: list[int], x: float, w: float) -> float:
    """The highest ground surface (smallest y) under the span [x, x+w); ``inf`` over a pit."""
    c0, c1, last = int(x // T), int((x + w - 1e-6) // T), len(h) - 1
    c0, c1 = (c0 if c0 > 0 else 0), (c1 if c1 < last else last)  # (max and min, without the calls)
    top = (h[c0] if c0 == c1 else max(h[c0:c1 + 1])) if c0 <= c1 else 0
    return BASE - top * T if top > 0 else float("inf")


def advance(h: list[int], p: list[float], foes: list[list[float]], dx: int, jump: bool, foe_speed: float) -> str:
    """One frame of the runner ``p = [x, y (feet), vy, on_ground]`` and the walkers ``[x, dir, lo, hi, y]``
    (mutated); returns "", "stomp:<k>", "hit" or "fell"."""
    x, y, vy, ground = p
    nx, end = x + dx * RUN, len(h) * T - PW  # (max, then min, without the calls)
    nx = nx if nx > 0.0 else 0.0
    nx = end if end < nx else nx
    top = surface(h, nx, PW)
    if top < y - 0.01:   # a wall: stay
        nx = x
        top = surface(h, x, PW)
    x = nx
    if ground and jump:
        vy, ground = -JUMP, 0.0
    if ground and top > y + 0.01:
        ground = 0.0
    if not ground:
        vy += G
        vy = VMAX if vy > VMAX else vy
        ny = y + vy
        if vy > 0 and y <= top + 0.01 and ny >= top:
            ny, vy, ground = top, 0.0, 1.0
        y = ny
    p[:] = [x, y, vy, ground]
    touched = -1  # every walker moves, then the first one touching the runner counts
    for k, f in enumerate(foes):
        if f[1]:
            f[0] += f[1] * foe_speed
            if not f[2] <= f[0] <= f[3]:
                f[1], f[0] = -f[1], min(f[3], max(f[2], f[0]))
            if touched < 0 and f[0] - PW < x < f[0] + EW and y > f[4] - EH and y - PH < f[4]:
                touched = k
    if touched >= 0:
        if vy > 0 and y < foes[touched][4] - EH + 4.5:
            p[2] = -2.8
            return f"stomp:{touched}"
        return "hit"
    return "fell" if y > FH + PH else ""
