"""The ``question=`` variants of existing puzzle ids: oracle, determinism, verifiers and instructions.

The conformance suite runs every id at its registered defaults (the default question); these tests
cover each other question value the same way, plus what is particular to each verifier.
"""

from __future__ import annotations

import itertools
import re
from collections import deque

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs

VARIANTS = {  # id -> (default question, new questions)
    "GymV/EightPuzzleMoves-v1": ("solve", ("target",)),
    "GymV/HanoiMoves-v1": ("count", ("move_list",)),
    "GymV/PacmanPath-v1": ("path", ("ghost",)),
    "GymV/KnightSwap-v1": ("count", ("move_list",)),
    "GymV/SnakeSafeMove-v1": ("safe_move", ("crash",)),
    "GymV/TetrisLanding-v1": ("cells", ("lowest",)),
    "GymV/TetrisLinesCleared-v1": ("count", ("best_column",)),
    "GymV/WordSearch-v1": ("one_word", ("all_words",)),
    "GymV/RubikNet-v1": ("face", ("sticker", "count")),
}
CASES = [(i, q) for i, (_, qs) in VARIANTS.items() for q in qs]
# questions whose answers are drawn from a vocabulary the instruction names in full, or whose level's
# wording varies by design: the answer-leak check for them is their own test below
OWN_LEAK_TEST = {("GymV/RubikNet-v1", "sticker"), ("GymV/RubikNet-v1", "count")}
SEEDS = range(5)


def make(env_id: str, question: str, difficulty: int = 0, **kw):
    kw.setdefault("obs_size", (48, 48))
    return gym.make(env_id, question=question, difficulty=difficulty, **kw).unwrapped


def answer_of(env, text: str) -> float:
    """The reward of ``text`` on a fresh reset of the env's current level (same seed)."""
    env.reset(seed=env._seed_used)
    return env.step(text)[1]


def levels(env_id: str, question: str, **kw):
    for d in (0, 1, 2):
        env = make(env_id, question, d, **kw)
        for seed in SEEDS:
            env.reset(seed=seed)
            env._seed_used = seed
            yield d, seed, env


@pytest.mark.parametrize("env_id,question", CASES, ids=[f"{i.split('/')[1]}-{q}" for i, q in CASES])
def test_question_is_listed_validated_and_documented(env_id, question):
    default, new = VARIANTS[env_id]
    d = gymv_envs.describe(env_id)
    assert d["questions"] == [default, *new] and question in new
    cls = gymv_envs.task_spec(env_id).entry_point
    args = cls.__doc__.split("## Arguments", 1)[1].split("##", 1)[0]
    assert f'``"{default}"``' in args and f'``"{question}"``' in args
    with pytest.raises(ValueError, match=re.escape(", ".join(map(repr, (default, *new))))):
        gym.make(env_id, question="nonsense")
    assert gym.make(env_id).unwrapped.question == default


def test_every_id_takes_exactly_the_questions_it_lists():
    """The one ``question=`` check in core, for every class: an id's listed questions, its default first, are
    what its constructor takes; a class that lists none refuses the argument and says so."""
    seen = set()
    for env_id in gymv_envs.ids():
        spec = gymv_envs.task_spec(env_id)
        cls, about = spec.entry_point, gymv_envs.describe(env_id)
        if not about["available"]:  # (its extras are not installed: the constructor stops before the question)
            continue
        listed = about["questions"]
        assert sorted(listed) == sorted(cls.questions), env_id
        if not listed:
            if cls not in seen:
                with pytest.raises(ValueError, match="asks one question; leave question unset"):
                    cls(question=cls.__name__)
            seen.add(cls)
            continue
        assert listed[0] == spec.kwargs.get("question", cls.questions[0]), env_id
        assert gym.make(env_id, obs_size=(48, 48)).unwrapped.question == listed[0], env_id
        with pytest.raises(ValueError, match=re.escape(", ".join(map(repr, cls.questions)))):
            gym.make(env_id, question="nonsense")


@pytest.mark.parametrize("fmt", ["open", "mcq"])
@pytest.mark.parametrize("env_id,question", CASES, ids=[f"{i.split('/')[1]}-{q}" for i, q in CASES])
def test_oracle_solves_every_level(env_id, question, fmt):
    for d, seed, env in levels(env_id, question, answer_format=fmt):
        _, reward, term, _, info = env.step(env.oracle_action())
        assert reward == 1.0 and term and info["success"], (d, seed)
        if fmt == "mcq":
            assert len(set(env.options)) == env.num_options


@pytest.mark.parametrize("env_id,question", CASES, ids=[f"{i.split('/')[1]}-{q}" for i, q in CASES])
def test_deterministic_and_asks_another_question(env_id, question):
    default = VARIANTS[env_id][0]
    for d in (0, 1, 2):
        a, b = make(env_id, question, d, answer_format="mcq"), make(env_id, question, d, answer_format="mcq")
        base = make(env_id, default, d)
        seen = set()
        for seed in SEEDS:
            oa, ia = a.reset(seed=seed)
            ob, ib = b.reset(seed=seed)
            assert np.array_equal(oa, ob) and ia["instruction"] == ib["instruction"] and a.options == b.options
            base.reset(seed=seed)
            assert a._task_text() != base._task_text()
            seen.add(a._state_text())
        assert len(seen) > 1, "different seeds give different levels"
        if a.has_caption():
            cap = make(env_id, question, d, text_in_image=True, obs_size=(128, 128))
            ref = make(env_id, default, d, text_in_image=True, obs_size=(128, 128))
            cap.reset(seed=0)
            ref.reset(seed=0)
            assert cap._caption() != ref._caption()


LEAK_CASES = [c for c in CASES if c not in OWN_LEAK_TEST]


@pytest.mark.parametrize("env_id,question", LEAK_CASES, ids=[f"{i.split('/')[1]}-{q}" for i, q in LEAK_CASES])
def test_no_answer_in_instruction(env_id, question):
    for d in (0, 1, 2):
        env = make(env_id, question, d)
        texts, answers = set(), set()
        for seed in SEEDS:
            env.reset(seed=seed)
            _, info = env.reset(seed=seed)
            assert "answer" not in info
            answer = env._format(env._solution)
            if answer.isdigit():
                texts.add(env._task_text())
                answers.add(answer)
            elif answer != "no solution":  # a reply the question itself offers
                assert not re.search(rf"(?<!\w){re.escape(answer)}(?!\w)", env._task_text()), (d, seed, answer)
        if answers:  # a number: the instruction must not depend on the level at all
            assert len(texts) == 1 or len(answers) == 1


@pytest.mark.parametrize("env_id,question", CASES, ids=[f"{i.split('/')[1]}-{q}" for i, q in CASES])
def test_open_verifier_rejects_every_distractor(env_id, question):
    """Each MCQ distractor (a near miss), said as an open answer on the same level, scores 0; the correct one 1."""
    for d in (0, 1, 2):
        mcq, open_ = make(env_id, question, d, answer_format="mcq"), make(env_id, question, d)
        for seed in SEEDS:
            mcq.reset(seed=seed)
            for k, text in enumerate(mcq.options):
                open_.reset(seed=seed)
                reward = open_.step(text)[1]
                assert reward == float(k == mcq._correct_index), (d, seed, text)


# ----------------------------------------------------------------- particular verifiers
def test_eight_puzzle_target_matches_breadth_first_search():
    from gymv_envs.domains.puzzles.eight_puzzle_moves import fewest_moves

    def bfs(a: str, b: str) -> int:
        seen, q = {a: 0}, deque([a])
        while q:
            s = q.popleft()
            if s == b:
                return seen[s]
            z = s.index("0")
            for j in (z - 3, z + 3, z - 1 if z % 3 else -1, z + 1 if z % 3 < 2 else -1):
                if 0 <= j < 9:
                    t = list(s)
                    t[z], t[j] = t[j], t[z]
                    t = "".join(t)
                    if t not in seen:
                        seen[t] = seen[s] + 1
                        q.append(t)
        raise AssertionError("unreachable")

    env = make("GymV/EightPuzzleMoves-v1", "target", 0)
    for seed in range(8):
        env.reset(seed=seed)
        env._seed_used = seed
        assert env._solution == bfs(env.board, env.target) and env.target.index("0") in (0, 2, 6, 8)
        assert answer_of(env, f"{env._solution} moves") == 1.0
        assert answer_of(env, str(env._solution + 1)) == 0.0
    assert fewest_moves("123456708") == 1


def _all_shortest(start, goal, neighbours):
    dist, q = {goal: 0}, deque([goal])
    while q:
        s = q.popleft()
        for t in neighbours(s):
            if t not in dist:
                dist[t] = dist[s] + 1
                q.append(t)

    def paths(s):
        if s == goal:
            yield []
            return
        for t in neighbours(s):
            if dist.get(t) == dist[s] - 1:
                for rest in paths(t):
                    yield [(s, t), *rest]
    return list(paths(start))


def test_hanoi_move_list_accepts_every_optimal_list():
    from gymv_envs.domains.puzzles._hanoi import neighbours
    from gymv_envs.domains.puzzles.hanoi_moves import PEGS

    env = make("GymV/HanoiMoves-v1", "move_list", 1)

    def ok(text: str) -> bool:
        answer = env._read(text)
        return answer is not None and env._check(answer)

    several = 0
    for seed in range(13):
        env.reset(seed=seed)
        if seed == 12:  # an arrangement pair with two optimal lists (3 disks): both must score
            env.disks, env.start, env.goal = 3, (2, 2, 1), (2, 1, 2)
            env.best = len(_all_shortest(env.start, env.goal, neighbours)[0])
        lists = _all_shortest(env.start, env.goal, neighbours)
        several += len(lists) > 1
        for p in lists:
            moves = [(a[d], b[d]) for a, b in p for d in range(len(a)) if a[d] != b[d]]
            assert ok(" ".join(PEGS[x] + PEGS[y] for x, y in moves))
            assert ok(", ".join(f"{PEGS[x]} to {PEGS[y]}" for x, y in moves))
            assert not ok(" ".join(PEGS[x] + PEGS[y] for x, y in moves[:-1]))
        first = moves[0]
        detour = [(first[0], 3 - sum(first)), (3 - sum(first), first[1])] + moves[1:]
        assert not ok(", ".join(f"{PEGS[x]}->{PEGS[y]}" for x, y in detour))  # legal, one move too many
    assert several == 1
    for n in (3, 4, 5):  # standard Hanoi, tower to tower: one optimal list of 2^n - 1 moves
        lists = _all_shortest((0,) * n, (2,) * n, neighbours)
        assert len(lists) == 1 and len(lists[0]) == 2 ** n - 1


def test_pacman_ghost_follows_the_rule_step_by_step():
    from gymv_envs.domains.puzzles.pacman_path import CHASE_STEPS, MOVES, chase

    for d, seed, env in levels("GymV/PacmanPath-v1", "ghost"):
        route = env.route
        assert len(route) == CHASE_STEPS[d], seed
        assert chase(env.wall, env.ghosts[0], env.heading, env.pac, 1) == route[:1]
        prev = env.ghosts[0]
        for cell in route:  # every step is one move onto a free cell
            assert abs(cell[0] - prev[0]) + abs(cell[1] - prev[1]) == 1 and not env.wall[cell]
            prev = cell
        name = env._format(route[-1])
        assert answer_of(env, name.lower()) == 1.0 and answer_of(env, f"The ghost ends on {name}.") == 1.0
        assert answer_of(env, env._format(route[-2])) == 0.0
    assert set(MOVES) == set("UDLR")


def test_knight_move_list_replays_any_valid_list_and_no_solution():
    from gymv_envs.domains.puzzles import _knights

    env = make("GymV/KnightSwap-v1", "move_list", 0)
    kinds = set()
    for seed in range(16):
        env.reset(seed=seed)
        env._seed_used = seed
        kinds.add(env._moves is None)
        if env._moves is None:
            assert answer_of(env, "No solution") == 1.0 and answer_of(env, "impossible") == 1.0
            # the single-knight routes exist move by move, but the whole task has none
            assert _knights.shortest_moves(env.n, env.blocked, env.start, env.goal) is None
            continue
        assert answer_of(env, "no solution") == 0.0
        path = list(env._moves)
        frm, to = path[0]
        back = next((q for q in env._jumps(frm) if q not in env.blocked and q not in env.start and q != to), None)
        if back is not None:  # a longer list with a detour is still a valid list
            longer = [(frm, back), (back, frm), *path]
            text = ", ".join(f"{env._format([m])}" for m in longer)
            assert answer_of(env, text) == 1.0
        assert answer_of(env, env._format(path[:-1])) == 0.0
        a, b = path[-1]
        assert answer_of(env, env._format(path[:-1] + [(b, a)])) == 0.0
    assert kinds == {True, False}, "both solvable and unsolvable levels"


def test_snake_crash_matches_a_plain_simulation():
    for d, seed, env in levels("GymV/SnakeSafeMove-v1", "crash"):
        body, food = list(env.body), env.food
        dr, dc = env.body[-1][0] - env.body[-2][0], env.body[-1][1] - env.body[-2][1]
        move = 0
        for move in itertools.count(1):  # noqa: B007 - the move on which it dies
            r, c = body[-1][0] + dr, body[-1][1] + dc
            if not (0 <= r < env.n and 0 <= c < env.n) or (r, c) in (body if (r, c) == food else body[1:]):
                break
            body.append((r, c))
            if (r, c) == food:
                food = None
            else:
                body.pop(0)
        assert env._solution == move, (d, seed)
        assert answer_of(env, f"It dies on move {move}") == 1.0 and answer_of(env, str(move + 1)) == 0.0


@pytest.mark.parametrize("env_id,question", [("GymV/TetrisLanding-v1", "lowest"),
                                             ("GymV/TetrisLinesCleared-v1", "best_column")])
def test_tetris_column_accepts_every_tie(env_id, question):
    from gymv_envs.domains.puzzles._tetris import drop

    for d, seed, env in levels(env_id, question):
        scores = {}
        width = max(c for _, c in env.cells) + 1
        for col in range(env.cols - width + 1):
            cells = drop(env.filled, env.cells, col)
            if cells is None:
                continue
            if question == "lowest":
                scores[col] = min(r for r, _ in cells)
            else:
                after = env.filled.copy()
                for r, c in cells:
                    after[r, c] = True
                scores[col] = int(after.all(axis=1).sum())
        best = max(scores.values())
        for col in range(env.cols):
            want = float(scores.get(col) == best)
            assert answer_of(env, "ABCDEFGHIJ"[col]) == want, (d, seed, col)
        assert answer_of(env, f"column {'abcdefghij'[min(env.best_columns)]}") == 1.0


def test_word_search_all_words_accepts_either_end_first_and_any_order():
    for _, _, env in levels("GymV/WordSearch-v1", "all_words"):
        sol = list(env._solution)
        flipped = "\n".join(f"{w}: from {env._format(((w, b, a),)).split(' ', 1)[1].replace('-', ' to ')}"
                            for w, a, b in reversed(sol))
        assert answer_of(env, flipped) == 1.0, flipped
        w, a, b = sol[0]
        assert answer_of(env, env._format(tuple(sol[1:]))) == 0.0  # a word left out
        assert answer_of(env, env._format(tuple(sol) + (("ZZZ", a, b),))) == 0.0  # a word not listed


def test_word_search_all_words_accepts_a_second_occurrence():
    checked = 0
    for seed in range(10):
        env = make("GymV/WordSearch-v1", "all_words", 0)
        env.reset(seed=seed)
        w, a, b = env._solution[0]
        used = {r for _, p, q in env._solution for r in range(min(p[0], q[0]), max(p[0], q[0]) + 1)}
        free = [r for r in range(env.n) if r not in used]
        if not free:
            continue
        r = free[0]
        env.grid[r] = w + env.grid[r][len(w):]  # the first word written again, across that row
        second = (w, (r, 0), (r, len(w) - 1))
        assert env._check(env._solution) and env._check((second, *env._solution[1:]))
        checked += 1
    assert checked


def test_rubik_sticker_and_count_leak_nothing_and_match_a_plain_simulation():
    """The sticker question names all six colours (so naming the answer tells nothing) and the count
    never appears as a number of its own; both answers agree with turning a sticker model of the cube."""
    from gymv_envs.domains.puzzles._rubik_cube import faces, solved, turn
    from gymv_envs.domains.puzzles._rubik_net_draw import COLOURS
    from gymv_envs.domains.puzzles.rubik_net import PLACES

    for question in ("sticker", "count"):
        for d in (0, 1, 2):
            env = make("GymV/RubikNet-v1", question, d)
            for seed in range(8):
                env.reset(seed=seed)
                text = env._task_text()
                # the drawn state, then the asked turns, on the sticker model
                start = {f: g for f, g in zip("UDFBRL", [env.state[9 * i:9 * i + 9] for i in range(6)])}
                colour = [None] * 54
                pos, nrm, _ = solved()
                keyed = faces(pos, nrm, [str(k) for k in range(54)])
                for f, g in keyed.items():
                    for i, k in enumerate(g):
                        colour[int(k)] = start[f][i]
                for m in env.moves:
                    turn(pos, nrm, m)
                face = faces(pos, nrm, colour)[env.face]
                if question == "sticker":
                    assert env._solution == face[env.sticker] and env.sticker != 4
                    assert PLACES[env.sticker] in text
                    assert all(name in text for name, _ in COLOURS.values())
                else:
                    assert env._solution == face.count(env.colour)
                    assert COLOURS[env.colour][0] in text
                    asked = text.split("After the turns", 1)[1]  # the level's part (the rules are the same for all)
                    assert not re.search(rf"(?<![\w.']){env._solution}(?![\w.])", asked), (d, seed, asked)
