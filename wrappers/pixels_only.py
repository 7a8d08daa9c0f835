"""`PixelsOnly`: pixel-only play: no text about the state reaches the agent, only the task."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from gymv.wrappers._base_env import vision_base

# info keys that describe the state in words (what PokeGym's models never get)
STATE_TEXT_KEYS = ("feedback", "state_text")


class PixelsOnly(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Keep every text channel but the instruction and the action grammar away from the agent.

    ``info["feedback"]`` (for example "blocked by a wall" or "answered B: wrong") becomes ``""``
    and ``info["state_text"]`` is removed, at reset and at every step; ``info["instruction"]``
    (the task and the action grammar, at reset) stays, and so do the numeric keys the
    benchmark scores (``success``, ``progress``, ``invalid_action``, ``steps``). The
    observation, the action space, rewards and termination are unchanged. The benchmark's
    ``--no-feedback`` applies it, and the VLM agent's ``feedback=False`` stops sending feedback
    text, so a "pixels only" agent learns what happened from the image alone.

    Args:
        env: a GymV env (or a stack over one).

    Example:
        >>> import gymnasium as gym
        >>> import gymv_envs
        >>> from gymv.wrappers import PixelsOnly
        >>> env = PixelsOnly(gym.make("GymV/Sokoban-v1", obs_size=(48, 48)))
        >>> _, info = env.reset(seed=0)
        >>> "instruction" in info, "state_text" in info, info["feedback"]
        (True, False, '')
        >>> _, _, _, _, info = env.step(0)
        >>> info["feedback"], "state_text" in info
        ('', False)
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        vision_base(env, "PixelsOnly")   # first: Gymnasium before 1.4 only asserts
        gym.Wrapper.__init__(self, env)

    @staticmethod
    def strip(info: dict[str, Any]) -> dict[str, Any]:
        """``info`` without the state described in words (a new dict)."""
        out = {k: v for k, v in info.items() if k != "state_text"}
        if "feedback" in out:
            out["feedback"] = ""
        return out

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        return obs, self.strip(info)

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, self.strip(info)
