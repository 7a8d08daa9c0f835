"""AsteroidField's wrap-around field: its size, the shortest offset across it, the copies of a shape on an edge."""

from __future__ import annotations

FW, FH = 160.0, 150.0


def torus(dx: float, dy: float) -> tuple[float, float]:
    """The shortest offset on the wrap-around field."""
    return (dx + FW / 2) % FW - FW / 2, (dy + FH / 2) % FH - FH / 2


def wrapped(x: float, y: float, rad: float):
    """The places to draw a shape of radius ``rad`` at (x, y): itself and its copies across the edges it straddles."""
    for ox in (0.0, FW, -FW):
        for oy in (0.0, FH, -FH):
            if -rad < x + ox < FW + rad and -rad < y + oy < FH + rad:
                yield x + ox, y + oy
