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
