"""RaycastMaze's raycaster: the static floor and ceiling, and the per-heading wall walks of every column."""

from __future__ import annotations

import numpy as np

WALL, FLOOR, FLOOR_LINE, CEILING, FOG = (176, 178, 196), (168, 150, 122), (112, 98, 80), (70, 76, 96), (28, 28, 34)


def floor_and_ceiling(H: int, W: int, horizon: float, focal: float) -> np.ndarray:
    """The static backdrop: the camera always stands at a cell centre facing along an axis."""
    ys = np.arange(H)[:, None] + 0.5 - horizon
    depth = focal * 0.5 / np.maximum(np.abs(ys), 1e-6)          # floor/ceiling at height -0.5/+0.5
    fog = np.exp(-0.11 * depth)[..., None]
    lateral = ((np.arange(W) + 0.5 - W / 2) / focal)[None, :] * depth
    lines = np.zeros((H, W))
    for coord, foot in ((0.5 + depth, depth ** 2 / (0.5 * focal)), (0.5 + lateral, depth / focal)):
        edge = np.abs(coord - np.round(coord))                         # world distance to a grid line
        foot = np.broadcast_to(foot, edge.shape)
        lines = np.maximum(lines, np.clip((0.5 * (0.04 + foot) - edge) / foot, 0, 1) * np.minimum(1, 0.04 / foot))
    floor = np.asarray(FLOOR) * (1 - lines[..., None]) + np.asarray(FLOOR_LINE) * lines[..., None]
    img = np.where(ys[..., None] > 0, floor, np.asarray(CEILING, float)) * fog + np.asarray(FOG) * (1 - fog)
    return np.clip(img + 0.5, 0, 255).astype(np.uint8)


def rays(forward: tuple[int, int], right: tuple[int, int], W: int, size: int,
         focal: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per (DDA step, column): the cell reached (flat offset into the padded map), the wall
    distance, the wall's colour and its half height on screen, were that cell a wall.

    The camera always stands at a cell centre facing along an axis, so each column's walk
    through the grid is the same from every cell: it is traced once per heading (a loop over
    DDA steps, vectorised over columns) and a frame only looks up where each walk first hits.
    """
    K = 2 * size
    (dr, dc), (rr, rc) = forward, right
    cam = (np.arange(W) + 0.5 - W / 2) / focal
    ray_c, ray_r = dc + rc * cam, dr + rr * cam
    with np.errstate(divide="ignore"):
        delta_c = np.where(ray_c == 0, 1e30, np.abs(1 / ray_c))
        delta_r = np.where(ray_r == 0, 1e30, np.abs(1 / ray_r))
    step_c, step_r = np.where(ray_c < 0, -1, 1), np.where(ray_r < 0, -1, 1)
    side_c, side_r = 0.5 * delta_c, 0.5 * delta_r
    map_c, map_r = np.zeros(W, dtype=np.int64), np.zeros(W, dtype=np.int64)
    offset, dist, side = np.empty((K, W), np.int64), np.empty((K, W)), np.empty((K, W))
    for k in range(K):
        go_c = side_c < side_r
        map_c, map_r = map_c + step_c * go_c, map_r + step_r * ~go_c
        dist[k] = np.where(go_c, side_c, side_r)
        side_c, side_r = side_c + delta_c * go_c, side_r + delta_r * ~go_c
        offset[k], side[k] = map_r * (size + 2 * K) + map_c, ~go_c
    along = np.where(side == 0, 0.5 + dist * ray_r, 0.5 + dist * ray_c)
    edge = np.abs(along - np.round(along))
    ink = np.clip((np.maximum(0.025, 0.8 * dist / focal) - edge) / (dist / focal), 0, 1)
    fog = np.exp(-0.11 * dist)
    shade = (1 - 0.28 * side) * (1 - 0.45 * ink) * fog
    colour = np.rint(np.asarray(WALL)[:, None, None] * shade + np.asarray(FOG)[:, None, None] * (1 - fog))
    return offset, dist, colour.astype(np.uint8), (0.5 * focal / dist).astype(np.float32)
