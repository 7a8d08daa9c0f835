"""Set-of-marks overlay for the web tasks: number every visible clickable element.

`SetOfMarks` wraps any web env (``gym.make("GymV/WebShopFindPrice-v1")``). After every reset
and step it reads the clickable elements (links, buttons, inputs, text areas, radio buttons)
from the page, draws a numbered box over each one on the observation, and lets replies name
a mark instead of pixels: ``click(#12)``, ``double_click(#3)``. The marks of the current
frame are in ``info["marks"]`` and ``wrapper.marks`` as ``(number, x, y, w, h)`` in
observation pixels; the env's own actions keep working unchanged.

    >>> import gymnasium as gym, gymv_envs                                    # doctest: +SKIP
    >>> env = SetOfMarks(gym.make("GymV/WebShopFindPrice-v1"))                # doctest: +SKIP
    >>> obs, info = env.reset(seed=0)                                         # doctest: +SKIP
    >>> env.step(env.parse_action("click(#1)"))                               # doctest: +SKIP
"""

from __future__ import annotations

import re
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from gymv_envs.core import parsing

_MARKS_JS = """() => { const out = []; const vw = innerWidth, vh = innerHeight;
  for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]), textarea')) {
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.right < 0 || r.top > vh || r.left > vw) continue;
    out.push([r.left, r.top, r.width, r.height]); }
  return out; }"""
_MARK = re.compile(r"(?<![A-Za-z_])(click|double_click|dblclick)\s*\(\s*#\s*(\d+)\s*\)", re.IGNORECASE)
COLORS = ((230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180), (0, 128, 128))


class SetOfMarks(gym.Wrapper):
    """Numbered boxes over clickable elements, and ``click(#N)`` in `parse_action`."""

    def __init__(self, env: gym.Env) -> None:
        from gymv_envs.domains.web._base import WebEnv

        if not isinstance(env.unwrapped, WebEnv):
            raise TypeError(f"SetOfMarks wraps web envs (GymV/Web*); got {type(env.unwrapped).__name__}")
        super().__init__(env)
        self.marks: list[tuple[int, float, float, float, float]] = []

    def _overlay(self, obs: np.ndarray, info: dict) -> np.ndarray:
        web = self.env.unwrapped
        try:
            rects = web._live.page.evaluate(_MARKS_JS)
        except Exception:  # noqa: BLE001 - no page (crashed browser): no marks
            rects = []
        s = web._scale
        self.marks = [(i + 1, x * s, y * s, w * s, h * s) for i, (x, y, w, h) in enumerate(rects)]
        img = Image.fromarray(obs)
        draw = ImageDraw.Draw(img)
        font = ImageFont.load_default()
        for n, x, y, w, h in self.marks:
            c = COLORS[n % len(COLORS)]
            draw.rectangle([x, y, x + w, y + h], outline=c, width=max(1, round(2 * s)))
            tw = draw.textlength(str(n), font=font)
            draw.rectangle([x, y, x + tw + 3, y + 11], fill=c)
            draw.text((x + 2, y), str(n), fill=(255, 255, 255), font=font)
        info["marks"] = list(self.marks)
        return np.asarray(img, dtype=np.uint8).copy()

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        return self._overlay(obs, info), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._overlay(obs, info), reward, terminated, truncated, info

    @property
    def action_prompt(self) -> str:
        return self.env.unwrapped.action_prompt + "\nYou may also click a numbered box: click(#12) or double_click(#12)."

    def parse_action(self, text: str) -> Any:
        """``click(#N)`` clicks the centre of mark N; anything else is the env's own grammar."""
        try:
            if isinstance(text, str):
                for cand in parsing.candidates(text):
                    hits = list(_MARK.finditer(cand[-4000:]))
                    if hits:
                        kind, n = hits[-1].group(1).lower(), int(hits[-1].group(2))
                        mark = next((m for m in self.marks if m[0] == n), None)
                        if mark is None:
                            return None
                        _, x, y, w, h = mark
                        return self.env.unwrapped._act("click" if kind == "click" else "double_click", x=x + w / 2, y=y + h / 2)
            return self.env.unwrapped.parse_action(text)
        except Exception:  # noqa: BLE001 - never raises
            return None
