"""The registry helpers: ids(), describe(), unknown ids and extras."""

import gymnasium as gym
import pytest

import gymv_envs


def test_ids_sorted_unique_and_registered():
    ids = gymv_envs.ids()
    assert ids == sorted(set(ids)) and len(ids) >= 10
    for env_id in ids:
        assert env_id in gym.registry and env_id.startswith("GymV/")


def test_ids_filters():
    assert gymv_envs.ids("MazePath*") == ["GymV/MazePath-v1"]
    assert gymv_envs.ids("GymV/Maze*") == gymv_envs.ids("Maze*")
    assert "GymV/MazePath-v1" in gymv_envs.ids("GymV/Maze*")
    for env_id in gymv_envs.ids(protocol="single_turn"):
        assert gymv_envs.describe(env_id)["protocol"] == "single_turn"
    for domain in gymv_envs.domain_names():
        assert all(gymv_envs.describe(i)["domain"] == domain for i in gymv_envs.ids(domain=domain))
    assert sum(len(gymv_envs.ids(domain=d)) for d in gymv_envs.domain_names()) == len(gymv_envs.ids())
    assert gymv_envs.ids(tags=("no-such-tag",)) == []
    assert set(gymv_envs.ids(available_only=True)) <= set(gymv_envs.ids())
    assert len(gymv_envs.domain_names()) >= 4


def test_bad_queries_name_valid_values():
    with pytest.raises(ValueError, match="single_turn"):
        gymv_envs.ids(protocol="three_turn")
    with pytest.raises(ValueError, match="valid"):
        gymv_envs.ids(domain="astrology")
    with pytest.raises(ValueError, match="unknown GymV id"):
        gymv_envs.describe("GymV/NoSuchTask-v0")
    with pytest.raises(gym.error.Error):
        gym.make("GymV/NoSuchTask-v0")
    with pytest.raises(ValueError, match=r"did you mean one of \['GymV/Sokoban-v1'\]"):   # a retired version
        gymv_envs.describe("GymV/Sokoban-v0")
    # not strings: named, where Python's TypeError from deep inside came before
    for call, message in ((lambda: gymv_envs.describe(123), "invalid id 123; valid values: an id string"),
                          (lambda: gymv_envs.ids(None), "invalid pattern None"),
                          (lambda: gymv_envs.ids(tags=3), "invalid tags 3")):
        with pytest.raises(ValueError, match=message):
            call()


def test_describe_accepts_short_names():
    assert gymv_envs.describe("MazePath")["id"] == "GymV/MazePath-v1"
    assert gymv_envs.describe("MazePath-v1")["id"] == "GymV/MazePath-v1"


def test_missing_extra_names_it(monkeypatch):
    from gymv_envs.core import registry

    monkeypatch.setitem(registry.EXTRA_MODULES, "web", "module_that_does_not_exist_xyz")
    with pytest.raises(gym.error.DependencyNotInstalled, match=r"gymv\[web\]"):
        registry.require_extras(("web",), "GymV/Example-v0")
    assert not gymv_envs.extra_available("web")
    with pytest.raises(ValueError, match="valid extras"):
        gymv_envs.extra_available("quantum")
