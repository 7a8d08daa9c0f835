"""What is particular to the web domain: the browser lifecycle, the loopback server, request
blocking, the action grammar, set-of-marks, the rubric and the judge hook. Real Chromium, real
HTTP server, no mocks."""

from __future__ import annotations

import json
import os
import re
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
    assert len(web) >= 120
    train, test = gymv_envs.ids(domain="web", tags="split:train"), gymv_envs.ids(domain="web", tags="split:test")
    assert train and test and set(train) | set(test) == set(web) and not set(train) & set(test)
    sites = lambda ids: {t for i in ids for t in gymv_envs.describe(i)["tags"] if t.startswith("site:")}
    held_family = gymv_envs.ids(domain="web", tags="heldout:family")
    held_layout = gymv_envs.ids(domain="web", tags="heldout:layout")
    assert len(sites(web)) >= 20
    # whole families held out: none of their ids trains
    assert sites(held_family) >= {"site:directory", "site:forum", "site:helpdesk", "site:library"}
    assert not sites(held_family) & sites(train)
    # whole layout styles held out: the HeldOutLayout ids of training families, and nothing else in test
    assert held_layout and sites(held_layout) <= sites(train)
    assert set(test) == set(held_family) | set(held_layout) | {i for i in test if i.split("/")[1].startswith(("WebDirectory", "WebForum"))}


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


def test_an_env_collected_while_the_browser_pool_is_locked_hands_its_browser_back():
    """The garbage collector runs a web env's finalizer at any allocation, also inside another env's hand-over
    while this thread holds the pool's lock; the finalizer takes that lock too (a test run hung for ever there).
    Run in another thread, it kills the browser instead of parking it for a thread that cannot drive it. In a
    child process, so that a regression fails here instead of hanging the rest of the suite."""
    code = textwrap.dedent("""
        import threading, gymnasium as gym, gymv_envs
        from gymv_envs.domains.web import _browser
        env = gym.make("GymV/WebMailFindSender-v1", obs_size=(96, 128)).unwrapped
        env.reset(seed=0)
        proc = env._live.proc
        with _browser._idle_lock:
            env._finalizer()  # what the collector runs, here in this thread inside the lock
        parked = [e[2] for e in _browser._idle]
        print("parked" if parked == [proc] else f"not parked: {parked}", flush=True)
        other = gym.make("GymV/WebMailFindSender-v1", obs_size=(96, 128)).unwrapped
        other.reset(seed=0)
        proc = other._live.proc
        def collect():  # in a thread that drives browsers of its own, but did not open this one
            _browser.driver()
            other._finalizer()
        thread = threading.Thread(target=collect)
        thread.start()
        thread.join()
        print("killed" if not proc.alive() and not _browser._idle else "kept", flush=True)
    """)
    env = {**os.environ, "GYMV_WEB_LINGER": "30"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["parked", "killed"]


def test_a_site_server_closed_from_its_own_loop_stops():
    """An env's finalizer closes its site server; run by the collector inside that server's own loop,
    `shutdown()` would wait for ever on the loop it runs in."""
    from gymv_envs.domains.web._server import LoopbackServer, Router

    server = LoopbackServer(Router())
    server.httpd.service_actions = server.close  # called by the serving loop, in its thread
    server.thread.join(timeout=10)
    assert not server.thread.is_alive()


def test_a_small_frame_is_the_page_scaled_down():
    """An obs_size narrower than the layout shows the whole viewport scaled down (it was the top-left corner
    of the full-size capture, while clicks were mapped as if scaled)."""
    from PIL import Image

    frames = {}
    for size in ((96, 128), (768, 1024)):
        env = gym.make("GymV/WebShopFindPrice-v1", obs_size=size)
        frames[size] = env.reset(seed=0)[0].astype(int)
        env.close()
    big = Image.fromarray(frames[(768, 1024)].astype(np.uint8))
    scaled = np.asarray(big.resize((128, 96), Image.Resampling.BOX)).astype(int)
    corner = frames[(768, 1024)][:96, :128]
    assert np.abs(frames[(96, 128)] - scaled).mean() < 4
    assert np.abs(frames[(96, 128)] - corner).mean() > 20


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
    for ours, browsergym in (("click(31, 88)", "mouse_click(31, 88)"), ("double_click(3, 4)", "mouse_dblclick(3, 4)"),
                             ("hover(5, 6)", "mouse_move(5, 6)"), ("drag(1, 2, 30, 40)", "mouse_drag_and_drop(1, 2, 30, 40)"),
                             ('type("blue shoes")', "keyboard_type('blue shoes')"), ('key("Enter")', 'keyboard_press("Enter")'),
                             ('answer("42.50")', 'send_msg_to_user("42.50")'), ("click(7, 8)", "mouse_click(7, 8, 'left')"),
                             ("double_click(7, 8)", 'mouse_dblclick(7, 8, button="left")')):   # BrowserGym's names
        mine, theirs = env.parse_action(ours), env.parse_action(browsergym)
        assert mine is not None and theirs is not None, browsergym
        assert {k: np.asarray(v).tolist() for k, v in mine.items()} == {k: np.asarray(v).tolist() for k, v in theirs.items()}
    assert env.parse_action("mouse_click(7, 8, 'right')") is None   # no right button here


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


FULL_WEB = os.environ.get("GYMV_FULL_WEB") == "1" or os.environ.get("GYMV_FULL_CONFORMANCE") == "1"


def _oracle_ids() -> list[str]:
    """Every web id with GYMV_FULL_WEB=1 (or GYMV_FULL_CONFORMANCE=1); by default one id of each
    hand-built site and one of each catalogue family, the patterns rotating over the families."""
    web = gymv_envs.ids(domain="web")
    if FULL_WEB:
        return web
    groups: dict[tuple, list[str]] = {}
    for env_id in web:
        d = gymv_envs.describe(env_id)
        site = next(t for t in d["tags"] if t.startswith("site:"))
        groups.setdefault((site, "task" in d["kwargs"]), []).append(env_id)
    return sorted(members[k % len(members)] for k, members in enumerate(groups.values()))


def test_the_oracle_test_plays_a_web_id_of_every_site_and_family():
    assert len(_oracle_ids()) >= 28


# (one test per id, so that pytest-xdist's workers share these browser episodes: as one test they took 90-135 s
# on one worker, often the last test of the run)
@pytest.mark.parametrize("env_id", _oracle_ids())
def test_web_id_oracle_succeeds_and_random_fails(env_id):
    """The conformance suite samples web ids; here web ids are played by their oracle (seed 0,
    difficulty 1) and by random actions, in one browser-owning env per id (all of them with
    GYMV_FULL_WEB=1)."""
    from tests.helpers import ORACLE_OBS_SIZE, oracle_episode

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


# ----------------------------------------------------------------------------- answers
ANSWER_TABLE = {
    # kind: (expected, accepted replies, rejected replies)
    "money": (65.22, ["65.22", "$65.22", "65.22 dollars", "USD 65.22", "The price is $65.22.", "65.22 EUR", "€65.22",
                      "It costs 65.22", "$65.220"],
              ["65", "$65.23", "65.22 or 70.00", "between $60 and $70", "$6,522", "no price shown", "", "sixty-five"]),
    "number": (1234.5, ["1,234.5 km", "1234.50", "about 1 234.5 km", "Distance: 1,234.50km"], ["1234", "1,234.5 or 1,300", "12345"]),
    "count": (3, ["3", "three", "There are 3 flights.", "Three", "3 items"], ["4", "3 or 4", "thirty", "none"]),
    "date": ("2026-05-04", ["2026-05-04", "May 4, 2026", "4 May 2026", "05/04/2026", "Monday, May 4th", "on the 4th of May 2026",
                            "2026/05/04"],
             ["2026-04-05", "May 5, 2026", "May 4 or May 5", "04/05/2025", "sometime in May"]),
    "name": ("Blue Parka", ["Blue Parka", "blue parka", "The answer is 'Blue Parka'.", "BLUE-PARKA", "blue  parka!"],
             ["Blue", "Red Parka", "Blue Parka or Red Parka", "Blue Parkas"]),
    "infeasible": (None, ["infeasible", "This cannot be done.", "There is no such product.", "It does not exist", "N/A"],
                   ["65.22", "Blue Parka", "done"]),
}


@pytest.mark.parametrize("kind", list(ANSWER_TABLE))
def test_answer_reader_table(kind):
    from gymv_envs.domains.web._answers import matches

    expected, good, bad = ANSWER_TABLE[kind]
    others = ("Red Parka", "Green Tote") if kind == "name" else ()
    for reply in good:
        assert matches(reply, expected, kind, others), f"{kind}: {reply!r} should score"
    for reply in bad:
        assert not matches(reply, expected, kind, others), f"{kind}: {reply!r} should not score"


def test_answer_reader_is_what_the_tasks_use():
    """WebShopFindPrice's truth is read with the shared reader: the replies of the issue score."""
    from gymv_envs.domains.web._answers import split_parts

    env = gym.make("GymV/WebShopFindPrice-v1", obs_size=(48, 48)).unwrapped
    try:
        env.reset(seed=0)
        price = env._target["price"]
        for reply, ok in ((f"{price:.2f} dollars", True), (f"USD {price:.2f}", True), (f"The price is ${price:,.2f}.", True),
                          (f"{price:.2f} or {price + 1:.2f}", False)):
            env._final_answer = reply
            assert env._criteria()[0][1] is ok, reply
    finally:
        env.close()
    assert split_parts("12.50; Blue Parka", 2) == ["12.50", "Blue Parka"] and split_parts("12.50", 2) is None


# ----------------------------------------------------------------------------- rubric grammar
def _catalog_ids() -> list[str]:
    return [i for i in gymv_envs.ids(domain="web") if "task" in gymv_envs.describe(i)["kwargs"]]


def _levels(env_id: str, difficulty: int, seeds) -> list:
    """Levels generated without a browser (generation is pure Python)."""
    from gymv_envs.core.rng import level_generator

    env = gym.make(env_id, difficulty=difficulty, obs_size=(48, 48)).unwrapped
    out = []
    for seed in seeds:
        env._generate(level_generator(seed))
        out.append((env.template, env._criteria(), env._task_text(), env.infeasible, env._site.layout.style))
    return out


def test_templates_count_and_difficulty_bands():
    """At least 1,000 distinct templates, (family, pattern, composition signature, intro, closing),
    over the catalogue ids; every feasible level's facts lie in its difficulty's band."""
    from gymv_envs.domains.web._facts import BANDS

    templates, infeasible, levels = set(), 0, 0
    for env_id in _catalog_ids():
        for d in (0, 1, 2):
            for template, criteria, text, impossible, _ in _levels(env_id, d, range(4)):
                templates.add(template)
                levels += 1
                infeasible += impossible
                if not impossible:
                    lo, hi = BANDS[d]
                    assert lo <= len(criteria) <= hi, (env_id, d, len(criteria), text)
                assert not any(h for _, h in criteria) or all(n for n, _ in criteria)
    assert len(templates) >= 1000, len(templates)
    assert 0.01 <= infeasible / levels <= 0.10, infeasible / levels


def test_held_out_layouts_never_train():
    from gymv_envs.domains.web._layout import TEST_STYLES, TRAIN_STYLES

    for env_id in _catalog_ids():
        tags = gymv_envs.describe(env_id)["tags"]
        styles = {lv[4] for lv in _levels(env_id, 0, range(12))}
        if "heldout:layout" in tags:
            assert styles <= set(TEST_STYLES) and "split:test" in tags
        else:
            assert styles <= set(TRAIN_STYLES), (env_id, styles)
            assert len(styles) >= 2


# ----------------------------------------------------------------------------- judge
def test_judge_modes_and_audit_against_the_chat_server():
    """The reference judge over a real chat-completions server on 127.0.0.1: its requests carry the
    criteria, the keyframes and the answer; audit mode records without deciding; the grounding
    check fails an answer no page showed even when the model says PASS; and the audit reports
    precision, recall and accuracy against the rubric."""
    from gymv_envs.domains.web._judge import audit, read_verdict
    from tests.chat_server import ChatServer

    verdicts = {"v": "PASS"}
    server = ChatServer(lambda req: f"Checked the pages.\nVERDICT: {verdicts['v']}")
    with server:
        cfg = {"model": "judge-test", "base_url": server.base_url}
        env = gym.make("GymV/WebShopFindPrice-v1", obs_size=(96, 128), judge_mode="audit", judge=cfg)
        _, info = env.reset(seed=0)
        verdicts["v"] = "FAIL"
        while True:
            _, r, term, trunc, info = env.step(env.unwrapped.oracle_action())
            if term or trunc:
                break
        assert info["success"] and r == 1.0 and info["judge"]["verdict"] is False and info["judge"]["mode"] == "audit"
        body = server.requests[-1]
        content = body["messages"][1]["content"]
        assert any(c["type"] == "image_url" for c in content) and "Criteria" in content[0]["text"]
        assert "Final answer of the agent: $" in content[0]["text"]
        env.close()
        # "and": the judge's FAIL vetoes a right answer; "replace": its PASS alone decides
        for mode, says, success in (("and", "FAIL", False), ("replace", "PASS", True)):
            verdicts["v"] = says
            env = gym.make("GymV/WebShopFindPrice-v1", obs_size=(96, 128), judge_mode=mode, judge=cfg)
            env.reset(seed=1)
            while True:
                _, r, term, trunc, info = env.step(env.unwrapped.oracle_action())
                if term or trunc:
                    break
            assert info["success"] is success, mode
            env.close()
        # a made-up number: the model says PASS, the grounding check says no
        verdicts["v"] = "PASS"
        env = gym.make("GymV/WebShopFindPrice-v1", obs_size=(96, 128), judge_mode="replace", judge=cfg)
        env.reset(seed=2)
        _, _, _, _, info = env.step(env.unwrapped._act("answer", text="$123,456.78"))
        assert not info["success"] and "grounding" in info["judge"]["reason"]
        env.close()
        report = audit(["GymV/WebShopFindPrice-v1"], [0], cfg, policies=("oracle", "random"), max_steps=12, obs_size=(96, 128))
    o = report["overall"]
    assert o["episodes"] == 2 and o["tp"] == 1 and o["recall"] == 1.0 and o["accuracy"] is not None
    assert report["per_policy"]["random"]["tp"] == 0
    assert read_verdict("reason\nVERDICT: FAIL") is False and read_verdict("**Verdict:** pass") is True and read_verdict("hmm") is None
    with pytest.raises(ValueError, match="judge_mode"):
        gym.make("GymV/WebShopFindPrice-v1", judge_mode="maybe")


def test_a_judge_that_cannot_be_asked_is_not_a_verdict():
    """A judge whose endpoint was down said no: in "and" or "replace" mode every web episode scored as the
    agent's failure, and judge-audit reported a judge that never answered as missing every success. A judge
    raising `AgentUnavailable` (the VLM judge's server down, its key refused) now raises out of ``step``; any
    other judge error still says no, with the reason."""
    from gymv.agents import AgentUnavailable
    from gymv.agents.vlm import VLMError

    def play(judge):
        env = gym.make("GymV/WebShopFindPrice-v1", obs_size=(96, 128), judge_mode="and", judge=judge)
        env.reset(seed=0)
        try:
            while True:
                _, _, term, trunc, info = env.step(env.unwrapped.oracle_action())
                if term or trunc:
                    return info
        finally:
            env.close()

    def down(*args, **kwargs):
        raise VLMError("no usable reply from http://127.0.0.1:9/v1/chat/completions after 5 attempts")

    def buggy(*args, **kwargs):
        raise KeyError("verdict")

    with pytest.raises(AgentUnavailable, match="no usable reply"):
        play(down)
    info = play(buggy)
    assert not info["success"] and info["judge"]["reason"] == "judge failed: KeyError: 'verdict'"
    assert play(lambda *args: True)["success"]


def test_judge_audit_cli(capsys, tmp_path):
    """``gymv-bench judge-audit`` (the command its own usage names) against a real chat server; arguments that would
    audit nothing, or an ``--out`` it could not write after the judge's calls, are refused before any episode."""
    from gymv.benchmarks.cli import main
    from tests.chat_server import ChatServer

    one = ["judge-audit", "--ids", "GymV/WebBankBalance-v1", "--policies", "oracle", "--model", "m", "--max-steps", "10"]
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    with ChatServer(lambda req: "VERDICT: PASS") as server:
        for bad, message in ((["--seeds", "0"], "invalid --seeds 0"), (["--max-steps", "0"], "invalid --max-steps 0"),
                             (["--policies", " , "], "invalid --policies"), (["--out", str(a_file)], "cannot write to --out")):
            with pytest.raises(SystemExit) as exc:
                main([*one, "--base-url", server.base_url, *bad])
            assert exc.value.code == 2 and message in capsys.readouterr().err
        assert server.requests == []
        code = main([*one, "--seeds", "1", "--base-url", server.base_url, "--out", str(tmp_path / "audit")])
    out = capsys.readouterr().out
    assert code == 0 and "GymV/WebBankBalance-v1" in out and "precision" in out
    overall = json.loads((tmp_path / "audit" / "judge_audit.json").read_text())["overall"]
    assert (overall["episodes"], overall["tp"], overall["fn"]) == (1, 1, 0)
    assert main(["judge-audit", "--ids", "GymV/Nothing*"]) == 2
    again = [*one, "--seeds", "1", "--out", str(tmp_path / "audit")]   # the same --out: the verdicts are kept
    with ChatServer(lambda req: "VERDICT: FAIL") as server:
        with pytest.raises(SystemExit) as exc:
            main([*again, "--base-url", server.base_url])
        assert exc.value.code == 2 and "already holds judge_audit.json, judge_audit.md" in capsys.readouterr().err
        assert server.requests == []
        assert main([*again, "--base-url", server.base_url, "--overwrite"]) == 0 and server.requests
    overall = json.loads((tmp_path / "audit" / "judge_audit.json").read_text())["overall"]
    assert (overall["tp"], overall["fn"]) == (0, 1)   # the new judge's verdict on the oracle's success
    with ChatServer(lambda req: "VERDICT: PASS") as server:   # a judge that cannot be asked: no report made up
        server.fail(401, times=10, message="Incorrect API key provided")
        assert main([*one, "--seeds", "1", "--base-url", server.base_url, "--out", str(tmp_path / "refused")]) == 1
    err = capsys.readouterr().err
    assert "error: the judge cannot be asked" in err and "HTTP 401" in err and "Traceback" not in err
    assert not (tmp_path / "refused" / "judge_audit.json").exists()


# ----------------------------------------------------------------------------- faults
def test_browser_killed_mid_episode_ends_it_cleanly():
    """Killing the env's Chromium during an episode: the next step ends the episode with
    ``info["error"]`` naming the cause (no Playwright exception), and the next reset recovers."""
    env = gym.make("GymV/WebHotelCollect-v0", obs_size=(96, 128))
    env.reset(seed=0)
    u = env.unwrapped
    env.step(u.oracle_action())
    pid = u._live.proc.pid
    os.killpg(pid, signal.SIGKILL)
    assert _wait_dead(pid)
    for action in (u._act("click", 50, 50), u._act("goto", text="/saved")):
        _, r, term, trunc, info = env.step(action)
        assert term and not trunc and r == 0.0
        assert info.get("error", "").startswith("browser_crashed") or info["invalid_action"]
    obs, info = env.reset(seed=0)
    assert "Chromium" in info["feedback"] and obs.std() > 0
    success = False
    while True:
        _, _, term, trunc, info = env.step(u.oracle_action())
        if term or trunc:
            success = info["success"]
            break
    assert success and "error" not in info
    env.close()


def test_action_timeout_is_reported_not_raised():
    env = gym.make("GymV/WebNewsLookup-v0", obs_size=(96, 128), action_timeout=0.5).unwrapped
    env.reset(seed=0)
    env._site.page_help = lambda q: time.sleep(2.0) or env._site.shell("Help", "<h1>slow</h1>")
    _, _, term, _, info = env.step(env._act("goto", text="/help"))
    assert info["timed_out"] and not term and "timed out" in info["feedback"] and env.last_action_ms >= 400
    _, _, term, _, info = env.step(env._act("goto", text="/"))
    assert not info["timed_out"] and not term
    env.close()


# ----------------------------------------------------------------------------- vector env
def test_web_vector_env_shares_browsers_and_autoresets():
    from gymv_envs.domains.web import WebVectorEnv

    envs = WebVectorEnv(["GymV/WebShopFindPrice-v1", "GymV/WebNewsLookup-v0", "GymV/WebBankBalance-v1"], threads=2,
                        obs_size=(96, 128))
    try:
        obs, infos = envs.reset(seed=5)
        assert obs.shape == (3, 96, 128, 3) and len({o.tobytes() for o in obs}) == 3
        pids = [e.unwrapped._live.proc.pid for e in envs.envs]
        assert pids[0] == pids[2] != pids[1]  # two workers, one Chromium each
        done = {"kind": np.array([KINDS.index("done")] * 3)} | {k: v for k, v in envs.action_space.sample().items() if k != "kind"}
        obs, rew, term, trunc, infos = envs.step(done)
        assert term.all() and not rew.any()
        obs, rew, term, trunc, infos = envs.step(envs.action_space.sample())  # the autoreset step
        assert not term.any() and not rew.any() and obs.shape == (3, 96, 128, 3)
        assert envs.call("instruction")[0].startswith("You are on the ShopLane")
    finally:
        envs.close()
    assert not _alive(pids[0]) or _wait_dead(pids[0])


# ----------------------------------------------------------------------------- BrowserGym-style actions
def test_element_actions_outline_and_new_kinds():
    env = gym.make("GymV/WebShopCollect-v0", obs_size=(384, 512), observation="both")
    obs, info = env.reset(seed=4)
    u = env.unwrapped
    assert set(obs) == {"screenshot", "axtree"} and obs["screenshot"].shape == (384, 512, 3)
    assert env.observation_space.contains(obs)
    tree = obs["axtree"]
    assert "textbox" in tree and 'link "Help"' in tree and info["axtree"] == tree
    bid = re.search(r'\[(\d+)\] link "Help"', tree).group(1)
    _, _, _, _, info = env.step(u.parse_action(f'click("{bid}")'))
    assert info["url"] == "/help"
    _, _, _, _, info = env.step(u.parse_action("back"))
    assert info["url"] == "/" and not info["invalid_action"]
    _, _, _, _, info = env.step(u.parse_action("forward"))
    assert info["url"] == "/help"
    _, _, _, _, info = env.step(u.parse_action('goto("http://example.com/")'))
    assert info["invalid_action"]  # loopback only
    _, _, _, _, info = env.step(u.parse_action('goto("/")'))
    search = re.search(r'\[(\d+)\] textbox "Search', info["axtree"]).group(1)
    p = u._site.items[0]
    _, _, _, _, info = env.step(u.parse_action(f'fill("{search}", "{p["name"]}")'))
    assert u._live.page.evaluate("() => document.querySelector('#search input').value") == p["name"]
    _, _, _, _, info = env.step(u.parse_action(f'goto("/item?id={p["id"]}")'))
    opt = re.search(r'\[(\d+)\] combobox "' + u._site.family.opt[0], info["axtree"]).group(1)
    want = u._site.family.opt[1][2]
    _, _, _, _, info = env.step(u.parse_action(f'select_option("{opt}", "{want}")'))
    assert f'value="{want}"' in info["axtree"]
    _, _, _, _, info = env.step(u.parse_action('select_option("999", "x")'))
    assert info["invalid_action"]
    _, _, _, _, info = env.step(u.parse_action('new_tab("/saved")'))
    assert info["url"] == "/saved" and len(u._live.pages) == 2
    _, _, _, _, info = env.step(u.parse_action("switch_tab(0)"))
    assert info["url"].startswith("/item") and u.parse_action("switch_tab(7)") is not None
    _, _, _, _, info = env.step(u.parse_action("switch_tab(7)"))
    assert info["invalid_action"]
    env.close()


def test_hover_menus_dropdowns_sliders_and_drag_are_played_by_the_oracle():
    """Levels whose oracle needs a hover menu, a dropdown, a slider, a date picker, the dialog and
    drag-and-drop: every one of those action kinds is used, and the rubric holds."""
    used = set()
    for env_id, seed in (("GymV/WebHotelCurate-v0", 0), ("GymV/WebHotelCurate-v0", 1), ("GymV/WebFoodDeliveryErrand-v0", 2),
                         ("GymV/WebHotelCollect-v0", 3)):
        env = gym.make(env_id, difficulty=2, obs_size=(96, 128))
        env.reset(seed=seed)
        u = env.unwrapped
        while True:
            a = u.oracle_action()
            used.add(KINDS[int(a["kind"])])
            _, _, term, trunc, info = env.step(a)
            if term or trunc:
                break
        assert info["success"], (env_id, seed, info["feedback"])
        env.close()
    assert {"select", "drag", "key", "type", "click"} <= used


def test_infinite_listing_loads_its_next_page_within_the_step():
    """A scroll that brings an infinite listing's end into view loads the next page before the step
    returns, however slow the server's answer: the step's page text holds the new items. (The load
    used to start from a scroll event, a frame later, and raced the step under load.)"""
    env = gym.make("GymV/WebHotelHeldOutLayout-v0", obs_size=(96, 128)).unwrapped
    env.reset(seed=1)
    assert env._site.layout.infinite
    items_html = env._site._items_html
    env._site._items_html = lambda q, fragment=False: time.sleep(0.3) or items_html(q, fragment)
    cards = "[...document.querySelectorAll('#items > .card a')].map(a => a.textContent)"
    shown = env._live.page.evaluate(cards)
    _, _, _, _, info = env.step(env._act("scroll", dy=96))
    now = env._live.page.evaluate(cards)
    assert len(now) > len(shown) and now[-1] in info["state_text"]
    env.close()


def test_a_new_page_at_the_same_url_gets_a_new_frame():
    """A navigation that leaves the URL, scroll, focus and hover as they were still takes a new
    screenshot (a removal that redirected back to the same list used to keep the old frame)."""
    env = gym.make("GymV/WebNewsLookup-v0").unwrapped
    env.reset(seed=0)
    for word in ("Before", "After"):
        env._site.page_help = lambda q, word=word: env._site.shell("Help", f"<h1>{word}</h1>" * 40)
        obs, *_ = env.step(env._act("goto", text="/help"))
        assert np.array_equal(obs, env._live.screenshot()), word
    env.close()


def test_vqa_click_targets_are_inside_the_target_and_near_misses_outside():
    env = gym.make("GymV/WebShopLookup-v0", obs_size=(384, 512)).unwrapped
    made = []
    for seed in range(3):
        env.reset(seed=seed)
        qs = env.vqa_questions(np.random.default_rng(seed))
        made += qs
        for q in qs:
            assert len(q["options"]) == 4 and len(set(q["options"])) == 4 and 0 <= q["answer"] < 4
            # a fact-page question is asked only when the task does not name the page (else it gives the answer away)
            assert q["type"] != "fact_page" or q["options"][q["answer"]].lower() not in env.instruction.lower()
        px = next((q for q in qs if q["type"] == "click_target"), None)
        if px is None:
            continue
        norm = next(q for q in qs if q["type"] == "click_target_norm")
        assert norm["answer"] == px["answer"]
        hits = []
        for opt in px["options"]:
            x, y = (float(v) for v in re.findall(r"[\d.]+", opt))
            hits.append(env._live.page.evaluate(
                "([x, y]) => { let e = document.elementFromPoint(x, y); return e ? e.outerHTML.slice(0, 80) : ''; }",
                [x / env._scale, (y - env._page_top) / env._scale]))
        act = env.oracle_action()
        target = env._live.page.evaluate("([x, y]) => document.elementFromPoint(x, y).outerHTML.slice(0, 80)",
                                         [float(act["x"]) / env._scale, float(act["y"]) / env._scale])
        assert hits[px["answer"]] == target
        assert sum(h == target for h in hits) == 1
    assert {"click_target", "click_target_norm"} <= {q["type"] for q in made}
    env.close()


# ----------------------------------------------------------------------------- cross-site
@pytest.mark.parametrize("env_id", ["GymV/WebCrossShopBank-v0", "GymV/WebCrossFoodBank-v0"])
def test_cross_site_tasks_need_facts_from_both_sites(env_id):
    """A price read on the catalogue site (one item, the cheapest of a category, a total of two) is
    paid from the bank on the other: the oracle visits both at every difficulty and succeeds; the
    amount is never in the instruction; a transfer off by a cent, or from another account, fails."""
    from tests.helpers import ORACLE_OBS_SIZE, oracle_episode

    for d in (0, 1, 2):
        env = gym.make(env_id, difficulty=d, obs_size=ORACLE_OBS_SIZE)
        try:
            success, steps, _, infos = oracle_episode(env, 0)
            u = env.unwrapped
            assert success, f"{env_id} d{d}: oracle failed after {steps} steps"
            paths = [i["url"] for i in infos]
            assert any(p.startswith("/a/item") for p in paths) and any(p.startswith("/b/transfer") for p in paths)
            shop, bank = u._site.a, u._site.b
            if d == 1:
                assert u._amount == min(p["num"] for p in shop.items if p["cat"] == u._cat)
            assert u._amount == round(sum(p["num"] for p in u._items), 2) and len(u._items) == (2 if d == 2 else 1)
            assert f"{u._amount:.2f}" not in u.instruction and f"{u._amount:,.2f}" not in u.instruction
            assert u.instruction.count(shop.brand) and u.instruction.count(bank.brand)
            (t,) = bank.transfers
            bank.transfers[:] = [{**t, "amount": round(t["amount"] + 0.01, 2)}]
            assert not all(h for _, h in u._criteria())
            other = next(a for a in bank.accounts if a != t["src"])
            bank.transfers[:] = [{**t, "src": other}]
            assert all(h for _, h in u._criteria()) is (d == 0)
            bank.transfers[:] = [t, t]
            assert not all(h for _, h in u._criteria())
        finally:
            env.close()


def test_catalogue_and_cross_site_arguments_name_their_valid_values():
    """``layouts`` and ``pair`` given a list or a dict: the valid values, not Python's "unhashable type"."""
    for env_id, name, valid in (("GymV/WebShopCollect-v0", "layouts", "train, test"),
                                ("GymV/WebCrossShopBank-v0", "pair", "shop-bank, food-bank")):
        for bad in ([], {"a": 1}, "nope"):
            with pytest.raises(ValueError, match=f"invalid {name}=.*; valid values: {valid}"):
                gym.make(env_id, **{name: bad})
