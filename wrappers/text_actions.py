"""`TextActions`: the VLM-facing action side: free-form replies in, env actions out."""

from __future__ import annotations

import copy
import string
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from gymv.wrappers._base_env import vision_base

POLICIES = ("noop", "repeat", "terminate")
MAX_REPLY = 16384


class TextActions(gym.ActionWrapper, gym.utils.RecordConstructorArgs):
    """Step with a model's free-form reply; the env's ``parse_action`` turns it into an action.

    A readable reply is parsed by ``env.unwrapped.parse_action(text)`` and stepped. An
    unreadable one (``parse_action`` returns ``None``) is handled by ``on_unparseable``:

    - ``"noop"`` (default): the env is stepped with an action that is never valid, so the state
      does not change and the step counts against the budget (``info["invalid_action"]``);
    - ``"repeat"``: the last action that was read is stepped again (a noop before the first);
    - ``"terminate"``: the episode ends without stepping the env (``terminated=True``, reward 0,
      ``info["success"]`` False).

    ``info`` gains ``raw_action`` (the reply), ``parsed`` (whether it was read), ``action`` (the
    env action that was stepped; absent for a noop) and ``feedback`` is text the next prompt can include: the
    env's own feedback, or what went wrong and the action grammar. The action space is `Text`.

    Args:
        env: a GymV env (or a stack over one whose actions are the env's own).
        on_unparseable: ``"noop"``, ``"repeat"`` or ``"terminate"``.

    Example:
        >>> import gymnasium as gym
        >>> import gymv_envs
        >>> from gymv.wrappers import TextActions
        >>> env = TextActions(gym.make("GymV/GridNav-v1", obs_size=(48, 48)))
        >>> _ = env.reset(seed=0)
        >>> _, _, _, _, info = env.step("I will go <answer>left</answer>")
        >>> info["parsed"], info["action"]
        (True, 2)
        >>> _, _, _, _, info = env.step("hmm, no idea")
        >>> info["parsed"], info["invalid_action"], info["steps"]
        (False, True, 2)
        >>> TextActions(gym.make("GymV/GridNav-v1"), on_unparseable="skip")
        Traceback (most recent call last):
        ...
        ValueError: invalid on_unparseable='skip'; valid values: 'noop', 'repeat', 'terminate'
    """

    def __init__(self, env: gym.Env, on_unparseable: str = "noop") -> None:
        gym.utils.RecordConstructorArgs.__init__(self, on_unparseable=on_unparseable)
        vision_base(env, "TextActions")   # first: Gymnasium before 1.4 only asserts
        gym.ActionWrapper.__init__(self, env)
        if on_unparseable not in POLICIES:
            raise ValueError(f"invalid on_unparseable={on_unparseable!r}; valid values: {', '.join(map(repr, POLICIES))}")
        self.on_unparseable = on_unparseable
        self.action_space = spaces.Text(max_length=MAX_REPLY, min_length=0, charset=string.printable)
        self._last_action: Any = None
        self._last_obs: Any = None
        self._last_info: dict[str, Any] = {}

    def action(self, action: str) -> Any:
        """The env action a reply asks for, or ``None`` when it cannot be read."""
        return self.env.unwrapped.parse_action(action)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self._last_action, self._last_obs, self._last_info = None, obs, dict(info)
        return obs, info

    def step(self, action: str):
        parsed = self.action(action)
        base = self.env.unwrapped
        if parsed is None and self.on_unparseable == "terminate":
            info = {**self._last_info, "success": False, "invalid_action": True,
                    "feedback": "Your reply could not be read as an action, so the episode ended."}
            info.pop("instruction", None)
            return self._finish(copy.deepcopy(self._last_obs), 0.0, True, False, info, action, None, False)
        stepped = parsed
        if parsed is None and self.on_unparseable == "repeat":
            stepped = self._last_action
        # None is never a valid action: the env flags it invalid, changes nothing, counts the step.
        obs, reward, terminated, truncated, info = self.env.step(stepped)
        if parsed is not None:
            self._last_action = parsed
        else:
            what = "repeated your last action" if stepped is not None else "nothing changed"
            info["feedback"] = (f"Your reply could not be read as an action ({what}). {base.action_prompt}").strip()
        self._last_obs, self._last_info = obs, dict(info)
        return self._finish(obs, reward, terminated, truncated, info, action, stepped, parsed is not None)

    @staticmethod
    def _finish(obs, reward, terminated, truncated, info, raw, stepped, parsed):
        info["raw_action"] = raw
        info["parsed"] = parsed
        info.pop("action", None)
        if stepped is not None:  # absent for a noop, so vector envs can batch it
            info["action"] = stepped
        return obs, reward, terminated, truncated, info
