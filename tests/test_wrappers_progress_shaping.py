"""ProgressShaping: potential-based shaping from info["progress"]; the env's own score is untouched."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs  # noqa: F401
from gymv.agents import make_agent
from gymv.benchmarks.rollout import rollout
from gymv.wrappers import ProgressShaping

ID = "GymV/GridNav-v1"


def _env(**kw):
    return gym.make(ID, difficulty=0, obs_size=(32, 32), **kw)


def test_shaping_follows_progress_and_telescopes_to_the_env_return():
    env = ProgressShaping(_env(), gamma=1.0)
    _, info = env.reset(seed=3)
    assert info["progress"] == 0.0
    d0 = env.unwrapped.start_dist
    shaped = []
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
        shaped.append(reward)
        done = terminated or truncated
    assert terminated and info["success"]
    # every oracle step is one cell closer: +1/d0, and the last one gives back the shaping (Phi = 0 at the end)
    assert np.allclose(shaped[:-1], 1.0 / d0)
    assert sum(shaped) == pytest.approx(1.0)  # gamma = 1: the shaped return is the env's return


def test_steps_closer_pay_and_steps_back_cost():
    env = ProgressShaping(_env(), gamma=0.9)
    _, info = env.reset(seed=5)
    seen = set()
    for action in (2, 3, 2, 2, 0, 1):  # left (closer), right (back), left, left, up, down on this level
        before = info["progress"]
        _, reward, terminated, _, info = env.step(action)
        after = 0.0 if terminated else info["progress"]
        assert reward == pytest.approx(float(terminated) + 0.9 * after - before)
        assert info["shaping"] == pytest.approx(reward - float(terminated))
        seen.add(np.sign(round(after - before, 9)))
        if terminated:
            break
    assert seen >= {-1.0, 1.0}  # both a step closer (paid) and a step back (charged) were taken


def test_the_benchmark_score_is_the_same_with_and_without_shaping():
    plain, shaped = _env(), ProgressShaping(_env(), coef=3.0)
    for seed in range(3):
        a = rollout(plain, make_agent("random", plain), seed)
        b = rollout(shaped, make_agent("random", shaped), seed)
        assert (a["score"], a["success"], a["steps"]) == (b["score"], b["success"], b["steps"])


@pytest.mark.parametrize("kwargs, message", [({"coef": -1.0}, "coef=-1.0"), ({"gamma": 1.5}, "gamma=1.5"),
                                             ({"gamma": True}, "gamma=True")])
def test_bad_arguments_name_what_is_valid(kwargs, message):
    with pytest.raises(ValueError, match=message + r".*valid values"):
        ProgressShaping(_env(), **kwargs)


def test_single_turn_ids_are_refused():
    with pytest.raises(ValueError, match="multi-turn"):
        ProgressShaping(gym.make("GymV/MazePath-v1", obs_size=(32, 32)))
