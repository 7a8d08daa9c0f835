"""Kalah (mancala, six pits a side): win a late position against a built-in opponent."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    draw_text,
    fit_text_size,
    new_frame,
    pil_draw,
)
from gymv_envs.domains.games._board import DRAW, LOSS_VALUE, ME, OPPONENT_TEXT, THEM, BoardGameEnv

PITS = 6
STORE = {ME: PITS, THEM: 2 * PITS + 1}           # board index of each side's store
FIRST = {ME: 0, THEM: PITS + 1}                   # board index of each side's first pit
LEVELS = {0: (3, 8), 1: (4, 12), 2: (4, 12)}       # difficulty -> (seeds per pit, most seeds left in the pits at the start)
WOOD, WOOD_EDGE, PIT_C, LIT_C = (205, 160, 95), (110, 75, 35), (245, 225, 185), (255, 215, 60)
SIDE_C = {ME: (40, 70, 160), THEM: (170, 50, 45)}


_SOWN: dict[tuple[tuple[int, ...], int, int], tuple[tuple[int, ...], int, int | None]] = {}
_SOWN_MAX = 20_000   # entries of the `sow` cache (about 500 bytes each: 10 MB at most); cleared when full


def sown(board: tuple[int, ...], p: int, pit: int) -> tuple[tuple[int, ...], int, int | None]:
    """`sow`, cached: the opponent's searches of successive steps meet the same positions again (the
    start check meets mostly new ones, so it sows directly)."""
    key = (board, p, pit)
    hit = _SOWN.get(key)
    if hit is None:
        if len(_SOWN) >= _SOWN_MAX:
            _SOWN.clear()
        hit = _SOWN[key] = sow(board, p, pit)
    return hit


def sow(board: tuple[int, ...], p: int, pit: int) -> tuple[tuple[int, ...], int, int | None]:
    b = list(board)
    seeds, b[pit], pos, skip = b[pit], 0, pit, STORE[3 - p]
    while seeds:
        pos = (pos + 1) % (2 * PITS + 2)
        if pos != skip:
            b[pos] += 1
            seeds -= 1
    first, store = FIRST[p], STORE[p]
    if first <= pos < first + PITS and b[pos] == 1 and b[2 * PITS - pos]:   # capture: the last seed in an empty pit of yours
        b[store] += 1 + b[2 * PITS - pos]
        b[pos] = b[2 * PITS - pos] = 0
    nxt = p if pos == store else 3 - p
    mine, theirs = sum(b[0:PITS]), sum(b[PITS + 1:2 * PITS + 1])
    if not mine or not theirs:   # one side is empty: the rest goes to its owner's store
        b[STORE[ME]] += mine
        b[STORE[THEM]] += theirs
        b[0:PITS] = b[PITS + 1:2 * PITS + 1] = [0] * PITS
    total = sum(b)
    me, them = b[STORE[ME]], b[STORE[THEM]]
    if 2 * me > total:
        return tuple(b), nxt, ME
    if 2 * them > total:
        return tuple(b), nxt, THEM
    if not mine or not theirs:
        return tuple(b), nxt, DRAW
    return tuple(b), nxt, None


class Kalah(BoardGameEnv):
    """Win a game of Kalah (mancala) from a late position against a built-in opponent.

    ## Description
    The board has two rows of six pits and a store at each end; the numbers are the seeds each holds.
    The bottom row (pits A-F, left to right) and the right store are yours, the top row (pits a-f, from
    right to left) and the left store the opponent's. A move picks up all seeds of one of your non-empty
    pits and sows them one by one counter-clockwise (right along your row, into your store, left along
    the opponent's row), skipping the opponent's store. If the last seed lands in your store you move
    again; if it lands in an empty pit of yours and the opposite pit holds seeds, both go to your store.
    When one side's pits are all empty the game ends and the seeds left go to their row's owner. More
    seeds in your store wins; the game is decided (and ends) as soon as a store holds more than half of
    all seeds, since seeds never leave a store. The opponent's replies are played within your step.

    ## Action Space
    `Discrete(6)`: the pit to sow, ``A``-``F`` (left to right along the bottom row). An empty pit is
    invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the board with the seed count in every pit and store, pit letters
    below and above the rows, the pits and stores changed by the last step highlighted.

    ## Rewards
    +1 for a win, 0 for a draw, -1 for a loss, given when the game ends (``max_return`` 1).

    ## Starting State
    A random game from 3 (difficulty 0) or 4 seeds per pit, played from the seed until at most 8 (difficulty
    0) or 12 seeds are left in the pits, you to move, kept only when you can force a win in exactly 1
    (difficulty 0), 2 or 3 of your own moves against any reply (verified by an AND-OR search). At
    difficulty 0 some move does not win at once; above it at most a third of your moves keep the forced
    win and every other move lets the opponent force a win within 3 of its moves (the search mirrored).

    ## Episode End
    Terminates when the game is decided; success is a win for you.

    ## Arguments
    ``difficulty``: 0 (3 seeds per pit, win in 1, random opponent), 1 (4 seeds, win in 2, greedy
    opponent), 2 (4 seeds, win in 3, 4-ply alpha-beta opponent); ``obs_size``. The registered id
    defaults to difficulty 2.

    ## Version History
    - v0: initial version. The registered id defaults to difficulty 2: random play won 100% of the
      difficulty-0 games, 25% at difficulty 1, 0% at difficulty 2 (20 seeds each).
    """

    action_names = tuple("ABCDEF")
    action_aliases = tuple((f"pit {c}", i) for i, c in enumerate("ABCDEF"))
    search_depth = 4
    max_tries = 20_000
    transient_attrs = (*BoardGameEnv.transient_attrs, "_base")

    def _configure(self) -> None:
        super()._configure()
        self.seeds, self.left = LEVELS[self.difficulty]

    # -- generate
    def random_start(self, rng: np.random.Generator):
        s = self.standard_start()
        stop = int(rng.integers(self.left // 2, self.left + 1))
        while s[2] is None and sum(s[0][:PITS]) + sum(s[0][PITS + 1:-1]) > stop:
            moves = self.legal(s)
            s = self.play(s, moves[int(rng.integers(len(moves)))])
        return s

    def start_ok(self, s) -> bool:
        if not super().start_ok(s):
            return False
        moves = self.legal(s)
        if self.target == 1:
            return len(moves) > 1 and not all(self.result(self.play(s, a)) == ME for a in moves)
        bad = [a for a in moves if not self.wins(self.play(s, a), self.target - 1)]
        if 3 * len(bad) < 2 * len(moves):
            return False
        return all(self.loses(self.play(s, a), 3) for a in bad)

    def loses(self, s, k: int) -> bool:
        """Whether the opponent can force a win from ``s`` within ``k`` of its own moves (the AND-OR search mirrored)."""
        r = s[2]
        if r is not None or k <= 0:
            return r == THEM
        memo = self._memo_table()
        key = ("lose", s, k)
        hit = memo.get(key)
        if hit is None:
            if s[1] == THEM:
                hit = any(self.loses(self.play(s, a), k - 1) for a in self.legal(s))
            else:
                hit = all(self.loses(self.play(s, a), k) for a in self.legal(s))
            memo[key] = hit
        return hit

    def standard_start(self):
        """Every pit holds the difficulty's seeds, both stores empty, the bottom player (you) to move."""
        row = (self.seeds,) * PITS
        return (*row, 0, *row, 0), ME, None

    # -- rules: moves 0-5 are the bottom player's pits A-F, 6-11 the top player's a-f
    def legal(self, s) -> list[int]:
        if s[2] is not None:
            return []
        b, off = s[0], 0 if s[1] == ME else PITS
        return [m + off for m in range(PITS) if b[FIRST[s[1]] + m]]

    def play(self, s, a: int):
        p = s[1]
        return sow(s[0], p, FIRST[p] + a % PITS)

    def result(self, s):
        return s[2]

    def heuristic(self, s) -> float:
        return float(s[0][STORE[ME]] - s[0][STORE[THEM]])

    def minimax(self, s, depth: int, alpha: float, beta: float) -> float:
        """The base's alpha-beta over `legal` moves with `heuristic` at the leaves, written for Kalah's
        states (no method calls per node): the same values."""
        r = s[2]
        if r is not None:
            return 0.0 if r == DRAW else (LOSS_VALUE + depth) * (1 if r == ME else -1)
        b = s[0]
        if depth == 0:
            return float(b[PITS] - b[2 * PITS + 1])
        p = s[1]
        first = FIRST[p]
        minimax = self.minimax
        if p == ME:
            best = -np.inf
            for pit in range(first, first + PITS):
                if b[pit]:
                    v = minimax(sown(b, p, pit), depth - 1, alpha, beta)
                    best, alpha = max(best, v), max(alpha, v)
                    if alpha >= beta:
                        break
        else:
            best = np.inf
            for pit in range(first, first + PITS):
                if b[pit]:
                    v = minimax(sown(b, p, pit), depth - 1, alpha, beta)
                    best, beta = min(best, v), min(beta, v)
                    if alpha >= beta:
                        break
        return best

    def move_of(self, player: int, a: int) -> int:
        return a + (PITS if player == THEM else 0)

    def action_of(self, move: int) -> int:
        return move % PITS

    def move_name(self, a: int) -> str:
        return "ABCDEFabcdef"[a]

    def describe_invalid(self, s, a: int) -> str:
        return f"pit {self.action_names[a]} is empty; sow a pit that holds seeds"

    # -- draw
    def _layout(self):
        """Cached per obs_size: (background, pit centres by board index, pit radius, store half-height, count
        text size, patches of `_patch`)."""
        H, W = self.obs_size
        unit = min(W / 8.4, H / 3.6)
        x0, y0 = (W - 8 * unit) / 2, (H - 3 * unit) / 2
        base = new_frame(H, W, BACKGROUND)
        centres = {}
        for i in range(PITS):
            centres[i] = (x0 + (i + 1.5) * unit, y0 + 2.0 * unit)
            centres[FIRST[THEM] + i] = (x0 + (PITS - i + 0.5) * unit, y0 + 1.0 * unit)
        centres[STORE[ME]], centres[STORE[THEM]] = (x0 + 7.5 * unit, y0 + 1.5 * unit), (x0 + 0.5 * unit, y0 + 1.5 * unit)
        r, sh = 0.42 * unit, 0.95 * unit
        with pil_draw(base) as d:
            d.rounded_rectangle((x0, y0 + 0.45 * unit, x0 + 8 * unit, y0 + 2.55 * unit), radius=unit / 2, fill=WOOD,
                                outline=WOOD_EDGE, width=max(1, round(unit / 20)))
        lsize = max(4, fit_text_size("A", int(unit * 0.6), int(unit * 0.4), bold=True))
        for i in range(PITS):
            draw_text(base, "ABCDEF"[i], (centres[i][0], y0 + 2.75 * unit), lsize, SIDE_C[ME], bold=True)
            j = FIRST[THEM] + i
            draw_text(base, "abcdef"[i], (centres[j][0], y0 + 0.25 * unit), lsize, SIDE_C[THEM], bold=True)
        size = max(4, fit_text_size("20", int(1.3 * r), int(1.1 * r), bold=True))
        self._base = (base, centres, r, sh, size, {})   # patches by (pit, seeds, lit): at most 14 * 2 * 49, ~15 MB at 512x512
        return self._base

    def _paint(self, frame: np.ndarray, d, i: int, seeds: int, lit: bool) -> None:
        """Pit or store ``i``'s shape (with PIL draw ``d``) on ``frame``; the seed count is drawn by the caller."""
        _, centres, r, sh, _, _ = self._base
        cx, cy = centres[i]
        fill = LIT_C if lit else PIT_C
        if i in (STORE[ME], STORE[THEM]):
            d.rounded_rectangle((cx - r, cy - sh, cx + r, cy + sh), radius=r, fill=fill, outline=SIDE_C[ME if i == STORE[ME] else THEM],
                                width=max(1, round(r / 8)))
        else:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=WOOD_EDGE, width=max(1, round(r / 10)))

    def _patch(self, i: int, seeds: int, lit: bool):
        """Pit or store ``i`` drawn alone on the empty board, cut to its cell of the layout's grid (pits one
        unit square, stores their whole column), or None when the drawing leaves its cell."""
        base, centres, r, sh, size, _ = self._base
        H, W = self.obs_size
        unit = min(W / 8.4, H / 3.6)
        x0, y0 = (W - 8 * unit) / 2, (H - 3 * unit) / 2
        col = 7 if i == STORE[ME] else 0 if i == STORE[THEM] else i + 1 if i < PITS else 2 * PITS + 1 - i
        rows = (-0.5, 2.5) if i in (STORE[ME], STORE[THEM]) else (1, 2) if i < PITS else (0, 1)
        xa, xb = int(round(x0 + col * unit)), int(round(x0 + (col + 1) * unit))
        ya, yb = (int(round(y0 + (k + 0.5) * unit)) for k in rows)
        f = base.copy()
        with pil_draw(f) as d:
            self._paint(f, d, i, seeds, lit)
        draw_text(f, str(seeds), centres[i], size, INK, bold=True)
        out = (f != base).any(axis=2)
        out[max(ya, 0):max(yb, 0), max(xa, 0):max(xb, 0)] = False
        if out.any() or xa < 0 or ya < 0:
            return None
        tile = f[ya:yb, xa:xb].copy()
        return ya, yb, xa, xb, tile

    def _draw(self) -> np.ndarray:
        """The empty board with each pit and store pasted from a cached patch (`_patch`): the pits' cells do
        not overlap, so the frame is the one drawing every shape and then every count would give."""
        base, centres, r, sh, size, patches = getattr(self, "_base", None) or self._layout()
        b, prev = self.state[0], self.before[0]
        cut = []
        for i in centres:
            key = (i, b[i], b[i] != prev[i])
            hit = patches.get(key, False)
            if hit is False:
                hit = patches[key] = self._patch(*key)
            if hit is None:
                return self._draw_whole()
            cut.append(hit)
        frame = base.copy()
        for ya, yb, xa, xb, tile in cut:
            frame[ya:yb, xa:xb] = tile
        return frame

    def _draw_whole(self) -> np.ndarray:
        base, centres, r, sh, size, _ = self._base
        frame = base.copy()
        b, prev = self.state[0], self.before[0]
        with pil_draw(frame) as d:
            for i in centres:
                self._paint(frame, d, i, b[i], b[i] != prev[i])
        for i, (cx, cy) in centres.items():
            draw_text(frame, str(b[i]), (cx, cy), size, INK, bold=True)
        return frame

    def _task_text(self) -> str:
        return ("You play Kalah (mancala) against an opponent. The numbers are the seeds in each pit and store. Your pits "
                "are the bottom row, A to F from left to right, and your store is the big pit on the right; the opponent "
                "owns the top row (a to f from right to left) and the store on the left. A move names one of your "
                "non-empty pits (like C): take all its seeds and sow them one per pit counter-clockwise (rightwards "
                "along your row, into your store, leftwards along the top row), skipping the opponent's store. If the "
                "last seed lands in your store you move again; if it lands in an empty pit of yours whose opposite pit "
                "holds seeds, both go to your store. When one row is empty the game ends and each row's seeds go to its "
                "owner's store; more seeds wins (+1), equal is a draw (0), fewer loses (-1); a store holding more than "
                "half of all seeds decides the game at once. The opponent answers at once (it "
                f"{OPPONENT_TEXT[self.opponent]}). It is your turn and you can force a win.")

    def _state_text(self) -> str:
        b = self.state[0]
        top = " ".join(f"{c}={b[FIRST[THEM] + PITS - 1 - k]}" for k, c in enumerate("fedcba"))
        bottom = " ".join(f"{c}={b[k]}" for k, c in enumerate("ABCDEF"))
        return f"opponent store {b[STORE[THEM]]} | {top}\nyour pits | {bottom} | your store {b[STORE[ME]]}"


SPECS = (
    TaskSpec(name="Kalah", entry_point=Kalah, max_episode_steps=30,
             tags=("board-game", "adversarial", "planning"), kwargs={"difficulty": 2}),
)
