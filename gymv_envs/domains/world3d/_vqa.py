"""Offline-VQA questions of a world3d level (`World3DEnv.vqa_questions`), each decided by the state.

Everything is played on pickled copies of the env (physics replays exactly; the env itself is not
stepped). Steps between the frames a question shows are played *blind* (the camera is not rendered).

- ``next_view``: which image shows the view right after a move (`core.vqa.next_view_question`);
- a first-person clip of ``clip`` frames (``GAP`` actions apart) along a noisy-oracle trajectory:
  the oracle walks, except at scripted slots where it turns (so that every turn answer occurs):
  ``clip_turn`` (net yaw change, summed step by step: left, right, about face, not at all; clips
  between the classes ask nothing), ``clip_passed`` (a thing covering at least ``SEEN`` of some
  frame in the segmentation buffer, against names of which no pixel shows on any frame),
  ``clip_start`` (the bearing of the clip's first position from the last pose);
- ``where_object``: the bearing of a thing seen in the clip (its name unique in the level) from the
  last pose;
- ``steps_left``: the length of the planner's plan to the goal from the last pose, proven by
  replay (the oracle, played blind, succeeds after exactly that many actions); options n-2..n+2;
- ``stuck``: six ``move_forward`` steps, after walking up to a wall (or facing 6.5 m of open floor);
  the answer is the env's detector, ``info["stuck"]``, at the end (the same actions either way).
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from gymv_envs.core.vqa import bearing_word, numeric_options, yes_no

GAP = 2             # actions between clip frames
SEEN = 0.004        # share of a frame a thing must cover to count as seen
MIN_AWAY = 1.5      # metres: nearer positions have no clear bearing
TURNS = ("to the left", "to the right", "about face (half a turn)", "not at all")
WINDOW = 6          # the stuck detector's window (STUCK_WINDOW)


def _clone(env: Any) -> Any:
    return pickle.loads(pickle.dumps(env))


def _blind(env: Any, action: int) -> tuple[bool, dict[str, Any]]:
    env._vqa_blind = True
    try:
        _, _, terminated, truncated, info = env.step(int(action))
    finally:
        env._vqa_blind = False
    return terminated or truncated, info


def _frame(env: Any) -> np.ndarray:
    return np.array(env._observe(), copy=True)


def _turn_class(total: float) -> int | None:
    deg = float(np.degrees(total))
    if abs(deg) < 15:
        return 3
    if 60 <= deg <= 120:
        return 0
    if -120 <= deg <= -60:
        return 1
    if 160 <= abs(deg) <= 200:
        return 2
    return None


def _seen(env: Any) -> dict[int, float]:
    seg = env.render_buffer("segmentation")
    labels, counts = np.unique(seg[seg >= 3], return_counts=True)
    return {int(k) - 3: float(c) / seg.size for k, c in zip(labels, counts)}


def _clip(env: Any, rng: np.random.Generator, k: int) -> dict[str, Any] | None:
    """Walk a copy of ``env`` and record ``k`` frames, poses and what each frame shows."""
    from gymv_envs.domains.world3d._base import FORWARD, LEFT, MOVES, RIGHT

    sim = _clone(env)
    for _ in range(int(rng.integers(0, 10))):  # somewhere along a noisy-oracle trajectory
        a = int(rng.choice([FORWARD, LEFT, RIGHT])) if rng.random() < 0.3 else int(sim.oracle_action())
        if _blind(sim, a)[0]:
            return None
    slots = GAP * (k - 1)
    want = int(rng.integers(4))  # scripted turns: left, right, about face or none
    turns = {0: (slots + 1) // 2, 1: (slots + 1) // 2, 2: min(slots, 6), 3: 0}[want]
    where = set(int(i) for i in rng.choice(slots, size=turns, replace=False)) if turns else set()
    turn = LEFT if want == 0 or (want == 2 and rng.random() < 0.5) else RIGHT
    frames, poses, seen, actions = [_frame(sim)], [(sim.x, sim.y, sim.yaw)], [_seen(sim)], []
    total, yaw = 0.0, sim.yaw
    for s in range(slots):
        a = turn if s in where else int(sim.oracle_action())
        if s not in where and a not in MOVES:
            a = FORWARD if s % 2 else int(rng.choice(list(MOVES)))
        done, _ = _blind(sim, a)
        actions.append(sim.action_names[a])
        total += float(np.angle(np.exp(1j * (sim.yaw - yaw))))
        yaw = sim.yaw
        if done:
            return None
        if (s + 1) % GAP == 0:
            frames.append(_frame(sim))
            poses.append((sim.x, sim.y, sim.yaw))
            seen.append(_seen(sim))
    return {"env": sim, "frames": frames, "poses": poses, "seen": seen, "actions": actions, "turn": total,
            "names": [e.name for e in sim.things], "positions": [e.pos for e in sim.things]}


def _clip_questions(env: Any, clip: dict[str, Any], rng: np.random.Generator) -> list[dict[str, Any]]:
    from gymv_envs.domains.world3d._world import SHAPES, THING_COLOURS

    k = len(clip["frames"])
    intro = (f"The {k} images are frames of a first-person clip of your walk, oldest first, {GAP} actions apart "
             "(the last is your view now). ")
    base = {"frames": clip["frames"]}
    out = []
    cls = _turn_class(clip["turn"])
    if cls is not None:
        out.append({**base, "type": "clip_turn", "options": list(TURNS), "answer": cls,
                    "proof": {"turn": clip["turn"], "yaws": [p[2] for p in clip["poses"]]},
                    "prompt": intro + "Which way did you turn overall, from the first frame to the last?"})
    x, y, yaw = clip["poses"][-1]
    x0, y0, _ = clip["poses"][0]
    side = bearing_word(x0 - x, y0 - y, yaw, MIN_AWAY)
    if side is not None:
        out.append({**base, "type": "clip_start", "options": ["ahead", "behind", "to the left", "to the right"],
                    "proof": {"start": (x0, y0), "pose": (x, y, yaw)},
                    "answer": ["ahead", "behind", "to the left", "to the right"].index(side),
                    "prompt": intro + "Where is the spot you stood at in the first frame now, relative to you?"})
    things = clip["env"].things
    names = [e.name for e in things]
    best = {i: max(s.get(i, 0.0) for s in clip["seen"]) for i in range(len(things))}
    shown = {n for i, n in enumerate(names) if best[i] > 0}
    seen = sorted({n for i, n in enumerate(names) if best[i] >= SEEN})
    unseen = sorted({n for n in names if n not in shown})
    vocab = sorted({f"{c} {s}" for c in THING_COLOURS for s in SHAPES} - set(names))
    if seen:
        pick = seen[int(rng.integers(len(seen)))]
        pool = [unseen[int(i)] for i in rng.permutation(len(unseen))][:2]
        pool += [vocab[int(i)] for i in rng.permutation(len(vocab))][: 3 - len(pool)]
        share = {n: max([best[i] for i in range(len(names)) if names[i] == n], default=0.0) for n in [pick, *pool]}
        out.append({**base, "type": "clip_passed", "options": [pick, *pool], "answer": 0, "proof": {"share": share},
                    "prompt": intro + "Which of these did you see during the clip?"})
        unique = [i for i, n in enumerate(names) if best[i] >= SEEN and names.count(n) == 1 and not things[i].hidden]
        if unique:
            i = unique[int(rng.integers(len(unique)))]
            side = bearing_word(things[i].pos[0] - x, things[i].pos[1] - y, yaw, MIN_AWAY)
            if side is not None:
                out.append({**base, "type": "where_object", "answer": ["ahead", "behind", "to the left", "to the right"].index(side),
                            "proof": {"thing": things[i].pos, "pose": (x, y, yaw)},
                            "options": ["ahead", "behind", "to the left", "to the right"],
                            "prompt": intro + f"Where is the {names[i]} now, relative to you?"})
    return out


def steps_left(env: Any, rng: np.random.Generator, limit: int = 80) -> dict[str, Any] | None:
    """The planner's plan length to the goal, if the oracle replayed blind succeeds after exactly that many actions."""
    if env._target()[0] == "act":
        return None
    n = len(env._next_steps())
    sim = _clone(env)
    for t in range(1, min(limit, n + 1) + 1):
        done, info = _blind(sim, int(sim.oracle_action()))
        if done:
            if not (info["success"] and t == n):
                return None
            break
    else:
        return None
    options, answer = numeric_options(n, rng)
    return {"type": "steps_left", "options": options, "answer": answer, "proof": {"replayed": n},
            "prompt": "How many more actions does the shortest plan to complete the task take from here?"}


def stuck(env: Any, rng: np.random.Generator, k: int) -> dict[str, Any] | None:
    """Six move_forward steps, drawn 50/50: after walking up to a wall ahead (yes) or facing 6.5 m of open
    floor, the whole way clear (no); the answer is the env's own detector, ``info["stuck"]``, after the sixth."""
    from gymv_envs.domains.world3d._base import FORWARD, LEFT, TURN_STEP

    want = bool(rng.integers(2))
    sim = _clone(env)
    fits = []
    for n in range(12):
        d, _ = sim.sim.ray(sim.x, sim.y, sim.yaw + n * TURN_STEP)
        if (want and 0 <= d < 4.0) or (not want and (d < 0 or d > 6.5)):
            fits.append((n, d))
    if not fits:
        return None
    n, d = fits[int(rng.integers(len(fits)))]
    for _ in range(n):
        if _blind(sim, LEFT)[0]:
            return None
    for _ in range(int(np.ceil(d)) + 1 if want else 0):  # up to the wall
        if _blind(sim, FORWARD)[0]:
            return None
    marks = {int(round(j)) for j in np.linspace(0, WINDOW, k)}
    frames = [_frame(sim)] if 0 in marks else []
    before = (sim.x, sim.y)
    for s in range(1, WINDOW + 1):
        done, info = _blind(sim, FORWARD)
        if done:
            return None
        if s in marks:
            frames.append(_frame(sim))
    sim.close()
    if bool(info["stuck"]) != want:
        return None
    options, answer = yes_no(want)
    return {"type": "stuck", "frames": frames, "options": options, "answer": answer,
            "proof": {"before": before, "after": (sim.x, sim.y), "stuck": bool(info["stuck"])},
            "prompt": (f"The {len(frames)} images are frames of a first-person clip, oldest first, taken while you "
                       f"pressed move_forward {WINDOW} times in a row. Are you stuck (pressing moves but getting "
                       "less than half a metre anywhere)?")}


def questions(env: Any, rng: np.random.Generator, k: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    clip = _clip(env, rng, k)
    if clip is not None:
        out += _clip_questions(env, clip, rng)
        left = steps_left(clip["env"], rng)
        if left is not None:
            out.append({**left, "frames": [clip["frames"][-1]]})
        clip["env"].close()
    made = stuck(env, rng, k)
    if made is not None:
        out.append(made)
    return out
