"""RecordEpisode: captioned GIFs and JSON logs whose replays are frame-identical."""

from __future__ import annotations

import json
import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from PIL import Image

import gymv_envs
from gymv.wrappers import RecordEpisode, TextActions, replay
from gymv.wrappers.record_episode import _mp4_available
from tests.helpers import id_params

S = (48, 48)
WORLD3D = [i for i in gymv_envs.ids() if gymv_envs.describe(i)["domain"] == "world3d"][:1]
IDS = id_params(["GymV/MazePath-v1", "GymV/Sokoban-v1", "GymV/Artillery-v1", "GymV/RaycastMaze-v1", *WORLD3D])


def _oracle_episode(env, seed, max_steps=40):
    env.reset(seed=seed)
    frames = [env.unwrapped.render()]
    for _ in range(max_steps):
        *_, terminated, truncated, _ = env.step(env.unwrapped.oracle_action())
        frames.append(env.unwrapped.render())
        if terminated or truncated:
            break
    return frames


@pytest.mark.parametrize("env_id", IDS)
def test_replay_is_frame_identical(env_id, tmp_path):
    env = RecordEpisode(gym.make(env_id, obs_size=S), tmp_path)
    live = _oracle_episode(env, seed=5)
    env.close()
    (path,) = env.written
    log = json.loads(path.read_text())
    assert log["env_id"] == env_id and log["seed"] == 5 and len(log["actions"]) == len(live) - 1
    replayed = replay(path)
    assert len(replayed) == len(live) and all(np.array_equal(a, b) for a, b in zip(live, replayed))
    gif = Image.open(tmp_path / log["video"])
    assert gif.size == (S[1], S[0] + 14)  # the frame and the caption strip under it
    gif.seek(gif.n_frames - 1)
    strip = np.asarray(gif.convert("RGB"))[S[0]:]
    assert strip.std() > 0  # the action text is drawn


def test_tampered_log_fails_replay(tmp_path):
    env = RecordEpisode(gym.make("GymV/Sokoban-v1", obs_size=S), tmp_path)
    _oracle_episode(env, seed=0)
    path = env.written[0]
    log = json.loads(path.read_text())
    log["actions"][0] = (log["actions"][0] + 1) % 4
    path.write_text(json.dumps(log))
    with pytest.raises(RuntimeError, match="replay diverged at frame 1"):
        replay(path)
    assert len(replay(path, check=False)) == len(log["actions"]) + 1
    # a truncated file, or JSON that is not a recording: named (a JSONDecodeError and a KeyError before)
    path.write_text(json.dumps(log)[:-40])
    with pytest.raises(ValueError, match="is not a RecordEpisode recording \\(not JSON"):
        replay(path)
    path.write_text(json.dumps({"episodes": []}))
    with pytest.raises(ValueError, match="is not a RecordEpisode recording \\(missing kwargs, seed, actions"):
        replay(path)


def test_unseeded_resets_are_replayable_and_cut_episodes_written(tmp_path):
    env = RecordEpisode(gym.make("GymV/RaycastMaze-v1", obs_size=S), tmp_path, name_prefix="maze")
    env.reset(seed=11)
    env.step(2)
    env.reset()  # writes the cut episode; draws a seed from the first one
    env.step(3)
    env.step(0)
    env.close()
    assert [p.name for p in env.written] == ["maze-0000.json", "maze-0001.json"]
    logs = [json.loads(p.read_text()) for p in env.written]
    assert logs[0]["seed"] == 11 and isinstance(logs[1]["seed"], int) and not logs[1]["terminated"]
    for p in env.written:
        replay(p)
    again = RecordEpisode(gym.make("GymV/RaycastMaze-v1", obs_size=S), tmp_path / "again")
    again.reset(seed=11)
    again.reset()
    again.close()
    assert json.loads(again.written[-1].read_text())["seed"] == logs[1]["seed"]  # seeds follow from the first


def test_under_text_actions_records_the_env_actions(tmp_path):
    env = TextActions(RecordEpisode(gym.make("GymV/GridNav-v1", obs_size=S, action_mode="joystick"), tmp_path))
    env.reset(seed=2)
    env.step("Action: x=1, y=0")
    env.step("no idea")  # a noop: recorded as null, replayed as the same invalid step
    env.step("Action: x=0, y=-1")
    env.close()
    path = env.env.written[0]
    log = json.loads(path.read_text())
    assert log["actions"][0] == [1.0, 0.0] and log["actions"][1] is None
    replay(path)


def test_check_env_pickle(tmp_path):
    env = RecordEpisode(gym.make("GymV/Artillery-v1", obs_size=S), tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    env.reset(seed=0)
    env.step(env.unwrapped.oracle_action())
    copy = pickle.loads(pickle.dumps(env))
    assert copy.step(copy.unwrapped.oracle_action())[4] == env.step(env.unwrapped.oracle_action())[4]


@pytest.mark.parametrize("kwargs, error, match", [
    ({"format": "avi"}, ValueError, "'gif', 'mp4'"),
    ({"fps": 0}, ValueError, r"\(0, 240\]"),
    ({"name_prefix": "a/b"}, ValueError, "file name"),
])
def test_bad_options(kwargs, error, match, tmp_path):
    with pytest.raises(error, match=match):
        RecordEpisode(gym.make("GymV/Sokoban-v1", obs_size=S), tmp_path, **kwargs)


def test_unwritable_path(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with pytest.raises(ValueError, match="cannot write recordings to .*a_file/videos.*valid values"):
        RecordEpisode(gym.make("GymV/Sokoban-v1", obs_size=S), blocker / "videos")
    with pytest.raises(TypeError, match="folder must be a path"):
        RecordEpisode(gym.make("GymV/Sokoban-v1", obs_size=S), 42)
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        RecordEpisode(gym.make("GymV/Sokoban-v1", obs_size=S, render_mode=None), tmp_path)


def test_mp4(tmp_path):
    if not _mp4_available():
        with pytest.raises(ValueError, match="valid values here: 'gif'"):
            RecordEpisode(gym.make("GymV/Sokoban-v1", obs_size=S), tmp_path, format="mp4")
        return
    env = RecordEpisode(gym.make("GymV/Sokoban-v1", obs_size=S), tmp_path, format="mp4")
    _oracle_episode(env, seed=0)
    assert (tmp_path / "episode-0000.mp4").stat().st_size > 0


def test_async_vector_env(tmp_path):
    fns = [lambda i=i: RecordEpisode(gym.make("GymV/Sokoban-v1", obs_size=S), tmp_path / f"w{i}") for i in range(2)]
    envs = gym.vector.AsyncVectorEnv(fns)
    try:
        envs.reset(seed=[0, 1])
        envs.step(np.array([0, 1]))
    finally:
        envs.close()
    for i in range(2):
        (path,) = sorted((tmp_path / f"w{i}").glob("*.json"))
        assert json.loads(path.read_text())["seed"] == i
        replay(path)
