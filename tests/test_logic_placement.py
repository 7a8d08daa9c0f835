"""Focused tests of the logic placement puzzles: rule-based verifiers, answer formats, uniqueness."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs  # noqa: F401 - registers the ids
from gymv_envs.domains.logic._akari import Akari
from gymv_envs.domains.logic._loop_solver import (
    clue_rows,
    count_rows,
    loop_solutions,
    mask_counts,
    mask_loop_ok,
    search_rows,
    without,
)
from gymv_envs.domains.logic._nurikabe_solver import nurikabe_solutions
from gymv_envs.domains.logic._slitherlink_region import grows_one_loop
from gymv_envs.domains.logic._star_battle_solver import count_solutions
from gymv_envs.domains.logic.n_queens import queens_solutions
from gymv_envs.domains.logic.norinori import norinori_solutions
from gymv_envs.rules.pipes import rotate


def _env(name: str, difficulty: int = 0, seed: int = 0, **kw):
    env = gym.make(gymv_envs.task_spec(name).id, difficulty=difficulty, obs_size=(64, 64), **kw).unwrapped
    env.reset(seed=seed)
    return env


def _score(env, text: str) -> float:
    return env.step(text)[1]


def test_n_queens_accepts_every_valid_completion():
    for seed in range(10):
        env = _env("NQueens", 1, seed)
        given = dict(env.given)
        sols = queens_solutions(env.n, given, 50)
        assert sols
        for sol in sols:
            env.reset(seed=seed)
            cells = " ".join(f"{chr(65 + c)}{r + 1}" for r, c in enumerate(sol))
            assert _score(env, cells) == 1.0
        # the same answer as a grid, and without the given queens
        env.reset(seed=seed)
        grid = "\n".join("".join("Q" if sols[0][r] == c else "." for c in range(env.n)) for r in range(env.n))
        assert _score(env, grid) == 1.0
        env.reset(seed=seed)
        missing = " ".join(f"{chr(65 + c)}{r + 1}" for r, c in enumerate(sols[0]) if r not in given)
        assert _score(env, missing) == 1.0


def test_n_queens_rejects_attacking_queens():
    env = _env("NQueens", 0, 3)
    sol = list(env._solution)
    (r, c) = next(x for x in sol if x not in env.given)
    bad = [x for x in sol if x != (r, c)] + [(r, (c + 1) % env.n)]
    assert _score(env, " ".join(f"{chr(65 + b)}{a + 1}" for a, b in bad)) == 0.0


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_generated_puzzles_have_one_solution(difficulty):
    for seed in range(6):
        env = _env("StarBattle", difficulty, seed)
        assert len(count_solutions(env.regions, 3)) == 1
        env = _env("Norinori", difficulty, seed)
        assert len(norinori_solutions(env.regions, 3, frozenset(env.blank))) == 1
        env = _env("LightUp", difficulty, seed)
        assert len(Akari(env.n, env.black).solutions(3, budget=10**9)) == 1
        env = _env("Slitherlink", difficulty, seed)
        assert len(loop_solutions(env.n, env.clues, 3, 10**9)) == 1
        env = _env("Nurikabe", difficulty, seed)
        assert len(nurikabe_solutions(env.n, env.numbers, 3)) == 1


def test_pipes_accept_equivalent_rotations_and_cell_lists():
    for seed in range(10):
        env = _env("PipesConnect", 1, seed)
        sol = [list(row) for row in env._solution]
        # turning a straight pipe or a cross by half a turn more changes nothing: still accepted
        for r, row in enumerate(env.tiles):
            for c, m in enumerate(row):
                if rotate(m, 2) == m:
                    sol[r][c] = (sol[r][c] + 2) % 4
        assert _score(env, " ".join("".join(map(str, row)) for row in sol)) == 1.0
        env.reset(seed=seed)
        listed = ", ".join(f"{chr(65 + c)}{r + 1}: {90 * k} degrees" for r, row in enumerate(sol)
                           for c, k in enumerate(row) if k)
        assert _score(env, listed) == 1.0


def test_bridges_answer_formats():
    env = _env("Bridges", 1, 2)
    sol = env._solution
    doubled = ", ".join(f"{chr(65 + a[1])}{a[0] + 1}-{chr(65 + b[1])}{b[0] + 1}" for a, b, k in sol for _ in range(k))
    assert _score(env, doubled) == 1.0
    env.reset(seed=2)
    times = "; ".join(f"{chr(65 + a[1])}{a[0] + 1} to {chr(65 + b[1])}{b[0] + 1} x{k}" for a, b, k in sol)
    assert _score(env, times) == 1.0
    env.reset(seed=2)
    a, b, k = sol[0]
    wrong = env._format(((a, b, 3 - k), *sol[1:]))
    assert _score(env, wrong) == 0.0


def test_mastermind_and_minesweeper_answer_formats():
    env = _env("MastermindDeduce", 1, 4)
    names = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "P": "purple", "O": "orange"}
    code = env._format(env._solution).split()
    assert _score(env, ", ".join(names[x] for x in code)) == 1.0
    env.reset(seed=4)
    assert _score(env, "".join(code)) == 1.0
    env.reset(seed=4)
    assert _score(env, " ".join(reversed(code))) == float(code == code[::-1])
    env = _env("MinesweeperSafe", 2, 5)
    safe = env._format(env._solution).split()
    assert _score(env, " , ".join(reversed(safe)).lower()) == 1.0
    env.reset(seed=5)
    assert _score(env, " ".join(safe[1:]) or "A1") == 0.0


def test_near_misses_break_a_rule():
    for name in ("NQueens", "StarBattle", "LightUp", "Norinori", "Slitherlink", "Bridges", "Nurikabe",
                 "MinesweeperSafe", "MastermindDeduce", "PipesConnect"):
        for seed in range(5):
            env = _env(name, 1, seed, answer_format="mcq")
            for i, option in enumerate(env.options):
                parsed = env._read(option)
                assert parsed is not None, (name, option)
                assert env._check(parsed) == (i == env._correct_index), (name, seed, option)


@pytest.mark.parametrize("n", [3, 4])
def test_slitherlink_block_table_agrees_with_the_whole_grid_check(n):
    """Slitherlink grows its regions asking a cell's 3x3 block alone; every region of an n x n grid whose
    boundary is one loop, with every cell beside it added, gets the whole-grid check's answer."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    checked = 0
    for inside in range(1, 1 << n * n):
        if not mask_loop_ok(inside, n):
            continue
        for r, c in cells:
            cell = 1 << r * n + c
            beside = any(0 <= r + dr < n and 0 <= c + dc < n and inside >> (r + dr) * n + c + dc & 1
                         for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
            if inside & cell or not beside:
                continue
            assert grows_one_loop(inside, cell, n) == mask_loop_ok(inside | cell, n), (n, inside, r, c)
            checked += 1
    assert checked > (100 if n == 3 else 5000)


@pytest.mark.parametrize("n", [3, 4])
def test_slitherlink_row_search_finds_every_loop_that_fits(n):
    """The row-by-row search against every region of an n x n grid: for numbers read off a loop, some
    removed, and a cell whose count must differ from a given number, it finds exactly the loops whose
    counts fit."""
    rng = np.random.default_rng(n)
    loops = [inside for inside in range(1, 1 << n * n) if mask_loop_ok(inside, n)]
    counts = {inside: mask_counts(inside, n) for inside in loops}
    assert all(count_rows(inside, n) == clue_rows(n, counts[inside]) for inside in loops)
    for _ in range(40):
        truth = loops[rng.integers(len(loops))]
        clues = {cell: k for cell, k in counts[truth].items() if rng.random() < 0.6}
        numbers = clue_rows(n, clues)
        differ = None
        if clues and rng.random() < 0.5:  # one number taken out: its cell's count must differ from it
            (r, c), k = sorted(clues.items())[rng.integers(len(clues))]
            numbers[r], differ = without(numbers[r], c, k), ((r, c), k)
        want = sorted(inside for inside in loops
                      if all(counts[inside][cell] == k for cell, k in clues.items() if differ is None or cell != differ[0])
                      and (differ is None or counts[inside][differ[0]] != differ[1]))
        assert sorted(search_rows(n, numbers, 10**6, 10**9)) == want, (n, clues, differ)
