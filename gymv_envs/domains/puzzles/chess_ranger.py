"""Chess Ranger: capture-only chess solitaire; give the first move (difficulty 0) or a whole capture
sequence that leaves one piece."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.board import Board
from gymv_envs.core.canvas import INK, WHITE, draw_shape, draw_text
from gymv_envs.domains.puzzles._chess_ranger import (
    after,
    backward_level,
    captures,
    play,
    replay,
    solvable,
)

LEVELS = {0: (4, 4), 1: (5, 5), 2: (6, 7)}  # difficulty -> (board side, pieces)
KINDS = "PNBRQK"  # python-chess piece types 1..6
LIGHT, DARK = (238, 220, 180), (180, 135, 95)
_SQUARE = re.compile(r"([a-h])\s*([1-8])")
_PIECE = re.compile(r"[kqrbnp](?=\s*[a-h]\s*[1-8])")
_FILLER = re.compile(r"[\s,;.:>\-→x×*+#()|]+|\b(?:then|and|takes|captures)\b|\d+[.)]")


def square_name(sq: int) -> str:
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


class ChessRanger(SingleTurnEnv):
    """Solve a capture-only chess solitaire: every move captures, and one piece must remain.

    ## Description
    Chess pieces of one army stand on the lower-left ``n x n`` corner of a chess board (4x4 with
    4 pieces at difficulty 0, 5x5 with 5 at 1, 6x6 with 7 at 2). Every move must be a capture:
    a piece moves as in chess (sliders cannot jump, pawns capture one square diagonally upward)
    onto another piece, which is removed. There is no check; the king is an ordinary piece.
    The goal is to end with a single piece. Difficulty 0 asks for a first move from which the
    puzzle can still be solved (every such move is accepted; a search decides); 1 and 2 ask for
    a whole capture sequence, which the verifier replays (any sequence that works is accepted).

    ## Action Space
    ``"open"``: `Text`, a move such as ``Nb1xc3`` (or ``b1c3``), or at difficulty 1 and 2 a list
    of moves in order (``Nb1xc3, Qd1xd4, ...``). ``"mcq"``: `Discrete(k)` over moves or sequences.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the corner of the board, files a.. left to right and ranks 1..
    bottom to top, pieces as white discs with letters (K, Q, R, B, N, P).

    ## Rewards
    1.0 for a move that keeps the puzzle solvable (0) or a sequence that solves it (1, 2), else 0.0.

    ## Starting State
    Built backwards from one piece, so that a solution exists: each step moves a piece back to a
    square it could have captured from and adds a new piece of the army where it captured.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``. Needs the ``chess`` extra.

    ## Version History
    - v0: initial version.
    """

    extras = ("chess",)

    def _configure(self) -> None:
        self.n, self.pieces = LEVELS[self.difficulty]
        self.whole = self.difficulty > 0
        self.answer_hint = ("the whole capture sequence in order, such as `Nb1xc3, Qd1xd4` (piece letter, from "
                            "square, x, to square)" if self.whole else
                            "one capture such as `Nb1xc3` (piece letter, from square, x, to square)")

    def _generate(self, rng: np.random.Generator) -> None:
        while True:
            self.position, self.key = backward_level(rng, self.n, self.pieces)
            if self.whole:  # a sequence is judged by replaying it
                return
            moves = captures(self.position)
            self.good = {m for m in moves if solvable(after(self.position, *m))}
            if len(moves) > len(self.good):  # some capture leads into a dead end
                return

    def _draw(self) -> np.ndarray:
        H, W = self.obs_size
        n, g = self.n, Board(H, W, self.n, self.n)
        img = _empty_board(H, W, n).copy()
        pad = max(1, int(g.cell * 0.06))
        for sq, kind in self.position:
            r, c = n - 1 - sq // 8, sq % 8
            x0, y0, x1, y1 = (int(v) for v in g.box(r, c))
            x0, y0, x1, y1 = x0 + pad, y0 + pad, min(x1 - pad, W), min(y1 - pad, H)
            if x1 > x0 and y1 > y0:
                img[y0:y1, x0:x1] = _piece(y1 - y0, x1 - x0, kind, DARK if (r + c + n - 1) % 2 == 0 else LIGHT)
        return img

    def _task_text(self) -> str:
        last = "abcdefgh"[self.n - 1]
        ask = ("Give the whole sequence of captures, in order, that leaves a single piece." if self.whole else
               "Give a first capture after which the puzzle can still be solved.")
        return (f"The image shows a Chess Ranger puzzle on a {self.n}x{self.n} board (files a-{last} left to right, "
                f"ranks 1-{self.n} bottom to top); the letter on each disc names the piece (K king, Q queen, R rook, "
                "B bishop, N knight, P pawn). Every move must be a capture: a piece moves as in chess (rooks, bishops "
                "and queens cannot jump over pieces; pawns capture one square diagonally upward) onto another "
                "piece, which is removed. There is no check: the king is an ordinary piece that can be captured. "
                f"The goal is to end with a single piece. {ask}")

    def _state_text(self) -> str:
        return " ".join(KINDS[k - 1] + square_name(sq) for sq, k in self.position)

    def _parse_answer(self, text: str):
        t = text.strip().lower()
        if not t or len(t) > 600 or _FILLER.sub("", _SQUARE.sub("", _PIECE.sub("", t))):
            return None
        sqs = [(ord(f) - 97) + 8 * (int(r) - 1) for f, r in _SQUARE.findall(t)]
        want = 2 * (self.pieces - 1) if self.whole else 2
        if len(sqs) != want:
            return None
        return tuple(zip(sqs[::2], sqs[1::2]))

    def _check(self, answer) -> bool:
        return replay(self.position, answer) if self.whole else answer[0] in self.good

    def _letters(self, answer) -> list[str]:
        """The letter of the piece each move takes from its square, following the moves as written
        (legal or not); '' where no piece stands there."""
        where, out = dict(self.position), []
        for a, b in answer:
            kind = where.pop(a, None)
            out.append("" if kind is None else KINDS[kind - 1])
            if kind is not None:
                where[b] = kind
        return out

    def _format(self, answer) -> str:
        return ", ".join(f"{k}{square_name(a)}x{square_name(b)}" for k, (a, b) in zip(self._letters(answer), answer))

    def _solve(self):
        return tuple(self.key) if self.whole else (self.key[0],)

    def _near_misses(self, rng: np.random.Generator) -> list:
        pos, key = self.position, list(self.key)
        sqs = [sq for sq, _ in pos]
        if not self.whole:
            bad = [m for m in captures(pos) if m not in self.good]
            pairs = [(a, b) for a in sqs for b in sqs if a != b and (a, b) not in captures(pos)]
            return [(m,) for m in bad + [pairs[int(i)] for i in rng.permutation(len(pairs))]]
        out = []
        for i in rng.permutation(len(key)).tolist():
            if i + 1 < len(key):
                out.append(tuple(key[:i] + [key[i + 1], key[i]] + key[i + 2:]))  # two captures swapped
            before = pos
            for m in key[:i]:
                before = play(before, m)
            for m in captures(before):  # another capture at step i, then the rest as it was
                if m != key[i]:
                    out.append(tuple(key[:i] + [m] + key[i + 1:]))
            a, b = key[i]
            out.append(tuple(key[:i] + [(b, a)] + key[i + 1:]))  # the capture the other way round
        for i in range(len(key)):  # last: any two squares of the position at step i, then the rest as it was
            before = pos
            for m in key[:i]:
                before = play(before, m)
            sqs = [sq for sq, _ in before]
            out += [tuple(key[:i] + [(a, b)] + key[i + 1:]) for a in sqs for b in sqs if a != b and (a, b) != key[i]]
        return [m for m in out if all(self._letters(m))]  # each move names a piece that is there


@functools.lru_cache(maxsize=512)
def _piece(h: int, w: int, kind: int, bg: tuple[int, int, int]) -> np.ndarray:
    """A piece (a white disc with its letter) over a square of colour ``bg``, ``h x w`` (read-only)."""
    tile = np.empty((h, w, 3), np.uint8)
    tile[...] = bg
    size = max(3, int(min(h, w) * 0.9))
    cx, cy = w / 2, h / 2
    draw_shape(tile, "circle", cx, cy, size, INK)
    draw_shape(tile, "circle", cx, cy, max(2, size - max(2, size // 8)), WHITE)
    if min(h, w) >= 7:
        draw_text(tile, KINDS[kind - 1], (cx, cy), max(5, int(min(h, w) * 0.55)), INK, bold=True)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=16)
def _empty_board(H: int, W: int, n: int) -> np.ndarray:
    img = Board(H, W, n, n).paint({(r, c): DARK if (n - 1 - r + c) % 2 == 0 else LIGHT for r in range(n) for c in range(n)},
                                  bottom_up=True)
    img.setflags(write=False)
    return img


SPECS = (
    TaskSpec(name="ChessRanger", entry_point=ChessRanger, max_episode_steps=1, tags=("game", "chess", "search")),
)
