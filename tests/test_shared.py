"""Focused tests of the shared layer: core.cells (both row numberings), core.board, and the rules
modules whose behaviour no task test pins down on its own (the maze carver, Lights Out ties,
Connect Four lines, the tic-tac-toe minimax)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gymv_envs.core.board import (
    Geom,
    blank_labelled_board,
    labelled_layout,
    layout,
    paint_regions,
    region_board,
)
from gymv_envs.core.cells import (
    GO_LETTERS,
    cell_name,
    cell_names,
    cell_tokens,
    find_cells,
    format_cells,
    parse_cell,
)
from gymv_envs.rules import connect_four, lights_out, maze, tic_tac_toe


# ----------------------------------------------------------------- cells
def test_cell_name_counts_rows_from_the_top_unless_bottom_up():
    assert cell_name(0, 0) == "A1" and cell_name(2, 1) == "B3"
    assert cell_name(0, 0, 8, bottom_up=True) == "A8" and cell_name(7, 4, 8, bottom_up=True) == "E1"
    assert cell_name(0, 8, 9, bottom_up=True, letters=GO_LETTERS) == "J9"  # Go skips I
    assert cell_names(2, 2) == ("A1", "B1", "A2", "B2")
    assert cell_names(2, 2, bottom_up=True) == ("A2", "B2", "A1", "B1")
    assert format_cells([(1, 0), (0, 2)]) == "C1 A2"


@pytest.mark.parametrize("bottom_up", [False, True])
def test_parsers_invert_cell_name(bottom_up):
    rows, cols = 7, 5
    for r in range(rows):
        for c in range(cols):
            name = cell_name(r, c, rows, bottom_up=bottom_up)
            assert parse_cell(name.lower(), rows, cols, bottom_up=bottom_up) == (r, c)
            assert find_cells(f"I play {name}.", rows, cols, bottom_up=bottom_up) == [(r, c)]


def test_parsers_reject_what_is_off_the_board():
    assert parse_cell("F1", 5, 5) is None and parse_cell("A6", 5, 5) is None and parse_cell("A0", 5, 5) is None
    assert parse_cell("A1B2", 5, 5) is None
    assert find_cells("A1 and Z9", 5, 5) is None and find_cells("no cells", 5, 5) is None
    seps = re.compile(r"[\s,]+")
    assert cell_tokens("A1, B2 A1", seps, 3, 3) == [(0, 0), (1, 1), (0, 0)]
    assert cell_tokens("A1 hello", seps, 3, 3) is None


# ----------------------------------------------------------------- board
def test_layout_fits_and_centres_the_board():
    g = layout((200, 300), 4, 6, pad=(1, 0, 0, 1))
    assert isinstance(g, Geom)
    x0, y0, cell = g
    assert x0 - cell >= 0 and x0 + 6 * cell <= 300 and y0 - cell >= 0 and y0 + 4 * cell <= 200
    assert g.center(0, 0) == (x0 + cell / 2, y0 + cell / 2) and g.box(1, 2)[:2] == (x0 + 2 * cell, y0 + cell)
    assert labelled_layout((200, 300), 4, 6, labels=False) == layout((200, 300), 4, 6)


def test_region_board_paints_what_paint_regions_paints():
    # its cached row lines against the cell-by-cell tints, on frames where the bands apply and where they do not
    rng = np.random.default_rng(0)
    for size in [(84, 84), (96, 128), (512, 512), (200, 90), (33, 40), (61, 300)]:
        for rows, cols in [(5, 5), (8, 8), (4, 7)]:
            regions = rng.integers(0, 9, (rows, cols))
            want, g = blank_labelled_board(size, rows, cols)
            paint_regions(want, g, regions)
            got, g2 = region_board(size, regions)
            assert g2 == g and got.flags.writeable and np.array_equal(got, want), (size, rows, cols)


# ----------------------------------------------------------------- maze
@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_carved_mazes_are_perfect(n):
    rng = np.random.default_rng(n)
    passages = maze.carve_maze(rng, n, ((0, 1), (1, 0), (0, -1), (-1, 0)))
    assert len(passages) == n * n - 1  # a spanning tree: n^2 cells, n^2 - 1 passages ...
    for a, b in passages:
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and all(0 <= v < n for v in (*a, *b))
    walls = maze.block_map(n, passages)
    dist = maze.grid_distances(walls, [(1, 1)])
    rooms = [(2 * r + 1, 2 * c + 1) for r in range(n) for c in range(n)]
    assert all(dist[p] < 10**6 for p in rooms)  # ... that reaches every cell: one path between any two
    closed = maze.closed_walls(n, passages)
    assert len(closed) == 2 * n * (n - 1) - len(passages)
    assert sorted(maze.closed_walls(n, passages, by_row=True)) == sorted(closed)


def test_carving_is_a_pure_function_of_the_generator():
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    a = maze.carve_maze(np.random.default_rng(7), 6, steps)
    b = maze.carve_maze(np.random.default_rng(7), 6, steps)
    assert a == b and a != maze.carve_maze(np.random.default_rng(8), 6, steps)


def test_block_map_widens_corridors():
    passages = [((0, 0), (0, 1))]
    walls = maze.block_map(2, passages, width=2)
    assert walls.shape == (7, 7)
    assert not walls[1:3, 1:6].any() and walls[1:3, 3].sum() == 0 and walls[4:6, 3].all()


# ----------------------------------------------------------------- lights out, connect four, tic-tac-toe
def test_fewest_presses_switch_the_board_off_and_break_ties_as_asked():
    n = 4
    masks = lights_out.press_masks(n)
    rng = np.random.default_rng(0)
    for _ in range(50):
        board = 0
        for i in rng.choice(n * n, size=5, replace=False):
            board ^= masks[int(i)]
        sols = lights_out.all_solutions(n, board)
        for first_row in (False, True):
            best = lights_out.fewest_presses(n, board, first_row_ties=first_row)
            cells = tuple(divmod(i, n) for i in range(n * n) if best >> i & 1)
            assert lights_out.apply_presses(n, board, cells) == 0
            assert best.bit_count() == min(s.bit_count() for s in sols)
        ties = [s for s in sols if s.bit_count() == best.bit_count()]
        assert lights_out.fewest_presses(n, board) == min(ties)
        assert lights_out.fewest_presses(n, board, True) == min(ties, key=lambda s: s & (1 << n) - 1)


def test_connect_four_lines():
    board = [0] * (connect_four.ROWS * connect_four.COLS)
    for c in range(3):
        board[5 * connect_four.COLS + c] = 1
    assert connect_four.landing_row(board, 0) == 4 and not connect_four.wins_at(board, 5 * connect_four.COLS)
    board[5 * connect_four.COLS + 3] = 1
    assert connect_four.wins_at(board, 5 * connect_four.COLS + 1)
    diag = [0] * len(board)
    for k in range(4):
        diag[(5 - k) * connect_four.COLS + k] = 2
    assert connect_four.wins_at(diag, 5 * connect_four.COLS) and len(connect_four.WINDOWS) == 69


def test_connect_four_bit_boards_agree_with_the_flat_board():
    R, C = connect_four.ROWS, connect_four.COLS
    rng = np.random.default_rng(11)
    cases = wins_seen = 0
    for _ in range(400):  # random play until a four or a full board, checked after every disc
        board, bits = [0] * (R * C), [0, 0, 0]
        for k in range(R * C):
            open_cols = [c for c in range(C) if connect_four.landing_row(board, c) >= 0]
            p = 1 + k % 2
            taken = bits[1] | bits[2]
            for q in (1, 2):  # where a disc of q would complete four now
                want = 0
                for c in open_cols:
                    r = connect_four.landing_row(board, c)
                    board[r * C + c] = q
                    if connect_four.wins_at(board, r * C + c):
                        want |= 1 << (7 * c + R - 1 - r)
                    board[r * C + c] = 0
                assert connect_four.wins_now(bits[q], taken) == want
                wins_seen += bool(want)
            c = open_cols[int(rng.integers(len(open_cols)))]
            r = connect_four.landing_row(board, c)
            board[r * C + c] = p
            bits[p] |= 1 << (7 * c + R - 1 - r)
            cases += 1
            four = any(all(board[i] == p for i in w) for w in connect_four.WINDOWS)
            assert connect_four.has_four(bits[p]) == four
            if four:
                break
    assert cases > 5000 and wins_seen > 500


def test_tic_tac_toe_score():
    empty = (0,) * 9
    assert tic_tac_toe.score(empty) == 0  # perfect play draws
    x_wins = (1, 1, 0, 2, 2, 0, 0, 0, 0)
    assert tic_tac_toe.move_score(x_wins, 2) == 99 and tic_tac_toe.win_distance(x_wins) == 1
    assert tic_tac_toe.winner(tic_tac_toe.play(x_wins, 2)) == tic_tac_toe.CROSS


@pytest.mark.parametrize("size", [(84, 84), (96, 128), (200, 150)])
def test_grid_painter_paint_colours_matches_one_colour_tiles(size):
    from gymv_envs.core.canvas import GridPainter, new_frame

    palette = np.array([(200, 30, 30), (20, 160, 40), (30, 40, 210), (230, 200, 20)], np.uint8)
    tile = lambda k, h, w: new_frame(h, w, tuple(int(v) for v in palette[k]))  # noqa: E731
    rng = np.random.default_rng(0)
    for _ in range(3):
        board = rng.integers(len(palette), size=(5, 7))
        flat, tiled = GridPainter(size, 5, 7, tile, line=0), GridPainter(size, 5, 7, tile, line=0)
        got = flat.paint_colours(palette[board]).copy()
        assert np.array_equal(got, tiled.paint(board.tolist()))
        board2 = rng.integers(len(palette), size=(5, 7))  # `paint` after `paint_colours` redraws every cell
        flat.paint(board2.tolist())
        flat.paint_colours(palette[board])
        assert np.array_equal(flat.paint(board2.tolist()), tiled.paint(board2.tolist()))
    with pytest.raises(ValueError, match="line=0"):
        GridPainter(size, 5, 7, tile, line=1).paint_colours(palette[board])
    tileless = GridPainter(size, 5, 7, None, line=0)  # a board drawn only in flat colours
    assert np.array_equal(tileless.paint_colours(palette[board]), GridPainter(size, 5, 7, tile, line=0).paint(board.tolist()))
    with pytest.raises(ValueError, match="paint_colours"):
        tileless.paint(board.tolist())


def test_fill_rect_clips_and_takes_every_kind_of_colour():
    from gymv_envs.core.canvas import fill, fill_rect

    rng = np.random.default_rng(3)
    for _ in range(200):  # against numpy's own broadcast over the clipped box
        x0, x1 = sorted(rng.uniform(-12, 40, 2))
        y0, y1 = sorted(rng.uniform(-12, 40, 2))
        colour = tuple(int(v) for v in rng.integers(256, size=3))
        got = np.zeros((30, 26, 3), np.uint8)
        fill_rect(got, x0, y0, x1, y1, colour)
        want = np.zeros_like(got)
        a, b, c, d = max(int(x0), 0), min(int(x1), 26), max(int(y0), 0), min(int(y1), 30)
        if a < b and c < d:  # (an empty box fills nothing: a negative end is no index from the far side)
            want[c:d, a:b] = colour
        assert np.array_equal(got, want), (x0, y0, x1, y1)
    for colour in ([9, 8, 7], np.array([9, 8, 7], np.int64), (9.9, 8, 7), np.array([9, 8, 7], np.uint8)):
        for side in (3, 20):  # the broadcast of a few pixels and the row copy of many
            region = np.zeros((side, side, 3), np.uint8)
            fill(region, colour)
            assert (region == [9, 8, 7]).all(), (colour, side)
    with pytest.raises(OverflowError):  # out of range, as numpy's own assignment says
        fill(np.zeros((20, 20, 3), np.uint8), (256, 0, 0))


def test_single_turn_formats_its_solution_once_per_level():
    import gymnasium as gym

    env = gym.make("GymV/Binairo-v1", obs_size=(84, 84)).unwrapped
    calls = []
    fmt = env._format
    env._format = lambda answer: calls.append(answer) or fmt(answer)
    for seed in range(3):
        env.reset(seed=seed)
        action = env.oracle_action()
        *_, info = env.step(action)
        assert info["success"] and info["answer"] == action == fmt(env._solution)
        assert len(calls) == seed + 1  # the oracle's action and info's answer: one text
    env._solution = [row[::-1] for row in env._solution]  # a task that sets its solution again gets the new text
    assert env.oracle_action() == fmt(env._solution) and len(calls) == 4


def test_single_turn_draws_once_and_hands_out_two_separate_frames():
    import gymnasium as gym

    env = gym.make("GymV/Binairo-v1", obs_size=(84, 84)).unwrapped
    draws = []
    draw = env._draw
    env._draw = lambda: draws.append(1) or draw()
    for seed in range(2):
        obs0, _ = env.reset(seed=seed)
        picture = obs0.copy()
        obs0[...] = 0  # the reset observation is the user's: the step's is not it
        obs1, *_ = env.step(env.oracle_action())
        assert len(draws) == seed + 1 and np.array_equal(obs1, picture) and not np.shares_memory(obs0, obs1)
    obs1[...] = 0  # the step handed out the env's copy: render() draws the picture again
    frame = env.render()
    assert np.array_equal(frame, picture) and len(draws) == 3 and not np.shares_memory(frame, obs1)
    assert np.array_equal(env.render(), picture) and len(draws) == 3  # then keeps it
    obs2, *_ = env.step("late")  # an observation after the end: a copy of the kept frame
    assert np.array_equal(obs2, picture) and not np.shares_memory(obs2, env.render()) and len(draws) == 3
    env.reset(seed=1)
    obs1, *_ = env.step(env.oracle_action())
    assert np.array_equal(env.render_view("front"), obs1) and len(draws) == 5  # the camera view draws it again too
    # a task that keeps its drawn array (a cache, an attribute) gets copies: nothing it holds goes out
    kept = []
    env._draw = lambda: kept.append(draw()) or kept[-1]
    obs0, _ = env.reset(seed=5)
    obs1, *_ = env.step(env.oracle_action())
    assert not np.shares_memory(obs0, kept[-1]) and not np.shares_memory(obs1, kept[-1])
