"""The machinery every real-time arcade game shares: the Arcade Learning Environment's conventions.

`ArcadeEnv` owns what an ALE user expects of an Atari game, so a game file holds only its world:

- ``frameskip`` (default 4): one env step runs that many fixed-timestep simulation frames (the game's
  ``_tick``) and draws one frame, the last;
- sticky actions: before every simulated frame, with probability ``repeat_action_probability``
  (default 0.25) the previously executed action is repeated instead of the agent's, drawn from the
  env's seeded generator, so a seed and the agent's actions still fix the episode;
- action sets: the game's minimal set by default; ``full_action_space=True`` gives the 18 ALE
  actions in ALE's order, those the game does not use acting as ``NOOP``;
- lives (``info["lives"]``, ``self.lives``), game over ends the episode, the score is the reward;
  the id's success condition is the game's ``_won()`` (by default reaching ``target`` points) and the
  return it gives is the spec's ``max_return`` (the last reward is capped so it never goes above);
- drawing: a status band (lives, a score bar, the score when the frame is tall enough) above the
  playfield, whose logical coordinates (``field``: width, height; y down) map to pixels; a cached
  static background per level, rectangles and procedural sprites (ASCII bitmaps scaled and cached).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, VisionEnv
from gymv_envs.core.canvas import draw_text, rgb_array, shape_mask
from gymv_envs.core.env import check_number

ALE_ACTIONS = ("NOOP", "FIRE", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT",
               "UPFIRE", "RIGHTFIRE", "LEFTFIRE", "DOWNFIRE", "UPRIGHTFIRE", "UPLEFTFIRE", "DOWNRIGHTFIRE",
               "DOWNLEFTFIRE")
Controls = tuple[int, int, bool]  # (dx: -1 left .. 1 right, dy: -1 up .. 1 down, fire)
NOOP: Controls = (0, 0, False)


def controls_of(name: str) -> Controls:
    """The joystick and button an ALE action name holds: ``"UPLEFTFIRE"`` -> ``(-1, -1, True)``."""
    return (("RIGHT" in name) - ("LEFT" in name), ("DOWN" in name) - ("UP" in name), "FIRE" in name)


HUD_BG, HUD_INK, LIFE = (28, 28, 36), (235, 235, 235), (250, 90, 90)
BAR_BG, BAR = (70, 70, 84), (110, 210, 120)


@functools.lru_cache(maxsize=2048)
def sprite_mask(rows: tuple[str, ...], w: int, h: int) -> np.ndarray:
    """A ``(h, w)`` bool mask of an ASCII bitmap (any character but ``.`` and space is set), scaled by
    nearest neighbour; read-only and cached."""
    bits = np.array([[ch not in ". " for ch in row] for row in rows], dtype=bool)
    ys = (np.arange(h) * bits.shape[0] // max(1, h)).clip(0, bits.shape[0] - 1)
    xs = (np.arange(w) * bits.shape[1] // max(1, w)).clip(0, bits.shape[1] - 1)
    mask = np.ascontiguousarray(bits[ys][:, xs])
    mask.setflags(write=False)
    return mask


@functools.lru_cache(maxsize=512)
def disc_mask(w: int, h: int) -> np.ndarray:
    """A ``(h, w)`` bool mask of a filled ellipse (cached)."""
    m = shape_mask("circle", max(w, h))
    mask = np.ascontiguousarray(m[(np.arange(h) * m.shape[0] // h)][:, (np.arange(w) * m.shape[1] // w)] >= 110)
    if not mask.any():
        mask[h // 2, w // 2] = True
    mask.setflags(write=False)
    return mask


class ArcadeEnv(MultiTurnEnv):
    """Base of the arcade games (not registered). Hooks: ``_setup()`` (difficulty -> settings),
    ``_new_game(rng)``, ``_tick(dx, dy, fire)`` (one frame), ``_paint_background(frame)``,
    ``_draw_field(frame)``, ``_task_text()``, ``oracle_action()``; optionally ``_won()``."""

    minimal_actions: ClassVar[tuple[str, ...]] = ("NOOP", "FIRE")
    start_lives: ClassVar[int] = 3
    target: ClassVar[float] = 1.0
    field: ClassVar[tuple[float, float]] = (160.0, 160.0)
    field_color: ClassVar[tuple[int, int, int]] = (10, 10, 20)
    transient_attrs = VisionEnv.transient_attrs + ("_bg", "_buf", "_dirty", "_hud_key", "_dodge_key", "_dodge_off")
    metadata = {**VisionEnv.metadata, "render_fps": 15}

    def __init__(self, frameskip: int = 4, repeat_action_probability: float = 0.25,
                 full_action_space: bool = False, **kwargs: Any) -> None:
        if isinstance(frameskip, bool) or not isinstance(frameskip, (int, np.integer)) or not 1 <= frameskip <= 16:
            raise ValueError(f"invalid frameskip={frameskip!r}; valid values: integers 1 to 16")
        self.frameskip = int(frameskip)
        self.repeat_action_probability = check_number("repeat_action_probability", repeat_action_probability, 0.0, 1.0)
        if not isinstance(full_action_space, (bool, np.bool_)):
            raise ValueError(f"invalid full_action_space={full_action_space!r}; valid values: True, False")
        self.full_action_space = bool(full_action_space)
        super().__init__(**kwargs)

    @property
    def action_names(self) -> tuple[str, ...]:  # type: ignore[override]
        return ALE_ACTIONS if self.full_action_space else self.minimal_actions

    def _configure(self) -> None:
        self._controls = [controls_of(n) if n in self.minimal_actions else NOOP for n in self.action_names]
        self._bg = self._buf = None
        self._setup()  # may set ``self.field`` per difficulty
        H, W = self.obs_size
        self.hud = max(3, round(H * 0.06))
        self.sx, self.sy = W / self.field[0], (H - self.hud) / self.field[1]

    def _setup(self) -> None:
        """Hook: settings from ``self.difficulty``."""

    def action_index(self, name: str) -> int:
        """The index of an ALE action name in this env's action set (minimal names exist in both sets)."""
        return self.action_names.index(name)

    # -- the game loop
    def _generate(self, rng: np.random.Generator) -> None:
        self.score, self.lives, self.frames, self.sticky_frames = 0.0, self.start_lives, 0, 0
        self.held: Controls = NOOP
        self.game_over, self.events = False, []
        self._new_game(rng)

    def _after_generate(self) -> None:
        self._bg = None

    def _won(self) -> bool:
        return self.score >= self.target

    def lose_life(self, why: str) -> None:
        """A life is lost (the game ends at zero); games with no lives end on their own terms."""
        self.lives -= 1
        self.events.append(f"{why}; {self.lives} {'life' if self.lives == 1 else 'lives'} left")
        if self.lives <= 0:
            self.game_over = True

    def _apply(self, action: int) -> Outcome:
        want, p, rng = self._controls[action], self.repeat_action_probability, self.np_random
        score0, self.events = self.score, []
        for _ in range(self.frameskip):
            if p > 0.0 and rng.random() < p:
                self.sticky_frames += 1  # the previous action is executed again
            else:
                self.held = want
            self.frames += 1
            self._tick(*self.held)
            if self.game_over or self._won():
                break
        won = self._won()
        score, target = self.score, self.target  # (min without the calls: builtin min/max cost ~10x a compare)
        reward = (target if target < score else score) - (target if target < score0 else score0)
        text = "; ".join(self.events)
        if won:
            return Outcome(reward=reward, terminated=True, success=True, feedback=text or "you won")
        if self.game_over:
            return Outcome(reward=reward, terminated=True, feedback=text or "game over")
        return Outcome(reward=reward, feedback=text)

    def _coerce(self, action: Any) -> Any:
        if type(action) is int or (isinstance(action, np.integer) and not isinstance(action, np.bool_)):
            a = int(action)  # the fast path of the base's check (a Discrete space's ``contains`` costs 30 us)
            return a if 0 <= a < len(self._controls) else None
        return super()._coerce(action)

    def _info(self, outcome: Outcome) -> dict[str, Any]:
        info = super()._info(outcome)
        info["lives"] = int(self.lives)
        return info

    def _progress(self) -> float:
        return (self.score if self.score > 0.0 else 0.0) / self.target

    def _state_text(self) -> str:
        return f"score {self.score:g} (win at {self.target:g}), lives {self.lives}, frame {self.frames}"

    # -- oracle helper
    def dodge(self, px: float, speed: float, lo: float, hi: float, band: tuple[float, float],
              threats: list[tuple[float, float, float, float, float]], horizon: int = 60) -> np.ndarray:
        """How clear of falling threats a player moving sideways can stay, per first move.

        The player at ``px`` (kept in [lo, hi], ``speed`` per frame) spans the heights ``band``; each
        threat ``(x, y, vx, vy, half_width)`` moves in a straight line. Plans are: move (0, +1, -1) for
        this step, then (0, +1, -1) for 0, 2, 5 or 10 steps, then stand; each with the previous move
        held for 0 to 2 frames first (sticky actions). Returns, for each first move, the best plan's
        smallest gap (threat half width taken off) over every frame a threat is inside the band.
        """
        key = (self.held[0], self.frameskip, horizon)
        if getattr(self, "_dodge_key", None) != key:
            prev, skip, rows = self.held[0], self.frameskip, []
            for first in (0, 1, -1):
                for then in (0, 1, -1):
                    for n in (0, 2, 5, 10):
                        moves = [first] * skip + [then] * (n * skip)
                        rows.append([([prev] * lag + moves + [0] * horizon)[:horizon] for lag in (0, 1, 2)])
            self._dodge_key, self._dodge_off = key, np.cumsum(np.array(rows, float), axis=2)
        clear = np.full(36, 1e9)
        pos = None
        for x, y, vx, vy, hw in threats:
            if vy <= 0:
                continue
            t0, t1 = max(1, int((band[0] - y) / vy)), min(horizon, int((band[1] - y) / vy) + 1)
            if t0 > t1:
                continue
            if pos is None:
                pos = np.clip(px + speed * self._dodge_off, lo, hi)
            t = np.arange(t0, t1 + 1)
            gap = np.abs(pos[:, :, t0 - 1:t1] - (x + vx * t)).min(axis=(1, 2)) - hw
            clear = np.minimum(clear, gap)
        return clear.reshape(3, 12).max(axis=1)

    # -- drawing: the static background is cached per level; each frame restores from it only the boxes
    # the previous frame drew into (dirty rectangles), so a frame costs what its sprites cover; the status
    # band is redrawn only when what it shows (lives, progress, score) changes
    def _draw(self) -> np.ndarray:
        if self._bg is None:
            H, W = self.obs_size
            bg = np.empty((H, W, 3), np.uint8)
            bg[:self.hud] = HUD_BG
            bg[self.hud:] = self.field_color
            self._dirty = []
            self._paint_background(bg)
            self._bg, self._buf = bg, None
        buf = self._buf
        if buf is None:
            buf = self._buf = self._bg.copy()
            self._hud_key = None
        else:
            bg = self._bg
            for y0, y1, x0, x1 in self._dirty:
                buf[y0:y1, x0:x1] = bg[y0:y1, x0:x1]
        self._dirty = []
        hud_key = (self.lives, self._progress(), self.score)
        if hud_key != self._hud_key:  # the status band shows only these: redrawn when one changes
            buf[:self.hud] = self._bg[:self.hud]
            self._draw_hud(buf)
            self._hud_key = hud_key
        self._draw_field(buf)
        return buf

    def paint_static(self, x: float, y: float, w: float, h: float, color) -> None:
        """Change the cached background (a pellet eaten, a brick gone): fill a field box on it for good."""
        if self._bg is not None:
            self.rect(self._bg, x, y, w, h, color)
            if self._buf is not None:  # the next frame restores the box from the background
                sx, sy = self.sx, self.sy
                x0, y0 = int(x * sx), int(y * sy)
                box = self._box(self._bg, x0, y0, max(x0 + 1, int((x + w) * sx)), max(y0 + 1, int((y + h) * sy)))
                if box is not None:
                    self._dirty.append(box)

    def _draw_hud(self, frame: np.ndarray) -> None:
        h, W = self.hud, frame.shape[1]
        pip = max(1, h // 2)
        for i in range(max(0, self.lives)):
            x = pip // 2 + i * (pip + max(1, pip // 2))
            frame[(h - pip) // 2:(h - pip) // 2 + pip, x:x + pip] = LIFE
        x0, x1 = int(W * 0.45), W - max(1, h // 3)
        y0, y1 = max(0, h // 4), max(1, h - h // 4)
        frame[y0:y1, x0:x1] = BAR_BG
        frac = min(1.0, max(0.0, self._progress()))
        if frac > 0:
            frame[y0:y1, x0:x0 + max(1, int((x1 - x0) * frac))] = BAR
        if h >= 12:
            draw_text(frame, f"{self.score:g}", (x0 - h // 2, h / 2), int(h * 0.8), HUD_INK, anchor="rm", bold=True)

    def _box(self, frame: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int, int, int] | None:
        """Field pixel box clipped to the field, as frame rows/cols, recorded as dirty when drawn on the frame."""
        fh, fw = frame.shape[0] - self.hud, frame.shape[1]
        x0, y0 = x0 if x0 > 0 else 0, y0 if y0 > 0 else 0  # (max and min, without the calls)
        x1, y1 = x1 if x1 < fw else fw, y1 if y1 < fh else fh
        if x0 >= x1 or y0 >= y1:
            return None
        box = (self.hud + y0, self.hud + y1, x0, x1)
        if frame is self._buf:
            self._dirty.append(box)
        return box

    def rect(self, frame: np.ndarray, x: float, y: float, w: float, h: float, color) -> None:
        """Fill the field box [x, x+w) x [y, y+h) (logical units, clipped; at least one pixel)."""
        sx, sy = self.sx, self.sy
        x0, y0, x1, y1 = int(x * sx), int(y * sy), int((x + w) * sx), int((y + h) * sy)
        box = self._box(frame, x0, y0, x1 if x1 > x0 else x0 + 1, y1 if y1 > y0 else y0 + 1)
        if box is not None:
            frame[box[0]:box[1], box[2]:box[3]] = color

    def rects(self, frame: np.ndarray, xs, y: float, w: float, h: float, color) -> None:
        """`rect` at each x of ``xs``, boxes of one size at one height: the same pixels, fewer calls, and one
        dirty box spanning them (the next frame restores one strip of the background, not each box)."""
        sx, sy, fw, hud = self.sx, self.sy, frame.shape[1], self.hud
        y0 = int(y * sy)
        r0, r1 = (y0 if y0 > 0 else 0), min(max(y0 + 1, int((y + h) * sy)), frame.shape[0] - hud)
        if r0 >= r1:
            return
        r0, r1 = r0 + hud, r1 + hud
        left, right = fw, 0
        for x in xs:
            x0, x1 = int(x * sx), int((x + w) * sx)
            x1 = x1 if x1 > x0 else x0 + 1
            c0, c1 = (x0 if x0 > 0 else 0), (x1 if x1 < fw else fw)
            if c0 < c1:
                frame[r0:r1, c0:c1] = color
                left, right = (c0 if c0 < left else left), (c1 if c1 > right else right)
        if left < right and frame is self._buf:
            self._dirty.append((r0, r1, left, right))

    def _mask_at(self, frame: np.ndarray, mask: np.ndarray, x0: int, y0: int, color) -> None:
        h, w = mask.shape
        box = self._box(frame, x0, y0, x0 + w, y0 + h)
        if box is not None:
            r0, r1, c0, c1 = box
            sub, part = frame[r0:r1, c0:c1], mask[r0 - self.hud - y0:r1 - self.hud - y0, c0 - x0:c1 - x0]
            if type(color) is tuple:  # np.copyto with a cached colour array fills a small mask in half the time
                np.copyto(sub, rgb_array(color), where=part[:, :, None])
            else:
                sub[part] = color

    def blit(self, frame: np.ndarray, image: np.ndarray, mask: np.ndarray, x0: int, y0: int) -> None:
        """Copy the pixels of ``image`` where ``mask`` is set, its top-left at field pixel (x0, y0), clipped."""
        h, w = mask.shape
        box = self._box(frame, x0, y0, x0 + w, y0 + h)
        if box is not None:
            r0, r1, c0, c1 = box
            rows, cols = slice(r0 - self.hud - y0, r1 - self.hud - y0), slice(c0 - x0, c1 - x0)
            np.copyto(frame[r0:r1, c0:c1], image[rows, cols], where=mask[rows, cols, None])

    def paste(self, frame: np.ndarray, image: np.ndarray, x0: int, y0: int) -> None:
        """Copy ``image`` whole (a layer drawn on the field colour), its top-left at field pixel (x0, y0), clipped."""
        h, w = image.shape[:2]
        box = self._box(frame, x0, y0, x0 + w, y0 + h)
        if box is not None:
            r0, r1, c0, c1 = box
            frame[r0:r1, c0:c1] = image[r0 - self.hud - y0:r1 - self.hud - y0, c0 - x0:c1 - x0]

    def _px_box(self, x: float, y: float, w: float, h: float) -> tuple[int, int, int, int]:
        x0, y0 = int(x * self.sx), int(y * self.sy)
        return x0, y0, max(1, int((x + w) * self.sx) - x0), max(1, int((y + h) * self.sy) - y0)

    def sprite(self, frame: np.ndarray, rows: tuple[str, ...], x: float, y: float, w: float, h: float, color) -> None:
        """Draw an ASCII bitmap filling the field box at (x, y) of size (w, h), in one colour."""
        sx, sy = self.sx, self.sy  # (`_px_box`, inline)
        x0, y0 = int(x * sx), int(y * sy)
        pw, ph = int((x + w) * sx) - x0, int((y + h) * sy) - y0
        mask = sprite_mask(rows, pw if pw > 1 else 1, ph if ph > 1 else 1)
        self._mask_at(frame, mask, x0, y0, color)

    def disc(self, frame: np.ndarray, cx: float, cy: float, rx: float, ry: float | None = None, color=(255, 255, 255)) -> None:
        """A filled ellipse centred at (cx, cy) with radii (rx, ry) in field units."""
        ry = rx if ry is None else ry
        x0, y0, pw, ph = self._px_box(cx - rx, cy - ry, 2 * rx, 2 * ry)
        self._mask_at(frame, disc_mask(pw, ph), x0, y0, color)

    def _paint_background(self, frame: np.ndarray) -> None:
        """Hook: static parts of the level, drawn once per level onto the field colour."""

    def _draw_field(self, frame: np.ndarray) -> None:
        raise NotImplementedError

    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        raise NotImplementedError

    def _new_game(self, rng: np.random.Generator) -> None:
        raise NotImplementedError


ARCADE_ARGS = (
    "``frameskip`` (simulated frames per step, default 4), ``repeat_action_probability`` (sticky "
    "actions, default 0.25), ``full_action_space`` (``True``: the 18 ALE actions, unused ones act as NOOP)"
)
