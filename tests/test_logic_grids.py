"""Grid logic puzzles (gymv_envs/domains/logic): uniqueness by each task's own solver, rule-based
verification that accepts a re-ordered but valid answer only where the rules allow it, and
tolerant grid reading."""

from __future__ import annotations

import copy
import json

import gymnasium as gym
import pytest

import gymv_envs
from gymv_envs.domains.logic import (
    _kakuro_solver,
    _numbrix_solver,
    binairo,
    futoshiki,
    hitori,
    kakurasu,
    kenken,
    magic_square,
    skyscrapers,
    survo,
    tents,
    thermometers,
)
from gymv_envs.rules import nonogram, sudoku

BIG = 10**7


def _count(name: str, env) -> int:
    """Solutions of the generated level (up to 2), by the task's solver with no budget to speak of."""
    e = env
    if name == "Sudoku":
        return int(sudoku.solve_singles(e.givens, e.n, e.br, e.bc) is not None)  # singles-solvable => unique
    if name == "Binairo":
        return len(binairo.solve(e.n, e.givens, budget=BIG))
    if name == "Futoshiki":
        return len(futoshiki.solve(e.n, e.givens, e.less, budget=BIG))
    if name == "Skyscrapers":
        return len(skyscrapers.solve(e.n, e.clues, e.givens, budget=BIG))
    if name == "KenKen":
        return len(kenken.solve(e.n, e.cages, budget=BIG))
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
        return len(hitori.solve(e.grid, budget=BIG))
    if name == "Thermometers":
        return len(thermometers.solve(e.n, e.thermos, e.row_counts, e.col_counts, budget=BIG))
    if name == "Tents":
        return len(tents.solve(e.n, e.trees, e.row_counts, e.col_counts, budget=BIG))
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
