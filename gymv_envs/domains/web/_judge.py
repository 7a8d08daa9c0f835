"""The reference LLM judge of the web tasks, and its audit against the exact rubric.

`WebJudge` judges an episode the WebGym way: it is given the task, the rubric's criteria (their
names, not the hidden values), the keypoint screenshots (after each navigation and state change,
the first and last always kept) and the final answer, and replies with a verdict. Requests go
through `gymv.agents.vlm.VLMAgent.ask` (retries, cache, cost accounting) to any OpenAI-compatible
endpoint. Two rules keep it from accepting what it cannot see:

- the prompt tells the model to fail an episode whose screenshots do not show evidence for
  every criterion, and to fail an answer they do not support;
- a grounding check the model cannot talk its way past: every number and date in the final
  answer must appear in the text of a page the agent saw (``evidence``, given by the env). An
  answer naming a value no page showed is failed whatever the model says.

`audit(ids, seeds, judge_kwargs)` plays each id with recorded policies (the oracle, a random
policy, a noisy oracle that takes random actions and sometimes gives a wrong answer), asks the
judge about each episode (``judge_mode="audit"``: the rubric still decides) and reports, per id
and overall, the judge's precision, recall and accuracy against the rubric (success = positive).
``gymv-bench judge-audit`` (``benchmarks/judge_audit.py``) is its command line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from gymv_envs.domains.web import _answers

SYSTEM = (
    "You are a strict judge of a web agent. You see the task, the criteria that must ALL hold, screenshots taken "
    "at key moments of the episode (in order; the last is the final page) and the agent's final answer. Decide "
    "whether the agent completed the task. Rules: judge only from what the screenshots show; if any criterion "
    "is not shown to hold, the verdict is FAIL; if the final answer states a value, a name or a date that no "
    "screenshot shows, the verdict is FAIL (never accept an answer the screenshots do not support); if the task "
    "cannot be done, the right answer says so. Reply with one short reason, then a last line "
    "`VERDICT: PASS` or `VERDICT: FAIL`.")
_VERDICT = re.compile(r"verdict\s*[:=]?\s*\**\s*(pass|fail|yes|no|success|failure|true|false)", re.IGNORECASE)
_LAST = re.compile(r"\b(PASS|FAIL)\b")


def read_verdict(reply: str) -> bool | None:
    """PASS -> True, FAIL -> False, None when the reply says neither."""
    hits = _VERDICT.findall(reply or "")
    if hits:
        return hits[-1].lower() in ("pass", "yes", "success", "true")
    words = _LAST.findall(reply or "")
    return words[-1] == "PASS" if words else None


def grounded(answer: str | None, evidence: Sequence[str]) -> tuple[bool, str]:
    """Whether every number and date of ``answer`` appears on a page the agent saw."""
    if not answer or _answers.says_infeasible(answer):
        return True, ""
    text = "\n".join(evidence)
    seen_nums = set(round(v, 2) for v in _answers.read_numbers(text))
    seen_dates = set(_answers.read_dates(text))
    for d in _answers.read_dates(answer):
        if d not in seen_dates:
            return False, f"the date {d.isoformat()} appears on no page the agent saw"
    for v in _answers.read_numbers(answer):
        if round(v, 2) not in seen_nums:
            return False, f"the value {v:g} appears on no page the agent saw"
    return True, ""


class WebJudge:
    """``judge(instruction, keyframes, answer, criteria, evidence) -> (verdict, reason)``."""

    def __init__(self, model: str | None = None, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 max_frames: int = 6, max_image_side: int = 768, image_format: str = "png", cache: bool = False,
                 ground: bool = True, **agent_kwargs: Any) -> None:
        from gymv.agents.vlm import VLMAgent

        model = model or os.environ.get("GYMV_JUDGE_MODEL") or os.environ.get("GYMV_MODEL")
        base_url = base_url or os.environ.get("GYMV_JUDGE_BASE_URL") or os.environ.get("OPENAI_BASE_URL")
        if not model or not base_url:
            raise ValueError("the web judge needs a model and an endpoint: pass judge={'model': ..., 'base_url': ...} "
                             "or set GYMV_JUDGE_MODEL and GYMV_JUDGE_BASE_URL (e.g. http://127.0.0.1:8000/v1)")
        if not isinstance(max_frames, int) or max_frames < 1:
            raise ValueError(f"invalid max_frames={max_frames!r}; valid values: an integer >= 1")
        self.agent = VLMAgent(None, model=model, base_url=base_url, api_key_env=api_key_env, cache=cache,
                              max_image_side=max_image_side, image_format=image_format, **agent_kwargs)
        self.max_frames, self.ground = max_frames, ground
        self.last_reply = ""

    def frames(self, keyframes: Sequence[np.ndarray]) -> list[np.ndarray]:
        """At most ``max_frames``, evenly spread, the first and the last kept."""
        n = len(keyframes)
        if n <= self.max_frames:
            return list(keyframes)
        idx = sorted({round(i * (n - 1) / (self.max_frames - 1)) for i in range(self.max_frames)})
        return [keyframes[i] for i in idx]

    def messages(self, instruction: str, keyframes: Sequence[np.ndarray], answer: str | None,
                 criteria: Sequence[str]) -> list[dict[str, Any]]:
        from gymv.agents.vlm import encode_image

        task = instruction.split("\n\nThe screenshot is")[0]
        rubric = "\n".join(f"- {c}" for c in criteria) or "- the task is done"
        text = (f"Task:\n{task}\n\nCriteria (all must hold):\n{rubric}\n\nFinal answer of the agent: "
                f"{answer if answer else '(none: the agent said it was done)'}\n\nScreenshots follow, in order.")
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        shown = self.frames(keyframes)
        for i, frame in enumerate(shown):
            content.append({"type": "text", "text": f"Screenshot {i + 1} of {len(shown)}" + (" (final page)" if i == len(shown) - 1 else "")})
            content.append({"type": "image_url", "image_url": {"url": encode_image(frame, self.agent.image_format,
                                                                                     self.agent.max_image_side)}})
        return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": content}]

    def __call__(self, instruction: str, keyframes: Sequence[np.ndarray], answer: str | None,
                 criteria: Sequence[str] = (), evidence: Sequence[str] = ()) -> tuple[bool, str]:
        if self.ground and evidence:
            ok, why = grounded(answer, evidence)
            if not ok:
                return False, f"grounding check: {why}"
        reply = self.agent.ask(self.messages(instruction, keyframes, answer, criteria))
        self.last_reply = reply
        verdict = read_verdict(reply)
        if verdict is None:
            return False, "the judge's reply had no verdict"
        reason = reply.strip().splitlines()[0][:200] if reply.strip() else ""
        return verdict, reason

    def stats(self) -> dict[str, Any]:
        return self.agent.stats()


# ----------------------------------------------------------------------------- audit
POLICIES = ("oracle", "random", "noisy")


def _perturb(text: str, rng: np.random.Generator) -> str:
    """A wrong answer that looks right: every number moved, or a name swapped for another word."""
    if _answers.read_numbers(text):
        return re.sub(r"\d+(?:\.\d+)?", lambda m: f"{float(m.group(0)) + float(rng.integers(1, 9)):.2f}", text, count=1)
    return "Something else entirely"


def play(env: Any, policy: str, seed: int, rng: np.random.Generator, max_steps: int) -> dict[str, Any]:
    """One episode of ``policy``; returns the rubric's and the judge's verdicts (``judge_mode="audit"``)."""
    u = env.unwrapped
    env.reset(seed=seed)
    env.action_space.seed(int(rng.integers(2**31)))
    info: dict[str, Any] = {}
    wrong_answer = policy == "noisy" and rng.random() < 0.5
    for t in range(max_steps):
        if policy == "random":
            action = env.action_space.sample() if t < max_steps - 1 else u._act("done")
        else:
            action = u.oracle_action()
            if policy == "noisy" and rng.random() < 0.2:
                action = env.action_space.sample()
            from gymv_envs.domains.web._grammar import KINDS

            if KINDS[int(action["kind"])] == "answer" and wrong_answer:
                action = u._act("answer", text=_perturb(action["text"], rng))
        _, _, term, trunc, info = env.step(action)
        if term or trunc:
            break
    if not u._terminated:
        _, _, _, _, info = env.step(u._act("done"))
    judged = info.get("judge") or {}
    return {"policy": policy, "seed": seed, "rubric": bool(info.get("success")), "judge": bool(judged.get("verdict")),
            "reason": judged.get("reason", ""), "steps": int(info.get("steps", 0))}


def _scores(rows: list[dict[str, Any]]) -> dict[str, Any]:
    tp = sum(r["rubric"] and r["judge"] for r in rows)
    fp = sum(not r["rubric"] and r["judge"] for r in rows)
    fn = sum(r["rubric"] and not r["judge"] for r in rows)
    tn = sum(not r["rubric"] and not r["judge"] for r in rows)
    n = len(rows)
    return {"episodes": n, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": tp / (tp + fp) if tp + fp else None, "recall": tp / (tp + fn) if tp + fn else None,
            "accuracy": (tp + tn) / n if n else None}


def audit(ids: Sequence[str], seeds: Sequence[int], judge_kwargs: dict[str, Any] | None = None,
          policies: Sequence[str] = POLICIES, difficulty: int | None = None, obs_size: tuple[int, int] = (384, 512),
          max_steps: int = 40, judge: Any = None, seed: int = 0) -> dict[str, Any]:
    """The judge against the rubric on recorded episodes (see the module docstring); a report dict."""
    import gymnasium as gym

    bad = [p for p in policies if p not in POLICIES]
    if bad:
        raise ValueError(f"invalid policies {bad}; valid values: {', '.join(POLICIES)}")
    judge = judge if judge is not None else WebJudge(**dict(judge_kwargs or {}))
    rng = np.random.default_rng(seed)
    per_id: dict[str, Any] = {}
    every: list[dict[str, Any]] = []
    for env_id in ids:
        kwargs: dict[str, Any] = {"judge_mode": "audit", "judge": judge, "obs_size": tuple(obs_size)}
        if difficulty is not None:
            kwargs["difficulty"] = difficulty
        env = gym.make(env_id, **kwargs)
        try:
            rows = [play(env, p, s, rng, max_steps) for s in seeds for p in policies]
        finally:
            env.close()
        per_id[env_id] = {**_scores(rows), "episodes_detail": rows}
        every += rows
    report = {"ids": list(ids), "seeds": list(seeds), "policies": list(policies), "per_id": per_id, "overall": _scores(every),
              "per_policy": {p: _scores([r for r in every if r["policy"] == p]) for p in policies}}
    if hasattr(judge, "stats"):
        report["judge_stats"] = judge.stats()
    return report
