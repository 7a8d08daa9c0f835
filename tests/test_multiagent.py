"""The two-player adapter (`gymv_envs.multiagent`): PettingZoo's own API and seed tests on every game,
self-play to the end, illegal actions, per-seat text, and the built-in opponent in one seat."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from gymv.agents.base import RandomAgent  # noqa: E402
from gymv_envs import multiagent  # noqa: E402

IDS = multiagent.ids()
SMALL = (64, 64)


def test_ids_cover_every_two_player_game():
    names = {i.split("/")[1].rsplit("-v", 1)[0] for i in IDS}
    assert names == {"Alquerque", "AtariGo", "Breakthrough", "Checkers", "Chess", "ChessGame", "ConnectFour", "DotsAndBoxes",
                     "Go9x9", "GinRummy", "Gomoku", "Hex", "Kalah", "KuhnPoker", "LeducHoldem", "LimitHoldem",
                     "LinesOfAction", "NoLimitHoldem",
                     "Nim", "Othello", "Tak", "TicTacToe", "UltimateTicTacToe", "WildTicTacToe"}


@pytest.mark.parametrize("env_id", IDS)
def test_pettingzoo_api_test(env_id):
    env = multiagent.make(env_id, obs_size=SMALL, difficulty=0)
    with warnings.catch_warnings(record=True):   # its advice for non-Box observations is a warning
        warnings.simplefilter("always")
        api_test(env, num_cycles=60, verbose_progress=False)


@pytest.mark.parametrize("env_id", [i for i in IDS if i.split("/")[1].split("-v")[0] in ("TicTacToe", "Chess", "KuhnPoker")])
def test_pettingzoo_render_test(env_id, monkeypatch):
    """PettingZoo's own render test: every render mode the env names renders (human into SDL's dummy driver).
    One board game, the chess game and a card game (a seat's own view): the adapter renders them all alike,
    and human mode waits out its 4 frames a second (every id passes: about 2 s each)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    render_test(lambda render_mode=None: multiagent.make(env_id, obs_size=SMALL, difficulty=0, render_mode=render_mode))


@pytest.mark.parametrize("env_id", IDS)
def test_self_play_to_the_end(env_id):
    env = multiagent.make(env_id, obs_size=SMALL)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    totals, seen = dict.fromkeys(env.possible_agents, 0.0), []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        assert not trunc
        if term:
            env.step(None)
            continue
        assert obs["observation"].shape == (*SMALL, 3) and obs["observation"].dtype == np.uint8
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(legal) == env.legal_actions(agent) and len(legal) > 0
        other = [a for a in env.possible_agents if a != agent][0]
        assert not env.observe(other)["action_mask"].any()   # only the agent to move has moves
        seen.append(agent)
        env.step(int(rng.choice(legal)))
    assert sum(totals.values()) == 0
    verdict = env.rules.winner(env.state_of_game)   # the single-player rules' own verdict on the final state
    assert verdict is not None
    if env.per_seat:   # a card game: each seat's reward is the chips it won
        assert tuple(totals.values()) == env.game.chips(env.state_of_game) and not env.agents
        return
    assert set(totals.values()) <= {-1.0, 0.0, 1.0}
    if verdict == "draw":
        assert totals == {"player_0": 0.0, "player_1": 0.0}
    else:
        assert totals[env.possible_agents[verdict]] == 1.0
    assert not env.agents and seen[0] == "player_0"


def test_dots_and_boxes_closing_a_box_moves_again():
    env = multiagent.make("GymV/DotsAndBoxes-v1", difficulty=0, obs_size=SMALL)
    env.reset(seed=0)
    for a in (0, 2, 6):   # three sides of the top-left box (lines A3-B3, A2-B2, A3-A2), alternating players
        env.step(a)
    assert env.agent_selection == "player_1"
    env.step(7)           # B3-B2 closes the box: player_1 scores and moves again
    assert env.agent_selection == "player_1" and env.state_of_game[2][0] == 2
    env.step(env.legal_actions()[0])
    assert env.agent_selection == "player_0"


def test_illegal_action_loses_by_default():
    env = multiagent.make("GymV/ConnectFour-v1", obs_size=SMALL)
    env.reset(seed=0)
    for _ in range(6):
        env.step(3)   # column D fills up
    assert env.agent_selection == "player_0" and env.observe("player_0")["action_mask"][3] == 0
    env.step(3)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert env.infos["player_0"]["invalid_action"] and not env.infos["player_1"]["invalid_action"]
    assert env.infos["player_0"]["winner"] == "player_1"


@pytest.mark.parametrize("bad", [3, "D", None, 99, -1, 2.5])
def test_illegal_action_ignored_on_request(bad):
    env = multiagent.make("GymV/ConnectFour-v1", obs_size=SMALL, illegal_action="ignore")
    env.reset(seed=0)
    for _ in range(6):
        env.step(3)
    before = env.observe("player_0")
    env.step(bad)
    assert env.agent_selection == "player_0" and not any(env.terminations.values())
    assert env.infos["player_0"]["invalid_action"] and env.rewards["player_0"] == 0
    after = env.observe("player_0")
    assert np.array_equal(before["observation"], after["observation"]) and np.array_equal(before["action_mask"], after["action_mask"])


def test_max_cycles_truncates():
    env = multiagent.make("GymV/Gomoku-v1", obs_size=SMALL, max_cycles=2)
    env.reset(seed=0)
    for _ in range(4):
        env.step(env.legal_actions()[0])
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


@pytest.mark.parametrize("env_id", ["GymV/Hex-v1", "GymV/Othello-v1", "GymV/Go9x9-v1", "GymV/TicTacToe-v1"])
def test_level_start_is_the_single_player_level_and_seeded(env_id):
    seed_test(lambda: multiagent.make(env_id, obs_size=SMALL, start="level"), num_cycles=20)
    env = multiagent.make(env_id, obs_size=(96, 128), start="level")
    single = gym.make(env_id, obs_size=(96, 128))
    firsts = []
    for seed in (3, 4):
        env.reset(seed=seed)
        frame = env.observe("player_0")["observation"]
        assert np.array_equal(frame, single.reset(seed=seed)[0])   # the single-player env's own picture
        firsts.append(frame)
    assert not np.array_equal(*firsts)
    env.reset(seed=3, options={"start": "standard"})
    assert not np.array_equal(env.observe("player_0")["observation"], firsts[0])


def test_standard_start_is_the_usual_position():
    chess = multiagent.make("GymV/Chess-v1", obs_size=SMALL)
    chess.reset(seed=0)
    assert chess.state_of_game.startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    assert int(chess.observe("player_0")["action_mask"].sum()) == 20
    othello = multiagent.make("GymV/Othello-v1", difficulty=2, obs_size=SMALL)
    othello.reset(seed=0)
    assert sorted(othello.move_name("player_0", a) for a in othello.legal_actions()) == ["C5", "D6", "E3", "F4"]   # rows count from the bottom
    nim = multiagent.make("GymV/Nim-v1", difficulty=1, obs_size=SMALL)
    nim.reset(seed=5)
    assert nim.state_of_game[0] == (1, 3, 5, 7)


@pytest.mark.parametrize("env_id", IDS)
def test_seat_text_and_parsing(env_id):
    env = multiagent.make(env_id, obs_size=SMALL)
    env.reset(seed=0)
    c0, c1 = env.colour("player_0"), env.colour("player_1")
    assert c0 != c1 and f"as {c0} against {c1}" in env.infos["player_0"]["instruction"]
    assert f"as {c1} against {c0}" in env.infos["player_1"]["instruction"]
    a = env.legal_actions()[-1]
    said = env.move_name("player_0", a)
    assert env.parse_action("player_0", f"<think>maybe {env.move_name('player_0', 0)}</think>\nAction: {said}") == a
    assert env.parse_action("player_0", "no idea") is None and env.parse_action("player_0", b"\x00" * 10) is None
    env.step(a)
    if env.agent_selection == "player_1":
        b = env.legal_actions()[0]
        assert env.parse_action("player_1", f"Action: {env.move_name('player_1', b)}") == b
        assert env.seat("player_1").action_space.sample() in env.legal_actions()


def test_breakthrough_seats_name_their_own_moves():
    env = multiagent.make("GymV/Breakthrough-v1", difficulty=0, obs_size=SMALL)
    env.reset(seed=0)
    assert env.move_name("player_0", env.legal_actions()[0]).startswith("A2-")   # white moves up from row 2
    env.step(env.legal_actions()[0])
    names = [env.move_name("player_1", b) for b in env.legal_actions()]
    assert all(n[1] == "4" and n[-1] == "3" for n in names)   # black moves down from row 4 (5x5 board)


@pytest.mark.parametrize("env_id", IDS)
def test_an_agent_against_the_builtin_opponent(env_id):
    env = multiagent.make(env_id, obs_size=SMALL, difficulty=1 if "Chess" not in env_id else 0)
    out = multiagent.play(env, {"player_0": RandomAgent(env.seat("player_0"), seed=0), "player_1": "builtin"}, seed=2)
    assert out["invalid"] == {"player_0": 0, "player_1": 0}   # random legal moves, legal built-in replies
    assert sum(out["rewards"].values()) == 0 and (out["winner"] is not None or out["rewards"]["player_0"] == 0)


def test_builtin_opponent_plays_only_its_seat():
    env = multiagent.make("GymV/TicTacToe-v1", obs_size=SMALL, difficulty=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="player_1"):
        env.builtin_move()
    env.step(0)   # X in a corner: the perfect opponent must take the centre
    assert env.builtin_move() == 4
    with pytest.raises(ValueError, match="player_1 only"):
        multiagent.play(env, {"player_0": "builtin", "player_1": "builtin"})


def test_bad_ids_and_arguments_name_the_valid_values():
    for bad in ("GymV/Sokoban-v1", "nonsense", 3):
        with pytest.raises(ValueError, match="supported ids: GymV/Alquerque-v0, GymV/AtariGo-v1"):
            multiagent.make(bad)
    for kwargs, valid in (({"start": "middle"}, "'standard', 'level'"), ({"illegal_action": "raise"}, "'lose', 'ignore'"),
                          ({"max_cycles": 0}, "integer >= 1"), ({"difficulty": 7}, "0, 1, 2")):
        with pytest.raises(ValueError, match=valid):
            multiagent.make("GymV/Hex-v1", **kwargs)


def test_an_sb3_policy_against_the_builtin_opponent():
    """A PPO policy built on the single-player id plays its seat through `SB3Agent` (untrained: the
    test is the plumbing, not the play); illegal moves are ignored and asked again, up to max_cycles."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3 import PPO

    from gymv.agents.sb3 import SB3Agent, space_summary

    single = gym.make("GymV/ConnectFour-v1", obs_size=SMALL)
    model = PPO("CnnPolicy", single, n_steps=16, batch_size=16, seed=0, device="cpu")
    meta = {"env_id": "GymV/ConnectFour-v1", "env_kwargs": {"obs_size": list(SMALL)}, "wrappers": [], "algo": "ppo",
            "observation_space": space_summary(single.observation_space), "action_space": space_summary(single.action_space)}
    env = multiagent.make("GymV/ConnectFour-v1", obs_size=SMALL, illegal_action="ignore", max_cycles=40)
    out = multiagent.play(env, {"player_0": SB3Agent(env.seat("player_0"), model=model, meta=meta), "player_1": "builtin"}, seed=0)
    assert out["moves"] > 0 and out["invalid"]["player_1"] == 0
    assert out["truncated"] or out["winner"] is not None or out["rewards"] == {"player_0": 0.0, "player_1": 0.0}


CARD_IDS = [i for i in IDS if "Holdem" in i or "GinRummy" in i or "KuhnPoker" in i]


@pytest.mark.parametrize("env_id", CARD_IDS)
def test_card_seats_see_only_their_own_cards(env_id):
    """Each seat's frame is the game's `draw_seat` for that seat; changing the other seat's hidden cards
    changes nothing in it, while changing its own does."""
    env = multiagent.make(env_id, obs_size=(96, 128))
    env.reset(seed=4)
    s, game = env.state_of_game, env.game
    f0, f1 = env.observe("player_0")["observation"], env.observe("player_1")["observation"]
    assert np.array_equal(f0, game.draw_seat(s, 0)) and np.array_equal(f1, game.draw_seat(s, 1))
    assert not np.array_equal(f0, f1)
    if not hasattr(game, "cfg"):   # Gin Rummy: its own test swaps hidden cards (tests/test_games_gin_rummy.py)
        return
    hole = game.cfg.hole
    deck = list(s.decks[0])
    swapped = deck[:hole] + deck[-hole:] + deck[2 * hole:-hole] + deck[hole:2 * hole]   # seat 1 gets other cards
    s2 = s._replace(decks=(tuple(swapped), *s.decks[1:]))
    assert np.array_equal(game.draw_seat(s2, 0), f0) and not np.array_equal(game.draw_seat(s2, 1), f1)


@pytest.mark.parametrize("env_id", CARD_IDS)
def test_card_game_deal_is_the_single_player_level(env_id):
    seed_test(lambda: multiagent.make(env_id, obs_size=SMALL), num_cycles=30)
    env = multiagent.make(env_id, obs_size=SMALL)
    single = gym.make(env_id, obs_size=SMALL)
    env.reset(seed=6)
    assert np.array_equal(env.observe("player_0")["observation"], single.reset(seed=6)[0])
    assert env.state_of_game.decks == single.unwrapped.decks


def test_card_game_illegal_action_forfeits_and_nl_reads_raise_amounts():
    env = multiagent.make("GymV/NoLimitHoldem-v0", obs_size=SMALL)
    env.reset(seed=0)
    assert env.move_name("player_0", 1) == "check" and 1 not in env.legal_actions()   # facing the big blind
    assert env.parse_action("player_0", "I raise to 100") == 5 and env.parse_action("player_0", "Action: raise 4") == 3
    assert env.parse_action("player_0", "Action: raise 6") == 4 and env.parse_action("player_0", "I bet.") == 3
    env.step(1)
    assert all(env.terminations.values()) and env.rewards["player_0"] < 0 < env.rewards["player_1"]
    assert sum(env.rewards.values()) == 0


def test_misuse_is_named_not_a_python_error():
    """Unknown make() arguments, a player that is not an agent, an unknown seat, and stepping before reset: each
    names what is valid (they were a TypeError, a wrong "built-in opponent" message or an AttributeError)."""
    with pytest.raises(ValueError, match="unknown argument.*colour.*valid arguments: difficulty, obs_size"):
        multiagent.make("GymV/TicTacToe-v1", colour="red")
    env = multiagent.make("GymV/TicTacToe-v1", obs_size=SMALL)
    for what in ("step", "last", "observe"):
        with pytest.raises(gym.error.ResetNeeded, match=f"call reset\\(\\) before {what}\\(\\)"):
            {"step": lambda: env.step(0), "last": env.last, "observe": lambda: env.observe("player_0")}[what]()
    for player in ("gpt", 3, object()):
        with pytest.raises(ValueError, match="invalid player .* for player_0; valid values: an agent with reset"):
            multiagent.play(env, {"player_0": player, "player_1": "builtin"}, seed=0)
    env.reset(seed=0)
    for call in (lambda: env.observe("player_2"), lambda: env.observation_space("x"), lambda: env.colour(0),
                 lambda: env.move_name("p0", 0)):
        with pytest.raises(ValueError, match="valid values: 'player_0', 'player_1'"):
            call()
    env.step("not a move")   # an invalid action still never raises: it forfeits under illegal_action="lose"
    assert env.infos["player_0"]["invalid_action"]
