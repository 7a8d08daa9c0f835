"""Road racer: a top-down race through traffic to the finish line."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.temporal._arcade import ARCADE_ARGS, ArcadeEnv, sprite_mask

FW, FH = 160.0, 150.0
LANES, ROAD_X, LANE_W = 4, 30.0, 25.0
PY, CW, CH, STEER = 118.0, 10.0, 18.0, 1.2          # your car's top edge, car size, sideways speed
ACCEL, BRAKE, COAST, GRASS_MAX = 0.05, 0.15, 0.03, 1.0
DASH = 20.0                                          # lane markings repeat every DASH units
# per difficulty: course length, top speed, traffic speed range, cars ahead per 100 units of road
LEVELS = {0: (5000.0, 3.0, (1.0, 1.6), 0.9), 1: (6500.0, 3.3, (1.0, 2.0), 1.2), 2: (8000.0, 3.6, (0.8, 2.2), 1.5)}
CAR = ("..XXXXXX..", ".XXXXXXXX.", "XX.XXXX.XX", "XXXXXXXXXX", ".X......X.", ".XXXXXXXX.", ".XXXXXXXX.",
       ".XXXXXXXX.", ".X......X.", "XXXXXXXXXX", "XX.XXXX.XX", ".XXXXXXXX.")
YOU, GRASS, ROAD, EDGE, PAINT = (60, 200, 255), (50, 130, 50), (70, 70, 76), (220, 60, 60), (230, 230, 230)
TRAFFIC = ((240, 200, 40), (240, 130, 40), (200, 90, 220), (240, 240, 240))
X_MIN, X_MAX, ROAD_END = CW / 2, FW - CW / 2, ROAD_X + LANES * LANE_W   # your car's sideways range, the road's edge
LANE_X = tuple(ROAD_X + (lane + 0.5) * LANE_W for lane in range(LANES))   # each lane's middle


class RoadRacer(ArcadeEnv):
    """Race through traffic to the finish line.

    ## Description
    A real-time top-down racing game. The road (four lanes) scrolls toward you as you drive; slower
    cars keep to their lanes. UP accelerates, DOWN brakes, LEFT and RIGHT steer (combinations do
    both); with no pedal the car slowly coasts. Off the road, on the grass, the car cannot go faster
    than a crawl. Hitting a car costs a life and stops you. Motion is only visible over consecutive
    frames (the SB3 stack stacks four).

    ## Action Space
    `Discrete(9)` minimal set ``NOOP``, ``UP``, ``RIGHT``, ``LEFT``, ``DOWN``, ``UPRIGHT``,
    ``UPLEFT``, ``DOWNRIGHT``, ``DOWNLEFT``; ``full_action_space=True``: the 18 ALE actions (those
    with ``FIRE`` act as ``NOOP``).

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: a status band (lives, a bar of the distance covered) above the road.

    ## Rewards
    The score is the distance driven in percent of the course (``max_return`` 100: the finish line).

    ## Starting State
    Your car stands still in a lane drawn from the seed; the traffic (lanes, gaps, speeds) is drawn
    from the seed as the road unrolls.

    ## Episode End
    Success on crossing the finish line; failure when the last of 3 lives is lost.

    ## Arguments
    ``difficulty``: 0 (5,000-unit course, light slow traffic), 1 (6,500, denser), 2 (8,000, dense
    traffic of mixed speeds); ``obs_size``; {ARCADE_ARGS}.

    ## Version History
    - v0: initial version.
    """

    minimal_actions = ("NOOP", "UP", "RIGHT", "LEFT", "DOWN", "UPRIGHT", "UPLEFT", "DOWNRIGHT", "DOWNLEFT")
    target = 100.0
    field = (FW, FH)
    field_color = GRASS
    transient_attrs = ArcadeEnv.transient_attrs + ("_strip",)

    def _setup(self) -> None:
        self.course, self.top, self.tspeed, self.density = LEVELS[self.difficulty]
        self._strip = None

    def _new_game(self, rng: np.random.Generator) -> None:
        self.x = ROAD_X + (int(rng.integers(LANES)) + 0.5) * LANE_W
        self.dist, self.speed, self.safe = 0.0, 0.0, 0
        self.cars: list[list[float]] = []   # lane, distance (of its top edge, like yours), speed, colour
        self.horizon = 40.0
        self._fill(rng)

    def _fill(self, rng: np.random.Generator) -> None:
        """Place traffic on the road ahead up to 260 units beyond you (never on top of another car)."""
        while self.horizon < self.dist + 260:
            self.horizon += float(rng.exponential(100.0 / self.density))
            lane = int(rng.integers(LANES))
            if all(c[0] != lane or abs(c[1] - self.horizon) > CH * 2.5 for c in self.cars):
                self.cars.append([lane, self.horizon, float(rng.uniform(*self.tspeed)), int(rng.integers(len(TRAFFIC)))])

    # -- rules
    def _tick(self, dx: int, dy: int, fire: bool) -> None:
        self.x = x = min(X_MAX, max(X_MIN, self.x + dx * STEER))
        speed = self.speed + (ACCEL if dy < 0 else -BRAKE if dy > 0 else -COAST)
        self.speed = speed = min(self.top if ROAD_X <= x <= ROAD_END else GRASS_MAX, max(0.0, speed))
        self.dist = dist = self.dist + speed
        behind, gone, near = dist - 3 * CH, dist - 60, dist + CH
        hit, stale = None, False   # the first car that hits you (``near``: no car farther ahead can)
        for c in self.cars:
            d = c[1]
            if behind < d < dist and abs(LANE_X[c[0]] - x) < CW + 4:
                c[2] = min(c[2], speed)  # traffic behind you slows down rather than ram you
            c[1] = d = d + c[2]
            if d <= gone:
                stale = True
            elif d < near and hit is None and abs(d - dist) < CH - 1 and abs(LANE_X[c[0]] - x) < CW - 1:
                hit = c
        if stale:
            self.cars = [c for c in self.cars if c[1] > gone]
        new = len(self.cars)
        if self.horizon < dist + 260:
            self._fill(self.np_random)
        if hit is None and len(self.cars) > new:  # a car just placed: far ahead, unless the distance jumped
            hit = next((c for c in self.cars[new:] if abs(c[1] - dist) < CH - 1 and abs(LANE_X[c[0]] - x) < CW - 1), None)
        self.score = 100.0 if dist >= self.course else float(int(100 * dist / self.course))
        if self.safe:
            self.safe -= 1
        elif hit is not None:
            self.cars.remove(hit)
            self.speed, self.safe = 0.0, 60
            self.lose_life("you crashed")

    def _won(self) -> bool:
        return self.dist >= self.course

    # -- draw
    def _paint_strip(self) -> np.ndarray:
        """The road over one period of lane markings and a view's height, scrolled through each frame."""
        sx, sy = self.sx, self.sy
        period = int(round(DASH * sy))
        fh = self.obs_size[0] - self.hud
        strip = np.empty((fh + period, self.obs_size[1], 3), np.uint8)
        strip[...] = GRASS
        strip[:, int(ROAD_X * sx):int((ROAD_X + LANES * LANE_W) * sx)] = ROAD
        for x in (ROAD_X - 2, ROAD_X + LANES * LANE_W):
            strip[:, int(x * sx):max(int(x * sx) + 1, int((x + 2) * sx))] = EDGE
        for k in range(1, LANES):
            x = int((ROAD_X + k * LANE_W - 0.6) * sx)
            for y in range(0, strip.shape[0], period):
                strip[y:y + max(1, period // 2), x:x + max(1, int(1.2 * sx))] = PAINT
        return strip

    def _draw_field(self, frame: np.ndarray) -> None:
        if self._strip is None:
            self._strip = self._paint_strip()
        fh = frame.shape[0] - self.hud
        period = self._strip.shape[0] - fh
        off = period - 1 - int(self.dist * self.sy) % period
        frame[self.hud:] = self._strip[off:off + fh]  # the whole field, so not a dirty box: each frame covers it
        finish = PY - (self.course - self.dist)
        if -4 < finish < FH:
            for k in range(16):
                self.rect(frame, ROAD_X + k * LANES * LANE_W / 16, finish - 4 + 2 * (k % 2), LANES * LANE_W / 16, 2, PAINT)
        for lane, d, _, col in self.cars:
            y = PY - (d - self.dist)
            if -CH < y < FH:
                self._car(frame, LANE_X[lane] - CW / 2, y, TRAFFIC[col])
        if not self.safe or (self.frames // 4) % 2:
            self._car(frame, self.x - CW / 2, PY, YOU)

    def _car(self, frame: np.ndarray, x: float, y: float, color: tuple[int, int, int]) -> None:
        """``self.sprite(frame, CAR, x, y, CW, CH, color)``, from a cached tile."""
        x0, y0, pw, ph = self._px_box(x, y, CW, CH)
        self._mask_at(frame, sprite_mask(CAR, pw, ph), x0, y0, color)

    def _task_text(self) -> str:
        return ("You drive the blue car up a four-lane road seen from above; the road scrolls toward you as you go. "
                "UP accelerates, DOWN brakes, LEFT and RIGHT steer (UPLEFT and the like do both); with no pedal "
                "the car slowly coasts, and on the grass beside the road it can only crawl. Other cars keep to "
                "their lanes, slower than you can go. Hitting one costs one of your 3 lives (the red marks at the "
                "top left) and stops you. Cross the finish line to win; the bar at the top shows the distance "
                "covered. One action lasts a few frames and may be repeated (sticky actions).")

    def _state_text(self) -> str:
        return f"speed {self.speed:.2f}, {100 * self.dist / self.course:.0f}% of the course; " + super()._state_text()

    # -- oracle
    def _ahead(self, x0: float, x1: float, back: float = 0.0) -> tuple[float, float]:
        """(gap, speed) to the nearest car ahead overlapping the road span [x0, x1] (from ``back`` behind you)."""
        gap, speed = 1e9, 0.0
        for lane, d, v, _ in self.cars:
            cx = ROAD_X + (lane + 0.5) * LANE_W
            if cx + CW / 2 > x0 and cx - CW / 2 < x1 and d - self.dist > -back - CH:
                g = d - self.dist - CH
                if g < gap:
                    gap, speed = g, v
        return gap, speed

    def oracle_action(self) -> int:
        """Keep to the lane with the most room ahead, change lanes only into a gap, and drive as fast
        as the car ahead allows (braking distance plus a margin)."""
        if self._terminated:
            return 0
        lane = int(min(LANES - 1, max(0, (self.x - ROAD_X) // LANE_W)))
        best, goal = -1.0, lane
        for k in sorted(range(LANES), key=lambda k: abs(k - lane)):
            lo, hi = (lane + 1, k) if k > lane else (k, lane - 1)
            span = (ROAD_X + lo * LANE_W + 2, ROAD_X + (hi + 1) * LANE_W - 2)
            if k != lane and self._ahead(*span, back=CH + 4)[0] < 2 * CH:
                continue  # a car beside or close ahead in the lanes on the way over
            room = self._ahead(ROAD_X + k * LANE_W + 2, ROAD_X + (k + 1) * LANE_W - 2)[0] - 12 * abs(k - lane)
            if room > best + 25:
                best, goal = room, k
        cx = ROAD_X + (goal + 0.5) * LANE_W
        steer = 0 if abs(cx - self.x) < STEER * 2 else (1 if cx > self.x else -1)
        gap, lead = self._ahead(self.x - CW / 2 - 2, self.x + CW / 2 + 2)
        need = max(0.0, self.speed ** 2 - lead ** 2) / (2 * BRAKE) + 10 + 3 * self.speed
        pedal = -1 if gap > need + 12 else (1 if gap < need else 0)
        if self.speed + ACCEL > self.top:
            pedal = max(pedal, 0)
        name = {-1: "UP", 0: "", 1: "DOWN"}[pedal] + {0: "", 1: "RIGHT", -1: "LEFT"}[steer]
        return self.action_index(name or "NOOP")


RoadRacer.__doc__ = RoadRacer.__doc__.replace("{ARCADE_ARGS}", ARCADE_ARGS)

SPECS = (
    TaskSpec(name="RoadRacer", entry_point=RoadRacer, max_episode_steps=1200, max_return=100.0,
             tags=("arcade", "real-time", "control", "racing")),
)
