"""What is particular to the web domain: the browser lifecycle, the loopback server, request
blocking, the action grammar, set-of-marks, the rubric and the judge hook. Real Chromium, real
HTTP server, no mocks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import urllib.request

import gymnasium as gym
import numpy as np
import pytest

import gymv_envs

pytest.importorskip("playwright")

from gymv_envs.domains.web import _browser  # noqa: E402
from gymv_envs.domains.web._base import KINDS  # noqa: E402
from gymv_envs.domains.web.set_of_marks import SetOfMarks  # noqa: E402


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return False


def _wait_dead(pid: int, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


def _with_profile(profile: str) -> list[int]:
    """Live processes whose command line names this Chromium profile (browser and helpers)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    if profile.encode() in fh.read() and _alive(int(entry)):
                        out.append(int(entry))
            except OSError:
                pass
    return out


def test_ids_and_split_tags():
    web = gymv_envs.ids(domain="web")
    assert len(web) >= 30
    train, test = gymv_envs.ids(domain="web", tags="split:train"), gymv_envs.ids(domain="web", tags="split:test")
    assert train and test and set(train) | set(test) == set(web) and not set(train) & set(test)
    sites = lambda ids: {t for i in ids for t in gymv_envs.describe(i)["tags"] if t.startswith("site:")}
    assert len(sites(web)) >= 8 and len(sites(test)) >= 2 and not sites(train) & sites(test)


def test_lifecycle_blocking_and_close(monkeypatch):
    monkeypatch.setattr(_browser, "LINGER", 0.0)  # the library's default: close() kills the browser
    env = gym.make("GymV/WebShopFindPrice-v1").unwrapped
    obs, info = env.reset(seed=0)
    assert obs.shape == (768, 1024, 3) and obs.std() > 0
    assert info["blocked_requests"] >= 1  # the page's analytics beacon
    live = env._live
    port, pid = live.server.port, live.proc.pid
    assert live.server.httpd.server_address[0] == "127.0.0.1"
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
        assert b"ShopLane" in r.read()
    before = live.blocked
    outcome = live.page.evaluate("() => fetch('http://example.com/x').then(() => 'reached', () => 'blocked')")
    assert outcome == "blocked" and live.blocked == before + 1
    env.reset(seed=1)  # a new context on the same browser
    assert env._live.proc.pid == pid
    env.close()
    assert not _alive(pid), "Chromium outlived close()"
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)


def test_linger_hands_the_browser_to_the_next_env_then_kills_it(monkeypatch):
    monkeypatch.setattr(_browser, "LINGER", 1.0)
    first = gym.make("GymV/WebWikiInfoboxFact-v1", obs_size=(96, 128)).unwrapped
    first.reset(seed=0)
    pid = first._live.proc.pid
    first.close()
    assert _alive(pid)  # parked for the next env of this thread
    second = gym.make("GymV/WebWikiInfoboxFact-v1", obs_size=(96, 128)).unwrapped
    second.reset(seed=1)
    assert second._live.proc.pid == pid
    second.close()
    assert _wait_dead(pid, timeout=10), "a parked Chromium outlived its linger time"


def test_stale_profiles_of_dead_owners_are_swept(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f"{_browser.PROFILE_PREFIX}{dead.pid}-abc"
    mine = tmp_path / f"{_browser.PROFILE_PREFIX}{os.getpid()}-def"
    other = tmp_path / "gymv-chromium-notapid"
    for folder in (stale, mine, other):
        folder.mkdir()
        (folder / "chromium.log").write_text("x")
    assert _browser.sweep_stale_profiles(str(tmp_path)) == [str(stale)]
    assert not stale.exists() and mine.exists() and other.exists()


def test_browser_dies_with_its_owner_process():
    code = textwrap.dedent("""
        import sys, time, gymnasium as gym, gymv_envs
        env = gym.make("GymV/WebMailFindSender-v1", obs_size=(96, 128)).unwrapped
        env.reset(seed=0)
        print(env._live.proc.pid, env._live.proc.profile, flush=True)
        time.sleep(120)
    """)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        pid, profile = child.stdout.readline().split()
        assert _alive(int(pid)) and _with_profile(profile), "no Chromium started"
        child.kill()
        child.wait(timeout=10)
        assert _wait_dead(int(pid)), "Chromium outlived the process that owned it"
        end = time.monotonic() + 10
        while _with_profile(profile) and time.monotonic() < end:
            time.sleep(0.1)
        assert not _with_profile(profile), "a Chromium helper process outlived its owner"
        # SIGKILL left the owner no time to remove its profile; the next launch (here, or in
        # another test process) sweeps it.
        _browser.sweep_stale_profiles(os.path.dirname(profile))
        assert not os.path.exists(profile)
    finally:
        child.kill()


def test_crash_is_reported_and_next_reset_restarts():
    env = gym.make("GymV/WebCalendarFindDate-v1", obs_size=(96, 128)).unwrapped
    env.reset(seed=0)
    pid = env._live.proc.pid
    os.killpg(pid, signal.SIGKILL)
    assert _wait_dead(pid)
    _, _, term, _, info = env.step(env._act("click", 10, 10))
    assert term and "browser" in info["feedback"]
    obs, info = env.reset(seed=0)
    assert "Chromium" in info["feedback"] and env._live.proc.pid != pid and obs.std() > 0
    env.close()


def test_async_vector_env_two_workers():
    envs = gym.vector.AsyncVectorEnv([lambda: gym.make("GymV/WebWikiInfoboxFact-v1", obs_size=(84, 84))] * 2)
    try:
        obs, _ = envs.reset(seed=[0, 1])
        assert obs.shape == (2, 84, 84, 3) and not np.array_equal(obs[0], obs[1])
        envs.action_space.seed(0)
        obs, reward, term, trunc, _ = envs.step(envs.action_space.sample())
        assert obs.shape == (2, 84, 84, 3)
    finally:
        envs.close()


def test_parse_action_grammar():
    env = gym.make("GymV/WebShopAddToCart-v1", obs_size=(96, 128)).unwrapped  # no browser needed to parse
    p = env.parse_action("I will click the button.\nAction: click(31.5, 88)")
    assert KINDS[p["kind"]] == "click" and float(p["x"]) == 31.5 and float(p["y"]) == 88
    assert KINDS[env.parse_action('type("blue shoes")')["kind"]] == "type"
    assert env.parse_action('type("blue shoes")')["text"] == "blue shoes"
    s = env.parse_action("<think>scroll(0, -5)?</think> scroll(0, 40)")
    assert KINDS[s["kind"]] == "scroll" and float(s["dy"]) == 40
    assert env.parse_action('answer("42.50")')["text"] == "42.50"
    assert env.parse_action('key("enter")')["text"] == "Enter" and env.parse_action('key("F13")') is None
    assert KINDS[env.parse_action("Action: back")["kind"]] == "back"
    assert KINDS[env.parse_action("I am finished. done")["kind"]] == "done"
    assert float(env.parse_action("click(9999, 5)")["x"]) == 128  # clipped into the space
    for reply in ("click(1, 2)", 'type("x")', "done", "scroll(0, 5)"):
        assert env.action_space.contains(env.parse_action(reply))
    assert env.parse_action(env.format_action(env._act("double_click", 3, 4))) is not None


def test_rubric_progress_and_judge_hook():
    seen = {}

    def judge(instruction, frames, answer):
        seen.update(n=len(frames), shape=frames[-1].shape, instruction=instruction)
        return False

    env = gym.make("GymV/WebShopAddToCart-v1", difficulty=1, obs_size=(96, 128), judge=judge)
    _, info = env.reset(seed=3)
    progress = [info["progress"]]
    while True:
        _, r, term, trunc, info = env.step(env.unwrapped.oracle_action())
        progress.append(info["progress"])
        if term or trunc:
            break
    assert any(0 < p < 1 for p in progress)  # one of two products in the cart: partial rubric
    assert not info["success"] and r == 0.0 and "judge" in info["feedback"]  # the judge vetoed
    assert seen["n"] >= 3 and seen["shape"] == (96, 128, 3) and "ShopLane" in seen["instruction"]
    env.close()


def test_set_of_marks_numbers_clickables_and_clicks_them():
    env = SetOfMarks(gym.make("GymV/WebDirectoryPhone-v1"))
    plain = gym.make("GymV/WebDirectoryPhone-v1")
    obs, info = env.reset(seed=0)
    ref, _ = plain.reset(seed=0)
    assert info["marks"] and not np.array_equal(obs, ref)  # boxes drawn
    web = env.unwrapped
    links = web._live.page.evaluate("() => [...document.querySelectorAll('main a[href]')].map(a => a.getAttribute('href'))")
    # the first mark in main is the first category link (nav links come first)
    n_nav = len(web._site.nav)
    action = env.parse_action(f"Action: click(#{n_nav + 1})")
    assert action is not None and env.parse_action("click(#999)") is None
    _, _, _, _, info = env.step(action)
    assert info["url"] == links[0]
    assert "#12" in env.action_prompt
    env.close()
    plain.close()


def test_small_observations_and_invalid_keys():
    env = gym.make("GymV/WebBankBalance-v1", obs_size=(48, 48)).unwrapped
    obs, _ = env.reset(seed=0)
    assert obs.shape == (48, 48, 3) and obs.std() > 0
    obs2, r, term, _, info = env.step(env._act("key", text="F13"))
    assert info["invalid_action"] and not term and np.array_equal(obs, obs2)
    _, _, _, _, info = env.step(env._act("back"))
    assert info["invalid_action"]  # no previous page
    env.close()


def test_missing_browser_message_names_both_fixes(monkeypatch):
    from gymv_envs.domains.web import _browser

    monkeypatch.setenv("GYMV_CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(RuntimeError, match="GYMV_CHROMIUM") as err:
        _browser.find_chromium()
    assert "playwright install chromium" in str(err.value) and "apt-get install chromium" in str(err.value)
    monkeypatch.delenv("GYMV_CHROMIUM")
    assert os.access(_browser.find_chromium(), os.X_OK)


def test_system_browser_search_prefers_the_headless_shell(monkeypatch, tmp_path):
    from gymv_envs.domains.web import _browser

    def no_playwright_browser():
        raise RuntimeError("no driver in this test")

    monkeypatch.setattr(_browser, "driver", no_playwright_browser)
    monkeypatch.delenv("GYMV_CHROMIUM", raising=False)
    for name in ("chromium", "chromium-headless-shell"):
        exe = tmp_path / name
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert _browser.find_chromium() == str(tmp_path / "chromium-headless-shell")
    (tmp_path / "chromium-headless-shell").unlink()
    assert _browser.find_chromium() == str(tmp_path / "chromium")


def test_every_web_id_oracle_succeeds_and_random_fails():
    """The conformance suite samples web ids; here every one is played by its oracle (seed 0,
    difficulty 1) and by random actions, in one browser-owning env per id."""
    from tests.helpers import ORACLE_OBS_SIZE, oracle_episode

    for env_id in gymv_envs.ids(domain="web"):
        env = gym.make(env_id, difficulty=1, obs_size=ORACLE_OBS_SIZE)
        try:
            success, steps, total, infos = oracle_episode(env, 0)
            assert success, f"{env_id}: oracle failed after {steps} steps"
            assert all("answer" not in i for i in infos[:-1])
            env.action_space.seed(0)
            env.reset(seed=0)
            for _ in range(5):
                *_, term, trunc, info = env.step(env.action_space.sample())
                if term or trunc:
                    break
            assert not info["success"], f"{env_id}: five random actions solved the task"
        finally:
            env.close()
