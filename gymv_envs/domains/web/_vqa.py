"""Offline VQA questions of a web level (`VQAMixin.vqa_questions`, called right after reset).

- ``click_target`` / ``click_target_norm``: "which point should be clicked for the next step?".
  The correct option is the oracle's next click (inside its target element's box, read from the
  DOM); the three wrong ones are the centres of other visible interactive elements, each checked
  on the DOM to lie outside the target's box. The same question is asked in observation pixels
  (``click(412, 233)``) and in coordinates normalised to [0, 1000] (``click(402, 303)``).
- ``fact_page``: "which page shows the fact the task needs?", where the task reads a fact from
  one item's page (`_fact_page` returns the right page title and others): the options are page
  titles of that site.

Exactly one option is correct in each; a level where no such question can be built gives none.
"""

from __future__ import annotations

from typing import Any

import numpy as np

K = 4
_TARGET_JS = """([x, y]) => { const sel = 'a[href], button, input:not([type=hidden]), select, textarea, [role=tab], [data-drag], summary, label';
  let e = document.elementFromPoint(x, y); while (e && !e.matches(sel)) e = e.parentElement;
  const box = e ? e.getBoundingClientRect() : null;
  const others = [...document.querySelectorAll(sel)].filter(o => o !== e && !(e && (e.contains(o) || o.contains(e)))).map(o => {
    const r = o.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height]; })
    .filter(c => c[2] >= 4 && c[3] >= 4 && c[0] > 0 && c[1] > 0 && c[0] < innerWidth && c[1] < innerHeight);
  return {box: box ? [box.left, box.top, box.width, box.height] : null, others}; }"""


class VQAMixin:
    """``vqa_questions(rng)`` for `WebEnv` (see the module docstring)."""

    def _fact_page(self) -> tuple[str, list[str]] | None:
        """(title of the page that shows the task's fact, titles of other pages); None if none applies."""
        return None

    def vqa_questions(self, rng: np.random.Generator) -> list[dict[str, Any]]:
        out = []
        made = self._click_questions(rng)
        out.extend(made)
        fact = self._fact_page()
        if fact is not None:
            right, others = fact
            wrong = [o for o in dict.fromkeys(others) if o != right]
            if len(wrong) >= K - 1:
                pick = [wrong[i] for i in sorted(rng.choice(len(wrong), K - 1, replace=False))]
                answer = int(rng.integers(K))
                options = pick[:answer] + [right] + pick[answer:]
                out.append({"type": "fact_page", "prompt": "Which page of this site shows what the task needs? "
                            "Answer with the letter of the page title.", "options": options, "answer": answer})
        return out

    def _click_questions(self, rng: np.random.Generator) -> list[dict[str, Any]]:
        from gymv_envs.domains.web._grammar import KINDS

        try:
            action = self.oracle_action()
        except Exception:  # noqa: BLE001 - no live page: no question
            return []
        if KINDS[int(action["kind"])] != "click" or action.get("bid"):
            return []
        s, top = self._scale, self._page_top
        x, y = float(action["x"]), float(action["y"])
        found = self._live.page.evaluate(_TARGET_JS, [x / s, (y - top) / s])
        box = found["box"]
        if box is None:
            return []
        bx, by, bw, bh = (v * s for v in box)
        inside = lambda px, py: bx <= px <= bx + bw and by + top <= py <= by + top + bh  # noqa: E731
        if not inside(x, y):
            return []
        h, w = self.frame_size
        cands = []
        for cx, cy, _, _ in found["others"]:
            px, py = round(cx * s, 1), round(cy * s + top, 1)
            if not inside(px, py) and 0 <= px < w and top <= py < h and (px, py) not in cands:
                cands.append((px, py))
        if len(cands) < K - 1:
            return []
        # nearest first: hard negatives are the neighbours of the right element
        cands.sort(key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2)
        pool = cands[: max(K - 1, 6)]
        wrong = [pool[i] for i in sorted(rng.choice(len(pool), K - 1, replace=False))]
        answer = int(rng.integers(K))
        points = wrong[:answer] + [(round(x, 1), round(y, 1))] + wrong[answer:]
        px = [f"click({round(a)}, {round(b)})" for a, b in points]
        norm = [f"click({round(a * 1000 / w)}, {round(b * 1000 / h)})" for a, b in points]
        if len(set(px)) < K or len(set(norm)) < K:
            return []
        ask = "Which click does the next step of the task? x grows to the right, y downwards"
        return [{"type": "click_target", "prompt": f"{ask}, in pixels of the {w}x{h} screenshot.", "options": px, "answer": answer},
                {"type": "click_target_norm", "prompt": f"{ask}, in coordinates scaled to 0-1000 on both axes.",
                 "options": norm, "answer": answer}]
