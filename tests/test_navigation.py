"""GridNav's agent-centred view: the same rules, the grid drawn around the agent."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs  # noqa: F401


def _pair(seed: int, difficulty: int = 0):
    envs = [gym.make("GymV/GridNav-v1", difficulty=difficulty, obs_size=(64, 64), view=v) for v in ("full", "agent")]
    return envs, [e.reset(seed=seed) for e in envs]


@pytest.mark.parametrize("difficulty", [0, 2])
def test_agent_view_is_centred_on_the_agent_and_shows_the_whole_grid(difficulty):
    (full, ego), _ = _pair(4, difficulty)
    u = ego.unwrapped
    R, C = u.rows, u.cols
    for _ in range(6):
        keys = u._view_keys()
        assert (len(keys), len(keys[0])) == (2 * R - 1, 2 * C - 1)
        assert keys[R - 1][C - 1] in ("agent", ("on", *u.landmarks[0]))
        ar, ac = u.agent
        inside = [row[C - 1 - ac: 2 * C - 1 - ac] for row in keys[R - 1 - ar: 2 * R - 1 - ar]]
        assert inside == u._keys  # every cell of the grid, shifted
        assert sum(k == "outside" for row in keys for k in row) == (2 * R - 1) * (2 * C - 1) - R * C
        action = u.oracle_action()
        full.step(action)
        *_, term, _, _ = ego.step(action)
        if term:
            break


def test_rules_rewards_and_text_are_the_same_in_both_views():
    (full, ego), resets = _pair(7)
    assert resets[0][1]["instruction"] == resets[1][1]["instruction"]
    assert not np.array_equal(resets[0][0], resets[1][0])
    rng = np.random.default_rng(0)
    frames = [resets[1][0]]
    for action in rng.integers(0, 4, 30):
        a, b = full.step(int(action)), ego.step(int(action))
        assert a[1:4] == b[1:4] and a[4]["progress"] == b[4]["progress"] and a[4].get("invalid") == b[4].get("invalid")
        frames.append(b[0])
        if a[2]:
            break
    moved = [not np.array_equal(x, y) for x, y in zip(frames, frames[1:])]
    assert any(moved)  # the picture follows the agent


def test_bad_view_names_the_valid_ones():
    with pytest.raises(ValueError, match=r"invalid view='ego'; valid values: 'full', 'agent'"):
        gym.make("GymV/GridNav-v1", view="ego")
