"""Keyboard play, headless (SDL_VIDEODRIVER=dummy), driven by synthetic pygame key events."""

from __future__ import annotations

import os

import gymnasium as gym
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
pygame = pytest.importorskip("pygame")

import gymv_envs  # noqa: E402,F401 - registers the ids
from gymv.agents import make_agent  # noqa: E402
from gymv.agents.human import HumanAgent, HumanQuit, play  # noqa: E402

ARROW = {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT, "right": pygame.K_RIGHT}


def press(key: int, char: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char, mod=0, scancode=0))


def type_text(text: str) -> None:
    for ch in text:
        press(pygame.key.key_code(ch) if ch.isalnum() else pygame.K_SPACE if ch == " " else 0, ch)
    press(pygame.K_RETURN, "\r")


@pytest.fixture
def agent_for():
    made = []

    def build(env_id: str, **kw):
        agent = HumanAgent(gym.make(env_id, obs_size=(96, 96), **kw), window_height=200)
        agent._open()
        pygame.event.clear()
        made.append(agent)
        return agent

    yield build
    for agent in made:
        agent.close()


def test_arrow_keys_walk_the_oracle_route_to_success(agent_for):
    agent = agent_for("GymV/GridNav-v1")
    env = agent.env
    planner = gym.make("GymV/GridNav-v1", obs_size=(96, 96))
    planner.reset(seed=4)
    route = []
    while True:
        a = planner.unwrapped.oracle_action()
        route.append(a)
        *_, terminated, _, _ = planner.step(a)
        if terminated:
            break
    for a in route:
        press(ARROW[env.unwrapped.action_names[a]])
    records = play("GymV/GridNav-v1", episodes=1, seed=4, agent=agent)
    assert records[0]["success"] and records[0]["score"] == 100.0 and records[0]["steps"] == len(route)


def test_typed_open_answer_and_number_keys(agent_for):
    agent = agent_for("GymV/MazePath-v1")
    obs, info = agent.env.reset(seed=2)
    agent.reset(info["instruction"], info)
    answer = agent.env.unwrapped.oracle_action()
    press(pygame.K_z, "z")
    press(pygame.K_z, "z")
    press(pygame.K_BACKSPACE)
    press(pygame.K_BACKSPACE)
    type_text(answer)
    action = agent.act(obs, info)
    *_, terminated, _, info = agent.env.step(action)
    assert terminated and info["success"]

    ttt = agent_for("GymV/TicTacToe-v1")
    obs, info = ttt.env.reset(seed=0)
    ttt.reset(info["instruction"], info)
    press(pygame.K_5, "5")
    assert ttt.act(obs, info) == 4  # key 5 -> the fifth action (B2)
    type_text("C3")
    assert ttt.act(obs, info) == ttt.env.unwrapped.action_names.index("C3")


def test_mcq_letters_unreadable_text_and_quitting(agent_for):
    agent = agent_for("GymV/MazePath-v1", answer_format="mcq")
    obs, info = agent.env.reset(seed=1)
    agent.reset(info["instruction"], info)
    type_text("xyzzy")  # unreadable: shown as a message, no action
    press(pygame.K_c, "c")
    assert agent.act(obs, info) == 2 and "could not read 'xyzzy'" in agent.message
    press(pygame.K_ESCAPE)
    with pytest.raises(HumanQuit):
        agent.act(obs, info)


def test_realtime_ids_do_not_wait_and_make_agent_builds_it():
    env = gym.make("GymV/Breakout-v1", obs_size=(96, 96))
    agent = make_agent("human", env, window_height=160, fps=200)
    try:
        obs, info = env.reset(seed=0)
        agent.reset(info["instruction"], info)
        assert agent.realtime
        agent._open()
        pygame.event.clear()
        assert agent.act(obs, info) == env.unwrapped.action_names.index("noop")
        press(pygame.K_RIGHT)
        assert agent.act(obs, info) == env.unwrapped.action_names.index("right")
    finally:
        agent.close()


def test_ctrl_c_in_the_terminal_ends_with_a_line(monkeypatch, capsys):
    """Ctrl-C while the window waits for a key ended in a traceback through pygame's event wait."""
    import gymv.agents.human as human

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(human, "play", ctrl_c)
    assert human.main(["GymV/Sokoban-v1"]) == 130
    assert "stopped (Ctrl-C)" in capsys.readouterr().err
