"""Focused tests of PolyominoTiling (rule-based verifier, parser, solver) and RushHourMoves (BFS counts)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs  # noqa: F401 - registers the ids
from gymv_envs.domains.puzzles._polyomino import canonical, normal, orientations, solve_tiling
from gymv_envs.domains.puzzles.polyomino_tiling import LEVELS as LEVELS_TILING
from gymv_envs.domains.puzzles.rush_hour_moves import LEVELS
from gymv_envs.rules.rush_hour import component_distances, fewest_moves, random_board


def _env(name: str, difficulty: int = 0, seed: int = 0, **kw):
    env = gym.make(gymv_envs.task_spec(name).id, difficulty=difficulty, obs_size=(64, 64), **kw).unwrapped
    env.reset(seed=seed)
    return env


def _score(env, text: str, seed: int) -> float:
    env.reset(seed=seed)
    return env.step(text)[1]


def _all_tilings(region, shapes, limit: int = 200) -> list[tuple[str, ...]]:
    """Every tiling (up to ``limit``) by a plain search independent of the env's solver, as letter grids."""
    rows, cols = max(r for r, _ in region) + 1, max(c for _, c in region) + 1
    found: list[dict] = []

    def search(free: frozenset, unused: frozenset, assign: dict) -> None:
        if len(found) >= limit:
            return
        if not free:
            found.append(dict(assign))
            return
        first = min(free)
        for i in sorted(unused):
            for o in orientations(shapes[i]):
                r0, c0 = min(o)
                cells = {(r + first[0] - r0, c + first[1] - c0) for r, c in o}
                if cells <= free:
                    assign.update({cell: i for cell in cells})
                    search(free - cells, unused - {i}, assign)
                    for cell in cells:
                        del assign[cell]

    search(frozenset(region), frozenset(range(len(shapes))), {})
    return [tuple("".join(chr(65 + a[(r, c)]) if (r, c) in a else "." for c in range(cols)) for r in range(rows))
            for a in found]


# ----------------------------------------------------------------------------- polyomino tiling
@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_solver_tiles_every_seed_and_oracle_is_valid(difficulty):
    for seed in range(25):
        env = _env("PolyominoTiling", difficulty, seed)
        assert len(env.region) == sum(len(p) for p in env.pieces)
        assert len({canonical(p) for p in env.pieces}) == len(env.pieces), "pieces are distinct shapes"
        tiling = solve_tiling(env.region, env.rows, env.cols, env.pieces)
        assert tiling is not None and frozenset().union(*tiling) == env.region
        assert sum(len(t) for t in tiling) == len(env.region)
        assert env._check(env._solution)
        assert env.step(env.oracle_action())[1] == 1.0


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_region_is_built_from_its_pieces_in_the_box(difficulty):
    """The oracle's tiling is the one the region was grown from: piece i covers tiling[i], in one of
    its orientations, the pieces do not overlap and the region fits the level's box."""
    box = LEVELS_TILING[difficulty][2]
    for seed in range(40):
        env = _env("PolyominoTiling", difficulty, seed)
        assert sum(len(t) for t in env.tiling) == len(env.region) == len(frozenset().union(*env.tiling))
        assert all(normal(t) in orientations(p) for t, p in zip(env.tiling, env.pieces))
        assert env.rows <= box[0] and env.cols <= box[1]
        assert all(env._solution[r][c] == env.letters[i] for i, t in enumerate(env.tiling) for r, c in t)


def test_verifier_accepts_alternative_tilings():
    alternatives = 0
    for seed in range(40):
        env = _env("PolyominoTiling", 0, seed)
        tilings = _all_tilings(env.region, env.pieces)
        assert env._solution in tilings
        for grid in tilings:
            assert _score(env, "\n".join(grid), seed) == 1.0
            if grid != env._solution:
                alternatives += 1
    assert alternatives > 0, "no level with a second tiling to check"


def test_verifier_accepts_reflected_pieces():
    """Reflections are allowed: a tiling of a mirrored region is a tiling of the original, mirrored back."""
    for seed in range(10):
        env = _env("PolyominoTiling", 1, seed)
        mirrored = frozenset((r, env.cols - 1 - c) for r, c in env.region)
        tiling = solve_tiling(mirrored, env.rows, env.cols, env.pieces)
        grid = [["."] * env.cols for _ in range(env.rows)]
        for letter, cells in zip(env.letters, tiling):
            for r, c in cells:
                grid[r][env.cols - 1 - c] = letter
        assert _score(env, "\n".join("".join(row) for row in grid), seed) == 1.0


def test_verifier_rejects_broken_tilings():
    seed = 2
    env = _env("PolyominoTiling", 1, seed)
    sol = [list(row) for row in env._solution]
    cells = [(r, c) for r in range(env.rows) for c in range(env.cols) if sol[r][c] != "."]
    outside = [(r, c) for r in range(env.rows) for c in range(env.cols) if sol[r][c] == "."]
    r, c = cells[0]

    def text(grid) -> str:
        return "\n".join("".join(row) for row in grid)

    overlap = [row[:] for row in sol]  # one piece takes a cell of another: sizes no longer match
    overlap[r][c] = next(ch for ch in env.letters if ch != sol[r][c])
    assert _score(env, text(overlap), seed) == 0.0
    missing = [row[:] for row in sol]  # a region cell left uncovered
    missing[r][c] = "."
    assert _score(env, text(missing), seed) == 0.0
    spill = [row[:] for row in sol]  # a piece cell outside the region
    spill[outside[0][0]][outside[0][1]] = sol[r][c]
    assert _score(env, text(spill), seed) == 0.0
    swap = {env.letters[0]: env.letters[1], env.letters[1]: env.letters[0]}  # two pieces' letters swapped
    relabelled = [[swap.get(ch, ch) for ch in row] for row in sol]
    if canonical(env.pieces[0]) != canonical(env.pieces[1]):
        assert _score(env, text(relabelled), seed) == 0.0
    absent = [[env.letters[0] if ch == env.letters[1] else ch for ch in row] for row in sol]  # a piece unused
    assert _score(env, text(absent), seed) == 0.0
    # wrong dimensions cannot be read as a grid at all
    env.reset(seed=seed)
    _, reward, term, _, info = env.step(text(sol[:-1]))
    assert reward == 0.0 and not term and info["invalid_action"]


def test_parser_tolerates_formatting():
    seed = 5
    env = _env("PolyominoTiling", 1, seed)
    rows = env._solution
    replies = [
        "\n".join(rows),
        "Answer:\n" + "\n".join(rows),
        "Here is my tiling:\n```\n" + "\n".join(rows) + "\n```\nI checked every piece.",
        "\n".join(" ".join(row) for row in rows).lower(),
        "\n".join("| " + " | ".join(row) + " |" for row in rows),
        " / ".join(rows),
        "<think>maybe " + "\n".join(reversed(rows)) + "</think>\n<answer>\n" + "\n".join(rows) + "\n</answer>",
    ]
    for reply in replies:
        assert env.parse_action(reply) == "\n".join(rows), reply
        assert _score(env, reply, seed) == 1.0, reply


def test_mcq_negatives_are_near_misses():
    for seed in range(15):
        env = _env("PolyominoTiling", 2, seed, answer_format="mcq")
        sizes = {ch: len(p) for ch, p in zip(env.letters, env.pieces)}
        valid = 0
        for option in env.options:
            grid = tuple(option.split(" / "))
            assert len(grid) == env.rows and all(len(row) == env.cols for row in grid)
            text = "".join(grid)
            assert {ch: text.count(ch) for ch in env.letters} == sizes  # same letters, same piece sizes
            assert all((ch == ".") == ((i // env.cols, i % env.cols) not in env.region) for i, ch in enumerate(text))
            valid += env._check(grid)
        assert valid == 1


# ----------------------------------------------------------------------------- rush hour
RED = (True, 2, 2)


def test_fewest_moves_hand_checked_boards():
    # the red car already at the exit, and with a clear road (one slide of four cells is one move)
    assert fewest_moves((RED,), (4,)) == 0
    assert fewest_moves((RED,), (0,)) == 1
    # a car across the road in column 4: it steps out of the way, then the red car leaves
    assert fewest_moves((RED, (False, 2, 3)), (0, 1)) == 2
    # a truck in column 5 (rows 1-3) must go down to rows 4-6, but a car on row 6 (columns 4-5)
    # sits under it: the car slides left, the truck slides down three cells, the red car leaves
    assert fewest_moves((RED, (False, 3, 4), (True, 2, 5)), (0, 0, 3)) == 3
    # the same car parked at columns 1-2 of row 6 is not in the truck's way
    assert fewest_moves((RED, (False, 3, 4), (True, 2, 5)), (0, 0, 0)) == 2
    # a car in column 3 (rows 2-3) can go up only once the car on row 1 (columns 2-3) moves, or
    # down only once the truck on row 4 (columns 1-3) moves: three moves either way
    assert fewest_moves((RED, (False, 2, 2), (True, 2, 0), (True, 3, 3)), (0, 1, 1, 0)) == 3
    # column 5 filled by three cars: nothing there can ever move, so the red car never gets out
    assert fewest_moves((RED, (False, 2, 4), (False, 2, 4), (False, 2, 4)), (0, 0, 2, 4)) is None


def test_component_distances_match_forward_search():
    rng = np.random.default_rng(0)
    checked = 0
    while checked < 5:
        vehicles, positions = random_board(rng, 9)
        dist = component_distances(vehicles, positions, 3000)
        if not dist:
            continue
        codes = list(dist)
        for code in [codes[int(i)] for i in rng.choice(len(codes), size=min(8, len(codes)), replace=False)]:
            pos = tuple(code >> (3 * v) & 7 for v in range(len(vehicles)))
            assert fewest_moves(vehicles, pos) == dist[code]
        checked += 1


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_rush_hour_answer_is_the_bfs_count(difficulty):
    lo, hi = LEVELS[difficulty][0]
    counts = set()
    for seed in range(12):
        env = _env("RushHourMoves", difficulty, seed)
        best = fewest_moves(env.vehicles, env.positions)
        assert best == env._solution and lo <= best <= hi
        counts.add(best)
        assert _score(env, f"The fewest number of moves is {best}.", seed) == 1.0
        assert _score(env, str(best + 1), seed) == 0.0
        assert _score(env, str(best - 1), seed) == 0.0
    assert len(counts) >= 3, "answers barely vary"


def test_rush_hour_state_text_matches_vehicles():
    env = _env("RushHourMoves", 2, 4)
    rows = env._state_text().splitlines()[:6]
    cells = sum(length for _, length, _ in env.vehicles)
    assert sum(ch != "." for row in rows for ch in row) == cells
    assert rows[2].count("A") == 2
