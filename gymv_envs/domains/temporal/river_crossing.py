"""River crossing: hop a frog across a busy road and a river of drifting logs to the far bank."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, sprite_mask
from gymv_envs.domains.temporal._arcade_a import ArcadeEnvA

FW, FH = 160.0, 150.0
ROWS, HOME, MEDIAN, START = 13, 0, 6, 12           # row 0 the far bank, 1-5 river, 6 verge, 7-11 road, 12 start
RH = FH / ROWS
RIVER, ROAD = range(1, 6), range(7, 12)
TRACK, MARGIN = 200.0, 20.0                         # lane objects ride a loop of TRACK units, MARGIN of it off screen
FROG_W, HOP_X = 8.0, 8.0
CROSSINGS, BONUS = 3, 8                             # frogs to bring home; points for each one home
# per difficulty: car speed range, cars per lane, car length, log speed range, logs per lane, log length range
LEVELS = {0: ((0.4, 0.7), 2, 14.0, (0.3, 0.5), 3, (44.0, 56.0)),
          1: ((0.6, 1.0), 3, 16.0, (0.4, 0.7), 3, (36.0, 48.0)),
          2: ((0.8, 1.3), 3, 20.0, (0.5, 0.8), 2, (34.0, 44.0))}
FROG = ("X.XX.X", ".XXXX.", "XXXXXX", ".XXXX.", "X....X")
BANK, VERGE, WATER, TARMAC, LOG, YOU = (40, 120, 50), (110, 80, 150), (30, 60, 150), (60, 60, 66), (140, 90, 40), (120, 255, 90)
CAR_COLORS = ((240, 200, 40), (240, 110, 60), (220, 90, 220), (235, 235, 235), (80, 220, 230))
MOVES = {(0, 0): "NOOP", (0, -1): "UP", (1, 0): "RIGHT", (-1, 0): "LEFT", (0, 1): "DOWN"}


class RiverCrossing(ArcadeEnvA):
    """Hop a frog across a road and a river to the far bank, three times.

    ## Description
    A real-time arcade game seen from above, in thirteen rows: you start on the bottom bank; five
    road lanes of cars come next, then a verge to rest on, then five river lanes of floating logs,
    then the far bank. Every lane moves sideways at its own speed (directions alternate). A press
    of UP, DOWN, LEFT or RIGHT hops the frog one row or a short step sideways; holding the same
    direction does not hop again (let go, NOOP, between two hops the same way). A car hitting the
    frog, the frog landing in the water, or a log carrying it off the screen costs a life and sends
    it back to the start. Bring three frogs to the far bank. Motion is only visible over
    consecutive frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(5)` minimal set ``NOOP``, ``UP``, ``RIGHT``, ``LEFT``, ``DOWN``;
    ``full_action_space=True``: the 18 ALE actions (the others act as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, score bar) above the crossing.

    ## Rewards
    +1 for each row a frog reaches for the first time on its way over (a row already reached by an
    earlier life of the same crossing scores nothing), +8 for each frog brought home
    (``max_return`` 60: three crossings of 12 rows).

    ## Starting State
    The frog in the middle of the bottom bank; every lane's speed and the places and lengths of
    its cars or logs are drawn from the seed.

    ## Episode End
    Success when the third frog reaches the far bank; failure when the last of 3 lives is lost.

    ## Arguments
    ``difficulty``: 0 (slow sparse cars, long logs), 1 (faster, more cars, shorter logs), 2 (fast
    long cars, fewer short logs); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "UP", "RIGHT", "LEFT", "DOWN")
    target = float(CROSSINGS * (START + BONUS))
    field = (FW, FH)
    field_color = BANK
    transient_attrs = ArcadeEnvA.transient_attrs + ("_strips", "_shown")

    def _setup(self) -> None:
        self.car_v, self.n_cars, self.car_len, self.log_v, self.n_logs, self.log_len = LEVELS[self.difficulty]
        self._strips = self._shown = None

    def _new_game(self, rng: np.random.Generator) -> None:
        self.lanes: dict[int, tuple[float, list[tuple[float, float]]]] = {}  # row -> (speed, [(offset, length)])
        for row in (*RIVER, *ROAD):
            river = row in RIVER
            n, sign = (self.n_logs, 1 if row % 2 else -1) if river else (self.n_cars, -1 if row % 2 else 1)
            speed = sign * float(rng.uniform(*(self.log_v if river else self.car_v)))
            slot, objs = TRACK / n, []
            for i in range(n):
                length = float(rng.uniform(*self.log_len)) if river else self.car_len
                objs.append((i * slot + float(rng.uniform(0, max(0.0, slot - length - (0 if river else 26)))), length))
            self.lanes[row] = (speed, objs)
        self.crossed, self.last, self.best = 0, (0, 0), START
        self._respawn()

    def _respawn(self) -> None:
        self.row, self.x = START, FW / 2

    # -- rules
    def alive(self, row: int, x: float, t: int) -> bool:
        """Whether a frog at (row, x) is safe at frame ``t`` (lanes move as pure functions of time)."""
        if row not in self.lanes:
            return FROG_W / 2 - 1 <= x <= FW - FROG_W / 2 + 1
        v, objs = self.lanes[row]
        if row in RIVER:
            return 0.0 <= x <= FW and any((x + MARGIN - v * t - o) % TRACK <= n for o, n in objs)
        hw = FROG_W / 2 - 1
        return not any((x + MARGIN + hw - v * t - o) % TRACK < n + 2 * hw for o, n in objs)

    def advance(self, row: int, x: float, hop: tuple[int, int]) -> tuple[int, float]:
        """The frog's cell one frame on: the hop (if any), then the log's drift."""
        if hop[1]:
            row = min(START, max(HOME, row + hop[1]))
        elif hop[0]:
            x = min(FW - FROG_W / 2, max(FROG_W / 2, x + hop[0] * HOP_X))
        if row in RIVER:
            x += self.lanes[row][0]
        return row, x

    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        move = (dx, dy) if (dx, dy) in MOVES else (0, 0)
        hop = move if move != self.last else (0, 0)
        self.last = move
        self.row, self.x = self.advance(self.row, self.x, hop)
        if self.row < self.best:
            self.score += self.best - self.row
            self.best = self.row
        if self.row == HOME:
            self.crossed += 1
            self.score += BONUS
            self.best = START
            self.events.append(f"frog {self.crossed} is home")
            self._respawn()
        elif not self.alive(self.row, self.x, self.frames):
            why = ("a car hit you" if self.row in ROAD else
                   "a log carried you away" if not 0 <= self.x <= FW else "you fell in the river")
            self.lose_life(why)
            self._respawn()

    # -- draw
    def _rows_px(self, row: int) -> tuple[int, int]:
        return int(row * RH * self.sy), int((row + 1) * RH * self.sy)

    def _lane_strip(self, row: int) -> np.ndarray:
        """One loop of a lane drawn out (with its first screen width repeated so any window is a slice)."""
        y0, y1 = self._rows_px(row)
        W, pp = self.obs_size[1], max(1, round(TRACK * self.sx))
        h = y1 - y0
        strip = np.empty((h, pp, 3), np.uint8)
        strip[:] = WATER if row in RIVER else TARMAC
        inset = max(0, h // 6) if row in RIVER else max(0, h // 5)
        for i, (o, n) in enumerate(self.lanes[row][1]):
            c0, c1 = round(o * pp / TRACK), max(round(o * pp / TRACK) + 1, round((o + n) * pp / TRACK))
            cols = np.arange(c0, c1) % pp
            strip[inset:h - inset or h, cols] = LOG if row in RIVER else CAR_COLORS[(row + i) % len(CAR_COLORS)]
        return np.ascontiguousarray(np.concatenate([strip] + [strip] * (W // pp + 1), axis=1))

    def _lane_strips(self) -> list[tuple[int, int, float, np.ndarray]]:
        """Per lane: its frame rows, its speed and its strip."""
        return [(self.hud + self._rows_px(row)[0], self.hud + self._rows_px(row)[1], speed, self._lane_strip(row))
                for row, (speed, _) in self.lanes.items()]

    def _paint_background(self, frame: np.ndarray) -> None:
        self.rect(frame, 0, MEDIAN * RH, FW, RH, VERGE)
        self._strips = self._lane_strips()

    def _draw_field(self, frame: np.ndarray) -> None:
        # A lane is copied onto the frame only when it moved by a pixel since the last frame, or the frog's
        # last box (restored from the background at the start of this frame) cut into it.
        if self._strips is None:
            self._strips = self._lane_strips()
        W, pp, t = frame.shape[1], max(1, round(TRACK * self.sx)), self.frames
        shown = self._shown if self._shown is not None and self._shown[0] is frame else (frame, (0, 0), ())
        (f0, f1), ks = shown[1], []  # the frog's last rows
        for i, (r0, r1, speed, strip) in enumerate(self._strips):
            k = round(((MARGIN - speed * t) % TRACK) * pp / TRACK) % pp
            if i >= len(shown[2]) or shown[2][i] != k or (r0 < f1 and f0 < r1):
                frame[r0:r1] = strip[:, k:k + W]
            ks.append(k)
        x0, y0, pw, ph = self._px_box(self.x - FROG_W / 2, self.row * RH + 1.5, FROG_W, RH - 3)
        self._mask_at(frame, sprite_mask(FROG, pw, ph), x0, y0, YOU)
        self._shown = (frame, (self.hud + y0, self.hud + y0 + ph), ks)

    def _task_text(self) -> str:
        return ("You are the green frog on the bottom bank, seen from above. Above you: five road lanes with "
                "cars, a purple verge, five river lanes with brown floating logs, then the far bank. Each lane "
                "moves sideways at its own speed. UP, DOWN, LEFT and RIGHT hop the frog one row or a short step "
                "sideways; holding the same direction does not hop again (NOOP in between). A car hitting you, "
                "falling in the water or being carried off the screen by a log costs one of your 3 lives (the "
                "red marks at the top left) and sends you back to the start. Bring three frogs to the far bank; "
                "the bar at the top shows the progress. One action lasts a few frames and may be repeated "
                "(sticky actions).")

    def _state_text(self) -> str:
        return f"frog in row {self.row} (0 is the far bank), x={self.x:.0f}; {self.crossed} home; " + super()._state_text()

    # -- oracle
    def _survival(self, move: tuple[int, int], horizon: int) -> tuple[int, int, float]:
        """The worst case, over the frame a hop happens on (sticky actions delay it), of (frames survived,
        row, x at the end) when ``move`` is pressed now and the frog then stays."""
        worst = (horizon + 1, self.row, self.x)
        for at in range(1, (self.frameskip if move != (0, 0) else 1) + 1):
            row, x, lived = self.row, self.x, horizon
            for k in range(1, horizon + 1):
                row, x = self.advance(row, x, move if k == at and move != (0, 0) else (0, 0))
                if row == HOME:
                    break
                if not self.alive(row, x, self.frames + k):
                    lived = k - 1
                    break
            if (lived, -row) < (worst[0], -worst[1]):
                worst = (lived, row, x)
        return worst

    def oracle_action(self) -> int:
        """Look a few frames ahead (lanes move as known functions of time): hop up when the frog survives
        the hop whichever frame of the step it lands on, else keep safe, drifting away from the edges on
        a log, and step back down when staying is no longer safe."""
        if self._terminated:
            return 0
        horizon = 4 * self.frameskip + 4
        best, pick = None, "NOOP"
        for move, name in MOVES.items():
            if move == self.last and move != (0, 0):
                continue  # a held direction does not hop again
            lived, row, x = self._survival(move, horizon)
            edge = min(x, FW - x)
            key = (lived >= horizon, -row if lived >= horizon else 0, lived, min(edge, 40.0), name == "NOOP")
            if best is None or key > best:
                best, pick = key, name
        return self.action_index(pick)


RiverCrossing.__doc__ = RiverCrossing.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="RiverCrossing", entry_point=RiverCrossing, max_episode_steps=1000, max_return=RiverCrossing.target,
             tags=("arcade", "real-time", "control", "crossing")),
)
