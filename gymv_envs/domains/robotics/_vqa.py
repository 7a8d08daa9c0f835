"""Offline-VQA questions of a robotics level on the wrist camera (`RobotEnv.vqa_questions`).

``clip_motion``: a clip of ``clip`` wrist-camera frames (``GAP`` actions apart, the steps between
played without rendering) along a noisy-oracle trajectory on a pickled copy (physics replays
exactly): at each step the oracle's action, or with probability 0.75 a scripted move along one
direction (so every answer occurs). "Which way did the gripper move overall?" is decided by the
tool point's displacement from the first frame to the last: one axis at least ``MIN_MOVE`` and
twice each other axis, else no question. Options: the answer, its opposite and two other directions.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

GAP = 5           # actions between clip frames (10 cm of travel)
MIN_MOVE = 0.04   # metres the dominant axis must move
DIRECTIONS = ("left", "right", "forward (away from the front camera)", "back (towards the front camera)", "up", "down")
MOVE_OF = {0: (0, -1), 1: (0, 1), 2: (1, 1), 3: (1, -1), 4: (2, 1), 5: (2, -1)}  # direction -> (axis, sign)


def _blind(env: Any, action: int) -> bool:
    env._vqa_blind = True
    try:
        _, _, terminated, truncated, _ = env.step(int(action))
    finally:
        env._vqa_blind = False
    return terminated or truncated


def clip_motion(env: Any, rng: np.random.Generator, k: int) -> list[dict[str, Any]]:
    from gymv_envs.domains.robotics._base import ACTIONS

    if getattr(env, "_terminated", False):
        return []
    sim = pickle.loads(pickle.dumps(env))
    try:
        want = int(rng.integers(len(DIRECTIONS)))
        action = ACTIONS.index(("move_left", "move_right", "move_forward", "move_back", "move_up", "move_down")[want])
        frames, start = [sim.render_view("wrist")], sim.tcp
        for s in range(GAP * (k - 1)):
            if _blind(sim, action if rng.random() < 0.75 else int(sim.oracle_action())):
                return []
            if (s + 1) % GAP == 0:
                sim._frame = sim._full_frame(sim._draw())  # render_view needs a drawn frame
                frames.append(sim.render_view("wrist"))
        delta = sim.tcp - start
    finally:
        sim.close()
    axis = int(np.argmax(np.abs(delta)))
    others = np.delete(np.abs(delta), axis)
    if abs(delta[axis]) < MIN_MOVE or np.any(2 * others > abs(delta[axis])):
        return []
    got = next(d for d, (ax, sign) in MOVE_OF.items() if ax == axis and sign == np.sign(delta[axis]))
    opposite = got ^ 1
    rest = [d for d in range(len(DIRECTIONS)) if d not in (got, opposite)]
    picks = [got, opposite, *[rest[int(i)] for i in rng.permutation(len(rest))][:2]]
    return [{"type": "clip_motion", "frames": frames, "options": [DIRECTIONS[d] for d in picks], "answer": 0,
             "proof": {"delta": [float(v) for v in delta]},
             "prompt": (f"The {k} images are frames from the camera on the gripper's wrist, oldest first, {GAP} "
                        "actions apart (the last is the view now). Which way did the gripper move overall, from "
                        "the first frame to the last (as the front camera sees the table)?")}]
