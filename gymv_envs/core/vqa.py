"""Offline-VQA questions an env can ask about itself (the ``vqa_questions(rng)`` hook of
``gymv-bench export-vqa``), shared by the domains whose states are too costly for the exporter's
generic planner questions (3D worlds, physics tables)."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

K = 4  # options per question


def next_view_question(env: Any, rng: np.random.Generator, moves: tuple[str, ...], repeat: int = 1,
                       what: str = "your view") -> list[dict[str, Any]]:
    """"Which image shows <what> right after <action>?": the options are the frames after ``K``
    different actions from ``moves`` (each done ``repeat`` times), each played on a pickled copy of
    ``env`` (so physics replays exactly; the env itself is not stepped). Actions that are invalid or
    whose frames coincide are left out; no question unless ``K`` frames differ. Discrete actions only."""
    if not env.action_names or getattr(env, "_terminated", False):
        return []
    frames: dict[bytes, tuple[str, np.ndarray]] = {}
    for k in rng.permutation(len(moves)):
        name = moves[int(k)]
        clone = pickle.loads(pickle.dumps(env))
        action = env.action_names.index(name)
        invalid = False
        for _ in range(repeat):
            obs, _, terminated, truncated, info = clone.step(action)
            invalid |= bool(info.get("invalid_action"))
            if terminated or truncated:
                break
        clone.close()
        if not invalid:
            frames.setdefault(obs.tobytes(), (name, obs))
        if len(frames) == K:
            break
    if len(frames) < K:
        return []
    picks = list(frames.values())
    answer = int(rng.integers(K))
    times = "" if repeat == 1 else f" {repeat} times in a row"
    return [{"type": "next_view", "answer": answer, "option_images": [obs for _, obs in picks],
             "prompt": f"Which image shows {what} right after the action '{picks[answer][0]}'{times}? "
                       "Answer with its letter."}]


SIDES = ("ahead", "behind", "to the left", "to the right")


def bearing_word(dx: float, dy: float, yaw: float, min_dist: float, tol: float = 30.0) -> str | None:
    """Where the point at offset (dx, dy) lies from an agent facing ``yaw`` (radians, counter-clockwise,
    so positive bearings are to the left): one of `SIDES` when its bearing is within ``tol`` degrees of
    one of the four and it is at least ``min_dist`` away, else ``None`` (no clear answer)."""
    if float(np.hypot(dx, dy)) < min_dist:
        return None
    b = float(np.degrees(np.angle(np.exp(1j * (np.arctan2(dy, dx) - yaw)))))
    for side, centre in zip(SIDES, (0.0, 180.0, 90.0, -90.0)):
        if abs((b - centre + 180.0) % 360.0 - 180.0) <= tol:
            return side
    return None


def numeric_options(n: int, rng: np.random.Generator) -> tuple[list[str], int]:
    """``n`` and three near misses among n-2, n-1, n+1, n+2 (n+3 stands in for a negative one); answer 0."""
    near = [m if m >= 0 else n + 3 for m in (n - 2, n - 1, n + 1, n + 2)]
    picks = [near[int(i)] for i in rng.permutation(4)][: K - 1]
    return [str(n), *map(str, picks)], 0


def yes_no(answer: bool) -> tuple[list[str], int]:
    """The options of a yes/no question and the correct one's index."""
    return ["yes", "no"], 0 if answer else 1
