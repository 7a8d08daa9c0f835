"""The web oracle: a planner that drives the site like a user, from the current page.

A task lists `Goal` s (``_plan()``); the first goal whose ``done()`` does not hold is pursued:
if the browser is on the page at the end of the goal's route, the goal's final `Step` is
done (click, fill a form field by field, answer, finish); otherwise the deepest step of the
route that the current page offers is taken, or the home link. Coordinates come from the DOM
and every move is an ordinary action of the env's own action space.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

_PROBE_JS = """(sels) => sels.map(s => { const e = document.querySelector(s); if (!e) return null;
  const rs = e.getClientRects(); const r = rs.length ? rs[0] : e.getBoundingClientRect(); const v = ('value' in e) ? String(e.value) : null;
  let all = false; try { all = v !== null && e.selectionStart === 0 && e.selectionEnd === v.length; } catch (err) { all = false; }
  const menu = e.closest('[data-hover-menu]'); let hover = null;
  if (menu && (r.width < 1 || r.height < 1)) { const t = menu.querySelector('[data-hover-trigger]') || menu; const q = t.getBoundingClientRect(); hover = {x: q.left, y: q.top, w: q.width, h: q.height}; }
  return {x: r.left, y: r.top, w: r.width, h: r.height, value: v, checked: !!e.checked,
          focused: document.activeElement === e, all, hover}; })"""
# Overlays a person deals with first: a cookie banner's accept button, a dialog's confirm button.
_NEXT_JS = """() => { for (const e of document.querySelectorAll('[data-gymv-next]')) { const r = e.getBoundingClientRect();
  if (r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden') return e.getAttribute('data-gymv-next'); } return null; }"""


@dataclass(frozen=True)
class Step:
    """One thing the oracle does on a page.

    ``link``: click ``a[href=target]`` (leads to ``url``, default ``target``); ``form``: type
    ``fields`` ((css, value), ...) into the form ``target`` and submit it (leads to ``url``);
    ``click``: click the element ``target``; a form field whose value is ``True`` is a
    checkbox or radio button to check, a field ``(css, value, "select")`` a dropdown, a field
    ``(css, value, "slider")`` a range input set with the arrow keys; ``select``: choose option
    ``value`` of the dropdown ``target``; ``drag``: drag ``target`` onto the element ``value``;
    ``answer``: reply ``value``; ``done``: finish.
    """

    kind: str
    target: str = ""
    fields: tuple[tuple[str, str], ...] = ()
    value: str = ""
    url: str = ""

    @property
    def leads_to(self) -> str:
        return self.url or self.target


@dataclass(frozen=True)
class Goal:
    """A subgoal of the oracle: reach the page at the end of ``route``, then do ``final``.
    Skipped when ``done()`` already holds."""

    route: tuple[Step, ...]
    final: Step
    done: Callable[[], bool] | None = field(default=None, compare=False)


def same_url(a: str, b: str) -> bool:
    pa, pb = urlsplit(a), urlsplit(b)
    return pa.path == pb.path and sorted(parse_qsl(pa.query, True)) == sorted(parse_qsl(pb.query, True))


class OracleMixin:
    """``oracle_action`` for `WebEnv` (see the module docstring)."""

    def oracle_action(self) -> dict:
        self._revive()
        first = self._live.page.evaluate(_NEXT_JS)
        if first:
            act = self._click(f'[data-gymv-next="{first}"]')
            if act is not None:
                return act
        for goal in self._plan():
            if goal.done is not None and goal.done():
                continue
            return self._toward(goal)
        return self._act("done")

    def _probe(self, selectors: list[str]) -> list[dict | None]:
        return self._live.page.evaluate(_PROBE_JS, selectors)

    def _toward(self, goal: Goal) -> dict:
        target = goal.route[-1].leads_to if goal.route else None
        if target is None or same_url(self._url, target):
            act = self._do(goal.final)
            if act is not None:
                return act
        for step in reversed(goal.route):
            act = self._do(step)
            if act is not None:
                return act
        return self._do(Step("link", "/")) or self._act("back")

    def _do(self, step: Step) -> dict | None:
        if step.kind == "answer":
            return self._act("answer", text=step.value)
        if step.kind == "done":
            return self._act("done")
        if step.kind == "link":
            return self._click(f'a[href="{step.target}"]')
        if step.kind == "click":
            return self._click(step.target)
        if step.kind == "select":
            return self._field(step.target, step.value, "select")
        if step.kind == "drag":
            src, dst = self._probe([step.target, step.value])
            if src is None or dst is None:
                return None
            s, top = self._scale, self._page_top
            x0, y0 = (src["x"] + src["w"] / 2) * s, (src["y"] + src["h"] / 2) * s + top
            x1, y1 = (dst["x"] + dst["w"] / 2) * s, (dst["y"] + min(dst["h"] / 4, 6)) * s + top
            return self._act("drag", x=x0, y=y0, dx=x1 - x0, dy=y1 - y0)
        # form: fill each field in order, then submit
        probes = self._probe([step.target] + [f[0] for f in step.fields])
        if probes[0] is None:
            return None
        for field_, p in zip(step.fields, probes[1:]):
            sel, want = field_[0], field_[1]
            how = field_[2] if len(field_) > 2 else ("check" if want is True else "text")
            if p is None or p["value"] == str(want) or (want is True and p["checked"]):
                continue
            if how in ("select", "slider"):
                return self._field(sel, want, how, p)
            if want is True:
                return self._click(sel, p)
            if not p["focused"]:
                return self._click(sel, p)
            if p["value"] and not p["all"]:
                return self._act("key", text="Control+a")
            return self._act("type", text=want)
        return self._click(f"{step.target} button[type=submit]")

    def _field(self, selector: str, want: str, how: str, probe: dict | None = None) -> dict | None:
        """One action toward a dropdown or slider holding ``want``."""
        p = probe or self._probe([selector])[0]
        if p is None or p["value"] == str(want):
            return None
        if how == "select":
            act = self._click(selector, p)
            if act is None or act["kind"] != 0:
                return act  # a scroll first
            return self._act("select", x=float(act["x"]), y=float(act["y"]), text=str(want))
        if not p["focused"]:
            return self._click(selector, p)
        return self._act("key", text="ArrowRight" if float(p["value"]) < float(want) else "ArrowLeft")

    def _click(self, selector: str, probe: dict | None = None) -> dict | None:
        p = probe or self._probe([selector])[0]
        if p is None:
            return None
        if p.get("hover") is not None and (p["w"] < 1 or p["h"] < 1):
            q, s = p["hover"], self._scale
            return self._act("hover", x=(q["x"] + q["w"] / 2) * s, y=(q["y"] + q["h"] / 2) * s + self._page_top)
        if p["w"] < 1 or p["h"] < 1:
            return None
        s, (_, vh) = self._scale, self._css_size
        cy = p["y"] + p["h"] / 2  # the first line box of the element: a wrapped link is clicked on its text
        if cy < 4 or cy > vh - 4:
            return self._act("scroll", dy=(cy - vh / 2) * s)
        return self._act("click", x=(p["x"] + p["w"] / 2) * s, y=cy * s + self._page_top)
