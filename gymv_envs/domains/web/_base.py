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

LLM judge hook: pass ``judge=callable(instruction, keyframes, answer) -> bool`` to the
constructor; ``keyframes`` are the screenshots taken after each page navigation (at most 16,
the last one always included). When a judge is set its verdict is one more rubric criterion.
Pickled envs keep the generated site and the actions since reset; the copy starts its own
browser and replays them on first use.
"""

from __future__ import annotations

import base64
import copy
import io
import re
import weakref
from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

from gymv_envs.core.env import TEXT_CHARSET, MultiTurnEnv, Outcome, VisionEnv
from gymv_envs.domains.web._grammar import KEYS, KINDS, MAX_TEXT, GrammarMixin  # noqa: F401
from gymv_envs.domains.web._oracle import Goal, OracleMixin, Step  # noqa: F401
from gymv_envs.domains.web._site import Site

MAX_KEYFRAMES = 16
# After every action: wait for fonts, take the navigation the page script caught (if any), and
# read the URL and the page text, in one round trip.
_SETTLE_JS = """async () => { await document.fonts.ready; const n = window.__gymvNav; window.__gymvNav = null;
  return [n, location.pathname + location.search, document.body ? document.body.innerText : '']; }"""


def norm_answer(text: Any) -> str:
    s = str(text).strip().lower().replace(",", "").replace("$", "")
    s = re.sub(r"\s+", " ", s).strip(" .!\"'")
    with suppress(ValueError):
        return f"{float(s):.2f}"
    return s


def answer_matches(given: str | None, expected: Any) -> bool:
    return given is not None and norm_answer(given) == norm_answer(expected)


class _Live:
    """The transient half of an env: server, Chromium, Playwright handles."""

    def __init__(self) -> None:
        from gymv_envs.domains.web._browser import acquire
        from gymv_envs.domains.web._server import LoopbackServer, Router

        self.router = Router()
        self.server = LoopbackServer(self.router)
        self.proc = None
        try:
            self.proc, self.browser = acquire()
        except BaseException:
            self.server.close()
            raise
        self.context = self.page = self.cdp = None
        self.blocked = 0

    def alive(self) -> bool:
        return self.proc is not None and self.proc.alive() and self.browser.is_connected()

    def new_page(self, css_size: tuple[int, int], scale: float) -> None:
        old = self.context
        # The new context is opened before the old one closes: Chromium opens it faster then.
        self.context = self.browser.new_context(
            viewport={"width": css_size[0], "height": css_size[1]}, device_scale_factor=scale,
            locale="en-US", timezone_id="UTC", reduced_motion="reduce", color_scheme="light")
        if old is not None:
            with suppress(Exception):
                old.close()
        self.blocked = 0
        self.context.route(re.compile(rf"^(?!{re.escape(self.server.origin)}/)"), self._block)
        self.page = self.context.new_page()
        self.cdp = self.context.new_cdp_session(self.page)

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
        from gymv_envs.domains.web._browser import release

        if self.proc is not None:
            release(self.proc, self.browser, [self.context] if self.context is not None else [])
            self.proc = None
        self.server.close()

    def crashed(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc = None
        self.server.close()

    def close(self) -> None:
        with suppress(Exception):
            if self.context is not None and self.alive():
                self.context.close()
        self.context = None
        self.kill()


class WebEnv(GrammarMixin, OracleMixin, MultiTurnEnv):
    """Base of the web tasks (see the module docstring)."""

    extras: ClassVar[tuple[str, ...]] = ("web",)
    default_obs_size: ClassVar[tuple[int, int]] = (768, 1024)
    action_modes: ClassVar[tuple[str, ...]] = ("parametric",)
    transient_attrs: ClassVar[tuple[str, ...]] = (*VisionEnv.transient_attrs, "_live", "_finalizer")
    site_cls: ClassVar[type[Site]] = Site
    layout_width: ClassVar[int] = 1024
    start_path: ClassVar[str] = "/"

    def __init__(self, judge: Callable[[str, list, str | None], bool] | None = None, **kwargs: Any) -> None:
        self.judge = judge
        self._live: _Live | None = None
        self._finalizer = None
        self._reset_note = ""
        super().__init__(**kwargs)

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
        })

    # ----------------------------------------------------------------- task hooks
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
            self._live = _Live()
            self._finalizer = weakref.finalize(self, _Live.kill, self._live)

    def _open(self) -> None:
        """A new context on the current site, at the start page, then the recorded actions."""
        self._ensure_browser()
        live = self._live
        live.new_page(self._css_size, self._scale)
        live.router.site = self._site
        live.page.goto(live.server.origin + self.start_path)
        self._settle()
        for action in self._history:
            self._perform(action)
        self._dirty = True

    def _generate(self, rng: np.random.Generator) -> None:
        self._site = self.site_cls(rng, self.difficulty)
        self._setup(rng)
        self._site_initial = copy.deepcopy(self._site)
        self._history: list[dict] = []
        self._final_answer: str | None = None
        self._keyframes: list[np.ndarray] = []
        self._url, self._page_text = self.start_path, ""

    def _after_generate(self) -> None:
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
            text = action.get("text", "")
            if not isinstance(text, str) or len(text) > MAX_TEXT:
                return None
            out["text"] = text
            return out
        except (TypeError, ValueError, OverflowError):
            return None

    def _apply(self, action: dict) -> Outcome:
        kind, text = KINDS[action["kind"]], action["text"]
        if kind == "answer":
            if not text.strip():
                return Outcome(invalid=True, feedback='answer("...") needs the answer text')
            self._final_answer = text.strip()
            return self._finish()
        if kind == "done":
            return self._finish()
        if kind == "key" and text not in KEYS:
            return Outcome(invalid=True, feedback=f"unknown key {text[:20]!r}; keys: {', '.join(KEYS)}")
        if kind == "type" and not text:
            return Outcome(invalid=True, feedback='type("...") needs some text')
        try:
            self._revive()
            if not self._perform(action):
                return Outcome(invalid=True, feedback="there is no previous page")
        except Exception as exc:  # noqa: BLE001 - Playwright errors: the browser went away
            self._crash_note = f"the browser stopped responding ({type(exc).__name__}: {str(exc)[:100]}); reset() starts a new one"
            return Outcome(terminated=True, feedback=self._crash_note)
        self._history.append(action)
        self._dirty = True
        return Outcome(feedback="")

    def _perform(self, action: dict) -> bool:
        """Do one browser action; False when it could not happen (back on the first page)."""
        page, s = self._live.page, self._scale
        kind, text = KINDS[action["kind"]], action["text"]
        x, y = action["x"] / s, (action["y"] - self._page_top) / s
        if kind in ("click", "double_click") and y < 0:
            return True  # a click on the caption strip: nothing on the page happens
        if kind == "click":
            page.mouse.click(x, y)
        elif kind == "double_click":
            page.mouse.dblclick(x, y)
        elif kind == "scroll":
            page.evaluate("([dx, dy]) => window.scrollBy(dx, dy)", [action["dx"] / s, action["dy"] / s])
        elif kind == "type":
            page.keyboard.insert_text(text)
        elif kind == "key":
            page.keyboard.press(text.replace("Control+a", "ControlOrMeta+a"))
        elif kind == "back" and page.go_back() is None:
            return False
        self._settle()
        return True

    def _settle(self) -> None:
        live = self._live
        target, self._url, self._page_text = live.page.evaluate(_SETTLE_JS)
        if target:
            live.page.goto(live.server.origin + target)
            _, self._url, self._page_text = live.page.evaluate(_SETTLE_JS)
            self._navigated = True

    def _finish(self) -> Outcome:
        results = self._criteria()
        if self.judge is not None:
            frames = list(self._keyframes[-MAX_KEYFRAMES + 1:])
            if self._frame is not None:
                frames.append(np.array(self._frame, copy=True))
            results.append(("judge", bool(self.judge(self.instruction, frames, self._final_answer))))
        ok = all(h for _, h in results)
        held = sum(h for _, h in results)
        return Outcome(reward=float(ok), terminated=True, success=ok,
                       feedback=f"{held} of {len(results)} rubric criteria hold" + ("" if ok else ": " + ", ".join(n for n, h in results if not h)))

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
        if frame.shape[:2] != (h, w):
            frame = np.pad(frame[:h, :w], ((0, max(0, h - frame.shape[0])), (0, max(0, w - frame.shape[1])), (0, 0)), mode="edge")
        self._dirty = False
        self._picture = frame
        if getattr(self, "_navigated", False):
            self._keyframes = [*self._keyframes[-MAX_KEYFRAMES + 2:], np.array(frame, copy=True)]
            self._navigated = False
        return frame

    def _state_text(self) -> str:
        return f"URL: {self._url}\n{self._page_text[:4000]}"

    def _info(self, outcome: Outcome) -> dict[str, Any]:
        info = super()._info(outcome)
        info["blocked_requests"] = self._live.blocked if self._live is not None else 0
        info["url"] = self._url
        return info



def web_doc(summary: str, description: str, difficulty: str, start: str = "The site's start page, freshly generated.") -> str:
    """The Gymnasium-style docstring of a web task (the sections every GymV env carries)."""
    return f"""{summary}

    ## Description
    {description} The site is generated from the seed and served on 127.0.0.1; the rubric
    is checked on the site's server-side state and the final answer.

    ## Action Space
    `Dict(kind, x, y, dx, dy, text)`: kind is one of click, double_click, scroll, type, key,
    back, answer, done; x, y are pixels of the observation; dx, dy scroll amounts in pixels;
    text is typed, a key name, or the answer. `parse_action` reads replies such as
    `click(312, 88)`, `type("blue shoes")`, `scroll(0, 400)`, `answer("42.50")`, `done`.

    ## Observation Space
    The page screenshot, `Box(0, 255, (H, W, 3), uint8)`, default 768x1024 (a 1024x768 viewport).

    ## Rewards
    1.0 when the episode ends with every rubric criterion holding, else 0.0.
    `info["progress"]` is the fraction of criteria that hold.

    ## Starting State
    {start}

    ## Episode End
    `answer(...)` or `done` ends the episode; the step budget truncates.

    ## Arguments
    `difficulty`: {difficulty}. `obs_size`: (H, W) of the screenshot. `judge`: optional
    callable(instruction, keyframes, answer) -> bool, an extra LLM-judge criterion.

    ## Version History
    - v0: initial release
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's
      action-space seeding (a seeded random policy no longer replays the level's draws).
    """
