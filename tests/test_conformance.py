"""The conformance suite: every registered id is checked here, with no per-task code.

Each test builds its env inside the test and checks behaviour, not just the API.
"""

from __future__ import annotations

import copy
import inspect
import pickle
import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.envs.registration import EnvSpec
from gymnasium.utils.env_checker import check_env

import gymv_envs
from gymv_envs.core import parsing
from gymv_envs.core.captions import caption_height, panel_height
from gymv_envs.core.env import STATE_TEXT_CHARSET, VisionEnv
from tests.helpers import (
    ORACLE_OBS_SIZE,
    all_ids,
    id_params,
    invalid_action,
    oracle_episode,
    oracle_seeds,
    run_oracle,
    variants,
)

IDS = id_params(all_ids())
DOC_SECTIONS = ("Description", "Action Space", "Observation Space", "Rewards", "Starting State",
                "Episode End", "Arguments", "Version History")


def _make(env_id: str, **kwargs) -> gym.Env:
    return gym.make(env_id, **kwargs)


@pytest.mark.parametrize("env_id", IDS)
def test_registry_metadata(env_id):
    d = gymv_envs.describe(env_id)
    for key in ("domain", "protocol", "tags", "difficulties", "max_episode_steps", "max_return",
                "extras", "action_modes", "answer_formats"):
        assert key in d
    assert d["protocol"] in ("single_turn", "multi_turn")
    assert set(d["difficulties"]) >= {0, 1, 2}
    assert d["max_return"] > 0 and d["max_episode_steps"] >= 1
    cls = gymv_envs.task_spec(env_id).entry_point
    assert issubclass(cls, gym.Env) and issubclass(cls, VisionEnv)
    doc = inspect.getdoc(cls) or ""
    missing = [s for s in DOC_SECTIONS if f"## {s}" not in doc]
    assert not missing, f"docstring lacks sections {missing}"
    assert gym.spec(env_id).max_episode_steps == d["max_episode_steps"]


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env(env_id):
    for kwargs in variants(env_id):
        env = _make(env_id, **kwargs)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            # Gymnasium's advice to normalise Box ranges is not an API error: parametric
            # actions are in documented real units (degrees, seconds).
            warnings.filterwarnings("ignore", message=".*symmetric and normalized space")
            check_env(env.unwrapped)
        env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_sb3_check_env(env_id):
    sb3_env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    for kwargs in variants(env_id):
        env = _make(env_id, **kwargs).unwrapped
        if not isinstance(env.action_space, (gym.spaces.Discrete, gym.spaces.Box)):
            continue  # open answers are Text: not an SB3 space
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SB3 advice (e.g. symmetric Box ranges) is not an error
            sb3_env_checker.check_env(env, warn=False, skip_render_check=True)
        env.close()


def _rollout(env, seed: int, actions) -> list:
    obs, info = env.reset(seed=seed)
    trace = [(obs.tobytes(), info.get("instruction"), info.get("state_text"))]
    for a in actions:
        obs, r, term, trunc, info = env.step(a)
        trace.append((obs.tobytes(), r, term, trunc, info["invalid_action"], info.get("state_text"), info["feedback"]))
        if term or trunc:
            break
    return trace


@pytest.mark.parametrize("env_id", IDS)
def test_determinism_same_seed(env_id):
    env_a, env_b = _make(env_id), _make(env_id)
    env_a.action_space.seed(123)
    actions = [env_a.action_space.sample() for _ in range(30)]
    random.seed(1)
    np.random.seed(1)
    trace_a = _rollout(env_a, 7, actions)
    random.seed(999)
    np.random.seed(999)
    np.random.rand(17)
    trace_b = _rollout(env_b, 7, actions)
    assert trace_a == trace_b
    # a second reset of the same env with the same seed gives the same level again
    assert _rollout(env_a, 7, actions) == trace_a
    # and a level played after others is the one a fresh env gives: nothing of a level (a picture, a state
    # text, an answer made once) carries into the next
    assert _rollout(env_a, 8, actions) == _rollout(_make(env_id), 8, actions), "the last level leaks into this one"


@pytest.mark.parametrize("env_id", IDS)
def test_levels_come_from_their_own_stream(env_id, monkeypatch):
    """A level is drawn from `level_generator(seed)`, not from the stream Gymnasium seeds an action space
    with: with the env's derivation swapped for Gymnasium's, the levels change."""
    from gymnasium.utils import seeding

    import gymv_envs.core.env as core_env

    def first_frames() -> list[bytes]:
        env = _make(env_id, obs_size=(64, 64))
        frames = [env.reset(seed=seed)[0].tobytes() + env.unwrapped._task_text().encode() for seed in range(3)]
        env.close()
        return frames

    ours = first_frames()
    monkeypatch.setattr(core_env, "level_generator", lambda seed: seeding.np_random(seed)[0])
    assert first_frames() != ours, "the level does not depend on the derived stream"


@pytest.mark.parametrize("env_id", IDS)
def test_different_seeds_give_different_levels(env_id):
    env = _make(env_id)
    firsts = set()
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        firsts.add((obs.tobytes(), info.get("instruction")))
    assert len(firsts) >= 4, "levels barely depend on the seed"


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_oracle_solves_every_seed(env_id, difficulty):
    max_return = gymv_envs.describe(env_id)["max_return"]
    for kwargs in variants(env_id):
        env = _make(env_id, difficulty=difficulty, obs_size=ORACLE_OBS_SIZE, **kwargs)
        for seed in oracle_seeds(env_id):
            success, steps, total, _ = oracle_episode(env, seed)
            assert success, f"oracle failed: seed={seed} difficulty={difficulty} {kwargs} after {steps} steps"
            assert total <= max_return + 1e-6, "return above the declared max_return"
        env.close()


def _level_cost(env_id: str, difficulty: int) -> tuple[float, float]:
    """(mean oracle steps, mean size of the level's text and solution) over four seeds."""
    steps, size = [], []
    for seed in range(4):
        steps.append(run_oracle(env_id, seed, difficulty=difficulty)[1])
        env = _make(env_id, difficulty=difficulty).unwrapped
        env.reset(seed=seed)
        solution = env.oracle_action() if env.protocol == "single_turn" else ""
        size.append(len(env._state_text() or "") + len(env.instruction) + len(str(solution)))
    return float(np.mean(steps)), float(np.mean(size))


@pytest.mark.parametrize("env_id", IDS)
def test_harder_levels_cost_the_oracle_more(env_id):
    """Difficulty 2 needs a longer plan or a bigger level than difficulty 0."""
    (steps0, size0), (steps2, size2) = _level_cost(env_id, 0), _level_cost(env_id, 2)
    assert steps2 > steps0 or size2 > size0, f"d0={steps0, size0} d2={steps2, size2}"


@pytest.mark.parametrize("env_id", IDS)
def test_random_agent_200_steps(env_id):
    for kwargs in variants(env_id):
        env = _make(env_id, **kwargs)
        env.action_space.seed(0)
        obs, _ = env.reset(seed=0)
        for _ in range(200):
            obs, reward, term, trunc, info = env.step(env.action_space.sample())
            assert env.observation_space.contains(obs)
            assert np.isfinite(reward)
            assert 0.0 <= info["progress"] <= 1.0
            if term or trunc:
                obs, _ = env.reset()
        env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_invalid_action_changes_nothing(env_id):
    for kwargs in variants(env_id):
        env = _make(env_id, **kwargs).unwrapped
        obs, info = env.reset(seed=3)
        bad = invalid_action(env.action_space)
        obs2, reward, term, trunc, info2 = env.step(bad)
        assert info2["invalid_action"] is True
        assert reward == 0.0 and not term
        assert np.array_equal(obs, obs2)
        assert info2.get("state_text") == info.get("state_text")
        assert "answer" not in info2
        assert env.parse_action("qwertyuiop zxcv") is None
        assert env.parse_action("") is None


GARBAGE = ["", " ", "\x00\xff\x10" * 50, "答案是：不知道", "🙂" * 100, "A" * 1_000_000,
           "<think>" * 10_000, "{" * 50_000, "Answer: " * 5000, "\\boxed{" * 5000,
           bytes(range(256)).decode("latin-1") * 100, None, 42, b"bytes"]


@pytest.mark.parametrize("env_id", IDS)
def test_parse_action_never_raises(env_id):
    for kwargs in variants(env_id):
        env = _make(env_id, **kwargs).unwrapped
        env.reset(seed=0)
        for text in GARBAGE:
            action = env.parse_action(text)
            assert action is None or env.action_space.contains(action)


@pytest.mark.parametrize("env_id", IDS)
def test_parse_action_reads_oracle_replies(env_id):
    """The oracle's action, said the way models say things, parses back to an equivalent action."""
    for kwargs in variants(env_id):
        env = _make(env_id, **kwargs).unwrapped
        env.reset(seed=1)
        action = env.oracle_action()
        said = env.format_action(action)
        for reply in (said, f"Answer: {said}", f"<think>Let me think: maybe not that.</think>\nAction: {said}",
                      f"After careful thought, the final answer is:\n<answer>{said}</answer>",
                      f"The answer is {said}.", f"Let me look.\n\n### Final Answer\n\n{said}\n\nThat is what the image shows."):
            parsed = env.parse_action(reply)
            assert parsed is not None, f"could not parse {reply!r}"
            clone = copy.deepcopy(env)
            _, r1, *_ = clone.step(parsed)
            clone2 = copy.deepcopy(env)
            _, r2, *_ = clone2.step(action)
            assert r1 == r2


@pytest.mark.parametrize("env_id", IDS)
def test_no_answer_leak(env_id):
    for kwargs in variants(env_id):
        success, _, _, infos = run_oracle(env_id, 5, **kwargs)
        env = _make(env_id, **kwargs).unwrapped
        _, first = env.reset(seed=5)
        before, final = infos[:-1], infos[-1]
        for info in before:
            assert "answer" not in info, "ground truth in info before termination"
        answer = final.get("answer")
        if isinstance(answer, str) and len(answer) >= 4 and kwargs.get("answer_format") != "mcq":
            texts = [first["instruction"]] + [i.get("feedback", "") for i in before]
            assert not any(answer in t for t in texts), "ground truth appears in the instruction or feedback"


@pytest.mark.parametrize("env_id", IDS)
def test_observations_fresh_and_in_space(env_id):
    env = _make(env_id)
    obs0, info0 = env.reset(seed=0)
    assert env.observation_space.contains(obs0)
    assert obs0.dtype == np.uint8 and obs0.ndim == 3 and obs0.shape[2] == 3
    assert obs0.std() > 0, "blank frame"
    obs1, _, _, _, info1 = env.step(env.action_space.sample())
    for info in (info0, info1):  # StateText's observation space: the state text must be in it
        odd = set(info.get("state_text") or "") - set(STATE_TEXT_CHARSET)
        assert not odd, f"state_text uses characters outside STATE_TEXT_CHARSET: {sorted(odd)}"
    assert not np.shares_memory(obs0, obs1)
    frame = env.render()
    assert frame.shape == obs1.shape and not np.shares_memory(frame, obs1)
    assert np.array_equal(frame, obs1), "render() after a step does not show the step's observation"
    obs1[...] = 0
    assert env.render().any(), "writing to an observation changed the env"


@pytest.mark.parametrize("env_id", IDS)
def test_pickle_round_trip(env_id):
    env = _make(env_id).unwrapped
    env.reset(seed=4)
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(5)]
    clone = pickle.loads(pickle.dumps(env))
    for a in actions:
        o1, r1, t1, *_ = env.step(a)
        o2, r2, t2, *_ = clone.step(a)
        assert np.array_equal(o1, o2) and r1 == r2 and t1 == t2
        if t1:
            break


@pytest.mark.parametrize("env_id", IDS)
def test_spec_json_round_trip(env_id):
    env = _make(env_id)
    text = env.spec.to_json()
    spec = EnvSpec.from_json(text)
    again = gym.make(spec)
    a, _ = env.reset(seed=2)
    b, _ = again.reset(seed=2)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("env_id", IDS)
def test_obs_size_is_native(env_id):
    small = _make(env_id, obs_size=(84, 84))
    wide = _make(env_id, obs_size=(96, 128))
    o_small, _ = small.reset(seed=0)
    o_wide, _ = wide.reset(seed=0)
    assert o_small.shape == (84, 84, 3) and small.observation_space.shape == (84, 84, 3)
    assert o_wide.shape == (96, 128, 3) and o_wide.std() > 0


@pytest.mark.parametrize("env_id", IDS)
def test_smallest_and_lopsided_frames_work(env_id):
    # the constructor accepts sides from 32 px: every difficulty draws there and takes a step
    difficulties = gymv_envs.describe(env_id)["difficulties"]
    for size in ((32, 32), (32, 160), (160, 32)):
        for d in difficulties:
            env = _make(env_id, obs_size=size, difficulty=d)
            obs, _ = env.reset(seed=0)
            assert obs.shape == (*size, 3), (size, d)
            env.action_space.seed(0)
            assert env.step(env.action_space.sample())[0].shape == (*size, 3), (size, d)
            env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_bad_arguments_name_valid_values(env_id):
    with pytest.raises(ValueError, match="valid"):
        _make(env_id, difficulty=99)
    with pytest.raises(ValueError, match="obs_size"):
        _make(env_id, obs_size=(0, 10))
    with pytest.raises(ValueError, match="obs_size"):
        _make(env_id, obs_size="big")
    with pytest.raises(ValueError, match="valid arguments"):
        _make(env_id, colour_scheme="neon")
    # a mode an id lacks, or a falsy one, is refused rather than read as the default (single-turn ids took any)
    for name, value in (("action_mode", "teleport"), ("action_mode", ""), ("instruction_level", [])):
        with pytest.raises(ValueError, match=name):
            _make(env_id, **{name: value})
    with pytest.raises(ValueError, match="valid"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gym.make warns about the unknown mode before the env refuses it
        _make(env_id, render_mode="ascii")
    if gymv_envs.describe(env_id)["protocol"] == "single_turn":
        with pytest.raises(ValueError, match="open"):
            _make(env_id, answer_format="essay")


TEXT_SEEDS = range(12)


@pytest.mark.parametrize("env_id", IDS)
def test_text_in_image_shows_what_the_instruction_adds(env_id):
    """With ``text_in_image=True`` two levels whose instructions differ never look the same where the
    caption is drawn, MCQ options are drawn below the picture, and the picture is drawn natively.
    An env whose instructions are seeded paraphrases says what they mean in ``_meaning()``: levels
    that differ only in wording may share a caption."""
    for kwargs in variants(env_id):
        env = _make(env_id, text_in_image=True, obs_size=(128, 128), **kwargs).unwrapped
        assert env.observation_space.shape == (128, 128, 3)
        top = caption_height(128) if env.has_caption() else 0
        mcq = getattr(env, "answer_format", None) == "mcq"
        bottom = panel_height(128, env.num_options) if mcq else 0
        assert env.obs_size == (128 - top - bottom, 128)
        seen: dict[str, bytes] = {}
        panels: dict[tuple, bytes] = {}
        for seed in TEXT_SEEDS:
            obs, _ = env.reset(seed=seed)
            seen.setdefault(env._meaning() if hasattr(env, "_meaning") else env._task_text(), obs[:top].tobytes())
            if mcq:
                panels.setdefault(tuple(env.options), obs[128 - bottom:].tobytes())
        if not env.has_caption():
            assert len(seen) == 1, "the instruction changes with the level but nothing is drawn: implement _caption()"
        else:
            assert len(set(seen.values())) == len(seen), "levels with different instructions share a caption"
        assert len(set(panels.values())) == len(panels), "different options, same options panel"
        env.close()


@pytest.mark.parametrize("env_id", [p for p in IDS if gymv_envs.describe(p.values[0])["protocol"] == "single_turn"])
def test_mcq_one_correct_and_balanced(env_id):
    counts = np.zeros(4, dtype=int)
    for seed in range(40):
        # four options whatever an id's default (the figure-reasoning ids register eight)
        env = _make(env_id, answer_format="mcq", num_options=4).unwrapped
        env.reset(seed=seed)
        assert len(set(env.options)) == 4, "options repeat"
        rewards = []
        for k in range(4):
            env.reset(seed=seed)
            rewards.append(env.step(k)[1])
        assert sorted(rewards) == [0.0, 0.0, 0.0, 1.0], f"seed {seed}: not exactly one correct option"
        counts[int(np.argmax(rewards))] += 1
    assert counts.min() >= 3, f"correct letters unbalanced over 40 seeds: {counts.tolist()}"


@pytest.mark.parametrize("env_id", [p for p in IDS if gymv_envs.describe(p.values[0])["protocol"] == "single_turn"])
def test_mcq_replies_read_back(env_id):
    """The correct letter, said the ways models say it (with its option's text, in a sentence), reads back."""
    env = _make(env_id, answer_format="mcq").unwrapped
    for seed in range(3):
        env.reset(seed=seed)
        k = env.oracle_action()
        letter, text = parsing.LETTERS[k], env.options[k]
        for reply in (f"{letter}) {text}", f"{letter}. {text}", f"The correct answer is {letter}.",
                      f"Answer: {letter}) {text}", f"### Final Answer\n\n**{letter}**"):
            assert env.parse_action(reply) == k, f"seed {seed}: {reply!r}"
