"""The VLM agent against a real chat-completions server on 127.0.0.1 (tests/chat_server.py)."""

from __future__ import annotations

import base64
import io
import json
import re
import socket
import threading
import time

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

import gymv_envs  # noqa: F401 - registers the ids
from gymv.agents import make_agent
from gymv.agents.vlm import VLMAgent, VLMError
from gymv.agents.vlm import main as vlm_main
from gymv.benchmarks.episode import EpisodeTask, run_task
from tests.chat_server import ChatServer

SMALL = {"obs_size": (64, 64)}
STYLES = (
    lambda a: a,
    lambda a: f"Answer: {a}",
    lambda a: json.dumps({"action": a}),
    lambda a: "<think>" + "I compare every option, left right up down, A B C D. " * 30 + f"</think>\nSo my move is clear.\nAction: {a}",
    lambda a: "~~ I am not sure what to do ~~",
)


def last_text(request: dict) -> str:
    content = request["messages"][-1]["content"]
    return content if isinstance(content, str) else content[-1]["text"]


def oracle_policy(holder: dict, styles=STYLES):
    """Replies with the oracle's action of the env the agent plays, in rotating styles."""
    count = [0]

    def policy(request: dict) -> str:
        env = holder["env"].unwrapped
        action = env.oracle_action()
        if env.protocol == "single_turn" and env.answer_format == "mcq":
            word = "ABCDEFGHIJ"[action]
        elif isinstance(action, str):
            word = action
        else:
            word = env.action_names[int(action)]
        if "could not be read" in last_text(request):
            return word
        count[0] += 1
        return styles[(count[0] - 1) % len(styles)](word)

    return policy


def run(env_id, server, tmp_path, env_kwargs=None, max_steps=None, **agent_kwargs):
    """One benchmark-runner episode with the VLM agent; returns (record, agent)."""
    import gymv.benchmarks.episode as episode

    task = EpisodeTask(env_id=env_id, env_kwargs={**SMALL, **(env_kwargs or {})}, seed=3, agent="vlm",
                       agent_kwargs={"model": "test-model", "base_url": server.base_url,
                                     "cache_dir": str(tmp_path / "cache"), "backoff": 0.01, **agent_kwargs},
                       max_steps=max_steps)
    env = episode._cached_env(task)
    holder["env"] = env
    return run_task(task)


holder: dict = {}


@pytest.mark.parametrize("env_id,env_kwargs", [
    ("GymV/GridNav-v1", {}),
    ("GymV/MazePath-v1", {"answer_format": "mcq"}),
    ("GymV/MazePath-v1", {"answer_format": "open"}),
    ("GymV/TicTacToe-v1", {}),
])
def test_scripted_oracle_scores_full_through_the_runner(env_id, env_kwargs, tmp_path):
    with ChatServer(oracle_policy(holder)) as server:
        record = run(env_id, server, tmp_path, env_kwargs)
    stats = record["agent_stats"]
    assert record["score"] == 100.0 and record["success"], record
    assert stats["parse_failures"] == 0 and stats["parse_rate"] == 1.0
    assert stats["requests"] == len(server.requests) == stats["actions"] + stats["reparses"]
    assert stats["prompt_tokens"] == 100 * stats["requests"]
    assert stats["cache_hits"] == 0 and stats["model"] == "test-model"
    if env_id == "GymV/GridNav-v1":
        assert record["steps"] >= 5 and stats["reparses"] >= 1  # the garbage style came up and was re-asked
    if record["protocol"] == "single_turn":
        assert record["parsed"]


def test_unparseable_replies_are_counted_and_flagged_invalid(tmp_path):
    with ChatServer(lambda request: "~~ no idea ~~") as server:
        record = run("GymV/GridNav-v1", server, tmp_path, max_steps=4, on_parse_failure="raw")
    assert record["agent_stats"]["parse_failures"] == 4 and record["agent_stats"]["reparses"] == 0
    assert record["invalid_actions"] == 4 and record["score"] == 0.0 and record["truncated"]

    with ChatServer(lambda request: "~~ no idea ~~") as server:
        record = run("GymV/MazePath-v1", server, tmp_path, {"answer_format": "mcq"}, on_parse_failure="retry")
    assert record["agent_stats"]["parse_failures"] == 1 and record["agent_stats"]["reparses"] == 1
    assert len(server.requests) == 2 and "could not be read" in last_text(server.requests[1])
    assert not record["parsed"] and record["score"] == 0.0

    env = gym.make("GymV/GridNav-v1", **SMALL)
    obs, info = env.reset(seed=0)
    with ChatServer(lambda request: "") as server:
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, on_parse_failure="first",
                         max_empty_replies=5)
        agent.reset(info["instruction"], info)
        assert agent.act(obs, info) == 0  # the first action of the space
        assert agent.stats()["empty_replies"] == 1 and agent.stats()["parse_failures"] == 1


def test_rerun_is_served_from_the_cache(tmp_path):
    with ChatServer(oracle_policy(holder)) as server:
        first = run("GymV/GridNav-v1", server, tmp_path)
        sent = server.attempts
        assert sent == first["agent_stats"]["requests"] > 0
        second = run("GymV/GridNav-v1", server, tmp_path)
        assert server.attempts == sent  # no HTTP call at all
    assert second["agent_stats"]["cache_hits"] == sent and second["agent_stats"]["requests"] == 0
    assert second["agent_stats"]["prompt_tokens"] == 0 and second["agent_stats"]["cost_usd"] == 0.0
    assert (second["score"], second["steps"], second["return"]) == (first["score"], first["steps"], first["return"])


def test_repeated_identical_requests_are_cached_by_occurrence(tmp_path):
    """A stuck agent sends the same request twice; each occurrence gets its own reply."""
    replies = iter(["left", "up"] * 10)
    env = gym.make("GymV/GridNav-v1", **SMALL)
    obs, info = env.reset(seed=0)
    kw = dict(model="m", cache_dir=tmp_path, history=0)
    with ChatServer(lambda request: next(replies)) as server:
        agent = VLMAgent(env, base_url=server.base_url, **kw)
        agent.reset("same", {})
        got = [agent.act(obs, {}), agent.act(obs, {})]
        agent.reset("same", {})
        again = [agent.act(obs, {}), agent.act(obs, {})]
    assert got == again == [2, 0] and len(server.requests) == 2


def test_retries_on_429_5xx_timeouts_and_dropped_connections(tmp_path):
    env = gym.make("GymV/GridNav-v1", **SMALL)
    obs, info = env.reset(seed=0)
    with ChatServer(lambda request: "Action: up") as server:
        server.fail(429, times=2, retry_after=0)
        server.fail(503)
        server.fail("drop")
        server.fail("sleep", seconds=1.0)
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, backoff=0.01, timeout=0.4, max_retries=6)
        agent.reset(info["instruction"], info)
        t0 = time.perf_counter()
        assert agent.act(obs, info) == 0
        assert time.perf_counter() - t0 < 5
        assert agent.stats()["retries"] == 5 and agent.stats()["requests"] == 1
        assert server.attempts == 6

        server.fail(500, times=3)
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, backoff=0.01, max_retries=2)
        agent.reset(info["instruction"], info)
        with pytest.raises(VLMError, match="after 3 attempts.*HTTP 500"):
            agent.act(obs, info)


def reasoning_model(body: dict) -> dict | None:
    """What OpenAI's chat completions answer a reasoning or GPT-5 model's request with (HTTP 400), one field
    at a time: ``max_tokens`` is refused for ``max_completion_tokens``, and any temperature but 1."""
    if "max_tokens" in body:
        return {"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                           "'max_completion_tokens' instead.", "type": "invalid_request_error", "param": "max_tokens",
                "code": "unsupported_parameter"}
    if "seed" in body:
        return {"message": "Unsupported parameter: 'seed' is not supported with this model.",
                "type": "invalid_request_error", "param": "seed", "code": "unsupported_parameter"}
    if body.get("temperature", 1) != 1:
        return {"message": f"Unsupported value: 'temperature' does not support {body['temperature']} with this model. "
                           "Only the default (1) value is supported.", "type": "invalid_request_error",
                "param": "temperature", "code": "unsupported_value"}
    return None


def test_a_model_that_refuses_max_tokens_or_temperature_is_asked_again_without_them(tmp_path, capsys):
    """Every request carried max_tokens and temperature=0, so a GPT-5 or o-series model refused each one with
    HTTP 400 and the agent could not play at all (temperature could not even be left out). The agent now
    sends max_completion_tokens instead and leaves temperature to the model once the endpoint says so, tells
    it once, names it in its stats, and later agents of the same endpoint and model ask that way at once."""
    with ChatServer(lambda request: "Action: up", refuse=reasoning_model) as server:
        record = run("GymV/GridNav-v1", server, tmp_path, max_steps=3)
        assert len(server.refused) == 3 and record["steps"] == 3 == len(server.requests)   # the runner seeds the agent
        for body in server.requests:
            assert body["max_completion_tokens"] == 1024 and not {"max_tokens", "temperature", "seed"} & set(body)
        assert record["agent_stats"]["request_changes"] == {
            "max_tokens": "sent as max_completion_tokens",
            "seed": "left out (the model takes none; replies may vary between runs, the cache still replays them)",
            "temperature": "left out (the model takes only its default; asked for 0.0)"}
        assert record["agent_stats"]["retries"] == 0
        err = capsys.readouterr().err
        assert err.count("refuses max_tokens") == 1 and err.count("refuses temperature") == 1

        env = gym.make("GymV/GridNav-v1", **SMALL)   # a second agent: no refusal, and its own limit is kept
        obs, info = env.reset(seed=0)
        agent = VLMAgent(env, model="test-model", base_url=server.base_url, cache=False, max_tokens=77,
                         extra_body={"reasoning_effort": "low"})
        agent.reset(info["instruction"], info)
        assert agent.act(obs, info) == 0 and len(server.refused) == 3
        assert server.requests[-1]["max_completion_tokens"] == 77 and server.requests[-1]["reasoning_effort"] == "low"
        assert capsys.readouterr().err == ""

    with ChatServer(lambda request: "Action: up", refuse=reasoning_model) as server:
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, temperature=None, max_tokens=None)
        agent.reset(info["instruction"], info)   # both left to the model: nothing to refuse
        assert agent.act(obs, info) == 0 and server.refused == [] and "request_changes" not in agent.stats()
        assert {"max_tokens", "max_completion_tokens", "temperature"}.isdisjoint(server.requests[-1])

    with ChatServer(lambda request: "Action: up", refuse=lambda body: {
            "message": "Invalid image: the image is too large", "param": "messages", "code": "invalid_image"}) as server:
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False)
        agent.reset(info["instruction"], info)
        with pytest.raises(VLMError, match="HTTP 400.*Invalid image"):   # any other 400 still ends the run
            agent.act(obs, info)
        assert len(server.refused) == 1


def test_command_line_leaves_temperature_or_max_tokens_to_the_model_with_default():
    import argparse

    from gymv.agents import vlm

    parser = argparse.ArgumentParser()
    vlm.add_arguments(parser)
    args = parser.parse_args(["--temperature", "default", "--max-tokens", "DEFAULT"])
    assert vlm.agent_kwargs(args)["temperature"] is None and vlm.agent_kwargs(args)["max_tokens"] is None
    args = parser.parse_args(["--temperature", "0.5", "--max-tokens", "64"])
    assert (args.temperature, args.max_tokens) == (0.5, 64)
    with pytest.raises(SystemExit):
        parser.parse_args(["--max-tokens", "lots"])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_bad_input_gives_a_clear_message(monkeypatch, tmp_path):
    env = gym.make("GymV/GridNav-v1", **SMALL)
    obs, info = env.reset(seed=0)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("GYMV_MODEL", raising=False)
    with pytest.raises(ValueError, match="OPENAI_BASE_URL"):
        make_agent("vlm", env, model="m")
    with pytest.raises(ValueError, match="GYMV_MODEL"):
        make_agent("vlm", env, base_url="http://127.0.0.1:1/v1")
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        make_agent("vlm", env, model="m", base_url="https://api.example.com/v1")
    with pytest.raises(ValueError, match="history_mode.*images, text"):
        make_agent("vlm", env, model="m", base_url="http://127.0.0.1:1/v1", history_mode="video")
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    for bad, match in [({"temperature": "hot"}, "temperature='hot'; valid values: None (the model's default) or a number >= 0"),
                       ({"max_tokens": 0}, "max_tokens=0; valid values: None or an integer >= 1"),
                       ({"timeout": -5}, "timeout=-5; valid values: seconds per request, a number > 0"),
                       ({"jpeg_quality": 200}, "jpeg_quality=200; valid values: an integer from 1 to 95"),
                       ({"cache_dir": str(a_file)}, "it is a file; valid values: a folder")]:
        with pytest.raises(ValueError, match=re.escape(match)):   # at once, not at the first request
            make_agent("vlm", env, model="m", base_url="http://127.0.0.1:1/v1", **bad)
    with pytest.raises(SystemExit):   # the command line: --episodes 0 played nothing and said nothing
        vlm_main(["--env", "GymV/GridNav-v1", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--episodes", "0"])

    down = VLMAgent(env, model="m", base_url=f"http://127.0.0.1:{free_port()}/v1", cache=False, backoff=0.01, max_retries=1)
    down.reset(info["instruction"], info)
    with pytest.raises(VLMError, match="server is running.*OPENAI_BASE_URL"):
        down.act(obs, info)

    with ChatServer(lambda request: "") as server:
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False)
        agent.reset(info["instruction"], info)
        with pytest.raises(VLMError, match="empty replies.*model name"):
            for _ in range(3):
                agent.act(obs, info)

    with ChatServer(lambda request: "up") as server:
        server.fail(404, message="model 'nope' does not exist")
        agent = VLMAgent(env, model="nope", base_url=server.base_url, cache=False)
        agent.reset(info["instruction"], info)
        with pytest.raises(VLMError, match="HTTP 404.*model name 'nope'.*does not exist"):
            agent.act(obs, info)

    with ChatServer(lambda request: "up", refuse=lambda body: None if sum(   # vLLM's default: one image a request
            part.get("type") == "image_url" for m in body["messages"] if isinstance(m["content"], list)
            for part in m["content"]) <= 1 else {"message": "At most 1 image(s) may be provided in one request.",
                                                   "type": "BadRequestError", "param": None, "code": 400}) as server:
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, history=2)
        agent.reset(info["instruction"], info)
        assert agent.act(obs, info) == 0   # the first turn has one image
        step = env.step(0)
        with pytest.raises(VLMError, match=re.escape("fewer images a request than the 2 sent") + ".*"
                           + re.escape("--limit-mm-per-prompt '{\"image\": 2}'") + ".*history_mode='text'"):
            agent.act(step[0], step[4])
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, history=2, history_mode="text")
        agent.reset(info["instruction"], info)
        for _ in range(3):   # the advice taken: every turn plays
            assert agent.act(obs, info) == 0

    with ChatServer(lambda request: "up") as server:   # the full endpoint URL given as the base: it is the base
        agent = VLMAgent(env, model="m", base_url=server.base_url + "/chat/completions/", cache=False)
        agent.reset(info["instruction"], info)
        assert agent.act(obs, info) == 0 and len(server.requests) == 1

    with ChatServer(lambda request: "up") as server:   # a spent quota (OpenAI answers 429): no retry can mend it
        server.fail(429, times=5, code="insufficient_quota", message="You exceeded your current quota, please check "
                    "your plan and billing details.")
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, backoff=5.0)
        agent.reset(info["instruction"], info)
        with pytest.raises(VLMError, match="HTTP 429: the account of the key in OPENAI_API_KEY has no quota left"):
            agent.act(obs, info)
        assert server.attempts == 1


def test_key_is_used_but_never_written(monkeypatch, tmp_path, capsys):
    key = "sk-test-SECRET-8f3a1c"
    monkeypatch.setenv("GYMV_TEST_KEY", key)
    with ChatServer(oracle_policy(holder)) as server:
        record = run("GymV/GridNav-v1", server, tmp_path, api_key_env="GYMV_TEST_KEY")
        assert all(h.get("Authorization") == f"Bearer {key}" for h in server.headers)
        env = gym.make("GymV/GridNav-v1", **SMALL)
        obs, info = env.reset(seed=0)
        agent = VLMAgent(env, model="m", base_url=server.base_url, api_key_env="GYMV_TEST_KEY", cache_dir=tmp_path / "c2")
        agent.reset(info["instruction"], info)
        server.fail(401, message=f"invalid key {key}")
        with pytest.raises(VLMError) as refused:
            agent.act(obs, info)
        assert "GYMV_TEST_KEY" in str(refused.value)
        server.fail(500, times=5, message=f"upstream said {key}")
        agent.client.max_retries, agent.client.backoff = 1, 0.01
        with pytest.raises(VLMError) as failed:
            agent.act(obs, info)
    written = [json.dumps(record), repr(agent), str(agent.stats()), str(agent.total_stats()), str(vars(agent.client)),
               str(refused.value), str(failed.value), repr(refused.value), *capsys.readouterr()]
    written += [p.read_text() for p in tmp_path.rglob("*") if p.is_file()]
    assert len(written) > 10 and "upstream said ***" in str(failed.value)
    assert not [w for w in written if key in w]


class TwoViews(gym.ObservationWrapper):
    """A Dict observation of the current and the previous frame (what a views wrapper supplies)."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        box = env.observation_space
        self.observation_space = gym.spaces.Dict({"front": box, "previous": box})
        self._last = None

    def observation(self, obs):
        prev = obs if self._last is None else self._last
        self._last = obs
        return {"front": obs, "previous": prev}


def decode(url: str) -> Image.Image:
    head, data = url.split(",", 1)
    return Image.open(io.BytesIO(base64.b64decode(data)))


def test_every_view_is_sent_with_history_and_downscaling(tmp_path):
    env = TwoViews(gym.make("GymV/GridNav-v1", obs_size=(120, 160)))
    obs, info = env.reset(seed=1)  # a level where a first step right moves and a second is blocked
    with ChatServer(lambda request: "Action: right") as server:
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, image_format="jpeg",
                         max_image_side=40, history=1, history_mode="images")
        agent.reset(info["instruction"], info)
        for _ in range(3):
            obs, _, _, _, info = env.step(agent.act(obs, info))
        text_agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, history=2, history_mode="text")
        text_agent.reset(env.unwrapped.instruction, info)
        for _ in range(3):
            obs, _, _, _, info = env.step(text_agent.act(obs, info))
    last = server.requests[2]["messages"]
    assert [m["role"] for m in last] == ["system", "user", "assistant", "user"]
    images = [p for p in last[-1]["content"] if p["type"] == "image_url"]
    labels = [p["text"] for p in last[-1]["content"] if p["type"] == "text"]
    assert len(images) == 2 and labels[:2] == ["View: front", "View: previous"]
    assert all(p["image_url"]["url"].startswith("data:image/jpeg;base64,") for p in images)
    assert decode(images[0]["image_url"]["url"]).size == (40, 30)
    assert len([p for p in last[1]["content"] if p["type"] == "image_url"]) == 2  # the earlier turn, with images
    assert last[2]["content"] == "Action: right"
    assert "Result of your last action: moved" in last_text(server.requests[1])
    assert "Your last action was invalid: blocked" in last_text(server.requests[2])

    text_msgs = server.requests[5]["messages"]
    assert [m["role"] for m in text_msgs] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert isinstance(text_msgs[1]["content"], str) and isinstance(text_msgs[3]["content"], str)
    assert decode(text_msgs[-1]["content"][1]["image_url"]["url"]).size == (160, 120)  # PNG, full size


def test_prompt_templates_can_be_overridden_and_cost_is_priced(tmp_path):
    (tmp_path / "system.txt").write_text("CUSTOM SYSTEM. $instruction")
    env = gym.make("GymV/MazePath-v1", answer_format="mcq", **SMALL)
    obs, info = env.reset(seed=1)
    with ChatServer(lambda request: "Answer: B") as server:
        agent = VLMAgent(env, model="priced-model", base_url=server.base_url, cache=False, prompts_dir=tmp_path,
                         prices={"priced-model": [1.0, 4.0]})
        agent.reset(info["instruction"], info)
        assert agent.act(obs, info) == 1
    msgs = server.requests[0]["messages"]
    assert msgs[0]["content"].startswith("CUSTOM SYSTEM. ") and info["instruction"] in msgs[0]["content"]
    assert "Step 1." in msgs[1]["content"][-1]["text"]  # turn.txt still the default
    s = agent.stats()
    assert s["cost_known"] and s["cost_usd"] == pytest.approx((100 * 1.0 + s["completion_tokens"] * 4.0) / 1e6)
    with pytest.raises(ValueError, match="prompts_dir"):
        VLMAgent(env, model="m", base_url=server.base_url, prompts_dir=tmp_path / "missing")
    from gymv.agents.vlm import load_prices, price_of

    table = load_prices()   # a dated snapshot is priced as its model; an unknown model is not priced
    assert price_of("gpt-5-mini-2025-08-07", table) == price_of("gpt-5-mini", table) == (0.25, 2.0)
    assert price_of("gpt-4o-2024-08-06", table) == table["gpt-4o"]
    assert price_of("gpt-5-minis", table) is None and price_of("my-model-2025-01-01", table) is None


def test_concurrency_is_bounded_per_endpoint(tmp_path):
    live, peak, lock = [0], [0], threading.Lock()

    def slow(request):
        with lock:
            live[0] += 1
            peak[0] = max(peak[0], live[0])
        time.sleep(0.15)
        with lock:
            live[0] -= 1
        return "up"

    with ChatServer(slow) as server:
        def episode(k):
            env = gym.make("GymV/GridNav-v1", **SMALL)
            obs, info = env.reset(seed=k)
            agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, max_concurrency=2)
            agent.reset(info["instruction"], info)
            for _ in range(2):
                obs, _, _, _, info = env.step(agent.act(obs, info))

        threads = [threading.Thread(target=episode, args=(k,)) for k in range(5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(server.requests) == 10 and peak[0] == 2


def test_observation_without_images_still_asks_in_text(tmp_path):
    env = gym.make("GymV/GridNav-v1", **SMALL)
    env.reset(seed=0)
    with ChatServer(lambda request: "down") as server:
        agent = VLMAgent(env, model="m", base_url=server.base_url, cache=False, system_role=False)
        agent.reset("Instruction here", {})
        assert agent.act(np.zeros(3, np.float32), {}) == 1
    content = server.requests[0]["messages"][0]["content"]
    assert content[0]["text"].endswith("Instruction here") and all(p["type"] == "text" for p in content)
