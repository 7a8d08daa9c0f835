"""The web action grammar: the action kinds, `action_prompt`, `parse_action`, `format_action`.

A mixin of `WebEnv`. Pixel actions (the default way to act): ``click(312, 88)``,
``double_click(x, y)``, ``hover(x, y)``, ``select(x, y, "Large")`` (picks an option of the
dropdown at that pixel), ``drag(x1, y1, x2, y2)``, ``scroll(0, 400)``, ``type("blue shoes")``,
``key("Enter")``. Navigation: ``back``, ``forward``, ``goto("/cart")`` (this site only),
``new_tab`` / ``new_tab("/path")``, ``switch_tab(1)``. Ending: ``answer("42.50")``, ``done``.

BrowserGym-style element actions name an element id (``bid``) of the accessibility-tree
observation (``observation="axtree"`` or ``"both"``): ``click("12")``, ``double_click("12")``,
``hover("12")``, ``fill("12", "text")``, ``select_option("12", "Large")``. They act on the
element's centre exactly as a pixel action there would. BrowserGym's coordinate actions are read too:
``mouse_click(x, y)``, ``mouse_dblclick``, ``mouse_move`` (hover), ``mouse_drag_and_drop``,
``keyboard_type``, ``keyboard_press`` and ``send_msg_to_user`` (the answer).

Each becomes an action of the env's `Dict` space: ``kind`` (index into `KINDS`), ``x, y``
(observation pixels), ``dx, dy`` (scroll amounts, or the drag's displacement), ``text`` (typed
text, key, option, URL, tab number or answer) and ``bid`` (an element id, or empty).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from gymv_envs.core import parsing
from gymv_envs.core.env import TEXT_CHARSET

KINDS = ("click", "double_click", "scroll", "type", "key", "back", "answer", "done",
         "hover", "select", "drag", "goto", "forward", "new_tab", "switch_tab", "fill")
KEYS = ("Enter", "Tab", "Backspace", "Delete", "Escape", "ArrowLeft", "ArrowRight", "ArrowUp",
        "ArrowDown", "Home", "End", "PageDown", "PageUp", "Control+a")
MAX_TEXT = 128
MAX_BID = 6
BID_CHARSET = "0123456789"
POINTED = ("click", "double_click", "hover")  # pixel or element
_ALIASES = {"dblclick": "double_click", "doubleclick": "double_click", "double-click": "double_click",
            "press": "key", "stop": "done", "finish": "done", "go_back": "back", "go_forward": "forward",
            "select_option": "select", "go_to": "goto", "navigate": "goto", "tab_focus": "switch_tab",
            "drag_and_drop": "drag", "open_tab": "new_tab",
            # BrowserGym's coordinate actions (its screenshot pixels are the observation's)
            "mouse_click": "click", "mouse_dblclick": "double_click", "mouse_move": "hover",
            "mouse_drag_and_drop": "drag", "keyboard_type": "type", "keyboard_press": "key",
            "send_msg_to_user": "answer"}
_NAMES = sorted({*KINDS, *_ALIASES, "double-click"}, key=len, reverse=True)
_CALL = re.compile(r"(?<![A-Za-z_])(" + "|".join(re.escape(n) for n in _NAMES) + r")\s*(\(|$|(?=[\s.,;!]))", re.IGNORECASE)
_ARG = re.compile(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'|([-+]?\d+(?:\.\d+)?)')


def _args(text: str) -> list[tuple[str, bool]]:
    """(value, was_quoted) for each argument; None-free. Unquoted non-numbers are skipped."""
    out = []
    for m in _ARG.finditer(text):
        if m.group(3) is not None:
            out.append((m.group(3), False))
        else:
            out.append((m.group(1) if m.group(1) is not None else m.group(2), True))
    return out


class GrammarMixin:
    """``action_prompt``, ``parse_action`` and ``format_action`` over the web action space."""

    @property
    def action_prompt(self) -> str:
        h, w = self.frame_size
        bids = getattr(self, "observation_mode", "screenshot") != "screenshot"
        text = (f"The screenshot is {w}x{h} pixels; x grows to the right, y downwards. Each turn, reply with one action:\n"
                "- click(x, y), double_click(x, y) or hover(x, y): at that pixel\n"
                '- select(x, y, "option"): choose an option of the dropdown at that pixel\n'
                "- drag(x1, y1, x2, y2): press at (x1, y1), move to (x2, y2), release\n"
                "- scroll(dx, dy): scroll the page by that many pixels (dy > 0 scrolls down)\n"
                '- type("text"): type into the focused field (click the field first)\n'
                f'- key("Enter"): press a key, one of {", ".join(KEYS)}\n'
                '- back, forward, goto("/path") (this site only), new_tab, switch_tab(0)\n'
                '- answer("...") to give your final answer, or done when the task is finished; both end the episode\n')
        if bids:
            text += ('- with the element ids [N] of the page outline: click("N"), double_click("N"), hover("N"), '
                     'fill("N", "text"), select_option("N", "option")\n')
        return text + "End your reply with a line like `Action: click(120, 48)`."

    def format_action(self, action: Any) -> str:
        """The reply that asks for ``action`` (what `parse_action` reads back)."""
        a = self._coerce(action)
        if a is None:
            return ""
        kind, bid, text = KINDS[a["kind"]], a["bid"], a["text"].replace("\\", "\\\\").replace('"', '\\"')
        if bid and kind in (*POINTED, "fill", "select"):
            if kind == "fill":
                return f'fill("{bid}", "{text}")'
            return f'select_option("{bid}", "{text}")' if kind == "select" else f'{kind}("{bid}")'
        if kind in POINTED:
            return f"{kind}({a['x']:.3f}, {a['y']:.3f})"
        if kind == "select":
            return f'select({a["x"]:.3f}, {a["y"]:.3f}, "{text}")'
        if kind == "drag":
            return f"drag({a['x']:.3f}, {a['y']:.3f}, {a['x'] + a['dx']:.3f}, {a['y'] + a['dy']:.3f})"
        if kind == "scroll":
            return f"scroll({a['dx']:.3f}, {a['dy']:.3f})"
        if kind in ("type", "key", "answer", "goto", "switch_tab") or (kind == "new_tab" and text):
            return f'{kind}("{text}")'
        return kind

    def parse_action(self, text: str) -> dict | None:
        try:
            if not isinstance(text, str):
                return None
            for cand in parsing.candidates(text):
                tail = cand[-4000:]
                calls = list(_CALL.finditer(tail))
                for i in range(len(calls) - 1, -1, -1):
                    action = self._read_call(calls[i], tail)
                    if action is not None:
                        return action
            return None
        except Exception:  # noqa: BLE001 - the contract: never raises
            return None

    def _read_call(self, m: re.Match, cand: str) -> dict | None:
        name = m.group(1).lower()
        kind = _ALIASES.get(name, name)
        raw = ""
        if m.group(2) == "(":
            end = cand.rfind(")")
            if end < m.end():
                return None
            raw = cand[m.end():end].strip()
        if kind in ("back", "done", "forward") or (kind == "new_tab" and not raw):
            return self._act(kind) if not raw else None
        if kind in ("type", "key", "answer", "goto", "new_tab"):
            q = re.fullmatch(r'"(.*)"|\'(.*)\'|(.*)', raw, re.DOTALL)
            value = next(g for g in q.groups() if g is not None)
            value = value.replace('\\"', '"').replace("\\\\", "\\")
            if kind == "key":
                value = {k.lower(): k for k in KEYS}.get(value.strip().lower().replace("ctrl", "control"), None)
                if value is None:
                    return None
            value = "".join(c for c in value if c in TEXT_CHARSET)[:MAX_TEXT]
            if not value.strip():
                return None
            return self._act(kind, text=value)
        args = _args(raw)
        if kind in POINTED and len(args) == 3 and args[2] == ("left", True):   # BrowserGym's button, the one there is
            args = args[:2]
        if kind == "switch_tab":
            return self._act(kind, text=args[0][0]) if len(args) == 1 and args[0][0].isdigit() else None
        clean = lambda v: "".join(c for c in v if c in TEXT_CHARSET)[:MAX_TEXT]  # noqa: E731
        element = (kind in POINTED and len(args) == 1) or (kind in ("fill", "select") and len(args) == 2)
        if element:
            bid = args[0][0]
            if not bid.isdigit() or len(bid) > MAX_BID:
                return None
            return self._act(kind, bid=bid, text=clean(args[1][0]) if len(args) == 2 else "")
        nums = [float(v) for v, quoted in args if not quoted]
        if kind == "select":
            if len(args) != 3 or len(nums) != 2 or not args[2][1]:
                return None
            return self._act(kind, x=nums[0], y=nums[1], text=clean(args[2][0]))
        if kind == "drag":
            return self._act(kind, x=nums[0], y=nums[1], dx=nums[2] - nums[0], dy=nums[3] - nums[1]) if len(nums) == 4 else None
        if len(nums) != 2 or len(args) != 2:
            return None
        if kind == "scroll":
            return self._act(kind, dx=nums[0], dy=nums[1])
        if kind in POINTED:
            return self._act(kind, x=nums[0], y=nums[1])
        return None

    def _act(self, kind: str, x: float = 0.0, y: float = 0.0, dx: float = 0.0, dy: float = 0.0, text: str = "",
             bid: str = "") -> dict:
        sp = self.action_space

        def box(key: str, v: float) -> np.ndarray:
            return np.array(np.clip(v, sp[key].low, sp[key].high), dtype=np.float32)

        return {"kind": KINDS.index(kind), "x": box("x", x), "y": box("y", y), "dx": box("dx", dx),
                "dy": box("dy", dy), "text": text, "bid": bid}
