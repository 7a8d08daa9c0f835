"""Rush Hour on the 6x6 lot: the board, random layouts, and breadth-first search over slides.

The red car (vehicle 0, horizontal, 2 cells) moves along row ``ROW``; the exit is at the right
end of that row. A vehicle is ``(horizontal, length, lane)`` and its position the leftmost
column or top row it covers; boards are bit masks (bit ``r * N + c``) and states one int, 3 bits
per vehicle. One move slides one vehicle any number of free cells one way.
"""

from __future__ import annotations

from collections import deque

import numpy as np

N, ROW = 6, 2  # board side; the red car's row, whose right end is the exit

Vehicle = tuple[bool, int, int]  # (horizontal, length, the row or column it moves along)


def vehicle_masks(vehicles: tuple[Vehicle, ...]) -> tuple[tuple[int, ...], ...]:
    """Per vehicle, per position (leftmost column or top row), the bitmask of its cells (bit r*N+c)."""
    out = []
    for horiz, length, lane in vehicles:
        cells = [[(lane, p + k) if horiz else (p + k, lane) for k in range(length)] for p in range(N - length + 1)]
        out.append(tuple(sum(1 << (r * N + c) for r, c in cs) for cs in cells))
    return tuple(out)


def encode(positions: tuple[int, ...]) -> int:
    """A board state as one int, 3 bits per vehicle (vehicle 0, the red car, lowest)."""
    return sum(p << (3 * v) for v, p in enumerate(positions))


def decode(code: int, count: int) -> tuple[int, ...]:
    return tuple(code >> (3 * v) & 7 for v in range(count))


def _move_table(masks: tuple[tuple[int, ...], ...]) -> list[list[tuple[tuple[int, int, int], ...]]]:
    """Per vehicle and position, each way's slides as (cells swept, code change, occupancy change),
    nearest first: a slide is legal when none of its swept cells is occupied."""
    table = []
    for v, ms in enumerate(masks):
        per_pos = []
        for p in range(len(ms)):
            for step in (-1, 1):
                slides, swept, q = [], 0, p + step
                while 0 <= q < len(ms):
                    swept |= ms[q] & ~ms[p]
                    slides.append((swept, (q - p) << (3 * v), ms[p] ^ ms[q]))
                    q += step
                per_pos.append(tuple(slides))
        table.append([tuple(per_pos[k:k + 2]) for k in range(0, len(per_pos), 2)])
    return table


def _slides(code: int, occ: int, table: list) -> list[tuple[int, int]]:
    """(state, occupancy) after each legal move: one vehicle slid any number of free cells one way."""
    out = []
    for v, per_pos in enumerate(table):
        for way in per_pos[code >> (3 * v) & 7]:
            for swept, dcode, docc in way:
                if swept & occ:
                    break
                out.append((code + dcode, occ ^ docc))
    return out


def _solved(code: int) -> bool:
    return code & 7 == N - 2


def add_vehicles(rng: np.random.Generator, vehicles: tuple[Vehicle, ...], positions: tuple[int, ...],
                 others: int) -> tuple[tuple[Vehicle, ...], tuple[int, ...]]:
    """Random cars (2 cells) and trucks (3) added where free until ``others`` vehicles join the red car."""
    vehicles, positions = list(vehicles), list(positions)
    occ = 0
    for v, ms in enumerate(vehicle_masks(tuple(vehicles))):
        occ |= ms[positions[v]]
    for _ in range(300):
        if len(vehicles) > others:
            break
        horiz, length = bool(rng.integers(2)), 2 + int(rng.random() < 0.3)
        lane, p = int(rng.integers(N)), int(rng.integers(N - length + 1))
        if horiz and lane == ROW:  # nothing else moves along the red car's row
            continue
        m = vehicle_masks(((horiz, length, lane),))[0][p]
        if not m & occ:
            vehicles.append((horiz, length, lane))
            positions.append(p)
            occ |= m
    return tuple(vehicles), tuple(positions)


def random_board(rng: np.random.Generator, others: int) -> tuple[tuple[Vehicle, ...], tuple[int, ...]]:
    """The red car in row ``ROW`` and up to ``others`` random vehicles without overlap."""
    return add_vehicles(rng, ((True, 2, ROW),), (int(rng.integers(N - 2)),), others)


def fewest_moves(vehicles: tuple[Vehicle, ...], positions: tuple[int, ...]) -> int | None:
    """Fewest moves that bring the red car to the exit (breadth-first search), None if impossible."""
    masks = vehicle_masks(vehicles)
    table, start = _move_table(masks), encode(positions)
    occ = 0
    for v, p in enumerate(positions):
        occ |= masks[v][p]
    seen, queue = {start: 0}, deque([(start, occ)])
    while queue:
        code, occ = queue.popleft()
        if _solved(code):
            return seen[code]
        for nxt, nocc in _slides(code, occ, table):
            if nxt not in seen:
                seen[nxt] = seen[code] + 1
                queue.append((nxt, nocc))
    return None


def component_distances(vehicles: tuple[Vehicle, ...], positions: tuple[int, ...], cap: int) -> dict[int, int] | None:
    """Fewest moves to solve every state reachable from ``positions`` (unsolvable ones left out).

    Breadth-first search over the board's whole state space (moves are reversible), then a
    breadth-first search back from its solved states. None if the space exceeds ``cap`` states.
    """
    masks = vehicle_masks(vehicles)
    table, start = _move_table(masks), encode(positions)
    occ = 0
    for v, p in enumerate(positions):
        occ |= masks[v][p]
    occs, order, adjacent = {start: occ}, [start], []
    for code in order:
        nxts = _slides(code, occs[code], table)
        adjacent.append([nxt for nxt, _ in nxts])
        for nxt, nocc in nxts:
            if nxt not in occs:
                occs[nxt] = nocc
                order.append(nxt)
        if len(order) > cap:
            return None
    index = {code: i for i, code in enumerate(order)}
    dist = {code: 0 for code in order if _solved(code)}
    queue = deque(dist)
    while queue:
        code = queue.popleft()
        for nxt in adjacent[index[code]]:
            if nxt not in dist:
                dist[nxt] = dist[code] + 1
                queue.append(nxt)
    return dist
