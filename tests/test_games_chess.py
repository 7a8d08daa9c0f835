"""ChessGame and its engine (`gymv_envs.rules.chess_engine`): the search, the three strengths, the
oracle's exact prediction of the engine's replies, draws by repetition, the move grammar."""

from __future__ import annotations

import copy

import gymnasium as gym
import numpy as np
import pytest

chess = pytest.importorskip("chess")

from gymv_envs.domains.games._board import DRAW  # noqa: E402
from gymv_envs.rules import chess_engine as engine  # noqa: E402

FOOLS_MATE = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"   # black mates with Qh4
HANGING_QUEEN = "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"  # Nf3 takes the queen on h4


def _env(difficulty: int = 0):
    env = gym.make("GymV/ChessGame-v0", difficulty=difficulty, obs_size=(48, 48)).unwrapped
    env.reset(seed=0)
    return env


def test_evaluation_is_incremental_and_symmetric():
    board = chess.Board(HANGING_QUEEN)
    assert engine.evaluate(chess.Board()) == 0   # the initial position is symmetric
    for m in list(board.legal_moves):
        before, gain = engine.evaluate(board), engine.move_gain(board, m)
        board.push(m)
        assert -engine.evaluate(board) == before + gain, m.uci()   # what a move changes, computed before it
        board.pop()


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_every_strength_mates_in_one_and_leaves_the_board(difficulty):
    board = chess.Board(FOOLS_MATE)
    for seed in range(5):
        m = engine.engine_move(board, difficulty, np.random.default_rng(seed))
        assert m.uci() == "d8h4"
        assert board.fen() == FOOLS_MATE and not board.move_stack


@pytest.mark.parametrize("difficulty", [1, 2])
def test_searching_strengths_take_a_hanging_queen(difficulty):
    board = chess.Board(HANGING_QUEEN)
    assert engine.engine_move(board, difficulty, np.random.default_rng(0)).uci() == "f3h4"


def test_the_weakest_strength_is_noisy_and_the_noise_is_seeded():
    board = chess.Board()
    picks = {engine.engine_move(board, 0, np.random.default_rng(s)).uci() for s in range(12)}
    assert len(picks) >= 4
    again = [engine.engine_move(board, 0, np.random.default_rng(7)).uci() for _ in range(2)]
    assert again[0] == again[1]


def test_quiescence_sees_a_recapture():
    # white's queen takes a pawn defended by a pawn: one ply says +100, the capture search says it loses the queen
    board = chess.Board("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1")
    qx = chess.Move.from_uci("d2d5")
    assert board.is_legal(qx)
    m1, _ = engine.best_move(board, 1)
    m2, _ = engine.best_move(board, 1, quiesce=True)
    assert m1 == qx and m2 != qx


def test_the_oracle_predicts_the_engine_exactly():
    env = _env(2)
    for _ in range(6):
        a = env.oracle_action()
        assert env._predicted is not None and env._predicted[1]
        fresh = copy.deepcopy(env)
        fresh._predicted = None   # the clone must search for itself
        o1, r1, t1, _, i1 = env.step(a)
        o2, r2, t2, _, i2 = fresh.step(a)
        assert env.state == fresh.state and np.array_equal(o1, o2) and i1["feedback"] == i2["feedback"]
        assert env.np_random.bit_generator.state == fresh.np_random.bit_generator.state
        if t1:
            break


def test_start_is_an_opening_from_the_initial_position():
    env = _env(0)
    starts = set()
    for seed in range(8):
        env.reset(seed=seed)
        board = chess.Board(env.state)
        assert board.fullmove_number == 2 and board.turn == chess.WHITE
        assert chess.popcount(board.occupied) == 32
        starts.add(env.state)
    assert len(starts) >= 5


def test_fivefold_repetition_draws():
    env = _env(0)
    assert env._verdict() is None
    env._seen[" ".join(env.state.split()[:4])] = 5
    assert env._verdict() == DRAW


def test_moves_are_read_in_uci_and_algebraic_form():
    env = _env(0)
    board = chess.Board(env.state)
    move = next(m for m in board.legal_moves if board.piece_at(m.from_square).piece_type == chess.KNIGHT)
    a = 64 * move.from_square + move.to_square
    assert env.parse_action(f"Action: {move.uci()}") == a
    assert env.parse_action(f"I play {board.san(move)}") == a
    _, _, _, _, info = env.step(a)
    assert info["feedback"].startswith(f"you played {move.uci()}, the engine played ")


def test_random_play_does_not_win():
    env = gym.make("GymV/ChessGame-v0", obs_size=(48, 48))
    env.action_space.seed(0)
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        for _ in range(150):
            legal = env.unwrapped.legal(env.unwrapped.state)
            _, _, term, trunc, info = env.step(int(rng.choice(legal)))   # random legal moves, not just random indices
            if term or trunc:
                break
        assert not info["success"]


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_two_player_seat_gets_the_engine_of_its_difficulty(difficulty):
    pytest.importorskip("pettingzoo")
    from gymv_envs import multiagent

    env = multiagent.make("GymV/ChessGame-v0", difficulty=difficulty, obs_size=(48, 48))
    env.reset(seed=3)
    assert env.state_of_game == chess.STARTING_FEN
    env.step(64 * chess.E2 + chess.E4)
    game = env.rules.env
    rng = np.random.Generator(type(game.np_random.bit_generator)())
    rng.bit_generator.state = game.np_random.bit_generator.state
    expected = engine.engine_move(chess.Board(env.state_of_game), difficulty, rng)
    a = env.builtin_move()
    assert a == 64 * expected.from_square + expected.to_square and a in env.legal_actions()


def _match(strong: int, weak: int, games: int) -> float:
    """The stronger level's points over ``games`` engine-against-engine games, colours alternating."""
    points = 0.0
    for g in range(games):
        rng, board = np.random.default_rng(g), chess.Board()
        white, black = (strong, weak) if g % 2 == 0 else (weak, strong)
        while not board.is_game_over(claim_draw=True) and board.fullmove_number < 150:
            board.push(engine.engine_move(board, white if board.turn else black, rng))
        won = {"1-0": 1.0, "0-1": 0.0}.get(board.result(claim_draw=True), 0.5)
        points += won if g % 2 == 0 else 1 - won
    return points


@pytest.mark.parametrize(("strong", "weak"), [(1, 0), (2, 1)])
def test_the_strengths_are_ordered(strong, weak):
    assert _match(strong, weak, 4) >= 3.5
