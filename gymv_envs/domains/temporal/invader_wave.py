"""Invader wave: a marching formation of invaders descends and shoots; clear the wave."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, ArcadeEnv, sprite_mask

FW, FH = 160.0, 150.0
ROWS, COLS, DX, DY, IW, IH = 5, 8, 14.0, 11.0, 10.0, 7.0
PY, PW, PH, PSPEED = 138.0, 11.0, 6.0, 1.6        # your cannon (top edge), width, height, speed
SHOT_SPEED, DROP = 4.0, 3.0
# per difficulty: formation speed (start, end), enemy shot speed, frames between shots, aimed share,
# most enemy shots at once, hits the top row needs
LEVELS = {0: (0.25, 0.9, 1.9, 18, 0.8, 3, 1), 1: (0.3, 1.1, 2.0, 16, 0.85, 4, 1), 2: (0.35, 1.2, 2.1, 15, 0.9, 4, 2)}
INVADER = (("..X....X..", "...X..X...", "..XXXXXX..", ".XX.XX.XX.", "XXXXXXXXXX", "X.XXXXXX.X", "X.X....X.X"),
           ("..X....X..", "X..X..X..X", "X.XXXXXX.X", "XXX.XX.XXX", "XXXXXXXXXX", ".XXXXXXXX.", ".X......X."))
CANNON = ("....X....", "...XXX...", ".XXXXXXX.", "XXXXXXXXX", "XXXXXXXXX")
ROW_COLORS = ((240, 90, 200), (250, 200, 60), (250, 200, 60), (80, 220, 120), (80, 220, 120))
POINTS = (5, 3, 3, 1, 1)                          # per row, top first
MAX_SCORE = COLS * sum(POINTS)
YOU, SHOT, BOMB, GROUND = (110, 200, 255), (255, 255, 255), (255, 120, 80), (60, 160, 80)


class InvaderWave(ArcadeEnv):
    """Clear a marching wave of invaders before they land.

    ## Description
    A real-time arcade game. A formation of 5 x 8 invaders marches sideways, stepping down each
    time it reaches a side, and speeds up as it thins out; invaders at the bottom of their column
    drop bombs, some of them aimed at you. You move a cannon along the ground and fire one shot at
    a time straight up. A bomb that hits the cannon costs a life; invaders reaching the ground end
    the game. Motion is only visible over consecutive frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(6)` minimal set ``NOOP``, ``FIRE``, ``RIGHT``, ``LEFT``, ``RIGHTFIRE``, ``LEFTFIRE``;
    ``full_action_space=True``: the 18 ALE actions (the others act as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, score bar) above the field.

    ## Rewards
    Points per invader destroyed by row, top first: 5, 3, 3, 1, 1 (``max_return`` 104: the whole
    wave).

    ## Starting State
    The formation's position and marching direction are drawn from the seed, as are the bombers.

    ## Episode End
    Success when every invader is destroyed; failure when the last of 3 lives is lost or the
    formation reaches the ground.

    ## Arguments
    ``difficulty``: 0 (slow march, slow and seldom-aimed bombs), 1, 2 (faster, more aimed bombs,
    top-row invaders take two hits); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE")
    target = float(MAX_SCORE)
    field = (FW, FH)
    transient_attrs = ArcadeEnv.transient_attrs + ("_layer",)

    def _setup(self) -> None:
        self.v0, self.v1, self.bomb_speed, self.period, self.aimed, self.max_bombs, self.top_hp = LEVELS[self.difficulty]
        self._layer = None

    def _after_generate(self) -> None:
        super()._after_generate()
        self._layer = None

    def _new_game(self, rng: np.random.Generator) -> None:
        self.hp = [self.top_hp if r == 0 else 1 for r in range(ROWS) for _ in range(COLS)]
        self._shape()
        self.ox, self.oy = float(rng.uniform(4, FW - COLS * DX - 4)), 16.0
        self.dir = 1 if rng.random() < 0.5 else -1
        self.px = FW / 2
        self.shot: list[float] | None = None
        self.bombs: list[list[float]] = []
        self.clock = int(rng.integers(self.period))
        self._layer, self._hits = None, []

    def _shape(self) -> None:
        """The live count and the formation's extent (first and last column, bottom row), after each hit."""
        live = [k for k, h in enumerate(self.hp) if h > 0]
        self.alive = len(live)
        cols = [k % COLS for k in live] or [0]
        self.extent = (min(cols), max(cols), max([k // COLS for k in live] or [0]))
        self.bottoms = [max(r for r in range(ROWS) if self.hp[r * COLS + c] > 0) * COLS + c for c in range(COLS)
                        if any(self.hp[r * COLS + c] > 0 for r in range(ROWS))]

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        px = self.px + dx * PSPEED  # (max, then min, without the calls)
        px = px if px > PW / 2 else PW / 2
        self.px = FW - PW / 2 if FW - PW / 2 < px else px
        if fire and self.shot is None:
            self.shot = [self.px, PY - 5.0]
        speed = self._speed()
        self.ox += self.dir * speed
        lo, hi = self.ox + self.extent[0] * DX, self.ox + self.extent[1] * DX + IW
        if lo < 2 or hi > FW - 2:
            self.dir, self.ox = -self.dir, self.ox - self.dir * speed
            self.oy += DROP
        if self.shot is not None:
            self.shot[1] -= SHOT_SPEED
            k = self._hit(self.shot[0], self.shot[1])
            if k >= 0:
                self.hp[k] -= 1
                self.shot = None
                self._hits.append(k)
                if self.hp[k] == 0:
                    self.score += POINTS[k // COLS]
                    self._shape()
            elif self.shot[1] < 0:
                self.shot = None
        self._bombs()
        if self.alive and self.oy + self.extent[2] * DY + IH >= PY:
            self.game_over = True
            self.events.append("the invaders landed")

    def _speed(self) -> float:
        return self.v0 + (self.v1 - self.v0) * (1 - self.alive / (ROWS * COLS))

    def _hit(self, x: float, y: float) -> int:
        c, r = int((x - self.ox) // DX), int((y - self.oy) // DY)
        if 0 <= c < COLS and 0 <= r < ROWS and x - self.ox - c * DX < IW and y - self.oy - r * DY < IH:
            k = r * COLS + c
            return k if self.hp[k] > 0 else -1
        return -1

    def _bombs(self) -> None:
        hit = gone = False  # one pass: every bomb falls; did one reach the cannon, one the ground
        px, speed = self.px, self.bomb_speed
        for b in self.bombs:
            b[1] += speed
            if b[1] >= FH:
                gone = True
            elif PY - 1 < b[1] < PY + PH and abs(b[0] - px) < PW / 2 + 0.5:
                hit = True
        if hit:
            self.bombs = []
            self.lose_life("a bomb hit your cannon")
            self.px = FW / 2
        elif gone:
            self.bombs = [b for b in self.bombs if b[1] < FH]
        self.clock += 1
        if self.clock >= self.period and len(self.bombs) < self.max_bombs and self.alive:
            self.clock = 0
            rng = self.np_random
            bottoms = self.bottoms
            if rng.random() < self.aimed:
                k = min(bottoms, key=lambda k: abs(self.ox + (k % COLS) * DX + IW / 2 - self.px))
            else:
                k = bottoms[int(rng.integers(len(bottoms)))]
            r, c = divmod(k, COLS)
            self.bombs.append([self.ox + c * DX + IW / 2, self.oy + r * DY + IH])

    # -- draw
    def _paint_background(self, frame: np.ndarray) -> None:
        self.rect(frame, 0, PY + PH + 1, FW, 1.5, GROUND)

    def _draw_field(self, frame: np.ndarray) -> None:
        anim = (self.frames // 16) % 2
        if self._layer is None:
            self._layer, self._hits = (self._paint_layer(0), self._paint_layer(1)), []
        for k in self._hits:  # repaint only the invaders hit since the last frame
            for a in (0, 1):
                self._paint_invader(self._layer[a], k, a)
        self._hits = []
        self.paste(frame, self._layer[anim], int(self.ox * self.sx), int(self.oy * self.sy))
        self.sprite(frame, CANNON, self.px - PW / 2, PY, PW, PH, YOU)
        if self.shot is not None:
            self.rect(frame, self.shot[0] - 0.5, self.shot[1], 1.2, 5, SHOT)
        for x, y in self.bombs:
            self.rect(frame, x - 0.8, y - 4, 1.6, 4, BOMB)

    def _paint_layer(self, anim: int) -> np.ndarray:
        """The formation drawn on the field colour at the origin (one layer per animation frame)."""
        image = np.empty((int(ROWS * DY * self.sy) + 1, int(COLS * DX * self.sx) + 1, 3), np.uint8)
        image[...] = self.field_color
        for k in range(ROWS * COLS):
            self._paint_invader(image, k, anim)
        return image

    def _paint_invader(self, image: np.ndarray, k: int, anim: int) -> None:
        r, c = divmod(k, COLS)
        x0, y0 = int(c * DX * self.sx), int(r * DY * self.sy)
        m = sprite_mask(INVADER[anim], max(1, int(IW * self.sx)), max(1, int(IH * self.sy)))
        cell = image[y0:y0 + m.shape[0], x0:x0 + m.shape[1]]
        cell[...] = self.field_color
        if self.hp[k] > 0:
            cell[m] = ROW_COLORS[r] if self.hp[k] == 1 or self.top_hp == 1 else (255, 255, 255)

    def _task_text(self) -> str:
        two = " White invaders take two hits (they turn pink after the first)." if self.top_hp > 1 else ""
        return ("You command the blue cannon at the bottom. A formation of invaders marches sideways, steps down "
                "each time it reaches a side, and speeds up as it thins out; they drop orange bombs, some aimed "
                "at you. FIRE sends one shot straight up (only one shot flies at a time); RIGHT and LEFT move "
                "the cannon. Destroy every invader to win. A bomb hitting the cannon costs one of your 3 "
                "lives (the red marks at the top left); the game ends when none are left or the invaders "
                f"reach the ground.{two} One action lasts a few frames and may be repeated (sticky actions).")

    # -- oracle
    def oracle_action(self) -> int:
        """Walk under the invader that a shot fired now would meet, firing whenever a shot would hit one;
        but first keep clear of bombs: of the plans (a move this step, then a way on) it takes the
        clearest, sticky delays included, unless the wanted move is clear enough."""
        if self._terminated:
            return 0
        speed = self._speed()
        best, aim = 1e9, self.px
        for k, hp in enumerate(self.hp):
            if hp > 0:
                r, c = divmod(k, COLS)
                t = (PY - 5 - (self.oy + r * DY + IH / 2)) / SHOT_SPEED
                x = self.ox + c * DX + IW / 2 + self.dir * speed * t
                if abs(x - self.px) < best and 3 < x < FW - 3:
                    best, aim = abs(x - self.px), x
        fire = self.shot is None and best < IW / 2 - 2
        want = 0 if abs(aim - self.px) < PSPEED * 2 else (1 if aim > self.px else -1)
        threats = [(bx, by, 0.0, self.bomb_speed, 0.0) for bx, by in self.bombs]
        clear = self.dodge(self.px, PSPEED, PW / 2, FW - PW / 2, (PY - 2, PY + PH + 2), threats)
        move = want if clear[(0, 1, -1).index(want)] >= PW / 2 + 3 else (0, 1, -1)[int(np.argmax(clear))]
        name = {0: "", 1: "RIGHT", -1: "LEFT"}[move] + ("FIRE" if fire else "")
        return self.action_index(name or "NOOP")


InvaderWave.__doc__ = InvaderWave.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="InvaderWave", entry_point=InvaderWave, max_episode_steps=3000, max_return=float(MAX_SCORE),
             tags=("arcade", "real-time", "control", "shooter")),
)
