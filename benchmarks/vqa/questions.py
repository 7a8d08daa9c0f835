"""Multiple-choice questions frozen from live envs, each answer decided exactly by the env.

A `Question` is one image (plus optional history frames), a question text, k options (texts or
images) and the index of the one correct option; every other option is proven wrong by the env:

- ``mcq`` (single-turn ids): the id's own MCQ format: the options are its answer and hard
  negatives, each checked wrong by the task's verifier;
- ``next_action`` (multi-turn ids with named actions): a state on an oracle (or noisy-oracle)
  trajectory; the options are legal actions, the correct one the planner's, and each wrong one is
  proven worse: played from a copy of the env and followed by the planner, it needs strictly more
  steps to succeed (or never succeeds within the horizon);
- ``next_state``: which image shows the state right after a named action (options: the frames the
  env draws after four different actions from that state, all different);
- ``steps_left`` (2D navigation ids, whose planners are shortest-path ones: GridNav's BFS distances,
  RaycastMaze's cost-to-go table): how many actions the planner's plan from this state takes, proven
  by replay (the planner, played on a copy, succeeds after exactly that many); options n-2..n+2;
- task-specific types from an env's own ``vqa_questions(rng[, clip])`` hook (web click targets,
  world3d first-person clips, steps left and stuck, robotics' wrist-camera clips): a list of dicts
  ``{"type", "prompt", "options" | "option_images", "answer"[, "frames"]}`` that the env guarantees,
  as its docstring says; ``frames`` is a clip (oldest first, the last being the current view), which
  the question carries whole; ``proof`` (the state that decides the answer, for tests) is not exported.

`generate` walks ids in a fixed order and is a pure function of its arguments, so an export is
reproducible byte for byte.
"""

from __future__ import annotations

import copy
import inspect
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

import gymv_envs

# AgentVQA's five agentic domains, and which GymV domains feed each.
AGENTVQA_DOMAINS = {
    "web": ("web",),
    "egocentric_video": ("world3d",),
    "robotics": ("robotics",),
    "games": ("games", "puzzles", "logic", "arc", "cognition", "algorithmic", "graphs", "geometry", "temporal"),
    "spatial_planning": ("navigation", "gridworld", "spatial"),
}
QUESTION_TYPES = ("mcq", "next_action", "next_state")
TRIES = 8  # states along the trajectory tried for a next_action question
QUESTION_STEPS = 300  # planner steps one next_action question may take over all its candidates
HORIZON = 120  # planner steps a candidate action may need before it counts as never succeeding
K = 4  # options per question
HOOK_ONLY_DOMAINS = ("world3d", "web", "robotics")
STEPS_LEFT_DOMAINS = ("navigation",)  # 2D ids whose planner is a shortest-path one (see the module docstring)
CLIP = 4  # frames per egocentric clip (``--clip-frames``)
PLAN_SIZE = (48, 48)  # frames of the copy the planner explores (levels do not depend on the frame size)


def agentvqa_domain(domain: str) -> str | None:
    for name, members in AGENTVQA_DOMAINS.items():
        if domain in members:
            return name
    return None


@dataclass
class Question:
    """One frozen multiple-choice question (see the module docstring)."""

    env_id: str
    domain: str
    difficulty: int
    seed: int
    step: int
    qtype: str
    prompt: str
    image: np.ndarray
    answer: int
    options: list[str] | None = None
    option_images: list[np.ndarray] | None = None
    history: list[tuple[np.ndarray, str]] = field(default_factory=list)
    frames: list[np.ndarray] = field(default_factory=list)  # a clip, oldest first; its last frame is ``image``

    @property
    def qid(self) -> str:
        name = self.env_id.split("/")[-1]
        return f"{name}-d{self.difficulty}-s{self.seed}-t{self.step}-{self.qtype}"

    @property
    def k(self) -> int:
        return len(self.options) if self.options is not None else len(self.option_images or [])

    def permuted(self, order: list[int]) -> Question:
        """The same question with its options in ``order`` (``order[i]``: which old option goes to place i)."""
        options = [self.options[i] for i in order] if self.options is not None else None
        images = [self.option_images[i] for i in order] if self.option_images is not None else None
        return Question(self.env_id, self.domain, self.difficulty, self.seed, self.step, self.qtype, self.prompt,
                        self.image, order.index(self.answer), options, images, self.history, self.frames)


def _leaks(prompt: str, options: list[str], answer: int) -> bool:
    """Whether the prompt names the correct option but not every wrong one (so it gives the answer away)."""
    low = prompt.lower()
    named = [len(o) >= 3 and o.lower() in low for o in options]
    return named[answer] and not all(named)


class TooCostly(Exception):
    """A question's planner rollouts ran past their step budget: skip it (deterministically)."""


def _planner_steps(env: Any, horizon: int, budget: list[int]) -> float:
    """Steps the env's own planner needs from this state to succeed (``inf`` if it does not within
    ``horizon``); ``budget[0]`` is the planner steps left for the question, counted down."""
    for n in range(1, horizon + 1):
        budget[0] -= 1
        if budget[0] < 0:
            raise TooCostly
        _, _, terminated, truncated, info = env.step(env.oracle_action())
        if terminated or truncated:
            return float(n) if info["success"] else float("inf")
    return float("inf")


def _after(env: Any, action: int) -> tuple[Any, np.ndarray, dict[str, Any], bool]:
    clone = copy.deepcopy(env)
    obs, _, terminated, truncated, info = clone.step(action)
    return clone, obs, info, terminated or truncated


def next_action(env: Any, rng: np.random.Generator) -> tuple[str, list[str], int] | None:
    """(question, options, answer) or ``None`` when fewer than K-1 actions are proven worse than the
    planner's (legal ones are preferred; an action the env refuses wastes the step, so it is worse too)."""
    if not getattr(env, "fast_oracle", True):
        return None  # an engine-backed planner: rollouts per candidate would take minutes
    budget = [QUESTION_STEPS]
    best = int(env.oracle_action())
    cost: dict[int, float] = {}
    legal: dict[int, bool] = {}
    for a in range(env.action_space.n):
        clone, _, info, done = _after(env, a)
        legal[a] = not info["invalid_action"]
        try:
            cost[a] = (1.0 if info["success"] else float("inf")) if done else 1.0 + _planner_steps(clone, HORIZON, budget)
        except TooCostly:
            return None
    if not legal[best] or not np.isfinite(cost[best]) or cost[best] > min(cost.values()):
        return None
    worse = [a for a, c in cost.items() if c > cost[best]]
    if len(worse) < K - 1:
        return None
    order = [worse[int(i)] for i in rng.permutation(len(worse))]
    wrong = sorted(order, key=lambda a: not legal[a])[: K - 1]  # legal first, in random order
    names = [env.action_names[a] for a in [best, *wrong]]
    return ("Which action should come next to make the most progress toward the goal?", names, 0)


def next_state(env: Any, rng: np.random.Generator) -> tuple[str, list[np.ndarray], int] | None:
    """(question, option images, answer) or ``None``: the frames after different actions from this state
    (and the unchanged frame, what an action that does nothing would show), all different."""
    current = env.render()
    frames: dict[bytes, tuple[int, np.ndarray]] = {}
    for a in rng.permutation(env.action_space.n):
        _, obs, info, _ = _after(env, int(a))
        if info["invalid_action"] or np.array_equal(obs, current):
            continue
        frames.setdefault(obs.tobytes(), (int(a), obs))
        if len(frames) == K:
            break
    if len(frames) < K - 1:
        return None
    picks = list(frames.values())
    action = picks[0][0]
    images = [obs for _, obs in picks][:K]
    if len(images) < K:
        images.append(current)
    return (f"Which image shows the state right after the action '{env.action_names[action]}'?", images, 0)


def steps_left(env: Any, rng: np.random.Generator) -> tuple[str, list[str], int] | None:
    """(question, options, answer): the planner's steps to success from this state, replayed on a copy."""
    if not getattr(env, "fast_oracle", True):
        return None
    try:
        n = _planner_steps(copy.deepcopy(env), HORIZON, [QUESTION_STEPS])
    except TooCostly:
        return None
    if not np.isfinite(n):
        return None
    from gymv_envs.core.vqa import numeric_options

    options, answer = numeric_options(int(n), rng)
    return "How many more actions does the shortest route to the goal take from here?", options, answer


def _walk(env: Any, sim: Any, seed: int, cap: int, eps: float, rng: np.random.Generator,
          history: int) -> tuple[np.ndarray, int, list[tuple[np.ndarray, str]]] | None:
    """A state on a noisy-oracle trajectory (the oracle, or with probability ``eps`` a random action):
    the episode is played once on ``sim`` (the same id drawn small, for planning) to learn its length L
    (at most ``cap``), then both envs are played to a step drawn from [0, L); returns the frame of
    ``env`` there, the step and the last ``history`` (frame, action) pairs."""
    plays = [int(rng.integers(env.action_space.n)) if rng.random() < eps else -1 for _ in range(cap)]
    sim.reset(seed=seed)
    length = cap
    for t in range(cap):
        _, _, terminated, truncated, _ = sim.step(plays[t] if plays[t] >= 0 else int(sim.oracle_action()))
        if terminated or truncated:
            length = t + 1  # the states before each of the t + 1 steps can be asked about
            break
    upto = int(rng.integers(length))
    obs, _ = env.reset(seed=seed)
    sim.reset(seed=seed)
    past: list[tuple[np.ndarray, str]] = []
    for t in range(upto):
        action = plays[t] if plays[t] >= 0 else int(sim.oracle_action())
        if plays[t] < 0 and int(env.oracle_action()) != action:
            return None  # the two copies disagree: the level depends on the frame size, so plan nothing
        past.append((obs, env.action_names[action]))
        obs = env.step(action)[0]
        sim.step(action)
    return obs, upto, past[-history:] if history else []


def questions_for(env_id: str, difficulty: int, seed: int, rng: np.random.Generator, history: int = 0,
                  obs_size: tuple[int, int] | None = None, clip: int = CLIP) -> list[Question]:
    """The questions one level gives (zero or one of each type that applies)."""
    desc = gymv_envs.describe(env_id)
    kwargs: dict[str, Any] = {"difficulty": difficulty}
    if obs_size is not None:
        kwargs["obs_size"] = tuple(obs_size)
    out: list[Question] = []
    if desc["protocol"] == "single_turn":
        if "mcq" not in desc["answer_formats"]:
            return out
        env = gym.make(env_id, answer_format="mcq", num_options=K, **kwargs).unwrapped
        try:
            obs, _ = env.reset(seed=seed)
            out.append(Question(env_id, desc["domain"], difficulty, seed, 0, "mcq", env._task_text().strip(), obs,
                                env._correct_index, options=list(env.options)))
        finally:
            env.close()
        return out
    env = gym.make(env_id, **kwargs).unwrapped
    sim = gym.make(env_id, **{**kwargs, "obs_size": PLAN_SIZE}).unwrapped  # the same levels, cheap frames
    try:
        budget = int(desc["max_episode_steps"])
        hook = getattr(env, "vqa_questions", None)
        # 3D worlds, browsers and physics tables ask their own questions (copying and replaying them per
        # candidate action would cost seconds); the planner types serve the 2D multi-turn ids
        named = (isinstance(env.action_space, gym.spaces.Discrete) and bool(env.action_names)
                 and desc["domain"] not in HOOK_ONLY_DOMAINS)
        if not named and hook is None:
            return out
        eps = float(rng.choice([0.0, 0.3]))  # noisy-oracle trajectories reach states off the ideal path
        walked = (_walk(env, sim, seed, min(budget, 60), eps, rng, history) if named
                  else (env.reset(seed=seed)[0], 0, []))
        if walked is None:
            return out
        obs, t, past = walked
        task = env._task_text().strip()
        if named:
            shown = next_state(env, rng)
            if shown is not None:
                out.append(Question(env_id, desc["domain"], difficulty, seed, t, "next_state",
                                    f"{task}\n\n{shown[0]}", obs, shown[2], option_images=shown[1], history=past))
            if desc["domain"] in STEPS_LEFT_DOMAINS:
                left = steps_left(sim, rng)
                if left is not None:
                    out.append(Question(env_id, desc["domain"], difficulty, seed, t, "steps_left",
                                        f"{task}\n\n{left[0]}", obs, left[2], options=left[1], history=past))
            for _ in range(TRIES):  # states where one legal action is best and K-1 are worse: walk on to one
                made = next_action(sim, rng)
                if made is not None and not _leaks(task + " " + made[0], made[1], made[2]):
                    out.append(Question(env_id, desc["domain"], difficulty, seed, t, "next_action",
                                        f"{task}\n\n{made[0]}", obs, made[2], options=made[1], history=past))
                    break
                action = int(sim.oracle_action())
                past = (past + [(obs, env.action_names[action])])[-history:] if history else []
                obs, _, terminated, truncated, _ = env.step(action)
                sim.step(action)
                t += 1
                if terminated or truncated:
                    break
        if hook is not None:
            takes_clip = "clip" in inspect.signature(hook).parameters
            for q in (hook(rng, clip=clip) if takes_clip else hook(rng)) or []:
                frames = list(q.get("frames") or [])
                out.append(Question(env_id, desc["domain"], difficulty, seed, t, str(q["type"]),
                                    f"{task}\n\n{q['prompt']}", frames[-1] if frames else obs, int(q["answer"]),
                                    options=q.get("options"), option_images=q.get("option_images"), history=past,
                                    frames=frames if len(frames) > 1 else []))
    finally:
        env.close()
        sim.close()
    return out


def askable(env_id: str) -> bool:
    """Whether an id can give questions: a single-turn MCQ, a 2D multi-turn id with named actions, or an
    env with its own ``vqa_questions`` hook."""
    desc = gymv_envs.describe(env_id)
    cls = gymv_envs.task_spec(env_id).entry_point
    if desc["protocol"] == "single_turn":
        return "mcq" in desc["answer_formats"]
    if callable(getattr(cls, "vqa_questions", None)):
        return True
    return desc["domain"] not in HOOK_ONLY_DOMAINS and bool(getattr(cls, "action_names", ()))


def plan(per_domain: int, seed: int, domains: tuple[str, ...] | None = None) -> dict[str, list[str]]:
    """The ids each AgentVQA domain draws from (available, askable ids), in a fixed order."""
    out = {}
    for name, members in AGENTVQA_DOMAINS.items():
        if domains and name not in domains:
            continue
        ids = [i for i in gymv_envs.ids(available_only=True) if gymv_envs.describe(i)["domain"] in members and askable(i)]
        if ids:
            out[name] = interleave(ids)
    return out


def interleave(ids: list[str]) -> list[str]:
    """``ids`` taken in turn from each (source domain, protocol) group, each group in its own order, so
    that a small set draws from every group (the games domain holds 12 source domains, single- and
    multi-turn) however many ids one group has."""
    groups: dict[tuple[str, str], list[str]] = {}
    for i in ids:
        d = gymv_envs.describe(i)
        groups.setdefault((d["domain"], d["protocol"]), []).append(i)
    queues = [list(g) for g in groups.values()]
    out: list[str] = []
    while any(queues):
        for q in queues:
            if q:
                out.append(q.pop(0))
    return out


def generate_domain(name: str, ids: list[str], per_domain: int, seed: int, history: int = 0,
                    obs_size: tuple[int, int] | None = None, max_levels: int = 20_000,
                    clip: int = CLIP) -> list[Question]:
    """``per_domain`` questions for one AgentVQA domain: ids round robin, levels ``seed, seed+1, ...``,
    difficulties cycling, each question type at most once per level; yes/no questions are kept only while
    their yes and no answers stay balanced (within one); deterministic."""
    rng = np.random.default_rng([seed, sum(name.encode())])
    out: list[Question] = []
    by_type: dict[str, int] = {}
    yes_no: dict[tuple[str, str], int] = {}
    level = barren = 0
    while len(out) < per_domain and level < max_levels and barren < 20 * len(ids):
        env_id = ids[level % len(ids)]
        levels = gymv_envs.describe(env_id)["difficulties"]
        difficulty = levels[(level // len(ids)) % len(levels)]
        made = questions_for(env_id, difficulty, seed * 100_003 + level, rng, history, obs_size, clip)
        # keep the types balanced: the rarest type first
        for q in sorted(made, key=lambda q: by_type.get(q.qtype, 0)):
            if q.options == ["yes", "no"]:
                said, other = q.options[q.answer], q.options[1 - q.answer]
                if yes_no.get((q.qtype, said), 0) > yes_no.get((q.qtype, other), 0):
                    continue
                yes_no[(q.qtype, said)] = yes_no.get((q.qtype, said), 0) + 1
            if len(out) < per_domain:
                out.append(q)
                by_type[q.qtype] = by_type.get(q.qtype, 0) + 1
        barren = 0 if made else barren + 1
        level += 1
    return out


def balance_letters(questions: list[Question], seed: int) -> list[Question]:
    """Every question with its options shuffled so the correct letters are balanced across the set: the
    questions with fewer options (yes/no) take their letters first, evenly, and the others fill up the
    letters left behind, so each letter is correct about equally often overall."""
    rng = np.random.default_rng([seed, 7])
    counts = [0] * max([q.k for q in questions] + [K])
    targets = [0] * len(questions)
    for k in sorted({q.k for q in questions}):
        members = [i for i, q in enumerate(questions) if q.k == k]
        wanted = []
        for _ in members:  # water-filling: the least used letter among this group's k
            j = min(range(k), key=lambda j: (counts[j], j))
            counts[j] += 1
            wanted.append(j)
        for i, j in zip(members, rng.permutation(wanted)):
            targets[i] = int(j)
    out = []
    for q, target in zip(questions, targets):
        others = [i for i in range(q.k) if i != q.answer]
        others = [others[int(i)] for i in rng.permutation(len(others))]
        order = others[:target] + [q.answer] + others[target:]
        out.append(q.permuted(order))
    return out
