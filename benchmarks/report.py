"""Reports of an aggregated run: text table, Markdown, CSV and PNG plots (drawn with PIL).

The plots use the project's canvas helpers, so no plotting library is needed:
``domains.png`` has one bar per domain (mean score, 95% bootstrap interval as a whisker);
``heatmap.png`` has one row per id and one column per difficulty (mean score per cell).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from gymv_envs.core import canvas

CSV_FIELDS = ("level", "name", "ids", "episodes", "k", "score_mean", "score_std", "ci95_low", "ci95_high",
              "best_at_k", "random_score", "oracle_score", "normalized_score", "completion", "progress",
              "parse_rate", "accuracy_parsed", "unparsed_reply_rate", "invalid_rate", "deadlocks_per_episode",
              "stuck_steps_mean", "recovery_rate", "deadlocks_noticed_rate", "steps_mean", "wall_s_mean",
              "wall_s_total", "total_tokens", "cost_usd")


def rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Flat rows (id, domain, protocol, overall) of an `aggregate` result."""
    out = []
    for level in ("id", "domain", "protocol"):
        for name, g in summary[f"by_{level}"].items():
            out.append({"level": level, "name": name, **g})
    if summary.get("overall"):
        out.append({"level": "overall", "name": "all", **summary["overall"]})
    return out


def _fmt(v: Any, spec: str = ".1f") -> str:
    return "-" if v is None else format(v, spec)


def _k_label(k: Any) -> str:
    return str(k) if isinstance(k, int) else "k"


def text_table(summary: dict[str, Any]) -> str:
    """The table ``run`` prints: score mean@k with its 95% interval, and the other metrics."""
    k = _k_label(summary.get("overall", {}).get("k", "k"))
    head = (f"{'':9} {'name':30} {'eps':>4} {'mean@' + k:>8} {'95% CI':>13} {'std':>6} {'best@' + k:>7} "
            f"{'random':>6} {'oracle':>6} {'norm':>6} {'done%':>6} {'parse%':>6} {'invalid':>7} {'steps':>7} {'s/ep':>7}")
    lines = [head, "-" * len(head)]
    last = None
    for r in rows(summary):
        if last is not None and r["level"] != last:
            lines.append("")
        last = r["level"]
        lo, hi = r["score_ci95"]
        lines.append(
            f"{r['level']:9} {r['name'][:30]:30} {r['episodes']:4d} {_fmt(r['score_mean']):>8} "
            f"{'[' + _fmt(lo) + ', ' + _fmt(hi) + ']':>13} {_fmt(r['score_std']):>6} {_fmt(r['best_at_k']):>7} "
            f"{_fmt(r.get('random_score')):>6} {_fmt(r.get('oracle_score')):>6} {_fmt(r.get('normalized_score')):>6} "
            f"{_fmt(r['completion']):>6} {_fmt(r.get('parse_rate')):>6} {_fmt(r['invalid_rate'], '.3f'):>7} "
            f"{_fmt(r['steps_mean']):>7} {_fmt(r['wall_s_mean'], '.3f'):>7}")
    return "\n".join(lines)


def markdown_table(summary: dict[str, Any], title: str = "") -> str:
    k = _k_label(summary.get("overall", {}).get("k", "k"))
    lines = [f"# {title}", ""] if title else []
    mode = summary.get("mode") or {}
    if "feedback" in mode:
        lines += [f"Mode: {'with feedback' if mode['feedback'] else 'pixels only (no feedback or state text)'}; "
                  "random, oracle: the two baselines' scores on the same levels; norm: "
                  "100 * (score - random) / (oracle - random), clipped to [0, 100].", ""]
    lines += [f"| level | name | episodes | mean@{k} | 95% CI | std | best@{k} | random | oracle | norm | "
              "completion % | parse % | unparsed replies % | invalid rate | steps | s/episode |",
              "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows(summary):
        lo, hi = r["score_ci95"]
        lines.append(f"| {r['level']} | {r['name']} | {r['episodes']} | {_fmt(r['score_mean'])} | "
                     f"[{_fmt(lo)}, {_fmt(hi)}] | {_fmt(r['score_std'])} | {_fmt(r['best_at_k'])} | "
                     f"{_fmt(r.get('random_score'))} | {_fmt(r.get('oracle_score'))} | {_fmt(r.get('normalized_score'))} | "
                     f"{_fmt(r['completion'])} | {_fmt(r.get('parse_rate'))} | {_fmt(r.get('unparsed_reply_rate'))} | "
                     f"{_fmt(r['invalid_rate'], '.3f')} | "
                     f"{_fmt(r['steps_mean'])} | {_fmt(r['wall_s_mean'], '.3f')} |")
    stuck = [r for r in rows(summary) if r.get("deadlocks") is not None]
    if stuck:
        lines += ["", "Deadlocks (physics worlds): per episode, steps spent stuck, % recovered, % the agent's replies "
                  "acknowledged.", "", "| level | name | deadlocks / episode | stuck steps | recovered % | noticed % |",
                  "| --- | --- | ---: | ---: | ---: | ---: |"]
        lines += [f"| {r['level']} | {r['name']} | {_fmt(r['deadlocks_per_episode'], '.2f')} | {_fmt(r['stuck_steps_mean'])} | "
                  f"{_fmt(r['recovery_rate'])} | {_fmt(r['deadlocks_noticed_rate'])} |" for r in stuck]
    return "\n".join(lines) + "\n"


def csv_table(summary: dict[str, Any]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for r in rows(summary):
        usage = r.get("usage_total", {})
        writer.writerow({**r, "k": r["k"] if isinstance(r["k"], int) else "/".join(map(str, r["k"])),
                         "ci95_low": r["score_ci95"][0], "ci95_high": r["score_ci95"][1],
                         "total_tokens": usage.get("total_tokens"), "cost_usd": usage.get("cost_usd")})
    return buf.getvalue()


# ------------------------------------------------------------------ plots
AXIS = canvas.INK
BAR = canvas.PALETTE["blue"]
WHISKER = canvas.PALETTE["red"]


def _score_color(score: float) -> tuple[int, int, int]:
    """White (0) to green (100), through pale yellow."""
    t = min(1.0, max(0.0, score / 100.0))
    lo, mid, hi = np.array([250, 250, 250]), np.array([250, 225, 120]), np.array([40, 160, 60])
    c = lo + (mid - lo) * (t / 0.5) if t < 0.5 else mid + (hi - mid) * ((t - 0.5) / 0.5)
    return tuple(int(round(v)) for v in c)


def domain_bars(summary: dict[str, Any], title: str = "") -> np.ndarray:
    """Per-domain bar chart of mean score with 95% interval whiskers, as an RGB array."""
    domains = summary["by_domain"]
    names = list(domains)
    bar_w, gap, left, top, bottom = 70, 30, 60, 50, 90
    w = max(420, left + len(names) * (bar_w + gap) + gap)
    h = 420
    frame = canvas.new_frame(h, w, canvas.WHITE)
    plot_h = h - top - bottom
    y_of = lambda s: top + plot_h * (1 - s / 100.0)
    for tick in range(0, 101, 25):
        y = y_of(tick)
        canvas.fill_rect(frame, left, y, w - 10, y + 1, (225, 225, 225))
        canvas.draw_text(frame, str(tick), (left - 8, y), 12, AXIS, anchor="rm")
    canvas.fill_rect(frame, left, top, left + 1, top + plot_h + 1, AXIS)
    canvas.fill_rect(frame, left, top + plot_h, w - 10, top + plot_h + 1, AXIS)
    if title:
        canvas.draw_text(frame, title[:80], (w / 2, 20), 14, AXIS, anchor="mm", bold=True)
    for i, name in enumerate(names):
        g = domains[name]
        x0 = left + gap + i * (bar_w + gap)
        mean = g["score_mean"] or 0.0
        canvas.fill_rect(frame, x0, y_of(mean), x0 + bar_w, top + plot_h, BAR)
        lo, hi = g["score_ci95"]
        cx = x0 + bar_w // 2
        canvas.fill_rect(frame, cx - 1, y_of(hi), cx + 2, y_of(lo) + 1, WHISKER)
        for yy in (y_of(hi), y_of(lo)):
            canvas.fill_rect(frame, cx - 10, yy - 1, cx + 11, yy + 2, WHISKER)
        canvas.draw_text(frame, f"{mean:.1f}", (cx + 14, y_of(mean) - 4), 12, AXIS, anchor="lb")
        canvas.draw_text(frame, name[:12], (cx, top + plot_h + 8), 12, AXIS, anchor="mt")
        canvas.draw_text(frame, f"n={g['episodes']}", (cx, top + plot_h + 26), 11, (110, 110, 110), anchor="mt")
    canvas.draw_text(frame, "mean score (95% bootstrap CI)", (left, h - 24), 12, AXIS, anchor="lm")
    return frame


def id_heatmap(episodes: Sequence[dict[str, Any]], title: str = "") -> np.ndarray:
    """Rows: ids; columns: difficulties; cells: mean score (coloured and written)."""
    cells: dict[tuple[str, Any], list[float]] = defaultdict(list)
    for ep in episodes:
        cells[(ep["env_id"], ep.get("difficulty"))].append(float(ep["score"]))
    ids = sorted({i for i, _ in cells})
    diffs = sorted({d for _, d in cells}, key=lambda d: (d is None, d))
    label_w, cell_w, cell_h, top = 230, 70, 26, 60
    w, h = max(360, label_w + cell_w * max(1, len(diffs)) + 20), top + cell_h * max(1, len(ids)) + 20
    frame = canvas.new_frame(h, w, canvas.WHITE)
    if title:
        canvas.draw_text(frame, title[:60], (w / 2, 16), 14, AXIS, anchor="mm", bold=True)
    for j, d in enumerate(diffs):
        canvas.draw_text(frame, f"difficulty {d}" if d is not None else "default",
                         (label_w + j * cell_w + cell_w / 2, top - 12), 11, AXIS, anchor="mm")
    for i, env_id in enumerate(ids):
        y = top + i * cell_h
        canvas.draw_text(frame, env_id.split("/")[-1][:30], (label_w - 8, y + cell_h / 2), 12, AXIS, anchor="rm")
        for j, d in enumerate(diffs):
            x = label_w + j * cell_w
            vals = cells.get((env_id, d))
            if not vals:
                canvas.outline_rect(frame, x, y, x + cell_w, y + cell_h, (220, 220, 220))
                continue
            score = float(np.mean(vals))
            canvas.fill_rect(frame, x, y, x + cell_w, y + cell_h, _score_color(score))
            canvas.outline_rect(frame, x, y, x + cell_w, y + cell_h, canvas.WHITE)
            canvas.draw_text(frame, f"{score:.0f}", (x + cell_w / 2, y + cell_h / 2), 12, AXIS, anchor="mm")
    return frame


def save_png(frame: np.ndarray, path) -> None:
    from PIL import Image

    Image.fromarray(frame).save(path, format="PNG")
