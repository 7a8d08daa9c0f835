"""Gin Rummy: the exact meld split against a brute force, lay-offs and scoring on hand-made hands, the
card-game API played for both seats, hidden cards, and the action parser."""

from __future__ import annotations

import itertools

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs  # noqa: F401
from gymv_envs.rules import gin_rummy as gr


def cards(text: str) -> list[int]:
    return [gr.SUITS.index(w[-1]) * 13 + gr.RANKS.index(w[:-1]) for w in text.split()]


def brute_deadwood(hand: list[int]) -> int:
    """The least deadwood over every collection of disjoint melds, melds listed from scratch."""
    melds = []
    for k in (3, 4):
        for combo in itertools.combinations(sorted(hand), k):
            same_rank = len({c % 13 for c in combo}) == 1
            ranks = sorted(c % 13 for c in combo)
            run = len({c // 13 for c in combo}) == 1 and ranks == list(range(ranks[0], ranks[0] + k))
            if same_rank or run:
                melds.append(set(combo))
    for s in range(4):   # runs longer than 4
        rs = sorted(c % 13 for c in hand if c // 13 == s)
        for lo, hi in itertools.combinations(rs, 2):
            if hi - lo >= 4 and all(r in rs for r in range(lo, hi + 1)):
                melds.append({s * 13 + r for r in range(lo, hi + 1)})
    total = sum(gr.value(c) for c in hand)
    best = total
    for n in range(1, 5):
        for group in itertools.combinations(melds, n):
            used = set().union(*group)
            if sum(len(g) for g in group) == len(used):
                best = min(best, total - sum(gr.value(c) for c in used))
    return best


@pytest.mark.parametrize("hand, expected", [
    ("3H 4H 5H 6H 6C 6D 7S 7C 2S KD", 26),   # 6H goes to the set, not the run: 7+7+2+10
    ("AS 2S 3S 4S QH KH AH 5D 5C 5H", 21),   # ace low run A-4S; Q-K-A of hearts is no run
    ("7C 7D 7H 7S 8S 9S 10S 2D 3D 4D", 0),   # gin: 7C 7D 7H, 7S-10S, 2D-4D
    ("JC QC KC JD JH JS 2C 3C 4C 9H", 9),    # the jack of clubs: run J-Q-K or set of jacks, both leave 9
    ("AC 3D 5H 7S 9C JD KH 2S 4H 6D", 57),   # nothing melds
])
def test_best_melds_hand_made(hand, expected):
    dw, melds = gr.best_melds(cards(hand))
    assert dw == expected == brute_deadwood(cards(hand))
    flat = [c for m in melds for c in m]
    assert len(flat) == len(set(flat)) and set(flat) <= set(cards(hand))
    assert sum(gr.value(c) for c in cards(hand) if c not in flat) == dw


def test_best_melds_agree_with_brute_force_on_random_hands():
    rng = np.random.default_rng(5)
    for _ in range(150):
        hand = [int(c) for c in rng.choice(26, size=10, replace=False)]   # two suits: many melds
        hand = [c if i % 2 else c + 26 for i, c in enumerate(hand)]
        assert gr.deadwood(hand) == brute_deadwood(hand), hand


def test_layoffs_and_scoring():
    knocker = cards("4H 5H 6H 9C 9D 9S 2C 3C 4C AD")      # deadwood 1
    melds = gr.best_melds(knocker)[1]
    # 7H and 8H extend the run (8H only with 7H), 9H is the fourth nine, 3H the low end
    dw, laid = gr.layoff_deadwood(cards("7H 8H 9H 3H KS QS JD 2D 10C 6S"), melds)
    assert cards("3H")[0] in laid and dw == 10 + 10 + 10 + 2 + 10 + 6
    # 8H alone does not touch the run
    dw, laid = gr.layoff_deadwood(cards("8H KS QS JD 2D 10C 6S 7D 7S KD"), melds)
    assert cards("8H")[0] not in laid
    assert gr.score_knock(knocker, cards("8H KS QS JD 2D 10C 6S 7D 7S KD"), False) == (
        gr.deadwood(cards("8H KS QS JD 2D 10C 6S 7D 7S KD")) - 1, 1, gr.deadwood(cards("8H KS QS JD 2D 10C 6S 7D 7S KD")), "knock")
    # undercut: the defender's deadwood (after lay-offs) is not higher than the knocker's
    points, dk, dd, kind = gr.score_knock(cards("4H 5H 6H 9C 9D 9S 2C 3C 8D KD"), cards("7H AC AS 2D 3D 4D 5S 6S 7S 8S"), False)
    assert kind == "undercut" and dk == 23 and dd == 2 and points == -(25 + 21)   # 7H is laid off
    # gin: no lay-offs, 25 plus the defender's whole deadwood
    gin = cards("4H 5H 6H 9C 9D 9S 2C 3C 4C 5C")
    defender = cards("7H 8H QS JD 2D 10C 6S 7D 7S KD")
    assert gr.score_knock(gin, defender, True) == (25 + gr.deadwood(defender), 0, gr.deadwood(defender), "gin")


def test_both_seats_play_through_the_card_api():
    env = gym.make("GymV/GinRummy-v0", difficulty=1, obs_size=(96, 128)).unwrapped
    env.reset(seed=2)
    s, rng, seats_seen = env.start_state(), np.random.default_rng(0), set()
    assert env.mover(s) == 0 and env.chips(s) == (0, 0)
    for _ in range(3000):
        if env.is_over(s):
            break
        seat = env.mover(s)
        seats_seen.add(seat)
        legal = env.legal_actions(s)
        a = env.opponent_action(s, rng)   # the scripted player acts for either seat
        assert a in legal
        frame = env.draw_seat(s, seat)
        assert frame.shape == (96, 128, 3) and frame.dtype == np.uint8
        s = env.play(s, a)
    assert env.is_over(s) and env.mover(s) is None and env.legal_actions(s) == []
    c0, c1 = env.chips(s)
    assert seats_seen == {0, 1} and c0 == -c1 and c0 != 0


def test_a_seat_never_sees_the_other_seats_cards():
    env = gym.make("GymV/GinRummy-v0").unwrapped
    env.reset(seed=0)
    s = env.start_state()
    swapped = s._replace(hands=(s.hands[0], tuple(sorted(s.stock[:10]))), stock=s.hands[1] + s.stock[10:])
    assert np.array_equal(env.draw_seat(s, 0), env.draw_seat(swapped, 0))
    assert not np.array_equal(env.draw_seat(s, 1), env.draw_seat(swapped, 1))


def test_invalid_and_masks():
    env = gym.make("GymV/GinRummy-v0").unwrapped
    env.reset(seed=1)
    mask = env.action_masks()
    assert mask.tolist() == [i in (gr.DRAW_STOCK, gr.DRAW_DISCARD) for i in range(gr.N_ACTIONS)]
    _, r, term, _, info = env.step(gr.KNOCK)
    assert info["invalid_action"] and r == 0 and not term
    env.step(gr.DRAW_DISCARD)
    taken = env.state.taken
    _, _, _, _, info = env.step(gr.DISCARD0 + taken)   # the card just taken may not go back
    assert info["invalid_action"]


@pytest.mark.parametrize("reply, name", [
    ("discard 7♥", "discard 7H"), ("Action: Discard 7h", "discard 7H"), ("I discard the 10 of spades", "discard 10S"),
    ("discard TS", "discard 10S"), ("<answer>discard queen of diamonds</answer>", "discard QD"),
    ("DRAW  STOCK", "draw stock"), ("Action: knock", "knock"),
])
def test_parser_reads_cards(reply, name):
    env = gym.make("GymV/GinRummy-v0").unwrapped
    env.reset(seed=0)
    assert env.action_names[env.parse_action(reply)] == name


@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_oracle_wins_beyond_the_conformance_seeds(difficulty):
    env = gym.make("GymV/GinRummy-v0", difficulty=difficulty, obs_size=(48, 48))
    for seed in (10, 13, 17):
        env.reset(seed=seed)
        while True:
            _, _, term, trunc, info = env.step(env.unwrapped.oracle_action())
            if term or trunc:
                break
        assert info["success"], (difficulty, seed)
