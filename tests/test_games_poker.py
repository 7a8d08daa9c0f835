"""Poker: the seven-card evaluator against hand-made cases and an independent brute force, the betting
engine (caps, blinds, folds, all-ins), hidden cards in the frames, the opponents and the reply parser."""

from __future__ import annotations

import itertools
from collections import Counter

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs  # noqa: F401 - registers the ids
from gymv_envs.domains.games import _poker as P
from gymv_envs.domains.games.kuhn_poker import CONFIG as KUHN
from gymv_envs.domains.games.kuhn_poker import STRATEGY, KuhnPoker
from gymv_envs.domains.games.leduc_holdem import CONFIG as LEDUC
from gymv_envs.domains.games.limit_holdem import CONFIG as LIMIT
from gymv_envs.domains.games.no_limit_holdem import CONFIG as NL
from gymv_envs.rules.poker import card, compare, describe, evaluate

IDS = ["GymV/KuhnPoker-v0", "GymV/LeducHoldem-v0", "GymV/LimitHoldem-v0", "GymV/NoLimitHoldem-v0"]


def hand(text: str) -> list[int]:
    return [card(t) for t in text.split()]


# ------------------------------------------------------------------ the evaluator
@pytest.mark.parametrize("cards, category, words", [
    ("Ah Kh Qh Jh Th 2c 3d", 8, "straight flush, A high"),
    ("5d 4d 3d 2d Ad Kc Kh", 8, "straight flush, 5 high"),      # the steel wheel
    ("9s 9h 9d 9c 2h 3h 4d", 7, "four of a kind, nines"),
    ("Ks Kh Kd 2c 2h 3h 3d", 6, "full house, kings over threes"),
    ("Ks Kh Kd 2c 2h 2s 4d", 6, "full house, kings over twos"),  # two sets of three
    ("2h 7h 9h Jh Qh Ah Kc", 5, "flush, A high"),
    ("Ah 2c 3d 4s 5h Kc Kd", 4, "straight, 5 high"),            # the wheel beats a pair
    ("Th Jc Qd Ks Ah 2c 2d", 4, "straight, A high"),
    ("7h 7c 7d As Kh 2c 3d", 3, "three of a kind, sevens"),
    ("Ah Ac Kd Ks Qh Qc 2d", 2, "two pair, aces and kings"),
    ("Ah Ac 5d 9s Jh 3c 2d", 1, "pair of aces"),
    ("Ah Kc 5d 9s Jh 3c 2d", 0, "high card, A high"),
])
def test_hand_categories(cards, category, words):
    v = evaluate(hand(cards))
    assert v[0] == category and describe(v) == words


def test_kickers_and_splits():
    board = hand("Ah Kd 7c 4s 2h")
    assert compare(hand("As Qc"), hand("Ac Jd"), board) == 1      # queen kicker
    assert compare(hand("As 3c"), hand("Ac 3d"), board) == 0      # the board plays the rest: a split
    assert compare(hand("5c 3d"), hand("Kh Ks"), board) == 1      # the wheel beats three kings
    two_pair = hand("Qh Qd Jc Js 9h")
    assert compare(hand("Ts 2c"), hand("8s 3d"), two_pair) == 1    # the fifth card of two pair
    assert compare(hand("2s 3c"), hand("4s 5d"), hand("Th Jh Qh Kh Ah")) == 0   # royal flush on the board
    assert evaluate(hand("Ah Ad")) == (1, 12) and evaluate(hand("Ah Kd Kc")) == (1, 11, 12)   # partial boards


def _five(cards: list[int]) -> tuple:
    """An independent five-card ranking (the textbook way), for the brute force."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    uniq = sorted(set(ranks), reverse=True)
    straight = None
    if len(uniq) == 5 and uniq[0] - uniq[4] == 4:
        straight = uniq[0]
    elif uniq == [12, 3, 2, 1, 0]:
        straight = 3
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = [r for r, _ in groups]
    if straight is not None and flush:
        return (8, straight)
    if shape == [4, 1]:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *ranks)
    if straight is not None:
        return (4, straight)
    if shape == [3, 1, 1]:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape == [2, 1, 1, 1]:
        return (1, *order)
    return (0, *ranks)


def test_seven_cards_match_the_best_five_by_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(1500):
        cards = [int(c) for c in rng.choice(52, 7, replace=False)]
        best = max(_five(list(c)) for c in itertools.combinations(cards, 5))
        assert evaluate(cards) == best, cards


def test_leduc_pair_beats_high_card():
    k, q = 4 * 11 + 2, 4 * 10 + 3
    assert P.hand_value(LEDUC, (q,), (4 * 10 + 2,)) > P.hand_value(LEDUC, (k,), (4 * 10 + 2,))
    assert P.hand_value(LEDUC, (k,), (4 * 9 + 2,)) > P.hand_value(LEDUC, (q,), (4 * 9 + 2,))


# ------------------------------------------------------------------ the betting engine
def _state(cfg, seed=0, hands=2):
    rng = np.random.default_rng(seed)
    decks = tuple(tuple(int(c) for c in rng.permutation(np.array(cfg.deck))) for _ in range(hands))
    return P.new_hand(cfg, decks, 0, (0, 0), None)


def test_limit_blinds_cap_and_streets():
    s = _state(LIMIT)
    assert s.mover == 0 and s.contrib == (1, 2) and P.legal(LIMIT, s) == [P.FOLD, P.CALL, P.RAISE]
    for _ in range(3):   # the big blind is the first of four bets: three raises, then only fold/call
        s = P.play(LIMIT, s, P.RAISE)
    assert s.bet == (8, 6) and P.legal(LIMIT, s) == [P.FOLD, P.CALL]
    s = P.play(LIMIT, s, P.CALL)
    assert s.street == 1 and s.mover == 1 and s.contrib == (8, 8) and len(P.board(LIMIT, s)) == 3   # the big blind first
    s = P.play(LIMIT, P.play(LIMIT, s, P.CHECK), P.RAISE)
    assert s.bet == (2, 0) and s.mover == 1   # flop bets are 2
    s = P.play(LIMIT, P.play(LIMIT, s, P.CALL), P.CHECK)
    assert s.street == 2 and P.raise_amount(LIMIT, s, P.RAISE) == 4   # the turn bet is 4


def test_fold_moves_the_pot_and_the_button():
    s = P.play(LIMIT, _state(LIMIT), P.FOLD)
    assert s.hand == 1 and s.chips == (-1, 1) and s.mover == 1 and s.contrib == (2, 1)   # seat 1 has the button
    s = P.play(LIMIT, s, P.FOLD)
    assert s.over and s.chips == (0, 0) and s.prev[2] == 1 and P.legal(LIMIT, s) == []   # seat 1 folds its small blind


def test_leduc_two_raises_per_round_and_showdown():
    s = _state(LEDUC, hands=1)
    assert s.contrib == (1, 1) and P.legal(LEDUC, s) == [P.CHECK, P.RAISE]
    s = P.play(LEDUC, P.play(LEDUC, s, P.RAISE), P.RAISE)
    assert P.legal(LEDUC, s) == [P.FOLD, P.CALL] and s.contrib == (3, 5)
    s = P.play(LEDUC, s, P.CALL)
    assert s.street == 1 and s.mover == 0 and P.raise_amount(LEDUC, s, P.RAISE) == 4
    s = P.play(LEDUC, P.play(LEDUC, s, P.CHECK), P.CHECK)
    r = P.showdown(LEDUC, _state(LEDUC, hands=1), 0)
    assert s.over and s.chips == (5 * r, -5 * r) and s.prev[3]   # a showdown is shown


def test_kuhn_betting_sequence():
    s = _state(KUHN)
    assert s.contrib == (1, 1) and s.mover == 0 and P.legal(KUHN, s) == [P.CHECK, P.RAISE]
    s = P.play(KUHN, s, P.CHECK)
    assert s.mover == 1 and P.legal(KUHN, s) == [P.CHECK, P.RAISE]
    s = P.play(KUHN, s, P.RAISE)   # check-bet: the first player calls or folds
    assert s.hand == 0 and s.mover == 0 and s.contrib == (1, 2) and P.legal(KUHN, s) == [P.FOLD, P.CALL]
    s = P.play(KUHN, _state(KUHN), P.RAISE)   # one bet only: no raise over it
    assert s.mover == 1 and P.legal(KUHN, s) == [P.FOLD, P.CALL]


def test_kuhn_showdown_and_fold():
    s0 = _state(KUHN, hands=2)
    mine, theirs = (c[0] >> 2 for c in P.holes(KUHN, s0))
    r = 1 if mine > theirs else -1
    assert P.board(KUHN, s0, full=True) == () and P.showdown(KUHN, s0, 0) == r   # the higher card wins
    s = P.play(KUHN, P.play(KUHN, s0, P.CHECK), P.CHECK)
    assert s.hand == 1 and s.chips == (r, -r) and s.prev[3] and s.mover == 1   # the button moves to seat 1
    s = P.play(KUHN, P.play(KUHN, s0, P.RAISE), P.CALL)
    assert s.chips == (2 * r, -2 * r) and s.prev[4] == "showdown"
    s = P.play(KUHN, P.play(KUHN, s0, P.RAISE), P.FOLD)
    assert s.chips == (1, -1) and not s.prev[3]   # a fold shows nothing
    s = P.play(KUHN, P.play(KUHN, P.play(KUHN, s0, P.CHECK), P.RAISE), P.FOLD)
    assert s.chips == (-1, 1) and s.prev[4] == "fold"
    s = P.play(KUHN, P.play(KUHN, s, P.CHECK), P.CHECK)
    assert s.over and P.legal(KUHN, s) == []


def test_kuhn_opponents_follow_their_strategies():
    env = KuhnPoker(difficulty=2, obs_size=(48, 48))
    env.reset(seed=0)
    rng, bets = np.random.default_rng(0), Counter()
    for seed in range(600):   # seat 1 facing a bet: the equilibrium calls the queen 1/3 of the time
        s = P.play(KUHN, _state(KUHN, seed, hands=1), P.RAISE)
        rank = (P.holes(KUHN, s)[1][0] >> 2) - 9
        bets[rank, env.opponent_action(s, rng)] += 1
    assert bets[0, P.CALL] == 0 and bets[2, P.FOLD] == 0
    assert 0.25 < bets[1, P.CALL] / (bets[1, P.CALL] + bets[1, P.FOLD]) < 0.42
    assert STRATEGY[0][2] == (1, 1, 1) and STRATEGY[1][0] == (0, 0, 1)


def test_kuhn_oracle_wins_every_seed_at_every_difficulty():
    for d in (0, 1, 2):
        env = KuhnPoker(difficulty=d, obs_size=(48, 48))
        for seed in range(20):
            env.reset(seed=seed)
            while not env.state.over:
                *_, info = env.step(env.oracle_action())
            assert info["success"] and env.state.chips[0] > 0, (d, seed)


def test_no_limit_sizes_and_all_in():
    s = _state(NL)
    assert P.legal(NL, s) == [P.FOLD, P.CALL, P.RAISE, P.POT, P.ALLIN]
    assert P.raise_amount(NL, s, P.RAISE) == 3 and P.raise_amount(NL, s, P.POT) == 5   # to 4, to 6
    s = P.play(NL, s, P.ALLIN)
    assert s.bet == (100, 2) and P.legal(NL, s) == [P.FOLD, P.CALL]
    end = P.play(NL, s, P.CALL)
    r = P.showdown(NL, s, 0)
    assert end.hand == 1 and end.chips == (100 * r, -100 * r) and len(end.prev[1]) == 5   # the whole board is dealt


# ------------------------------------------------------------------ env: frames, parser, opponents
@pytest.mark.parametrize("env_id", IDS)
def test_frame_hides_the_opponents_cards(env_id):
    env = gym.make(env_id, obs_size=(96, 128)).unwrapped
    env.reset(seed=2)
    s, h = env.state, env.cfg.hole
    deck = list(s.decks[0])
    other = deck[:h] + deck[-h:] + deck[2 * h:-h] + deck[h:2 * h]
    mine = deck[-h:] + deck[h:-h] + deck[:h]
    assert np.array_equal(env.draw_seat(s._replace(decks=(tuple(other), *s.decks[1:])), 0), env.draw_seat(s, 0))
    assert not np.array_equal(env.draw_seat(s._replace(decks=(tuple(mine), *s.decks[1:])), 0), env.draw_seat(s, 0))


@pytest.mark.parametrize("env_id", IDS)
def test_parser_reads_poker_words(env_id):
    env = gym.make(env_id).unwrapped
    env.reset(seed=0)
    assert env.parse_action("FOLD") == P.FOLD and env.parse_action("Action: Check") == P.CHECK
    assert env.parse_action("<think>fold? no</think> I bet") == P.RAISE
    if env.cfg.stack:
        assert env.parse_action("all-in!") == P.ALLIN and env.parse_action("raise to 90") == P.ALLIN


@pytest.mark.parametrize("env_id", IDS)
def test_illegal_action_names_the_legal_ones(env_id):
    env = gym.make(env_id).unwrapped
    env.reset(seed=0)
    bad = P.CHECK if P.CALL in env.legal_actions(env.state) else P.FOLD
    _, r, term, _, info = env.step(bad)
    assert info["invalid_action"] and r == 0 and not term and "legal:" in info["feedback"]


def test_opponents_differ_in_how_often_they_fold():
    folds = {}
    for d in (0, 1):
        rng, n = np.random.default_rng(0), 0
        for seed in range(300):
            s = P.play(LIMIT, _state(LIMIT, seed), P.RAISE)   # seat 1 faces a raise preflop
            n += P.opponent(LIMIT, s, rng, d) == P.FOLD
        folds[d] = n
    assert folds[0] < folds[1] / 2   # loose-passive calls far more than the threshold player


def test_oracle_wins_every_seed_at_every_difficulty():
    for d in (0, 1, 2):
        env = gym.make("GymV/LeducHoldem-v0", difficulty=d, obs_size=(48, 48))
        for seed in range(20):
            env.reset(seed=seed)
            while True:
                *_, term, trunc, info = env.step(env.unwrapped.oracle_action())
                if term or trunc:
                    break
            assert info["success"] and env.unwrapped.state.chips[0] > 0, (d, seed)


@pytest.mark.parametrize("env_id", IDS)
def test_rewards_add_up_to_the_chips_and_the_opponent_acts_within_the_step(env_id):
    env = gym.make(env_id, difficulty=0, obs_size=(48, 48))
    env.reset(seed=1)
    env.action_space.seed(1)
    total = 0.0
    while True:
        _, r, term, trunc, info = env.step(env.action_space.sample())
        total += r
        s = env.unwrapped.state
        assert s.over or s.mover == 0   # the agent is always the one to act between steps
        if term or trunc:
            break
    assert term and total == s.chips[0] == -s.chips[1] and info["success"] == (total > 0)
