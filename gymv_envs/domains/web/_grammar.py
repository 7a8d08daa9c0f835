"""The web action grammar: the action kinds, `action_prompt`, `parse_action`, `format_action`.

A mixin of `WebEnv`; replies such as ``click(312, 88)``, ``type("blue shoes")``,
``scroll(0, 400)``, ``key("Enter")``, ``back``, ``answer("42.50")`` or ``done`` become
actions of the env's `Dict` space (x, y in observation pixels).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from gymv_envs.core import parsing
from gymv_envs.core.env import TEXT_CHARSET

KINDS = ("click", "double_click", "scroll", "type", "key", "back", "answer", "done")
KEYS = ("Enter", "Tab", "Backspace", "Delete", "Escape", "ArrowLeft", "ArrowRight", "ArrowUp",
        "ArrowDown", "Home", "End", "Control+a")
MAX_TEXT = 128
_ALIASES = {"dblclick": "double_click", "doubleclick": "double_click", "double-click": "double_click",
            "press": "key", "stop": "done", "finish": "done", "go_back": "back"}
_CALL = re.compile(r"(?<![A-Za-z_])(click|double_click|dblclick|doubleclick|double-click|scroll|type|key|press|"
                   r"back|go_back|answer|done|stop|finish)\s*(\(|$|(?=[\s.,;!]))", re.IGNORECASE)


class GrammarMixin:
    """``action_prompt``, ``parse_action`` and ``format_action`` over the web action space."""

    @property
    def action_prompt(self) -> str:
        h, w = self.frame_size
        return (f"The screenshot is {w}x{h} pixels; x grows to the right, y downwards. Each turn, reply with one action:\n"
                "- click(x, y) or double_click(x, y): click at that pixel\n"
                "- scroll(dx, dy): scroll the page by that many pixels (dy > 0 scrolls down)\n"
                '- type("text"): type into the focused field (click the field first)\n'
                f'- key("Enter"): press a key, one of {", ".join(KEYS)}\n'
                "- back: go to the previous page\n"
                '- answer("...") to give your final answer, or done when the task is finished; both end the episode\n'
                "End your reply with a line like `Action: click(120, 48)`.")

    def format_action(self, action: Any) -> str:
        """The reply that asks for ``action`` (what `parse_action` reads back)."""
        a = self._coerce(action)
        if a is None:
            return ""
        kind = KINDS[a["kind"]]
        if kind in ("click", "double_click"):
            return f"{kind}({a['x']:.3f}, {a['y']:.3f})"
        if kind == "scroll":
            return f"scroll({a['dx']:.3f}, {a['dy']:.3f})"
        if kind in ("type", "key", "answer"):
            return f'{kind}("{a["text"]}")'
        return kind

    def parse_action(self, text: str) -> dict | None:
        try:
            if not isinstance(text, str):
                return None
            for cand in parsing.candidates(text):
                calls = list(_CALL.finditer(cand[-4000:]))
                for m in reversed(calls):
                    action = self._read_call(m, cand[-4000:])
                    if action is not None:
                        return action
            return None
        except Exception:  # noqa: BLE001 - the contract: never raises
            return None

    def _read_call(self, m: re.Match, cand: str) -> dict | None:
        name = m.group(1).lower()
        kind = _ALIASES.get(name, name)
        args = ""
        if m.group(2) == "(":
            end = cand.rfind(")")
            if end < m.end():
                return None
            args = cand[m.end():end].strip()
        if kind in ("back", "done"):
            return self._act(kind) if not args else None
        if kind in ("type", "key", "answer"):
            q = re.fullmatch(r'"(.*)"|\'(.*)\'|(.*)', args, re.DOTALL)
            value = next(g for g in q.groups() if g is not None)
            if kind == "key":
                value = {k.lower(): k for k in KEYS}.get(value.strip().lower().replace("ctrl", "control"), None)
                if value is None:
                    return None
            value = "".join(c for c in value if c in TEXT_CHARSET)[:MAX_TEXT]
            if not value.strip():
                return None
            return self._act(kind, text=value)
        nums = parsing._NUMBER.findall(args)
        if len(nums) != 2:
            return None
        a, b = float(nums[0]), float(nums[1])
        if kind == "scroll":
            return self._act(kind, dx=a, dy=b)
        return self._act(kind, x=a, y=b)

    def _act(self, kind: str, x: float = 0.0, y: float = 0.0, dx: float = 0.0, dy: float = 0.0, text: str = "") -> dict:
        sp = self.action_space

        def box(key: str, v: float) -> np.ndarray:
            return np.array(np.clip(v, sp[key].low, sp[key].high), dtype=np.float32)

        return {"kind": KINDS.index(kind), "x": box("x", x), "y": box("y", y), "dx": box("dx", dx),
                "dy": box("dy", dy), "text": text}
