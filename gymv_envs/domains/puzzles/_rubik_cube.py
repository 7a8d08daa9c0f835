"""A Rubik's cube as stickers: turns (``R``, ``U'``, ``F2``), the faces as seen from outside, and turns as
permutations of the 54 facelets."""

from __future__ import annotations

import functools

import numpy as np

# face -> (outward normal, right, down) in x right, y up, z towards the viewer
FACES = {"U": ((0, 1, 0), (1, 0, 0), (0, 0, 1)), "D": ((0, -1, 0), (1, 0, 0), (0, 0, -1)),
         "F": ((0, 0, 1), (1, 0, 0), (0, -1, 0)), "B": ((0, 0, -1), (-1, 0, 0), (0, -1, 0)),
         "R": ((1, 0, 0), (0, 0, -1), (0, -1, 0)), "L": ((-1, 0, 0), (0, 0, 1), (0, -1, 0))}
START = {"U": "W", "D": "Y", "F": "G", "B": "B", "R": "R", "L": "O"}  # face -> its colour letter when solved


def turn(pos: np.ndarray, nrm: np.ndarray, move: str) -> None:
    """Apply a turn such as ``R``, ``U'`` or ``F2`` in place (a clockwise quarter seen from the face)."""
    n = np.array(FACES[move[0]][0])
    times = {"": 1, "'": 3, "2": 2}[move[1:]]
    sel = pos @ n == 1
    for _ in range(times):
        for arr in (pos, nrm):
            v = arr[sel]
            arr[sel] = -np.cross(n, v) + np.outer(v @ n, n)


ORDER = tuple(FACES)
_NORMALS, _RIGHT, _DOWN = (np.array([FACES[f][k] for f in ORDER]) for k in range(3))


def faces(pos: np.ndarray, nrm: np.ndarray, colour: list[str]) -> dict[str, list[str]]:
    """The nine colour letters of every face, row by row as seen from outside."""
    fidx = (nrm @ _NORMALS.T).argmax(axis=1)
    idx = ((pos * _DOWN[fidx]).sum(axis=1) + 1) * 3 + (pos * _RIGHT[fidx]).sum(axis=1) + 1
    out = {f: [""] * 9 for f in ORDER}
    for f, i, col in zip(fidx.tolist(), idx.tolist(), colour):
        out[ORDER[f]][i] = col
    return out


def solved() -> tuple[np.ndarray, np.ndarray, list[str]]:
    pos, nrm, colour = [], [], []
    for f, (n, right, down) in FACES.items():
        for i in (-1, 0, 1):
            for j in (-1, 0, 1):
                pos.append(np.array(n) + i * np.array(down) + j * np.array(right))
                nrm.append(n)
                colour.append(START[f])
    return np.array(pos), np.array(nrm), colour


@functools.cache
def _move_table(move: str) -> tuple[int, ...]:
    """A turn as a permutation of the 54 facelets (face by face in `faces` order, nine each): after it,
    facelet q holds what facelet ``table[q]`` held. Sticker k of `solved` starts on facelet k."""
    pos, nrm, _ = solved()
    turn(pos, nrm, move)
    return tuple(int(k) for f in ORDER for k in faces(pos, nrm, [str(k) for k in range(54)])[f])


def apply_moves(state: list[str], moves) -> list[str]:
    """The facelet colours after ``moves`` (by `_move_table`; the same as simulating the stickers)."""
    for m in moves:
        table = _move_table(m)
        state = [state[k] for k in table]
    return state


def as_faces(state: list[str]) -> dict[str, list[str]]:
    return {f: state[9 * i:9 * i + 9] for i, f in enumerate(ORDER)}


SOLVED = [START[f] for f in ORDER for _ in range(9)]
