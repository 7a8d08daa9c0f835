"""Rhythm lane: which lane's note reaches the hit line first, and at which beat, in a drawn rhythm-game chart."""

from __future__ import annotations

import functools
import re

import numpy as np

from gymv_envs.core import SingleTurnEnv, TaskSpec
from gymv_envs.core.canvas import (
    BACKGROUND,
    INK,
    PALETTE,
    WHITE,
    draw_text,
    fill_rect,
    new_frame,
    outline_rect,
)
from gymv_envs.core.cells import LETTERS

# lanes, chart height in distance units, scroll speeds (units per beat), lane speed multipliers
LEVELS = {0: (3, 10, (1,), (1,)), 1: (4, 18, (2, 3), (1,)), 2: (5, 24, (2, 3), (1, 2))}
LANE_COLOURS = ("red", "blue", "green", "yellow", "purple")
CHART_BG = (28, 28, 36)
UNIT_LINE = (58, 58, 72)
LANE_LINE = (110, 110, 125)
HIT = (250, 250, 250)


def first_hits(notes: list[list[int]], speed: int, mult: list[int]) -> tuple[int, frozenset[int]]:
    """The beat of the first note to reach the hit line and every lane with a note then: a note ``d``
    units above the line of a lane with multiplier ``m`` arrives after ``d / (speed * m)`` beats."""
    times = {lane: min(d / (speed * mult[lane]) for d in ds) for lane, ds in enumerate(notes) if ds}
    t = min(times.values())
    return round(t), frozenset(lane for lane, v in times.items() if v == t)


class RhythmLane(SingleTurnEnv):
    """Read a rhythm-game chart: which lane is hit next, and at which beat?

    ## Description
    Notes fall down lanes (lettered below the chart) towards a white hit line at the bottom. Faint
    lines mark distance units above the hit line; a scale bar left of the chart shows how many units
    the notes fall in one beat (the scroll speed). From difficulty 2 each lane has a speed
    multiplier written above it (x2: its notes fall twice as fast). A note ``d`` units above the
    line in a lane with multiplier ``m`` reaches it after ``d / (speed * m)`` beats; every note
    arrives on a whole beat. The answer is the lane whose note reaches the hit line first and that
    beat (counted from now, beat 0); when several lanes are hit on that beat, any of them is accepted.

    ## Action Space
    ``"open"``: `Text`, a lane letter and a beat, e.g. ``C at beat 3``. ``"mcq"``: `Discrete(k)`;
    wrong options are the right lane with a beat off by one, the lane of the lowest note, the second
    note to arrive, and the distance in units given as the beat.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the chart, the scale bar and the lane labels.

    ## Rewards
    1.0 for a right lane with the right beat, else 0.0.

    ## Starting State
    3, 4 or 5 lanes with 1-3 notes each; speed 1 (difficulty 0), 2 or 3 units per beat (1), and at 2
    lane multipliers of 1 or 2, with the lowest note never the first to arrive.

    ## Episode End
    Terminates on the first readable answer; the budget is one step.

    ## Arguments
    ``difficulty``, ``answer_format``, ``num_options``, ``obs_size``.

    ## Version History
    - v0: initial version.
    """

    answer_hint = "the lane and the beat as `<lane letter> at beat <number>`"

    def _configure(self) -> None:
        self.lanes, self.units, self.speeds, self.mults = LEVELS[self.difficulty]

    def _generate(self, rng: np.random.Generator) -> None:
        self.speed = self.speeds[int(rng.integers(len(self.speeds)))]  # (as rng.choice draws, without its overhead)
        if self.difficulty < 2:
            self.mult = [1] * self.lanes
            self.notes = [self._lane_notes(rng, lane, 0, 3) for lane in range(self.lanes)]
        else:  # a x2 lane arrives first at beat t while a x1 lane's note is lower but arrives later
            v = self.speed
            t = int(rng.integers(2, self.units // (2 * v) + 1))
            fast, slow = (int(k) for k in rng.permutation(self.lanes)[:2])
            self.mult = [self.mults[int(rng.integers(len(self.mults)))] for _ in range(self.lanes)]
            self.mult[fast], self.mult[slow] = 2, 1
            self.notes = [self._lane_notes(rng, lane, t, 3) for lane in range(self.lanes)]
            self.notes[fast] = sorted([2 * v * t] + self._lane_notes(rng, fast, t, 2))
            self.notes[slow] = sorted({v * (t + int(rng.integers(1, t)))} | set(self._lane_notes(rng, slow, t, 2)))
        self.beat, self.good = first_hits(self.notes, self.speed, self.mult)
        lowest = min(d for ds in self.notes for d in ds)
        self.lowest = [lane for lane, ds in enumerate(self.notes) if lowest in ds]

    def _lane_notes(self, rng: np.random.Generator, lane: int, after: int, most: int) -> list[int]:
        """1 to ``most`` notes of a lane on distinct beats later than ``after`` (none when no beat is left)."""
        step = self.speed * self.mult[lane]
        beats = rng.permutation(np.arange(after + 1, self.units // step + 1))[: int(rng.integers(1, most + 1))]
        return sorted(int(b) * step for b in beats)

    # ----------------------------------------------------------------- draw
    def _geometry(self) -> tuple[int, int, int, float]:
        H, W = self.obs_size
        lane_w = max(3, int(W * 0.72 / self.lanes))
        x0 = int(W * 0.22)
        top, hit = int(H * 0.09), int(H * 0.88)
        return x0, lane_w, hit, (hit - top) / (self.units + 0.6)

    def _draw(self) -> np.ndarray:
        x0, lane_w, hit, unit = self._geometry()
        img = _chart_base(self.obs_size, self.lanes, self.units, self.speed, tuple(self.mult), x0, lane_w, hit, unit).copy()
        pad, half = max(1, lane_w // 8), max(1, unit * 0.3)
        edge = max(1, int(unit / 10))
        for lane, ds in enumerate(self.notes):
            colour = PALETTE[LANE_COLOURS[lane]]
            a, b = x0 + lane * lane_w + pad, x0 + (lane + 1) * lane_w - pad + 1
            for d in ds:
                y = hit - d * unit
                c, e = int(y - half), int(y + half + 1)
                if y >= half and 2 * edge < min(e - c, b - a):  # the note's box as one cached tile
                    img[c:e, a:b] = _note_tile(e - c, b - a, edge, colour)
                else:
                    fill_rect(img, a, y - half, b, y + half + 1, colour)
                    outline_rect(img, a, y - half, b, y + half + 1, WHITE, edge)
        return img

    # ----------------------------------------------------------------- text
    def _task_text(self) -> str:
        mult = (" Each lane's speed multiplier is written above it (x2: its notes fall twice as fast)."
                if self.difficulty == 2 else "")
        return (f"The image shows a rhythm-game chart: notes fall down {self.lanes} lanes (lettered below) towards "
                "the white hit line at the bottom. Faint lines mark distance units above the hit line; the bracket "
                "left of the chart shows how many units the notes fall in one beat." + mult + " Every note reaches "
                "the hit line on a whole beat. Which lane's note reaches the hit line first, and on which beat "
                "(now is beat 0)?")

    # ----------------------------------------------------------------- verify
    def _parse_answer(self, text: str):
        t = re.sub(r"\b(?:lanes?|beats?|at|on|in|after|step|time)\b", " ", text.strip().lower())
        letters = re.findall(r"(?<![a-z])([a-z])(?![a-z])", t)
        nums = re.findall(r"\d+", t)
        if len(letters) != 1 or len(nums) != 1 or re.search(r"[a-z]{2,}", t) or len(t) > 80:
            return None
        lane = LETTERS.index(letters[0].upper())
        return (lane, int(nums[0])) if lane < self.lanes else None

    def _check(self, answer) -> bool:
        return answer[0] in self.good and answer[1] == self.beat

    def _format(self, answer) -> str:
        return f"{LETTERS[answer[0]]} at beat {answer[1]}"

    def _solve(self):
        return min(self.good), self.beat

    def _near_misses(self, rng: np.random.Generator) -> list:
        lane = min(self.good)
        times = sorted((d // (self.speed * self.mult[k]), k) for k, ds in enumerate(self.notes) for d in ds)
        second = [(k, t) for t, k in times if t > self.beat][:2]
        first = [(lane, self.beat + 1), (lane, self.beat - 1), (lane, min(self.notes[lane]))]
        first += [(k, min(self.notes[k]) // (self.speed * self.mult[k])) for k in self.lowest] + second
        first = [a for a in first if a[1] >= 0]
        rest = [(k, b) for k in range(self.lanes) for b in range(1, self.units + 1)]
        rest.sort(key=lambda a: (abs(a[1] - self.beat) + (a[0] != lane), rng.random()))
        return [first[int(k)] for k in rng.permutation(len(first))] + rest

    def _state_text(self) -> str:
        lanes = "\n".join(f"{LETTERS[k]} (x{self.mult[k]}): " + " ".join(map(str, ds)) for k, ds in enumerate(self.notes))
        return f"speed: {self.speed} units per beat\n{lanes}"


@functools.lru_cache(maxsize=256)
def _note_tile(h: int, w: int, edge: int, colour: tuple[int, int, int]) -> np.ndarray:
    """A note ``h x w`` pixels: ``colour`` inside a white edge ``edge`` pixels wide (read-only)."""
    tile = new_frame(h, w, WHITE)
    fill_rect(tile, edge, edge, w - edge, h - edge, colour)
    tile.setflags(write=False)
    return tile


@functools.lru_cache(maxsize=64)
def _chart_base(obs_size: tuple[int, int], lanes: int, units: int, speed: int, mult: tuple[int, ...], x0: int,
                lane_w: int, hit: int, unit: float) -> np.ndarray:
    """The empty chart: lanes, unit lines, hit line, scale bar, labels (read-only)."""
    H, W = obs_size
    img = new_frame(H, W, BACKGROUND)
    x1, top = x0 + lanes * lane_w, hit - (units + 0.6) * unit
    fill_rect(img, x0, top, x1 + 1, hit + 1, CHART_BG)
    thin = max(1, int(unit / 12))
    for d in range(1, units + 1):
        fill_rect(img, x0, hit - d * unit, x1, hit - d * unit + thin, UNIT_LINE)
    for k in range(lanes + 1):
        fill_rect(img, x0 + k * lane_w - thin // 2, top, x0 + k * lane_w + thin, hit, LANE_LINE)
    fill_rect(img, x0 - max(1, lane_w // 10), hit - max(1, unit * 0.12), x1 + max(1, lane_w // 10), hit + max(2, unit * 0.18), HIT)
    fs = max(4, int(min(lane_w * 0.4, H * 0.06)))
    for k in range(lanes):
        cx = x0 + (k + 0.5) * lane_w
        draw_text(img, LETTERS[k], (cx, (hit + H) / 2), fs, INK, bold=True)
        if len(set(mult)) > 1 or mult[0] != 1:
            draw_text(img, f"x{mult[k]}", (cx, top / 2), fs, INK, bold=True)
    bx = int(x0 * 0.55)
    bar = max(1, int(W / 150))
    fill_rect(img, bx, hit - speed * unit, bx + bar, hit + 1, INK)
    for y in (hit - speed * unit, hit):
        fill_rect(img, bx, y - bar // 2, bx + int(x0 * 0.3), y - bar // 2 + bar, INK)
    draw_text(img, "1 beat", (bx + x0 * 0.15, hit - speed * unit - bar * 2), max(4, int(min(x0 * 0.2, H * 0.04))), INK,
              anchor="mb", bold=True)
    img.setflags(write=False)
    return img


SPECS = (
    TaskSpec(name="RhythmLane", entry_point=RhythmLane, max_episode_steps=1, tags=("game", "rhythm", "timing")),
)
