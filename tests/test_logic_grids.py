"""Grid logic puzzles (gymv_envs/domains/logic): uniqueness by each task's own solver, rule-based
verification that accepts a re-ordered but valid answer only where the rules allow it, and
tolerant grid reading."""

from __future__ import annotations

import copy
import itertools
import json

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs
from gymv_envs.domains.logic import (
    _binairo_solver,
    _grid,
    _hitori_solver,
    _kakuro_solver,
    _kenken_solver,
    _numbrix_solver,
    _tents_solver,
    _thermometers_solver,
    futoshiki,
    kakurasu,
    magic_square,
    skyscrapers,
    survo,
)
from gymv_envs.rules import nonogram, sudoku

BIG = 10**7


def _count(name: str, env) -> int:
    """Solutions of the generated level (up to 2), by the task's solver with no budget to speak of."""
    e = env
    if name == "Sudoku":
        return int(sudoku.solve_singles(e.givens, e.n, e.br, e.bc) is not None)  # singles-solvable => unique
    if name == "Binairo":
        return len(_binairo_solver.solve(e.n, e.givens, budget=BIG))
    if name == "Futoshiki":
        return len(futoshiki.solve(e.n, e.givens, e.less, budget=BIG))
    if name == "Skyscrapers":
        return len(skyscrapers.solve(e.n, e.clues, e.givens, budget=BIG))
    if name == "KenKen":
        return len(_kenken_solver.solve(e.n, e.cages, budget=BIG))
    if name == "Kakurasu":
        return len(kakurasu.solve(e.n, e.row_sums, e.col_sums, budget=BIG))
    if name == "MagicSquare":
        return len(magic_square.complete(e.n, e.givens, budget=BIG))
    if name == "Survo":
        return len(survo.solve(e.rows, e.cols, e.givens, e.row_sums, e.col_sums, budget=BIG))
    if name == "Numbrix":
        return min(2, _numbrix_solver.count_small(e.n, e.givens)) if e.n <= _numbrix_solver.ENUMERATED else len(_numbrix_solver.solve(e.n, e.givens, budget=BIG))
    if name == "Nonogram":
        return int(nonogram.line_solve(e.row_clues, e.col_clues, e.n) is not None)  # line-solvable => unique
    if name == "Hitori":
        return len(_hitori_solver.solve(e.grid, budget=BIG))
    if name == "Thermometers":
        return len(_thermometers_solver.solve(e.n, e.thermos, e.row_counts, e.col_counts, budget=BIG))
    if name == "Tents":
        return len(_tents_solver.solve(e.n, e.trees, e.row_counts, e.col_counts, budget=BIG))
    if name == "Kakuro":
        return len(_kakuro_solver.solve(e.cells, e.runs, e.sums, e.givens, budget=BIG))
    raise AssertionError(name)


NAMES = ["Sudoku", "Binairo", "Futoshiki", "Skyscrapers", "KenKen", "Kakurasu", "MagicSquare", "Survo",
         "Numbrix", "Nonogram", "Hitori", "Thermometers", "Tents", "Kakuro"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_generated_levels_have_one_solution(name, difficulty):
    env = gym.make(gymv_envs.task_spec(name).id, difficulty=difficulty, obs_size=(48, 48)).unwrapped
    for seed in range(3):
        env.reset(seed=seed)
        assert _count(name, env) == 1, f"{name} d{difficulty} seed {seed}"
        assert env._check(env._solution)


@pytest.mark.parametrize("name", NAMES)
def test_grid_answers_read_in_many_forms(name):
    env = gym.make(gymv_envs.task_spec(name).id).unwrapped
    env.reset(seed=4)
    sol = env._solution
    said = env.oracle_action()
    forms = [said, f"Answer: {said}", f"The filled grid is:\n{said.replace(' / ', chr(10))}",
             json.dumps({"answer": [list(r) for r in sol]}) if name != "Kakuro" else said.replace(" / ", "\n")]
    for text in forms:
        action = env.parse_action(text)
        assert action is not None, text
        assert copy.deepcopy(env).step(action)[1] == 1.0, text
    assert env.parse_action("I do not know 1 2 3") is None


@pytest.mark.parametrize("name", NAMES)
def test_one_changed_cell_is_wrong(name):
    """Changing any one open cell of the solution breaks a rule (the verifier is not a lookup)."""
    env = gym.make(gymv_envs.task_spec(name).id).unwrapped
    env.reset(seed=6)
    sol = [list(r) for r in env._solution]
    values = list(env._values())
    for r, c in env.free[:6]:
        g = copy.deepcopy(sol)
        g[r][c] = next(v for v in values if v != g[r][c])
        assert not env._check(tuple(tuple(row) for row in g)), (name, r, c)


def test_latin_answers_are_checked_by_rules_not_lookup():
    """A Futoshiki with no clues accepts any Latin square, not one stored grid."""
    env = gym.make("GymV/Futoshiki-v1").unwrapped
    env.reset(seed=0)
    env.givens, env.less = {}, []
    assert env._check(((1, 2, 3, 4), (2, 1, 4, 3), (3, 4, 1, 2), (4, 3, 2, 1)))
    assert env._check(((2, 1, 4, 3), (1, 2, 3, 4), (4, 3, 2, 1), (3, 4, 1, 2)))
    assert not env._check(((1, 2, 3, 4), (1, 2, 3, 4), (3, 4, 1, 2), (4, 3, 2, 1)))



def _table_search_answer(name: str, env, budget: int):
    """The level's solutions (up to 3) by `_grid.latin_solve`, over its rows and columns as filtered
    permutation tables and KenKen's cages as one-hot tables; "budget" when it runs out."""
    n, perms = env.n, _grid.permutation_array(env.n)
    keep = [np.ones(len(perms), dtype=bool) for _ in range(2 * n)]
    tables, givens = [], None
    if name == "Futoshiki":
        givens = env.givens
        for (r1, c1), (r2, c2) in env.less:
            line, i, j = (r1, c1, c2) if r1 == r2 else (n + c1, r1, r2)
            keep[line] &= perms[:, i] < perms[:, j]
    elif name == "Skyscrapers":
        givens = env.givens
        for (edge, i), v in env.clues.items():
            seen = [skyscrapers.visible(p[::-1] if edge in ("bottom", "right") else p) for p in perms]
            keep[i + (n if edge in ("top", "bottom") else 0)] &= np.array(seen) == v
    else:
        for cells, op, t in env.cages:
            codes = [sum(1 << ((r * n + c) * n + v - 1) for (r, c), v in zip(cells, vals))
                     for vals in itertools.product(range(1, n + 1), repeat=len(cells))
                     if _kenken_solver.cage_value(op, list(vals)) == t and all(  # cells in one line differ
                         vals[i] != vals[j] for i, j in itertools.combinations(range(len(cells)), 2)
                         if cells[i][0] == cells[j][0] or cells[i][1] == cells[j][1])]
            tables.append((_grid.cell_bits([r * n + c for r, c in cells], n), codes))
    lines = [_grid.latin_line_table(n, line, keep[line]) for line in range(2 * n)]
    try:
        return _grid.latin_solve(n, lines + tables, givens, 3, budget)
    except _grid.Budget:
        return "budget"


@pytest.mark.parametrize("name", ["KenKen", "Futoshiki", "Skyscrapers"])
def test_latin_search_matches_table_search(name):
    """`_latin.latin_search` finds what `_grid.latin_solve` finds over the same tables, in the same order,
    and runs out of budget at the same branch (KenKen's levels depend on the order); on levels with some
    clues dropped, so that they have several solutions."""
    for seed in range(6):
        env = gym.make(gymv_envs.task_spec(name).id, difficulty=seed % 3).unwrapped
        env.reset(seed=seed)
        if name == "KenKen":
            env.cages = [(c, "+", sum(env._solution[r][k] for r, k in c)) if len(c) > 1 else (c, op, t)
                         for c, op, t in env.cages]
        elif name == "Futoshiki":
            env.givens, env.less = dict(list(env.givens.items())[1:]), env.less[seed:]
        else:
            env.clues, env.givens = dict(list(env.clues.items())[seed:]), {}
        for budget in (1, 2, 5, 20, 10**6):
            try:
                if name == "KenKen":
                    new = _kenken_solver.solve(env.n, env.cages, 3, budget)
                elif name == "Futoshiki":
                    new = futoshiki.solve(env.n, env.givens, env.less, 3, budget)
                else:
                    new = skyscrapers.solve(env.n, env.clues, env.givens, 3, budget)
            except _grid.Budget:
                new = "budget"
            assert new == _table_search_answer(name, env, budget), (name, seed, budget)


def test_latin_search_from_a_kept_state():
    """A search that starts from the state an easier puzzle (a subset of its clues) kept answers as one from
    scratch, with the same branch count (the fewest-clues search of Futoshiki and Skyscrapers relies on it)."""
    for seed in range(6):
        env = gym.make("GymV/Futoshiki-v1", difficulty=seed % 3).unwrapped
        env.reset(seed=seed)
        givens, less = list(env.givens.items()), env.less
        for cut in (0, len(less) // 3, len(less) // 2):
            keep: list = []
            futoshiki.solve(env.n, dict(givens[:1]), less[:cut], 3, keep=keep)
            for budget in (1, 3, 10**6):
                try:
                    plain = futoshiki.solve(env.n, dict(givens), less[:cut + 2], 3, budget)
                except _grid.Budget:
                    plain = "budget"
                try:
                    kept = futoshiki.solve(env.n, dict(givens), less[:cut + 2], 3, budget, base=keep[0])
                except _grid.Budget:
                    kept = "budget"
                assert kept == plain, (seed, cut, budget)


def test_kakuro_run_table_and_reveal():
    """A run's table gives what `allowed` gives at every set of placed digits; `reveal` leaves the filling
    the only solution, checked by the solver that restarts per call."""
    for k, total in ((2, 3), (2, 10), (3, 15), (4, 30), (5, 20)):
        table = _kakuro_solver.run_table(k, total)
        for used in range(0, 1024, 2):
            placed = [d for d in range(1, 10) if used >> d & 1]
            if len(placed) <= k and table[used]:
                assert table[used] == _kakuro_solver.allowed(k - len(placed), total - sum(placed), used)
    env = gym.make("GymV/Kakuro-v2", difficulty=2, obs_size=(48, 48)).unwrapped
    for seed in range(20):
        env.reset(seed=seed)
        for budget in (5_000, 3):  # a tiny budget reveals cells at random, still to one solution
            givens = _kakuro_solver.reveal(env.cells, env.runs, env.sums, env._fill, np.random.default_rng(seed), budget)
            assert _kakuro_solver.solve(env.cells, env.runs, env.sums, givens, budget=BIG) == [env._fill]
