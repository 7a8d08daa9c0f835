"""Ultimate tic-tac-toe: a move that wins a small board or the game, or which small boards are playable."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import PALETTE, WHITE, outline_rect
from gymv_envs.core.cells import cell_name, find_cells
from gymv_envs.domains.puzzles._ultimate_ttt import board_tile, cell_boxes, grid_base, stone_tile
from gymv_envs.rules.ultimate_ttt import (
    MASK_CELLS,
    POW3,
    board_tables,
    line_won,
    playable,
    small_board,
)

QUESTIONS = ("board", "game", "playable")
MIN_PLY = {0: 10, 1: 30, 2: 20}  # plies played before the position; difficulty 2: the sent board is closed
TINT = {"play": (255, 238, 150), 1: (200, 220, 255), 2: (255, 210, 210), 3: (215, 215, 215), 0: WHITE}
STONE = {1: PALETTE["blue"], 2: PALETTE["red"]}
LAST = PALETTE["orange"]


class UltimateTicTacToeMove(SingleTurnEnv):
    """Ultimate tic-tac-toe: find a move that wins a small board or the game, or name the playable boards.

    ## Description
    Nine small tic-tac-toe boards form a 3x3 big board (81 cells, columns A-I, rows 1-9 from the
    top; the small boards are numbered 1-9 in reading order). A move in cell i of a small board
    sends the opponent to the small board at position i; if that board is closed (won or full),
    the opponent may play in any open board. Three in a row wins a small board (tinted in the
    winner's colour: blue X, red O; a full board without a winner is gray); three won small boards in
    a row win the game. The last move is outlined in orange. Positions come from play by random
    players that take small-board wins when they see them.

    - ``question="board"``: the playable boards are tinted yellow; give a legal move that wins a
      small board now. Every such move is accepted.
    - ``question="game"``: as above, a legal move that wins the game now (every such move accepted).
    - ``question="playable"``: nothing is highlighted; give the set of small boards the player to
      move may play in (by the sending rule and the last move).

    ## Action Space
    ``"open"``: `Text`: a cell such as ``E5`` (board, game) or board numbers such as ``1, 3, 9``
    (playable). ``"mcq"``: `Discrete(k)`; wrong options are legal moves that win nothing, winning
    cells in boards that may not be played, or sets off by a board or ignoring the sending rule.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the 9x9 grid with thick lines between small boards.

    ## Rewards
    1.0 for a right answer, else 0.0.

    ## Starting State
    After 10+ (difficulty 0) or 30+ (1) plies with the sent board open (for ``"game"``: open or
    closed), or 20+ plies with the sent board closed (2: any open board may be played), at the
    first position with an answer and at least three wrong ones.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``question`` (``"board"``, ``"game"``, ``"playable"``), ``difficulty``, ``answer_format``,
    ``num_options``, ``obs_size``, ``text_in_image``.

    ## Version History
    - v0: initial version.
    """

    questions = QUESTIONS

    @property
    def answer_hint(self) -> str:  # type: ignore[override]
        if self.question == "playable":
            return "the numbers (1-9, reading order) of every playable small board, separated by commas"
        return "one empty cell such as `E5` (column letter A-I, row number 1-9 from the top)"

    # ----------------------------------------------------------------- generate
    def _generate(self, rng: np.random.Generator) -> None:
        free, lo = self.difficulty == 2, MIN_PLY[self.difficulty]
        any_send = self.question == "game" and not free  # game wins with the sent board open are rare
        while True:
            u = iter(rng.random(300).tolist())
            codes, status, cells, stones = [0] * 9, [0] * 9, [[0] * 9 for _ in range(9)], [0] * 9
            status_of, empty_of = board_tables()
            last, p = None, 1
            for ply in range(81):
                play = playable(status, last)
                if not play:
                    break
                if ply >= lo and (any_send or (status[last[1]] != 0) == free):
                    good = self._good(codes, status, play, p)
                    if good is not None and sum(9 - stones[b] for b in play) - len(good) >= 3:
                        self.cells, self.codes, self.status, self.last, self.me = cells, codes, status, last, p
                        self.play, self.good = play, good
                        return
                wins = [(b, i) for b in play for i in small_board(codes[b])[p]]
                if wins and next(u) < 0.8:
                    b, i = wins[int(next(u) * len(wins))]
                else:
                    b = play[int(next(u) * len(play))]
                    empty = MASK_CELLS[empty_of[codes[b]]]
                    i = empty[int(next(u) * len(empty))]
                cells[b][i] = p
                codes[b] += p * POW3[i]
                stones[b] += 1
                status[b] = status_of[codes[b]]
                if 0 < status[b] < 3 and line_won(status, p):
                    break
                last, p = (b, i), 3 - p

    def _good(self, codes: list[int], status: list[int], play: list[int], p: int) -> frozenset | None:
        """The right answers at this position (None when there is none)."""
        if self.question == "playable":
            return frozenset(play)
        if self.question == "game" and status.count(p) < 2:
            return None
        good = []
        for b in play:
            for i in small_board(codes[b])[p]:
                if self.question == "board":
                    good.append((b, i))
                else:
                    old, status[b] = status[b], p
                    if line_won(status, p):
                        good.append((b, i))
                    status[b] = old
        return frozenset(good) or None

    # ----------------------------------------------------------------- draw
    def _geometry(self) -> tuple[int, int, int, int]:
        H, W = self.obs_size
        thick = max(1, min(H, W) // 100)
        cs = max(3, int((min(H, W) * 0.94 - 2 * thick) / 9.7))
        x0 = (W - 9 * cs - 2 * thick + int(0.7 * cs)) // 2
        y0 = (H - 9 * cs - 2 * thick + int(0.7 * cs)) // 2
        return x0, y0, cs, thick

    def _draw(self) -> np.ndarray:
        geom = self._geometry()
        x0, y0, cs, thick = geom
        img = grid_base(self.obs_size, *geom).copy()
        boxes = cell_boxes(geom)
        span = 3 * cs + thick
        for b in range(9):
            tint = TINT["play"] if self.question != "playable" and b in self.play else TINT[self.status[b]]
            if tint != WHITE:
                tile = board_tile(self.obs_size, geom, tint)
                y, x = y0 + (b // 3) * span, x0 + (b % 3) * span
                img[y:y + tile.shape[0], x:x + tile.shape[1]] = tile
            for (x, y, _, _), v in zip(boxes[9 * b:9 * b + 9], self.cells[b]):
                if v:
                    tile, dy, dx = stone_tile(cs, "XO"[v - 1], STONE[v], tint)
                    img[y + dy:y + dy + tile.shape[0], x + dx:x + dx + tile.shape[1]] = tile
        b, i = self.last
        x, y, x1, y1 = boxes[9 * b + i]
        outline_rect(img, x, y, x1, y1, LAST, max(1, (x1 - x) // 9))
        return img

    # ----------------------------------------------------------------- text
    def _task_text(self) -> str:
        sym = "XO"[self.me - 1]
        rules = ("The image shows an ultimate tic-tac-toe game: nine small 3x3 boards in a 3x3 big board (columns "
                 "A-I, rows 1-9 from the top; small boards numbered 1-9 in reading order). A move in cell k of a "
                 "small board (k in reading order) sends the opponent to small board k; if that board is closed "
                 "(won, tinted blue for X or red for O, or full, tinted gray) the opponent may play in any open "
                 "board. Three in a row wins a small board; three won small boards in a row win the game. The "
                 f"last move is outlined in orange. {sym} is to move.")
        if self.question == "playable":
            return rules + f" In which small boards may {sym} play now? Give every one."
        goal = "wins a small board" if self.question == "board" else "wins the whole game"
        return rules + f" The boards {sym} may play in are tinted yellow. Give a legal move for {sym} that {goal} now."

    def _caption(self) -> list:
        sym = "XO"[self.me - 1]
        return [{"board": f"{sym}: win a small board", "game": f"{sym}: win the game",
                 "playable": f"{sym}: playable boards?"}[self.question]]

    # ----------------------------------------------------------------- verify
    def _parse_answer(self, text: str):
        if self.question == "playable":
            t = text.strip().lower()
            if len(t) > 200 or not re.fullmatch(r"(?:boards?\s*)?\d(?:\s*(?:,|and|&|\s)\s*\d)*\.?", t):
                return None
            return frozenset(int(d) - 1 for d in re.findall(r"\d", t) if d != "0") or None
        cells = find_cells(text, 9, 9)
        if not cells or len(set(cells)) != 1:
            return None
        R, C = cells[0]
        return (R // 3) * 3 + C // 3, (R % 3) * 3 + C % 3

    def _check(self, answer) -> bool:
        return answer == self.good if self.question == "playable" else answer in self.good

    def _format(self, answer) -> str:
        if self.question == "playable":
            return ", ".join(str(b + 1) for b in sorted(answer))
        b, i = answer
        return cell_name((b // 3) * 3 + i // 3, (b % 3) * 3 + i % 3)

    def _solve(self):
        return self.good if self.question == "playable" else min(self.good)

    def _near_misses(self, rng: np.random.Generator) -> list:
        if self.question == "playable":
            open_b = [b for b in range(9) if self.status[b] == 0]
            with_room = [b for b in range(9) if not all(self.cells[b])]
            cands = [{self.last[1]}, {self.last[0]}, set(open_b), set(with_room)]
            cands += [set(self.good) | {b} for b in range(9)] + [set(self.good) - {b} for b in self.good]
            return [frozenset(c) for c in (cands[int(k)] for k in rng.permutation(len(cands))) if c]
        legal = [(b, i) for b in self.play for i in range(9) if not self.cells[b][i] and (b, i) not in self.good]
        trap = [(b, i) for b in range(9) if b not in self.play and not self.status[b]
                for i in small_board(self.codes[b])[self.me]]
        pools = [legal[int(k)] for k in rng.permutation(len(legal))]
        out = [trap[int(k)] for k in rng.permutation(len(trap))][:2]
        return out + pools

    def _state_text(self) -> str:
        (name, by_name), flat = _names(), [v for row in self.cells for v in row]  # by 9 * board + cell
        stones = [" ".join(name[k] for k in by_name if flat[k] == p) for p in (1, 2)]
        won = ", ".join(f"{b + 1}:{'-XO='[s]}" for b, s in enumerate(self.status) if s)
        return f"X: {stones[0]}\nO: {stones[1]}\nclosed boards: {won or 'none'}\nlast move: {name[9 * self.last[0] + self.last[1]]}"


@functools.lru_cache(maxsize=1)
def _names() -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The name of cell i of small board b, at 9 * b + i, and those indices in the order of the names."""
    names = tuple(cell_name((b // 3) * 3 + i // 3, (b % 3) * 3 + i % 3) for b in range(9) for i in range(9))
    return names, tuple(sorted(range(81), key=names.__getitem__))


SPECS = tuple(
    TaskSpec(name=name, entry_point=UltimateTicTacToeMove, max_episode_steps=1, kwargs={"question": q},
             tags=("game", "ultimate-tic-tac-toe", tag))
    for name, q, tag in (("UltimateTicTacToeMove", "board", "tactics"), ("UltimateTicTacToeWin", "game", "tactics"),
                         ("UltimateTicTacToePlayable", "playable", "rules"))
)
