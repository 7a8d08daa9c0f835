"""`WebEnv`, the fat base of every web task: browser lifecycle, actions, rubric and oracle plumbing.

Each env owns one loopback `LoopbackServer` (started at the first reset, on 127.0.0.1 with an
ephemeral port) and one headless Chromium (`ChromiumProcess`) that no other env uses while it
lives. ``close()`` (or garbage collection) stops the server and kills the browser (with
``GYMV_WEB_LINGER=S`` it is instead handed to the next env of the same thread for S seconds,
see `_browser.LINGER`); every reset opens a fresh browser context on a freshly generated site. Requests to anything but the env's own server are aborted and counted in
``info["blocked_requests"]``. If Chromium dies, the step reports it and the next reset starts
a new browser and says so in ``info["feedback"]``.

A task subclass sets ``site_cls`` and implements ``_setup(rng)`` (pick the goal from the
generated site), ``_task_text()``, ``_criteria()`` (the rubric: ``(name, holds)`` pairs read
from the server-side state and the final answer), ``_plan()`` (the oracle's goals, see `Goal`)
and ``_answer()``.

Judge: ``judge_mode`` is one of `JUDGE_MODES`: ``off`` (the rubric alone, the default),
``and`` (success needs the rubric and the judge), ``replace`` (the judge alone decides) or
``audit`` (the rubric decides; the judge's verdict is recorded). ``judge`` is the judge: a
callable ``(instruction, keyframes, answer[, criteria]) -> bool | (bool, reason)``, a dict of
`_judge.WebJudge` arguments (model, base_url, ...), or left out for a `WebJudge` configured from
the environment (``GYMV_JUDGE_MODEL``, ``GYMV_JUDGE_BASE_URL``). A judge passed without a mode
means ``and``. ``keyframes`` are the screenshots taken after each navigation and state change
(at most 16, the first and the last always included). At the end ``info["judge"]`` holds
``{"verdict", "reason", "rubric"}``. A judge that raises says no, and ``reason`` says why; but one whose
endpoint cannot be used (`gymv.agents.AgentUnavailable`: the VLM judge's server is down, refuses the key,
does not know the model) raises out of ``step``, so no episode is scored by a verdict nobody gave (the
benchmark runner then stops and says why).

Faults: a browser that dies (or stops answering) during a step ends the episode:
``terminated=True``, ``info["error"]`` names the cause (``"browser_crashed: ..."``), and the
next reset starts a new browser. An action that runs past ``action_timeout`` seconds is
abandoned; ``info["timed_out"]`` says so (the state may have changed). How long the last
action took is ``env.unwrapped.last_action_ms`` (not in ``info``, which stays a pure function of
the seed and the actions). No Playwright exception leaves ``step``.

Observations: ``observation="screenshot"`` (the default) is the `Box` screenshot;
``"axtree"`` is ``Dict(axtree=Text)``, the page outline with element ids (see `_page`), and
``"both"`` is ``Dict(screenshot=Box, axtree=Text)``. Outside ``screenshot`` mode the element
actions ``click("12")``, ``fill("12", "x")``, ``select_option("12", "x")`` are offered too (they
always work) and ``info["axtree"]`` carries the outline.

Pickled envs keep the generated site and the actions since reset; the copy starts its own
browser and replays them on first use.
"""

from __future__ import annotations

import base64
import copy
import io
import re
import threading
import time
import weakref
from collections.abc import Mapping
from contextlib import suppress
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

from gymv_envs.core.env import TEXT_CHARSET, MultiTurnEnv, Outcome, VisionEnv
from gymv_envs.domains.web import _answers, _page
from gymv_envs.domains.web._grammar import BID_CHARSET, KEYS, KINDS, MAX_BID, MAX_TEXT, GrammarMixin  # noqa: F401
from gymv_envs.domains.web._oracle import Goal, OracleMixin, Step  # noqa: F401
from gymv_envs.domains.web._site import Site
from gymv_envs.domains.web._vqa import VQAMixin

MAX_KEYFRAMES = 16
JUDGE_MODES = ("off", "and", "replace", "audit")
OBSERVATIONS = ("screenshot", "axtree", "both")
MAX_AXTREE = 20000
MAX_TABS = 4


def answer_matches(given: str | None, expected: Any, kind: str | None = None, others: tuple = ()) -> bool:
    """The shared answer reader (`_answers.matches`): does the reply give ``expected``?"""
    return _answers.matches(given, expected, kind, others)


class BrowserCrashed(Exception):
    """The browser went away during an action."""


class _Live:
    """The transient half of an env: server, Chromium, Playwright handles, open tabs."""

    def __init__(self, shared: bool = False) -> None:
        from gymv_envs.domains.web._browser import acquire, acquire_shared
        from gymv_envs.domains.web._server import LoopbackServer, Router

        self.router = Router()
        self.server = LoopbackServer(self.router)
        self.proc = None
        self.shared = shared
        self.owner = threading.get_ident()  # the thread whose Playwright driver opened the browser
        try:
            self.proc, self.browser = acquire_shared() if shared else acquire()
        except BaseException:
            self.server.close()
            raise
        self.context = self.page = self.cdp = None
        self.pages: list = []
        self.cdps: dict = {}
        self.blocked = 0

    def alive(self) -> bool:
        return self.proc is not None and self.proc.alive() and self.browser.is_connected()

    def new_page(self, css_size: tuple[int, int], scale: float, timeout_ms: float) -> None:
        """A clean page for a new level: the context of the last level reused (its extra tabs
        closed, cookies cleared; `WebEnv._open` then resets the history), or a new context."""
        if self.context is not None and self.pages:
            try:
                for extra in self.pages[1:]:
                    extra.close()
                self.pages = self.pages[:1]
                self.switch(0)
                self.context.clear_cookies()
                self.blocked = 0
                return
            except Exception:  # noqa: BLE001 - a broken context: open a new one
                pass
        old = self.context
        # The new context is opened before the old one closes: Chromium opens it faster then.
        self.context = self.browser.new_context(
            viewport={"width": css_size[0], "height": css_size[1]}, device_scale_factor=scale,
            locale="en-US", timezone_id="UTC", reduced_motion="reduce", color_scheme="light")
        if old is not None:
            with suppress(Exception):
                old.close()
        self.context.set_default_timeout(timeout_ms)
        self.context.add_init_script(_page.MUTATIONS_JS)
        self.blocked = 0
        self.context.route(re.compile(rf"^(?!{re.escape(self.server.origin)}/)"), self._block)
        self.pages, self.cdps = [], {}
        self.open_tab()

    def open_tab(self) -> None:
        self.page = self.context.new_page()
        self.pages.append(self.page)
        self.switch(len(self.pages) - 1)

    def switch(self, index: int) -> None:
        self.page = self.pages[index]
        if id(self.page) not in self.cdps:
            self.cdps[id(self.page)] = self.context.new_cdp_session(self.page)
        self.cdp = self.cdps[id(self.page)]
        self.page.bring_to_front()

    def screenshot(self) -> np.ndarray:
        """The viewport as an RGB array, lossless.

        Straight over CDP with ``optimizeForSpeed`` (a faster, lighter PNG compression; the same
        pixels): 40-45 ms here against 52-58 ms for Playwright's ``page.screenshot``, and the
        PNG decodes in 10 ms instead of 15 at 1024x768.
        """
        from PIL import Image

        data = self.cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})["data"]
        return np.asarray(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB"))

    def _block(self, route: Any) -> None:
        self.blocked += 1
        route.abort("blockedbyclient")

    def kill(self) -> None:
        """Stop the server; hand the browser over (or kill it). Safe from a finalizer: no Playwright calls."""
        from gymv_envs.domains.web._browser import release, release_shared

        if self.proc is not None:
            if self.shared:
                release_shared(self.proc)
            else:
                release(self.proc, self.browser, [self.context] if self.context is not None else [], self.owner)
            self.proc = None
        self.server.close()

    def crashed(self) -> None:
        from gymv_envs.domains.web._browser import release_shared

        if self.proc is not None:
            if self.shared:
                release_shared(self.proc)
            self.proc.kill()
            self.proc = None
        self.server.close()

    def close(self) -> None:
        with suppress(Exception):
            if self.context is not None and self.alive():
                self.context.close()
        self.context = None
        self.kill()


def _make_judge(judge: Any) -> Any:
    if judge is None or isinstance(judge, Mapping):
        from gymv_envs.domains.web._judge import WebJudge

        return WebJudge(**dict(judge or {}))
    if not callable(judge):
        raise ValueError(f"invalid judge={judge!r}; valid values: a callable, a dict of WebJudge arguments, or None")
    return judge


class WebEnv(GrammarMixin, OracleMixin, VQAMixin, MultiTurnEnv):
    """Base of the web tasks (see the module docstring)."""

    extras: ClassVar[tuple[str, ...]] = ("web",)
    default_obs_size: ClassVar[tuple[int, int]] = (768, 1024)
    action_modes: ClassVar[tuple[str, ...]] = ("parametric",)
    transient_attrs: ClassVar[tuple[str, ...]] = (*VisionEnv.transient_attrs, "_live", "_finalizer")
    fast_oracle: ClassVar[bool] = False
    site_cls: ClassVar[type[Site]] = Site
    layout_width: ClassVar[int] = 1024
    start_path: ClassVar[str] = "/"

    def __init__(self, judge: Any = None, judge_mode: str | None = None, observation: str = "screenshot",
                 action_timeout: float = 10.0, shared_browser: bool = False, **kwargs: Any) -> None:
        if judge_mode is None:
            judge_mode = "off" if judge is None else "and"
        if judge_mode not in JUDGE_MODES:
            raise ValueError(f"invalid judge_mode={judge_mode!r}; valid values: {', '.join(JUDGE_MODES)}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"invalid observation={observation!r}; valid values: {', '.join(OBSERVATIONS)}")
        if isinstance(action_timeout, bool) or not isinstance(action_timeout, (int, float)) or not 0.1 <= action_timeout <= 600:
            raise ValueError(f"invalid action_timeout={action_timeout!r}; valid values: 0.1 to 600 seconds")
        if not isinstance(shared_browser, bool):
            raise ValueError(f"invalid shared_browser={shared_browser!r}; valid values: True, False")
        self.judge_mode, self.observation_mode = judge_mode, observation
        self.judge = _make_judge(judge) if judge_mode != "off" else judge
        self.action_timeout, self.shared_browser = float(action_timeout), shared_browser
        self._live: _Live | None = None
        self._finalizer = None
        self._reset_note = ""
        self._error = ""
        self._timed_out = False
        self._action_ms = 0.0
        self._judged: dict | None = None
        self._axtree = ""
        super().__init__(**kwargs)
        if observation != "screenshot":
            text = spaces.Text(MAX_AXTREE, min_length=0, charset=TEXT_CHARSET_AX)
            self.observation_space = (spaces.Dict({"axtree": text}) if observation == "axtree" else
                                      spaces.Dict({"screenshot": self.observation_space, "axtree": text}))

    def _configure(self) -> None:
        h, w = self.obs_size
        self._scale = min(1.0, w / self.layout_width)
        self._css_size = (round(w / self._scale), round(h / self._scale))
        # With text_in_image the screenshot sits below the caption strip: y counts from the frame's top.
        self._page_top = self.frame_size[0] - h

    def _caption(self) -> list:
        # the task without its first sentence, which only names the site (the screenshot shows it)
        return [self._task_text().split(". ", 1)[-1]]

    def _make_action_space(self) -> spaces.Space:
        h, w = self.frame_size
        f = np.float32
        return spaces.Dict({
            "kind": spaces.Discrete(len(KINDS)),
            "x": spaces.Box(0.0, float(w), (), f), "y": spaces.Box(0.0, float(h), (), f),
            "dx": spaces.Box(-float(w), float(w), (), f), "dy": spaces.Box(-float(h), float(h), (), f),
            "text": spaces.Text(MAX_TEXT, min_length=0, charset=TEXT_CHARSET),
            "bid": spaces.Text(MAX_BID, min_length=0, charset=BID_CHARSET),
        })

    # ----------------------------------------------------------------- task hooks
    def _make_site(self, rng: np.random.Generator) -> Site:
        return self.site_cls(rng, self.difficulty)

    def _setup(self, rng: np.random.Generator) -> None:
        raise NotImplementedError

    def _criteria(self) -> list[tuple[str, bool]]:
        raise NotImplementedError

    def _plan(self) -> list[Goal]:
        raise NotImplementedError

    # ----------------------------------------------------------------- lifecycle
    def _ensure_browser(self) -> None:
        live = self._live
        if live is not None and not live.alive():
            code = live.proc.proc.poll() if live.proc else None
            self._reset_note = (f"Chromium (pid {live.proc.pid if live.proc else '?'}) had stopped "
                                f"(exit code {code}); started a new browser")
            live.crashed()
            if self._finalizer is not None:
                self._finalizer.detach()
            self._live = live = None
        if live is None:
            self._live = _Live(self.shared_browser)
            self._finalizer = weakref.finalize(self, _Live.kill, self._live)

    def _open(self) -> None:
        """A new context on the current site, at the start page, then the recorded actions."""
        self._ensure_browser()
        live = self._live
        live.new_page(self._css_size, self._scale, self.action_timeout * 1000)
        live.router.site = self._site
        live.page.mouse.move(0, 0)  # the same hover state whether the context is new or reused
        live.page.goto(live.server.origin + self.start_path)
        live.cdp.send("Page.resetNavigationHistory")
        self._settle()
        for action in self._history:
            self._perform(action)
        self._dirty = True
        self._navigated = True
        self._view_sig = None

    def _generate(self, rng: np.random.Generator) -> None:
        self._site = self._make_site(rng)
        self._setup(rng)
        self._site_initial = copy.deepcopy(self._site)
        self._history: list[dict] = []
        self._final_answer: str | None = None
        self._keyframes: list[np.ndarray] = []
        self._url, self._page_text = self.start_path, ""
        self._seen_texts: list[str] = []
        self._error, self._timed_out, self._action_ms, self._judged = "", False, 0.0, None

    def _after_generate(self) -> None:
        try:
            self._open()
        except Exception as exc:
            if self._live is not None and self._live.alive():
                raise
            # the browser died while the level opened: once more with a new one
            self._reset_note = f"the browser stopped while the page opened ({type(exc).__name__}); started a new browser"
            self._ensure_browser()
            self._open()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._reset_note = ""
        obs, info = super().reset(seed=seed, options=options)
        info["feedback"] = self._reset_note
        return obs, info

    def _revive(self) -> None:
        """After unpickling: a new browser, the initial site, then the actions replayed."""
        if self._live is None and self._started:
            self._site = copy.deepcopy(self._site_initial)
            self._open()

    def close(self) -> None:
        if self._live is not None:
            self._live.close()
            if self._finalizer is not None:
                self._finalizer.detach()
            self._live = self._finalizer = None
        super().close()

    # ----------------------------------------------------------------- acting
    def _coerce(self, action: Any) -> dict | None:
        try:
            if not isinstance(action, Mapping):
                return None
            kind = action.get("kind")
            if isinstance(kind, str):
                kind = KINDS.index(kind) if kind in KINDS else -1
            else:
                k = np.asarray(kind)
                if k.size != 1 or not np.issubdtype(k.dtype, np.integer):
                    return None
                kind = int(k.reshape(()))
            if not 0 <= kind < len(KINDS):
                return None
            out: dict[str, Any] = {"kind": kind}
            for key in ("x", "y", "dx", "dy"):
                v = np.asarray(action.get(key, 0.0), dtype=np.float64)
                if v.size != 1 or not np.isfinite(v).all():
                    return None
                sp = self.action_space[key]
                out[key] = float(np.clip(v.reshape(()), sp.low, sp.high))
            text, bid = action.get("text", ""), action.get("bid", "")
            if not isinstance(text, str) or len(text) > MAX_TEXT or not isinstance(bid, str) or len(bid) > MAX_BID:
                return None
            if bid and not bid.isdigit():
                return None
            out["text"], out["bid"] = text, bid
            return out
        except (TypeError, ValueError, OverflowError):
            return None

    def _refuse(self, a: dict) -> str:
        """Why an action cannot be taken before touching the browser ('' when it can)."""
        kind, text, bid = KINDS[a["kind"]], a["text"], a["bid"]
        if kind == "key" and text not in KEYS:
            return f"unknown key {text[:20]!r}; keys: {', '.join(KEYS)}"
        if kind == "type" and not text:
            return 'type("...") needs some text'
        if kind == "fill" and not bid:
            return 'fill("N", "text") needs an element id'
        if kind == "goto" and self._loopback_path(text) is None:
            return "goto reaches only this site: give a path such as /cart"
        if kind == "switch_tab" and (not text.isdigit() or int(text) >= len(self._live.pages if self._live else [0])):
            return f"no tab {text[:8]!r}; open tabs: 0 to {len(self._live.pages if self._live else [0]) - 1}"
        if kind == "new_tab" and self._live is not None and len(self._live.pages) >= MAX_TABS:
            return f"at most {MAX_TABS} tabs"
        if kind == "new_tab" and text and self._loopback_path(text) is None:
            return "new_tab opens only this site's pages"
        return ""

    def _loopback_path(self, url: str) -> str | None:
        url = url.strip()
        if url.startswith("/"):
            return url
        m = re.fullmatch(r"(?:https?://)?(?:127\.0\.0\.1|localhost)(?::(\d+))?(/.*)?", url)
        if m is None or (m.group(1) and self._live is not None and int(m.group(1)) != self._live.server.port):
            return None
        return m.group(2) or "/"

    def _apply(self, action: dict) -> Outcome:
        kind, text = KINDS[action["kind"]], action["text"]
        self._timed_out, self._action_ms = False, 0.0
        if kind == "answer":
            if not text.strip():
                return Outcome(invalid=True, feedback='answer("...") needs the answer text')
            self._final_answer = text.strip()
            return self._finish()
        if kind == "done":
            return self._finish()
        try:
            self._revive()
        except Exception as exc:  # noqa: BLE001 - Playwright errors: the browser went away
            return self._crash(exc)
        why = self._refuse(action)
        if why:
            return Outcome(invalid=True, feedback=why)
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        start = time.perf_counter()
        try:
            why = self._perform(action)
        except PlaywrightTimeout as exc:
            self._timed_out = True
            self._history.append(action)
            self._dirty = True
            with suppress(Exception):
                self._settle()
            return Outcome(feedback=f"the action timed out after {self.action_timeout:g} s ({str(exc).splitlines()[0][:80]})")
        except Exception as exc:  # noqa: BLE001 - Playwright errors: the browser went away
            return self._crash(exc)
        finally:
            self._action_ms = (time.perf_counter() - start) * 1000
        if why:
            return Outcome(invalid=True, feedback=why)
        self._history.append(action)
        return Outcome(feedback="")

    def _crash(self, exc: BaseException) -> Outcome:
        alive = self._live is not None and self._live.alive()
        cause = "browser_error" if alive else "browser_crashed"
        self._error = f"{cause}: {type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''}"
        return Outcome(terminated=True, feedback=f"the browser stopped responding ({self._error}); reset() starts a new one")

    def _point(self, action: dict) -> tuple[float, float] | None:
        """CSS pixels of the viewport the action points at (an element's centre for element actions)."""
        if action["bid"]:
            hit = self._live.page.evaluate(_page.BID_JS, action["bid"])
            return None if hit is None else (hit[0], hit[1])
        return action["x"] / self._scale, (action["y"] - self._page_top) / self._scale

    def _perform(self, action: dict) -> str:
        """Do one browser action; a reason when it could not happen ('' when it did)."""
        live, s = self._live, self._scale
        page = live.page
        kind, text = KINDS[action["kind"]], action["text"]
        if kind in ("click", "double_click", "hover", "select", "fill", "drag"):
            point = self._point(action)
            if point is None:
                return f"no element [{action['bid']}] on this page"
            x, y = point
            if y < 0 and not action["bid"]:
                return ""  # a click on the caption strip: nothing on the page happens
            if kind == "click":
                page.mouse.click(x, y)
            elif kind == "double_click":
                page.mouse.dblclick(x, y)
            elif kind == "hover":
                page.mouse.move(x, y)
            elif kind == "select":
                why = page.evaluate(_page.SELECT_JS, [x, y, text])
                if why:
                    return why
            elif kind == "fill":
                page.mouse.click(x, y)
                page.keyboard.press("ControlOrMeta+a")
                if text:
                    page.keyboard.insert_text(text)
                else:
                    page.keyboard.press("Delete")
            else:
                page.mouse.move(x, y)
                page.mouse.down()
                for k in range(1, 6):
                    page.mouse.move(x + action["dx"] / s * k / 5, y + action["dy"] / s * k / 5)
                page.mouse.up()
        elif kind == "scroll":
            page.evaluate("([dx, dy]) => window.scrollBy(dx, dy)", [action["dx"] / s, action["dy"] / s])
        elif kind == "type":
            page.keyboard.insert_text(text)
        elif kind == "key":
            page.keyboard.press(text.replace("Control+a", "ControlOrMeta+a"))
        elif kind == "back":
            if page.go_back() is None:
                return "there is no previous page"
            self._navigated = True
        elif kind == "forward":
            if page.go_forward() is None:
                return "there is no next page"
            self._navigated = True
        elif kind == "goto":
            page.goto(live.server.origin + self._loopback_path(text))
            self._navigated = True
        elif kind == "new_tab":
            live.open_tab()
            live.page.goto(live.server.origin + (self._loopback_path(text) if text else self.start_path))
            self._navigated = True
        elif kind == "switch_tab":
            live.switch(int(text))
            self._navigated = True
        self._settle()
        return ""

    def _settle(self) -> None:
        live = self._live
        before = live.router.changes
        target, self._url, self._page_text, view = self._evaluate_settled()
        if target:
            live.page.goto(live.server.origin + target)
            _, self._url, self._page_text, view = self._evaluate_settled()
            self._navigated = True
        view = f"{live.pages.index(live.page)}|{view}"
        if view != getattr(self, "_view_sig", None):
            self._view_sig, self._dirty = view, True
        if live.router.changes != before:
            self._navigated = True  # a state change is a keypoint too
        if self.observation_mode != "screenshot":
            self._axtree = live.page.evaluate(_page.AXTREE_JS)
        if self.judge_mode != "off" and self._page_text not in self._seen_texts[-8:]:
            self._seen_texts = [*self._seen_texts[-63:], self._page_text[:8000]]

    def _evaluate_settled(self) -> list:
        """`SETTLE_JS` on the current page; a navigation the page made itself is waited for first."""
        from playwright.sync_api import Error as PlaywrightError

        page = self._live.page
        for attempt in range(4):
            try:
                return page.evaluate(_page.SETTLE_JS)
            except PlaywrightError as exc:
                if attempt == 3 or "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                    raise
                self._navigated = True
                page.wait_for_load_state("load")
        raise AssertionError("unreachable")

    def _finish(self) -> Outcome:
        results = self._criteria()
        rubric = all(h for _, h in results)
        ok = rubric
        if self.judge_mode != "off":
            verdict, reason = self._ask_judge(results)
            self._judged = {"verdict": verdict, "reason": reason, "rubric": rubric, "mode": self.judge_mode}
            if self.judge_mode == "and":
                results.append(("judge", verdict))
                ok = rubric and verdict
            elif self.judge_mode == "replace":
                ok = verdict
        held = sum(h for _, h in results)
        return Outcome(reward=float(ok), terminated=True, success=ok,
                       feedback=f"{held} of {len(results)} rubric criteria hold" + ("" if all(h for _, h in results) else ": " + ", ".join(n for n, h in results if not h)))

    @property
    def last_action_ms(self) -> float:
        """Milliseconds the last browser action took (0 for answer, done and refused actions)."""
        return self._action_ms

    def keyframes(self) -> list[np.ndarray]:
        """The judge's screenshots: after each navigation and state change, the current frame last."""
        frames = list(self._keyframes)
        if self._frame is not None:
            frames.append(np.array(self._frame, copy=True))
        if len(frames) > MAX_KEYFRAMES:
            frames = [frames[0], *frames[-MAX_KEYFRAMES + 1:]]
        return frames

    def rubric_text(self) -> list[str]:
        """The rubric's criteria as the judge reads them (names, not the hidden values)."""
        return [name for name, _ in self._criteria()]

    def _ask_judge(self, results: list[tuple[str, bool]]) -> tuple[bool, str]:
        try:
            import inspect

            params = inspect.signature(self.judge).parameters
            args = [self.instruction, self.keyframes(), self._final_answer]
            if len(params) >= 4 or any(p.kind == p.VAR_POSITIONAL for p in params.values()):
                args.append([n for n, _ in results])
            extra = {"evidence": list(self._seen_texts)} if "evidence" in params else {}
            got = self.judge(*args, **extra)
        except Exception as exc:  # noqa: BLE001 - a judge that fails says no, and why
            from gymv.agents.base import AgentUnavailable

            if isinstance(exc, AgentUnavailable):   # its endpoint cannot be used: no verdict is made up
                raise
            return False, f"judge failed: {type(exc).__name__}: {str(exc)[:120]}"
        if isinstance(got, tuple):
            return bool(got[0]), str(got[1]) if len(got) > 1 else ""
        return bool(got), ""

    def _progress(self) -> float:
        results = self._criteria()
        return sum(h for _, h in results) / max(1, len(results))

    # ----------------------------------------------------------------- observing
    def _draw(self) -> np.ndarray:
        picture = getattr(self, "_picture", None)
        if not getattr(self, "_dirty", True) and picture is not None:
            return picture
        h, w = self.obs_size
        try:
            self._revive()
            frame = self._live.screenshot()  # the site CSS already hides carets, stops animations
        except Exception:  # noqa: BLE001 - a dead browser keeps the last frame
            return picture if picture is not None else np.zeros((h, w, 3), np.uint8)
        if frame.shape[0] > h or frame.shape[1] > w:
            # The capture is in CSS pixels (the viewport at scale 1), so a frame smaller than the layout
            # is the page scaled down here (it was its top-left corner before). Not a capture at the
            # device scale: at 96x128 that one repaints the focused field's edge differently from run
            # to run (5-36 pixels, 5 of 5 repeats of WebWikiHeldOutLayout d2 seed 0).
            from PIL import Image

            frame = np.asarray(Image.fromarray(frame).resize((w, h), Image.Resampling.BOX))
        if frame.shape[:2] != (h, w):
            frame = np.pad(frame[:h, :w], ((0, max(0, h - frame.shape[0])), (0, max(0, w - frame.shape[1])), (0, 0)), mode="edge")
        self._dirty = False
        self._picture = frame
        if getattr(self, "_navigated", False):
            self._keyframes = [*self._keyframes[-4 * MAX_KEYFRAMES:], self._full_frame(frame)]
            self._navigated = False
        return frame

    def _observe(self) -> Any:
        frame = super()._observe()
        if self.observation_mode == "screenshot":
            return frame
        ax = "".join(c for c in self._axtree if c in TEXT_CHARSET_AX)[:MAX_AXTREE]
        return {"axtree": ax} if self.observation_mode == "axtree" else {"screenshot": frame, "axtree": ax}

    def _state_text(self) -> str:
        return f"URL: {self._url}\n{self._page_text[:4000]}"

    def _info(self, outcome: Outcome) -> dict[str, Any]:
        info = super()._info(outcome)
        info["blocked_requests"] = self._live.blocked if self._live is not None else 0
        info["url"] = self._url
        info["timed_out"] = self._timed_out
        if self._error:
            info["error"] = self._error
        if self.observation_mode != "screenshot":
            info["axtree"] = self._axtree
        if self._terminated and self._judged is not None:
            info["judge"] = dict(self._judged)
        return info


TEXT_CHARSET_AX = TEXT_CHARSET + "".join(chr(c) for c in range(0xA0, 0x250)) + "\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2605\u2606\u00b7\u2022\u20ac\u00a3"


def web_doc(summary: str, description: str, difficulty: str, start: str = "The site's start page, freshly generated.") -> str:
    """The Gymnasium-style docstring of a hand-built web task (the sections every GymV env carries)."""
    return f"""{summary}

    ## Description
    {description} The site is generated from the seed and served on 127.0.0.1; the rubric
    is checked on the site's server-side state and the final answer, read by the shared answer
    reader (`_answers`: a value inside a sentence, with a currency word or code, units, separators,
    a date in any common format; a reply naming two different values is wrong).

    ## Action Space
    `Dict(kind, x, y, dx, dy, text, bid)`: kind is one of click, double_click, scroll, type, key,
    back, answer, done, hover, select, drag, goto, forward, new_tab, switch_tab, fill; x, y are
    pixels of the observation; dx, dy scroll amounts or a drag's displacement; text is typed, a key
    name, an option, a path, a tab number or the answer; bid an element id of the outline
    observation. `parse_action` reads replies such as `click(312, 88)`, `type("blue shoes")`,
    `select(300, 200, "Large")`, `drag(10, 20, 10, 80)`, `click("12")`, `fill("12", "x")`,
    `answer("42.50")`, `done` (see `_grammar`).

    ## Observation Space
    The page screenshot, `Box(0, 255, (H, W, 3), uint8)`, default 768x1024 (a 1024x768 viewport);
    ``observation="axtree"`` or ``"both"`` gives a `Dict` with the page outline (see `_base`).

    ## Rewards
    1.0 when the episode ends with every rubric criterion holding, else 0.0.
    `info["progress"]` is the fraction of criteria that hold.

    ## Starting State
    {start}

    ## Episode End
    `answer(...)` or `done` ends the episode; the step budget truncates. A browser that dies ends
    it too (``info["error"]``).

    ## Arguments
    `difficulty`: {difficulty}. `obs_size`: (H, W) of the screenshot. `observation`: screenshot,
    axtree, both. `judge_mode`: off, and, replace, audit; `judge`: a callable
    (instruction, keyframes, answer[, criteria]) -> bool, or a dict of `WebJudge` arguments.
    `action_timeout`: seconds per action (0.1 to 600). `shared_browser`: share this thread's
    Chromium with other envs (True, False).

    ## Version History
    - v0: initial release
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws); answers
      are read by the shared answer reader (``65.22 dollars``, ``USD 65.22`` and ``The price is
      $65.22.`` now score; a reply naming two values does not); the action space gains a ``bid``
      field and the kinds hover, select, drag, goto, forward, new_tab, switch_tab and fill;
      ``judge_mode``, ``observation``, ``action_timeout``, ``shared_browser`` arguments;
      ``info["error"]``, ``info["timed_out"]``.
    """
