"""Focused tests of the logic families of issue 16: verifiers that accept every valid answer and reject
near misses, solvers against brute force on tiny cases, and uniqueness of the generated puzzles."""

from __future__ import annotations

import itertools

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs
from gymv_envs.domains.logic import _binairo_solver as binairo
from gymv_envs.domains.logic import _campsite_solver, renzoku
from gymv_envs.domains.logic._circuits import Circuit, apply, parse_bits
from gymv_envs.domains.logic._star_battle_solver import count_solutions
from gymv_envs.domains.logic._tents_solver import solve as tents_solve
from gymv_envs.rules.lights_out import all_solutions


def _env(name: str, difficulty: int = 0, seed: int = 0, **kw):
    env = gym.make(gymv_envs.task_spec(name).id, difficulty=difficulty, obs_size=(64, 64), **kw).unwrapped
    env.reset(seed=seed)
    return env


def _score(env, text: str, seed: int) -> float:
    env.reset(seed=seed)
    return env.step(text)[1]


def _cells(cells) -> str:
    return " ".join(f"{chr(65 + c)}{r + 1}" for r, c in cells)


# ----------------------------------------------------------------- GridParity
def test_grid_parity_accepts_every_press_set_and_rejects_near_misses():
    for seed in range(4):
        env = _env("GridParity", 2, seed)
        n, sols = env.n, all_solutions(env.n, env.start ^ env.target)
        assert len(sols) == 4  # 5x5: every solvable pattern has four press sets
        for mask in sols:
            cells = [divmod(i, n) for i in range(n * n) if mask >> i & 1]
            assert _score(env, _cells(cells), seed) == 1.0
            # pressing a cell twice undoes it: any order, with a pair of repeats, still works
            assert _score(env, _cells(cells[::-1] + [(0, 0), (0, 0)]), seed) == 1.0
            assert _score(env, _cells(cells[1:]), seed) == 0.0


def test_grid_parity_mcq_wrong_options_fail_by_simulation():
    env = _env("GridParity", 1, 3, answer_format="mcq")
    for i, text in enumerate(env.options):
        presses = env._parse_answer(text)
        assert env._check(presses) == (i == env._correct_index)


# ----------------------------------------------------------------- logic gates
def _evaluate(c: Circuit, bits: tuple[int, ...]) -> list[int]:
    """An independent evaluator: each gate from its truth table, recursively, with memo."""
    table = {"AND": (0, 0, 0, 1), "OR": (0, 1, 1, 1), "XOR": (0, 1, 1, 0), "NAND": (1, 1, 1, 0), "NOR": (1, 0, 0, 0)}
    memo: dict[int, int] = {}

    def val(v: int) -> int:
        if v < c.inputs:
            return bits[v]
        if v not in memo:
            op, a, b = c.gates[v - c.inputs]
            memo[v] = 1 - val(a) if op == "NOT" else table[op][2 * val(a) + val(b)]
        return memo[v]

    return [val(o) for o in c.outputs]


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_logic_gate_output_matches_an_independent_evaluator(difficulty):
    for seed in range(6):
        env = _env("LogicGateOutput", difficulty, seed)
        c = env.circuit
        assert len(c.outputs) == env.outputs and max(c.levels) >= env.min_depth
        read = {x for _, a, b in c.gates for x in (a, b) if x >= 0}
        assert set(range(c.inputs)) <= read, "an input is not used"
        truth = _evaluate(c, env.assignment)
        names = env.names
        assert list(env._solution) == truth
        said = ", ".join(f"{k}: {v}" for k, v in reversed(list(zip(names, truth))))
        assert _score(env, said, seed) == 1.0  # any order, `:` instead of `=`
        assert _score(env, "".join(map(str, truth)), seed) == 1.0
        for k in range(len(truth)):
            near = [v ^ (i == k) for i, v in enumerate(truth)]
            assert _score(env, " ".join(f"{a}={b}" for a, b in zip(names, near)), seed) == 0.0


def test_truth_tables_agree_with_gate_by_gate_evaluation():
    rng = np.random.default_rng(5)
    from gymv_envs.domains.logic._circuits import random_circuit
    for _ in range(20):
        c = random_circuit(rng, 4, 7, 2, 3)
        tabs = c.truth_tables()
        for x in range(16):
            bits = tuple(x >> (3 - i) & 1 for i in range(4))
            assert [tabs[o] >> x & 1 for o in c.outputs] == _evaluate(c, bits) == list(c.output_values(bits))
    assert apply("NAND", 1, 1) == 0 and apply("NOR", 0, 0) == 1 and apply("NOT", 0, 1) == 1


@pytest.mark.parametrize("difficulty", [0, 2])
def test_logic_gate_input_accepts_every_satisfying_assignment(difficulty):
    for seed in range(5):
        env = _env("LogicGateInput", difficulty, seed)
        k, sats = env.inputs, 0
        for bits in itertools.product((0, 1), repeat=k):
            ok = _evaluate(env.circuit, bits) == [1]
            sats += ok
            said = " ".join(f"{n}={b}" for n, b in zip(env.names, bits))
            assert _score(env, said, seed) == float(ok)
        assert 1 <= sats <= env.share * 2 ** k


def test_logic_gate_input_mcq_wrong_options_give_zero():
    for seed in range(8):
        env = _env("LogicGateInput", 1, seed, answer_format="mcq")
        for i, text in enumerate(env.options):
            bits = parse_bits(text, env.names)
            assert (_evaluate(env.circuit, bits) == [1]) == (i == env._correct_index)


def test_parse_bits_reads_common_forms_only():
    names = ("P", "Q")
    assert parse_bits("P=1, Q=0", names) == (1, 0)
    assert parse_bits("q: 1 p: 0", names) == (0, 1)
    assert parse_bits("1 0", names) == (1, 0) and parse_bits("true, false", names) == (1, 0)
    assert parse_bits("P=1", names) is None and parse_bits("P=1 Q=0 P=0", names) is None
    assert parse_bits("102", names) is None and parse_bits("P=1 Z=0", names) is None


# ----------------------------------------------------------------- Renzoku
def _latin_squares(n: int):
    for rows in itertools.product(itertools.permutations(range(1, n + 1)), repeat=n):
        if all(len(set(col)) == n for col in zip(*rows)):
            yield rows


def test_renzoku_solver_agrees_with_brute_force():
    rng = np.random.default_rng(0)
    squares = list(_latin_squares(4))
    assert len(squares) == 576
    for _ in range(12):
        truth = squares[int(rng.integers(len(squares)))]
        right, below = renzoku.dots_of(truth)
        cells = [(r, c) for r in range(4) for c in range(4)]
        givens = {x: truth[x[0]][x[1]] for x in (cells[int(i)] for i in rng.permutation(16)[:int(rng.integers(0, 3))])}
        brute = sorted(s for s in squares if renzoku.dots_of(s) == (right, below)
                       and all(s[r][c] == v for (r, c), v in givens.items()))
        assert sorted(renzoku.solve(4, givens, right, below, limit=10**6)) == brute


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_renzoku_levels_are_unique_and_near_misses_fail(difficulty):
    for seed in range(4):
        env = _env("Renzoku", difficulty, seed)
        assert len(renzoku.solve(env.n, env.givens, env.right, env.below, limit=3)) == 1
        sol = [list(r) for r in env._solution]
        assert _score(env, " / ".join(" ".join(map(str, r)) for r in sol), seed) == 1.0
        sol[0][0], sol[0][1] = sol[0][1], sol[0][0]
        assert _score(env, " / ".join(" ".join(map(str, r)) for r in sol), seed) == 0.0


# ----------------------------------------------------------------- Campsite
def _camp_grids(n: int):
    for bits in range(1 << (n * n)):
        rows = [(bits >> (r * n)) & ((1 << n) - 1) for r in range(n)]
        if all(not (m & m >> 1) for m in rows) and all(not (a & (b | b << 1 | b >> 1)) for a, b in zip(rows, rows[1:])):
            yield tuple(rows)


def test_campsite_solver_agrees_with_brute_force():
    n = 4
    grids = list(_camp_grids(n))
    rng = np.random.default_rng(1)
    for _ in range(15):
        truth = grids[int(rng.integers(len(grids)))]
        rc = [m.bit_count() for m in truth]
        cc = [sum(m >> c & 1 for m in truth) for c in range(n)]
        ones = [m & int(rng.integers(1 << n)) for m in truth]
        zeros = [~m & int(rng.integers(1 << n)) & (1 << n) - 1 for m in truth]
        brute = sorted(g for g in grids if [m.bit_count() for m in g] == rc
                       and [sum(m >> c & 1 for m in g) for c in range(n)] == cc
                       and all(m & o == o and not m & z for m, o, z in zip(g, ones, zeros)))
        assert sorted(_campsite_solver.solve(n, rc, cc, ones, zeros, limit=10**6)) == brute


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_campsite_levels_are_unique_and_touching_camps_fail(difficulty):
    for seed in range(4):
        env = _env("Campsite", difficulty, seed)
        assert len(_campsite_solver.solve(env.n, env.row_counts, env.col_counts, env.ones, env.zeros, limit=3)) == 1
        sol = env._solution
        assert _score(env, " / ".join("".join(map(str, r)) for r in sol), seed) == 1.0  # 0/1 digits too
        # one camp that is not given left out: the counts no longer hold
        grid = [list(r) for r in sol]
        r, c = next((r, c) for r in range(env.n) for c in range(env.n) if grid[r][c] and not env.ones[r] >> c & 1)
        grid[r][c] = 0
        assert _score(env, " / ".join("".join("#" if v else "." for v in row) for row in grid), seed) == 0.0


def test_campsite_verifier_rejects_diagonal_neighbours():
    env = _env("Campsite", 0, 0)
    env.row_counts, env.col_counts = [1, 1, 0, 0, 0], [1, 1, 0, 0, 0]
    env.ones, env.zeros = [0] * 5, [0] * 5
    diagonal = ((1, 0, 0, 0, 0), (0, 1, 0, 0, 0)) + ((0,) * 5,) * 3
    assert not env._check(diagonal)


# ----------------------------------------------------------------- BinairoPlain
def test_binairo_plain_solver_agrees_with_brute_force():
    n = 4
    lines = binairo.valid_lines(n, False)
    assert len(lines) == 6 and len(binairo.valid_lines(n)) == 6  # no triple fits in 4 balanced cells either
    grids = [g for g in itertools.product(lines, repeat=n) if len(set(g)) == n
             and all(sum(col) == n // 2 for col in zip(*g)) and len(set(zip(*g))) == n]
    rng = np.random.default_rng(2)
    for _ in range(15):
        truth = grids[int(rng.integers(len(grids)))]
        cells = [(r, c) for r in range(n) for c in range(n)]
        givens = {x: truth[x[0]][x[1]] for x in (cells[int(i)] for i in rng.permutation(16)[:int(rng.integers(0, 6))])}
        brute = sorted(g for g in grids if all(g[r][c] == v for (r, c), v in givens.items()))
        assert sorted(binairo.solve(n, givens, limit=10**6, no_triples=False, budget=10**7)) == brute
        # line reasoning is sound: it keeps every solution and settles only cells they all agree on
        masks, support = binairo._balanced(n)
        fits, known = [(1 << len(masks)) - 1] * (2 * n), [0] * (2 * n)
        for (r, c), v in givens.items():
            fits[r] &= support[c][v]
            fits[n + c] &= support[r][v]
        assert binairo.plain_deduce(n, fits, known, list(range(2 * n))) or not brute
        for g in brute:
            assert all(fits[r] >> masks.index(sum(v << c for c, v in enumerate(g[r]))) & 1 for r in range(n))
            assert all(len({h[r][c] for h in brute}) == 1 for r in range(n) for c in range(n) if known[r] >> c & 1)


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_binairo_plain_levels_are_unique(difficulty):
    for seed in range(4):
        env = _env("BinairoPlain", difficulty, seed)
        assert not env.no_triples
        assert binairo.solve(env.n, env.givens, limit=2, budget=10**6, no_triples=False) == [env._full]


def test_binairo_plain_accepts_triples_that_binairo_forbids():
    for seed in range(20):
        env = _env("BinairoPlain", 1, seed)
        sol = env._solution
        if any(line[i] == line[i + 1] == line[i + 2] for line in (*sol, *zip(*sol)) for i in range(env.n - 2)):
            break
    else:
        pytest.fail("no 6x6 BinairoPlain level with three equal digits in a row")
    text = " / ".join(" ".join(map(str, r)) for r in sol)
    assert _score(env, text, seed) == 1.0
    assert not all(binairo.line_ok(x) for x in (*sol, *zip(*sol)))  # Binairo's rule would reject it
    bad = [list(r) for r in sol]
    bad[0] = bad[1][:]  # two equal rows
    assert not env._check(tuple(tuple(r) for r in bad))


def test_binairo_no_triples_argument_is_checked():
    with pytest.raises(ValueError, match="True, False"):
        gym.make("GymV/Binairo-v1", no_triples="no")


# ----------------------------------------------------------------- Star Battle / Tents questions
@pytest.mark.parametrize("name", ["StarBattleRow", "StarBattleForced", "TentsRow", "TentsForced"])
def test_solution_questions_read_the_unique_solution(name):
    for seed in range(4):
        env = _env(name, 1, seed)
        if name.startswith("Star"):
            sols = count_solutions(env.regions, 3)
        else:
            sols = [frozenset(s) for s in tents_solve(env.n, env.trees, env.row_counts, env.col_counts, limit=3)]
        assert len(sols) == 1
        truth = sorted(x for x in env.asked if x in sols[0])
        assert list(env._solution) == truth and truth
        assert _score(env, _cells(truth[::-1]), seed) == 1.0  # any order
        if env.question == "forced":
            assert any(x not in sols[0] for x in env.asked)
        missing = _cells(truth[1:]) or "none"
        assert _score(env, missing, seed) == 0.0
        extra = next(x for x in env.asked if x not in truth) if len(truth) < len(env.asked) else None
        if extra is not None:
            assert _score(env, _cells(truth + [extra]), seed) == 0.0


@pytest.mark.parametrize("name", ["StarBattleCount", "TentsCount"])
def test_count_question_counts_the_block_of_the_unique_solution(name):
    for seed in range(4):
        env = _env(name, 2, seed)
        if name.startswith("Star"):
            (sol,) = count_solutions(env.regions, 3)
        else:
            (sol,) = tents_solve(env.n, env.trees, env.row_counts, env.col_counts, limit=3)
        r0, c0, r1, c1 = env.block
        assert 2 <= r1 - r0 + 1 <= env.n - 2 and 2 <= c1 - c0 + 1 <= env.n - 2  # never whole rows or columns
        count = sum(r0 <= r <= r1 and c0 <= c <= c1 for r, c in sol)
        assert env._solution == count
        assert _score(env, f"There are {count} in the block.", seed) == 1.0
        assert _score(env, str(count + 1), seed) == 0.0


def test_solution_question_argument_is_checked():
    with pytest.raises(ValueError, match="'row', 'forced', 'count'"):
        gym.make("GymV/TentsRow-v0", question="where")
