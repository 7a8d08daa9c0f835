"""The gridworld engine shared by the MiniGrid-style tasks: objects, rules, views, tiles, planner.

A world is a ``rows x cols`` board kept as a flat tuple of cells (``None`` is floor; every other cell
is a small tuple: ``WALL``, ``GOAL``, ``LAVA``, ``OBSTACLE``, ``("door", colour, state)`` with state
``"open"``, ``"closed"`` or ``"locked"``, ``("key", colour)``, ``("ball", colour)``, ``("box", colour,
content)``), the agent's cell and direction (0 east, 1 south, 2 west, 3 north) and what it carries.
The board's border is always wall. `world_step` is the one rule book: the env plays it and the
planner searches with it. A task (one file) subclasses `GridWorldEnv` with its level generator
(``_build``) and its success rule (``_verdict``).
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome
from gymv_envs.core.canvas import PALETTE, draw_shape, fill_rect, new_frame, outline_rect, pil_draw

Cell = tuple | None
State = tuple[int, int, Cell, tuple]  # (agent cell, direction, carried object, board)

WALL, GOAL, LAVA, OBSTACLE = ("wall",), ("goal",), ("lava",), ("obstacle",)
COLOURS = ("red", "green", "blue", "purple", "yellow", "cyan")
DIR_NAMES = ("east", "south", "west", "north")
EGOCENTRIC = ("left", "right", "forward", "pickup", "drop", "toggle", "done")
ABSOLUTE = ("up", "down", "left", "right", "pickup", "drop", "toggle", "done")
ABS_DIR = {"right": 0, "down": 1, "left": 2, "up": 3}
ACTION_MODES = ("egocentric", "absolute")
VIEWS = ("full", "agent")
VIEW_SIZES = tuple(range(3, 16, 2))
PICKABLE = ("key", "ball", "box")
PLAN_NODES = 600  # macro states the planner expands at most


def door(colour: str, state: str = "closed") -> tuple:
    return ("door", colour, state)


def key(colour: str) -> tuple:
    return ("key", colour)


def ball(colour: str) -> tuple:
    return ("ball", colour)


def box(colour: str, content: Cell = None) -> tuple:
    return ("box", colour, content)


def passable(cell: Cell) -> bool:
    """Whether the agent can stand on ``cell`` (lava can be walked into, and ends the episode)."""
    return cell is None or cell is GOAL or cell == GOAL or cell == LAVA or (cell[0] == "door" and cell[2] == "open")


def opaque(cell: Cell) -> bool:
    return cell is not None and (cell[0] == "wall" or (cell[0] == "door" and cell[2] != "open"))


def describe_cell(cell: Cell) -> str:
    if cell is None:
        return "floor"
    if cell[0] == "door":
        return f"the {cell[2]} {cell[1]} door"
    if len(cell) > 1:
        return f"the {cell[1]} {cell[0]}"
    return {"wall": "a wall", "goal": "the goal", "lava": "lava", "obstacle": "a moving obstacle"}[cell[0]]


# ----------------------------------------------------------------- rules
def world_step(state: State, action: str, mode: str, cols: int) -> tuple[State, str]:
    """The state after ``action`` and what happened (``moved``, ``turned``, ``bumped:<kind>``,
    ``picked``, ``dropped``, ``opened``, ``closed``, ``unlocked``, ``noop:<why>``). Every action in the
    space is valid: one that cannot act (forward into a wall, pickup before nothing) changes nothing."""
    pos, d, carrying, grid = state
    offs = (1, cols, -1, -cols)
    if mode == "egocentric" and action in ("left", "right"):
        return (pos, (d + (1 if action == "right" else 3)) % 4, carrying, grid), "turned"
    if action == "forward" or (mode == "absolute" and action in ABS_DIR):
        if action != "forward":
            d = ABS_DIR[action]
        front = pos + offs[d]
        if passable(grid[front]):
            return (front, d, carrying, grid), "moved"
        return (pos, d, carrying, grid), f"bumped:{grid[front][0]}"
    front = pos + offs[d]
    cell = grid[front]
    if action == "pickup":
        if carrying is not None:
            return state, "noop:hands full"
        if cell is None or cell[0] not in PICKABLE:
            return state, "noop:nothing to pick up"
        return (pos, d, cell, _put(grid, front, None)), "picked"
    if action == "drop":
        if carrying is None:
            return state, "noop:nothing carried"
        if cell is not None:
            return state, "noop:no room to drop"
        return (pos, d, None, _put(grid, front, carrying)), "dropped"
    if action == "toggle":
        if cell is not None and cell[0] == "door":
            if cell[2] == "locked":
                if carrying is None or carrying[0] != "key" or carrying[1] != cell[1]:
                    return state, "noop:locked"
                return (pos, d, carrying, _put(grid, front, door(cell[1], "open"))), "unlocked"
            new = "closed" if cell[2] == "open" else "open"
            return (pos, d, carrying, _put(grid, front, door(cell[1], new))), "opened" if new == "open" else "closed"
        if cell is not None and cell[0] == "box":
            return (pos, d, carrying, _put(grid, front, cell[2])), "opened"
        return state, "noop:nothing to toggle"
    return state, "noop:done"


def _put(grid: tuple, i: int, cell: Cell) -> tuple:
    return grid[:i] + (cell,) + grid[i + 1:]


# ----------------------------------------------------------------- the agent's view
def view_cells(state: State, rows: int, cols: int, size: int) -> list[list[Cell]]:
    """The ``size x size`` window in front of the agent, rotated so the agent (bottom centre) faces up;
    ``"hidden"`` where walls and closed doors hide a cell (light spreads forward and sideways from the
    agent through see-through cells, as MiniGrid's partial view does)."""
    pos, d, _, grid = state
    r0, c0 = divmod(pos, cols)
    fr, fc = ((0, 1), (1, 0), (0, -1), (-1, 0))[d]
    rr, rc = ((0, 1), (1, 0), (0, -1), (-1, 0))[(d + 1) % 4]
    half = size // 2
    cells: list[list[Cell]] = []
    for i in range(size):
        ahead, row = size - 1 - i, []
        for j in range(size):
            lat = j - half
            r, c = r0 + fr * ahead + rr * lat, c0 + fc * ahead + rc * lat
            row.append(grid[r * cols + c] if 0 <= r < rows and 0 <= c < cols else WALL)
        cells.append(row)
    seen = [[False] * size for _ in range(size)]
    seen[size - 1][half] = True
    for i in range(size - 1, -1, -1):
        for sweep in (range(size - 1), range(size - 1, 0, -1)):
            step = 1 if sweep.step == 1 else -1
            for j in sweep:
                if not seen[i][j] or (opaque(cells[i][j]) and (i, j) != (size - 1, half)):
                    continue
                seen[i][j + step] = True
                if i > 0:
                    seen[i - 1][j] = seen[i - 1][j + step] = True
    return [[cells[i][j] if seen[i][j] else "hidden" for j in range(size)] for i in range(size)]


# ----------------------------------------------------------------- tiles (drawn once per key and size)
FLOOR_C, WALL_C, HIDDEN_C, AGENT_C = (18, 18, 22), (118, 118, 124), (52, 52, 64), (232, 40, 40)
BG_C, LINE_C = (36, 36, 42), (64, 64, 72)


def _dark(colour: tuple[int, int, int], f: float = 0.45) -> tuple[int, int, int]:
    return tuple(int(v * f) for v in colour)  # type: ignore[return-value]


def draw_tile(key: Any, h: int, w: int) -> np.ndarray:
    """One cell: floor, wall, goal, lava, a door, a key, a ball, a box, the agent (with what it carries
    in the corner) or a hidden cell."""
    if key == "hidden":
        tile = new_frame(h, w, HIDDEN_C)
        fill_rect(tile, 0, h // 2, w, h // 2 + max(1, h // 16), _dark(HIDDEN_C, 0.8))
        return tile
    if isinstance(key, tuple) and key[0] == "agent":
        _, d, under, carrying = key
        tile = draw_tile(under, h, w)
        tip = [(0.9, 0.5), (0.5, 0.9), (0.1, 0.5), (0.5, 0.1)][d]
        back = [((0.15, 0.15), (0.15, 0.85)), ((0.15, 0.15), (0.85, 0.15)),
                ((0.85, 0.15), (0.85, 0.85)), ((0.15, 0.85), (0.85, 0.85))][d]
        with pil_draw(tile) as g:
            g.polygon([(tip[0] * w, tip[1] * h), (back[0][0] * w, back[0][1] * h), (back[1][0] * w, back[1][1] * h)],
                      fill=AGENT_C)
        if carrying is not None and h >= 6:
            s = max(3, h * 2 // 5)
            small = draw_tile(carrying, s, s)
            tile[:s, :s] = small
            outline_rect(tile, 0, 0, s, s, (240, 240, 240), max(1, s // 10))
        return tile
    tile = new_frame(h, w, FLOOR_C)
    if key is None:
        return tile
    kind, t = key[0], max(1, min(h, w) // 10)
    if kind == "wall":
        fill_rect(tile, 0, 0, w, h, WALL_C)
    elif kind == "goal":
        fill_rect(tile, 0, 0, w, h, PALETTE["green"])
    elif kind == "lava":
        fill_rect(tile, 0, 0, w, h, (255, 128, 0))
        with pil_draw(tile) as g:
            for k in range(3):
                y = h * (0.3 + 0.2 * k)
                pts = [(w * x / 8, y + (h * 0.06 if x % 2 else -h * 0.06)) for x in range(9)]
                g.line(pts, fill=(120, 40, 0), width=max(1, h // 16))
    elif kind == "obstacle":
        draw_shape(tile, "circle", w / 2, h / 2, max(2, int(h * 0.8)), PALETTE["blue"])
    elif kind == "ball":
        draw_shape(tile, "circle", w / 2, h / 2, max(2, int(h * 0.66)), PALETTE[key[1]])
    elif kind == "box":
        c = PALETTE[key[1]]
        outline_rect(tile, w * 0.14, h * 0.14, w * 0.86, h * 0.86, c, t)
        fill_rect(tile, w * 0.14, h * 0.48, w * 0.86, h * 0.48 + t, c)
    elif kind == "key":
        c = PALETTE[key[1]]
        with pil_draw(tile) as g:
            g.ellipse((w * 0.34, h * 0.1, w * 0.66, h * 0.4), outline=c, width=max(1, int(w * 0.09)))
            g.rectangle((w * 0.46, h * 0.38, w * 0.56, h * 0.88), fill=c)
            g.rectangle((w * 0.56, h * 0.62, w * 0.7, h * 0.7), fill=c)
            g.rectangle((w * 0.56, h * 0.78, w * 0.7, h * 0.86), fill=c)
    elif kind == "door":
        c = PALETTE[key[1]]
        if key[2] == "open":
            outline_rect(tile, 0, 0, w, h, c, t)
        else:
            fill_rect(tile, 0, 0, w, h, c if key[2] == "closed" else _dark(c, 0.55))
            outline_rect(tile, t, t, w - t, h - t, _dark(c), t)
            if key[2] == "closed":
                draw_shape(tile, "circle", w * 0.76, h / 2, max(2, h // 7), _dark(c))
            else:
                fill_rect(tile, w * 0.45, h * 0.3, w * 0.55, h * 0.7, _dark(c, 0.25))
    return tile


CHARS = {"wall": "##", "goal": "GG", "lava": "VV", "obstacle": "OO"}
AGENT_CHARS = (">>", "vv", "<<", "^^")  # the agent facing east, south, west, north
FACING = tuple(f"\nfacing {name}, carrying " for name in DIR_NAMES)  # the state text's last line


def cell_chars(cell: Any) -> str:
    """Two characters per cell for the state text."""
    if cell is None:
        return ".."
    if cell == "hidden":
        return "??"
    if cell[0] == "agent":
        return AGENT_CHARS[cell[1]]
    if cell[0] in CHARS:
        return CHARS[cell[0]]
    letter = {"key": "K", "ball": "B", "box": "X"}.get(cell[0]) or {"open": "o", "closed": "D", "locked": "L"}[cell[2]]
    return letter + cell[1][0]


_ROW_CHARS: dict[Any, str] = {}  # cell_chars of the cells seen (a board has few kinds; cleared past 4096)


def row_chars(row: Sequence[Any]) -> str:
    """`cell_chars` of each cell of ``row``, joined."""
    try:
        return "".join(map(_ROW_CHARS.__getitem__, row))
    except KeyError:
        if len(_ROW_CHARS) > 4096:
            _ROW_CHARS.clear()
        for cell in row:
            _ROW_CHARS[cell] = cell_chars(cell)
        return "".join(map(_ROW_CHARS.__getitem__, row))


@functools.lru_cache(maxsize=64)
def row_slices(rows: int, cols: int) -> tuple[slice, ...]:
    """The slices of a flat ``rows x cols`` board that are its rows."""
    return tuple(slice(i, i + cols) for i in range(0, rows * cols, cols))


# ----------------------------------------------------------------- level building
class Level:
    """A board under construction: border walls, inner walls, objects, the agent."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cells: list[Cell] = [None] * (rows * cols)
        self.wall_rect(0, 0, rows - 1, cols - 1)
        self.agent = -1
        self.dir = 0

    def idx(self, r: int, c: int) -> int:
        return r * self.cols + c

    def __getitem__(self, rc: tuple[int, int]) -> Cell:
        return self.cells[rc[0] * self.cols + rc[1]]

    def __setitem__(self, rc: tuple[int, int], cell: Cell) -> None:
        self.cells[rc[0] * self.cols + rc[1]] = cell

    def wall_rect(self, r0: int, c0: int, r1: int, c1: int) -> None:
        """Walls along the outline of the box from (r0, c0) to (r1, c1) inclusive."""
        for c in range(c0, c1 + 1):
            self[r0, c] = self[r1, c] = WALL
        for r in range(r0, r1 + 1):
            self[r, c0] = self[r, c1] = WALL

    def vwall(self, c: int, r0: int = 0, r1: int | None = None) -> None:
        for r in range(r0, (self.rows - 1 if r1 is None else r1) + 1):
            self[r, c] = WALL

    def hwall(self, r: int, c0: int = 0, c1: int | None = None) -> None:
        for c in range(c0, (self.cols - 1 if c1 is None else c1) + 1):
            self[r, c] = WALL

    def empty_cells(self, r0: int, c0: int, r1: int, c1: int) -> list[tuple[int, int]]:
        return [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
                if self[r, c] is None and self.idx(r, c) != self.agent]

    def place(self, rng: np.random.Generator, cell: Cell, r0: int, c0: int, r1: int, c1: int,
              avoid: tuple = ()) -> tuple[int, int]:
        """Put ``cell`` on a random empty floor cell of the box (not on ``avoid``); returns where."""
        free = [rc for rc in self.empty_cells(r0, c0, r1, c1) if rc not in avoid]
        rc = free[int(rng.integers(len(free)))]
        self[rc] = cell
        return rc

    def place_agent(self, rng: np.random.Generator, r0: int, c0: int, r1: int, c1: int,
                    avoid: tuple = ()) -> tuple[int, int]:
        free = [rc for rc in self.empty_cells(r0, c0, r1, c1) if rc not in avoid]
        r, c = free[int(rng.integers(len(free)))]
        self.agent, self.dir = self.idx(r, c), int(rng.integers(4))
        return r, c


# ----------------------------------------------------------------- the env base
class GridWorldEnv(MultiTurnEnv):
    """Base of the gridworld tasks (see the module docstring); a task supplies ``LEVELS`` (per
    difficulty, whatever its ``_build`` reads), ``_build(rng, level_config) -> Level``,
    ``_verdict(pos, carrying, grid, event)`` and ``_goal_text()``."""

    action_modes = ACTION_MODES
    LEVELS: ClassVar[dict[int, Any]] = {}
    # Tasks where opening an (unlocked) door is itself the point (RedBlueDoors) plan door toggles as
    # steps of their own; elsewhere the planner opens closed doors on its way through them.
    plans_door_toggles: ClassVar[bool] = False
    transient_attrs = (*MultiTurnEnv.transient_attrs, "_keys", "_rows", "_row_texts")
    fast_oracle = False  # a search over board configurations (milliseconds), replanned off its path

    def __init__(self, view: str = "full", agent_view_size: int = 7, **kwargs: Any) -> None:
        if not isinstance(view, str) or view not in VIEWS:
            raise ValueError(f"invalid view={view!r}; valid values: {', '.join(map(repr, VIEWS))}")
        if isinstance(agent_view_size, bool) or agent_view_size not in VIEW_SIZES:
            raise ValueError(f"invalid agent_view_size={agent_view_size!r}; valid values: odd integers 3 to 15")
        self.view, self.agent_view_size = view, int(agent_view_size)
        self._plan: dict | None = None
        self._keys: tuple | None = None
        self._rows: tuple | None = None
        self._row_texts: dict[tuple, str] | None = None
        super().__init__(**kwargs)

    @property
    def action_names(self) -> tuple[str, ...]:  # type: ignore[override]
        return ABSOLUTE if self.action_mode == "absolute" else EGOCENTRIC

    # -- task hooks
    def _build(self, rng: np.random.Generator, config: Any) -> Level:
        raise NotImplementedError

    def _verdict(self, pos: int, carrying: Cell, grid: tuple, event: str) -> bool | None:
        """True: success, False: failure (the episode ends either way), None: play on. The default:
        reaching the goal succeeds, walking into lava fails."""
        if event == "moved":
            if grid[pos] == GOAL:
                return True
            if grid[pos] == LAVA:
                return False
        return None

    def _goal_text(self) -> str:
        raise NotImplementedError

    def _tick(self, rng: np.random.Generator) -> None:
        """Hook: the world's own move after the agent's (moving obstacles)."""

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        lv = self._build(rng, self.LEVELS[self.difficulty])
        self.rows, self.cols = lv.rows, lv.cols
        self.pos, self.dir, self.carrying, self.grid = lv.agent, lv.dir, None, tuple(lv.cells)
        self._plan = None

    @property
    def state(self) -> State:
        return (self.pos, self.dir, self.carrying, self.grid)

    # -- rules
    def _apply(self, action: Any) -> Outcome:
        name = self.action_names[int(action)]
        state = (self.pos, self.dir, self.carrying, self.grid)
        (self.pos, self.dir, self.carrying, self.grid), event = world_step(state, name, self.action_mode, self.cols)
        verdict = self._verdict(self.pos, self.carrying, self.grid, event)
        feedback = self._feedback(name, event)
        if verdict is True:
            return Outcome(reward=1.0, terminated=True, success=True, feedback=f"{feedback}; task complete")
        if verdict is False:
            return Outcome(terminated=True, feedback=f"{feedback}; task failed")
        self._tick(self.np_random)
        return Outcome(feedback=feedback)

    def _feedback(self, name: str, event: str) -> str:
        if event.startswith("noop:"):
            return f"{name}: nothing happened ({event[5:]})"
        if event.startswith("bumped:"):
            return f"{name}: blocked by {describe_cell(self.grid[self.pos + (1, self.cols, -1, -self.cols)[self.dir]])}"
        return f"{name}: {event}, facing {DIR_NAMES[self.dir]}"

    # -- draw
    def _board_keys(self) -> list[Any]:
        """What each drawn cell shows, row by row (the frame and the state text read the same, made once
        per state)."""
        hit = self._keys
        if hit is not None and hit[0] is self.grid and hit[1] == (self.pos, self.dir, self.carrying):
            return hit[2]
        keys = self._make_keys()
        self._keys = (self.grid, (self.pos, self.dir, self.carrying), keys)
        return keys

    def _make_keys(self) -> list[Any]:
        if self.view == "agent":
            keys = view_cells(self.state, self.rows, self.cols, self.agent_view_size)
            n = self.agent_view_size
            keys[n - 1][n // 2] = ("agent", 3, self.grid[self.pos], self.carrying)
            return keys
        rows = self._board_rows()[0]
        r, c = divmod(self.pos, self.cols)
        keys, row = list(rows), rows[r]
        keys[r] = row[:c] + (("agent", self.dir, row[c], self.carrying),) + row[c + 1:]
        return keys

    def _board_rows(self) -> tuple[tuple, str]:
        """The grid's rows (tuples of cells) and their text, agent left out; made once per grid, each
        row's text looked up in a per-env memo (cleared past 4096 rows)."""
        grid, hit = self.grid, self._rows
        if hit is not None and hit[0] is grid:
            return hit[1], hit[2]
        rows = tuple(map(grid.__getitem__, row_slices(self.rows, self.cols)))
        memo = self._row_texts
        if memo is None:  # a new or unpickled env
            memo = self._row_texts = {}
        try:
            text = "\n".join(map(memo.__getitem__, rows))
        except KeyError:  # a row not seen yet
            if len(memo) > 4096:
                memo.clear()
            for row in rows:
                if row not in memo:
                    memo[row] = row_chars(row)
            text = "\n".join(map(memo.__getitem__, rows))
        self._rows = (grid, rows, text)
        return rows, text

    def _draw(self) -> np.ndarray:
        keys = self._board_keys()
        painter = self.grid_painter(len(keys), len(keys[0]), draw_tile, background=BG_C, line_color=LINE_C)
        return painter.paint(keys)

    def _state_text(self) -> str:
        if self.view == "agent":
            board = "\n".join(map(row_chars, self._board_keys()))
        else:  # the grid's text with the agent's two characters put in (row r starts at r * (2 * cols + 1))
            pos = self.pos
            at = 2 * pos + pos // self.cols
            text = self._board_rows()[1]
            board = text[:at] + AGENT_CHARS[self.dir] + text[at + 2:]
        carried = describe_cell(self.carrying).removeprefix("the ") if self.carrying else "nothing"
        return board + FACING[self.dir] + carried

    def _task_text(self) -> str:
        seen = (f"You see the {self.agent_view_size}x{self.agent_view_size} cells ahead of you and to your sides, "
                "turned so that you (the red triangle, bottom centre) face up; cells hidden behind walls and "
                "closed doors are shaded" if self.view == "agent" else
                "You see the whole world from above; you are the red triangle, pointing the way you face")
        moves = ("left and right turn you 90 degrees in place, forward steps one cell ahead"
                 if self.action_mode == "egocentric" else
                 "up, down, left and right turn you that way and step one cell if it is free")
        return (f"{seen}. Grey cells are walls, the green cell is the goal, orange cells are lava (stepping in ends "
                "the episode), coloured tiles are doors (a dark one with a slot is locked, a hollow frame is open), "
                "keys, balls (circles) and boxes (hollow squares). The object you carry is shown in your cell's "
                f"corner. Actions: {moves}; pickup takes the object in front of you (one at a time), drop puts "
                "it on the free cell in front, toggle opens or closes the door in front (a locked door opens only "
                "while you carry the key of its colour) or opens a box to show what it holds, done does nothing. "
                "Actions that cannot act (a step into a wall) change nothing. " + self._goal_text())

    # -- oracle
    def oracle_action(self) -> int:
        state = self.state
        if self._plan is None or state not in self._plan:
            self._plan = self._make_plan(state)
        name = self._plan.get(state, "done")
        return self.action_names.index(name)

    def _make_plan(self, state: State) -> dict:
        """{state: action} along a plan from ``state`` to success, played through `world_step`."""
        actions = plan(self, state, 1) or plan(self, state, 3)
        if actions is None:  # no plan found: wait (the state is cached so the search is not rerun)
            return {state: "done"}
        out, s = {}, state
        for a in actions:
            out[s] = a
            s, _ = world_step(s, a, self.action_mode, self.cols)
        return out


# ----------------------------------------------------------------- planner
def _nav(env: GridWorldEnv, state: State):
    """BFS over (cell, direction) with the board fixed, closed doors counted as open (they are opened on
    the way). Returns (order of poses, parents, a winning (pose, move) or None, dead-end cells)."""
    pos0, d0, carrying, grid = state
    C, mode = env.cols, env.action_mode
    offs = (1, C, -1, -C)
    pas = [cell is None or (cell[0] in ("goal", "lava")) or (cell[0] == "door" and cell[2] != "locked") for cell in grid]
    start = (pos0, d0)
    parents: dict = {start: None}
    order, frontier, verdicts = [start], [start], {}
    moves = (("left", "right", "forward") if mode == "egocentric" else ("up", "down", "left", "right"))
    while frontier:
        nxt = []
        for pose in frontier:
            p, d = pose
            for m in moves:
                if m == "left" and mode == "egocentric":
                    new, event = (p, (d + 3) % 4), "turned"
                elif m == "right" and mode == "egocentric":
                    new, event = (p, (d + 1) % 4), "turned"
                else:
                    k = d if m == "forward" else ABS_DIR[m]
                    t = p + offs[k]
                    if pas[t]:
                        new, event = (t, k), "moved"
                    elif m == "forward":
                        continue
                    else:
                        new, event = (p, k), "bumped"
                if new in parents:
                    continue
                if event != "turned":
                    vk = (new[0], event)
                    if vk not in verdicts:
                        g = grid
                        if event == "moved" and grid[new[0]] is not None and grid[new[0]][0] == "door":
                            g = _put(grid, new[0], door(grid[new[0]][1], "open"))
                        verdicts[vk] = env._verdict(new[0], carrying, g, event if event == "moved" else
                                                    f"bumped:{grid[p + offs[k]][0]}")
                    v = verdicts[vk]
                    if v is False:
                        continue
                    if v is True:
                        return order, parents, (pose, m)
                parents[new] = (pose, m)
                order.append(new)
                nxt.append(new)
        frontier = nxt
    return order, parents, None


def _path(parents: dict, pose) -> list[str]:
    out = []
    while parents[pose] is not None:
        pose, m = parents[pose]
        out.append(m)
    return out[::-1]


def _replay(env: GridWorldEnv, state: State, actions: list[str]):
    """Play ``actions`` from ``state``, opening closed doors in the way. Returns (state, actions played,
    verdict) or None when a step fails the task."""
    C, mode = env.cols, env.action_mode
    offs = (1, C, -1, -C)
    played: list[str] = []
    s = state
    for a in actions:
        steps = [a]
        if a == "forward" or (mode == "absolute" and a in ABS_DIR):
            k = s[1] if a == "forward" else ABS_DIR[a]
            cell = s[3][s[0] + offs[k]]
            if cell is not None and cell[0] == "door" and cell[2] == "closed":
                steps = ([a] if k != s[1] else []) + ["toggle", a]
        for b in steps:
            s, event = world_step(s, b, mode, C)
            played.append(b)
            v = env._verdict(s[0], s[2], s[3], event)
            if v is not None:
                return (s, played, v) if v else None
    return s, played, None


def _droppable(grid: tuple, f: int, C: int) -> bool:
    if grid[f] is not None:
        return False
    around = [grid[f + o] for o in (1, C, -1, -C)]
    if any(c is not None and c[0] == "door" for c in around):
        return False
    free = [c is None or c[0] != "wall" for c in around]
    return not (sum(free) == 2 and (free[0] == free[2]))  # not a one-wide corridor


def _canon(grid: tuple, doors_matter: bool) -> tuple:
    if doors_matter:
        return grid
    return tuple(door(c[1], "open") if c is not None and c[0] == "door" and c[2] == "closed" else c for c in grid)


def plan(env: GridWorldEnv, state: State, spots: int = 1) -> list[str] | None:
    """Actions from ``state`` to success: a uniform-cost search over the board's configurations, whose
    steps are (walk to a pose, then pickup / drop / toggle there); walking is a BFS over (cell,
    direction). The plan picks up only what serves: a key to a locked door, an object in front of a door
    (an obstruction) or the object the task asks for; a box holding something it opens instead. Dropping
    only frees the hands: what the plan drops it never picks up again, and it drops at the ``spots``
    nearest cells where the object blocks no door or corridor."""
    C = env.cols
    offs = (1, C, -1, -C)
    counter = 0
    heap: list = [(0, counter, state, False, frozenset())]
    parent: dict = {state: None}
    expanded: set = set()
    while heap and len(expanded) < PLAN_NODES:
        cost, _, s, won, inert = heapq.heappop(heap)
        if won:
            out = []
            while parent[s] is not None:
                s, acts = parent[s]
                out = acts + out
            return out
        order, parents, win = _nav(env, s)
        ekey = (s[2], _canon(s[3], env.plans_door_toggles), min(p for p, _ in order))
        if ekey in expanded:
            continue
        expanded.add(ekey)
        children = []
        if win is not None:
            children.append((_path(parents, win[0]) + [win[1]], None))
        tried, drops = set(), 0
        _, _, carrying, grid = s
        locked = {c[1] for c in grid if c is not None and c[0] == "door" and c[2] == "locked"}
        doors = [i for i, c in enumerate(grid) if c is not None and c[0] == "door"]
        useful = {i for i, c in enumerate(grid) if c is not None and c[0] == "key" and c[1] in locked}
        useful |= {d + o for d in doors for o in offs if grid[d + o] is not None and grid[d + o][0] in PICKABLE
                   and not (grid[d + o][0] == "box" and grid[d + o][2] is not None)}
        for pose in order:
            f = pose[0] + offs[pose[1]]
            cell = grid[f]
            acts = []
            if cell is not None and cell[0] in PICKABLE and carrying is None and f not in inert and (
                    f in useful or env._verdict(pose[0], cell, _put(grid, f, None), "picked")):
                acts.append("pickup")
            if cell is not None and (cell[0] == "box" and cell[2] is not None or cell[0] == "door" and (
                    cell[2] == "locked" and carrying == key(cell[1]) or cell[2] == "closed" and env.plans_door_toggles)):
                acts.append("toggle")
            if carrying is not None and drops < spots and f not in tried and _droppable(grid, f, C):
                acts.append("drop")
                drops += 1
            for a in acts:
                if (f, a) in tried:
                    continue
                tried.add((f, a))
                tried.add(f)
                children.append((_path(parents, pose) + [a], f if a == "drop" else None))
        for acts, dropped in children:
            out = _replay(env, s, acts)
            if out is None:
                continue
            s2, played, v = out
            if s2 in parent:
                continue
            parent[s2] = (s, played)
            counter += 1
            heapq.heappush(heap, (cost + len(played), counter, s2, bool(v), inert if dropped is None else inert | {dropped}))
    return None


class PickupGoal:
    """Mixin of the tasks won by picking up one named object, ``self.target`` (a ball or a box)."""

    target: Cell
    _ICONS = {"ball": "circle", "box": "square"}

    def _verdict(self, pos: int, carrying: Cell, grid: tuple, event: str) -> bool | None:
        return True if carrying == self.target else None

    def _goal_text(self) -> str:
        return f"Pick up the {self.target[1]} {self.target[0]}."

    def _caption(self) -> list:
        kind, colour = self.target[0], self.target[1]
        return ["Pick up", (self._ICONS[kind], colour), f"{colour} {kind}"]
