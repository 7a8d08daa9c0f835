"""Play any GymV id with the keyboard in a pygame window: ``python -m gymv.agents.human GymV/<id>``.

Keys (shown in the window):

- arrow keys: the ``up/down/left/right`` actions (or ``move_forward``, ``turn_left``, ...);
  space: ``noop``/``wait``/``next`` where the task has one;
- number keys ``1``..``9``, ``0``: the first ten actions of a ``Discrete`` space in order;
  letter keys pick an option of a multiple-choice task;
- anything else: type it and press Enter; the text is read by the env's own
  ``parse_action`` (an open answer such as ``R R D L``, a move name such as ``B2``, or the
  values of a parametric action such as ``angle=40 power=0.7``); Backspace edits;
- Esc clears the typed text, or quits when there is none; closing the window quits.

Real-time ids (tag ``real-time``) do not wait: each frame takes the held arrow key, else the
no-op. `HumanAgent` is also an ordinary agent (``make_agent("human", env)``), so the
benchmark runner can score people with the same protocol as models.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gymv_envs.core.display import NoDisplayError
from gymv_envs.core.display import check_display as _check_display

ARROWS = {
    "up": ("up", "move_forward", "forward", "north"),
    "down": ("down", "move_backward", "backward", "south"),
    "left": ("left", "turn_left", "rotate_left", "west"),
    "right": ("right", "turn_right", "rotate_right", "east"),
}
SPACE = ("noop", "wait", "next", "interact", "fire")
PANEL_W = 360


class HumanQuit(Exception):
    """The player closed the window or pressed Esc."""


def check_display() -> None:
    """Raise `NoDisplayError` at once where pygame could open no window (see `gymv_envs.core.display`)."""
    _check_display("human play", "to play in text instead, step the env with replies through gymv.wrappers.for_vlm")


class HumanAgent:
    """Keyboard agent in a pygame window; see the module docstring for the keys."""

    def __init__(self, env: gym.Env, window_height: int = 512, fps: int = 10, realtime: bool | None = None) -> None:
        check_display()
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self.pg, self.env, self.base = pygame, env, env.unwrapped
        self.space = env.action_space
        names = tuple(getattr(self.base, "action_names", ()) or ())
        self.names = names if isinstance(self.space, spaces.Discrete) else ()
        index = {n.lower(): i for i, n in enumerate(self.names)}
        self.arrows = {k: next((index[n] for n in cands if n in index), None) for k, cands in ARROWS.items()}
        self.noop = next((index[n] for n in SPACE if n in index), None)
        self.mcq = getattr(self.base, "answer_format", None) == "mcq"
        if realtime is None:
            spec = env.spec.id if env.spec is not None else ""
            try:
                import gymv_envs

                realtime = "real-time" in gymv_envs.describe(spec)["tags"]
            except (ValueError, KeyError):
                realtime = False
        self.realtime = bool(realtime) and self.noop is not None
        self.window_height, self.fps = int(window_height), int(fps)
        self.typed, self.message, self.instruction = "", "", ""
        self.screen = None
        self.font = None
        self.clock = None

    # ------------------------------------------------------------------ protocol
    def reset(self, instruction: str, info: dict[str, Any]) -> None:
        self.instruction, self.typed, self.message = instruction, "", ""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        pg = self.pg
        self._open()
        if info.get("feedback"):
            self.message = str(info["feedback"])
        self._draw(observation)
        if self.realtime:
            self.clock.tick(self.fps)
            for event in pg.event.get():
                action = self.handle(event)
                if action is not None:
                    return action
            held = pg.key.get_pressed()
            for key, name in ((pg.K_UP, "up"), (pg.K_DOWN, "down"), (pg.K_LEFT, "left"), (pg.K_RIGHT, "right")):
                if held[key] and self.arrows[name] is not None:
                    return self.arrows[name]
            return self.noop
        while True:
            event = pg.event.wait(200)
            if event.type == pg.NOEVENT:
                continue
            action = self.handle(event)
            if action is not None:
                return action
            self._draw(observation)

    # ------------------------------------------------------------------ keys
    def handle(self, event: Any) -> Any:
        """The action an event asks for, or ``None`` (text is buffered until Enter)."""
        pg = self.pg
        if event.type == pg.QUIT:
            raise HumanQuit("window closed")
        if event.type != pg.KEYDOWN:
            return None
        key = event.key
        if key == pg.K_ESCAPE:
            if not self.typed:
                raise HumanQuit("escape pressed")
            self.typed = ""
            return None
        if key in (pg.K_RETURN, pg.K_KP_ENTER):
            return self._submit()
        if key == pg.K_BACKSPACE:
            self.typed = self.typed[:-1]
            return None
        if not self.typed:
            arrow = {pg.K_UP: "up", pg.K_DOWN: "down", pg.K_LEFT: "left", pg.K_RIGHT: "right"}.get(key)
            if arrow is not None and self.arrows[arrow] is not None:
                return self.arrows[arrow]
            if key == pg.K_SPACE and self.noop is not None:
                return self.noop
            char = getattr(event, "unicode", "") or ""
            if isinstance(self.space, spaces.Discrete) and char.isdigit() and (self.mcq or len(self.names) <= 10):
                index = (int(char) - 1) % 10
                if index < self.space.n:
                    return index
            if self.mcq and char.isalpha() and char.upper() in "ABCDEFGHIJ"[: self.space.n]:
                return "ABCDEFGHIJ".index(char.upper())
        char = getattr(event, "unicode", "") or ""
        if char.isprintable() and char:
            self.typed += char
        return None

    def _submit(self) -> Any:
        text, self.typed = self.typed.strip(), ""
        if not text:
            return None
        action = self.base.parse_action(text)
        if action is None and isinstance(self.space, spaces.Text):
            return text  # the env's verifier reads it and flags it when it cannot
        if action is None:
            self.message = f"could not read {text!r}; {self._grammar()}"
        return action

    def _grammar(self) -> str:
        try:
            return str(self.base.action_prompt).splitlines()[0]
        except Exception:  # noqa: BLE001 - only a hint on screen
            return "see the instruction"

    # ------------------------------------------------------------------ window
    def _open(self) -> None:
        pg = self.pg
        if self.screen is not None:
            return
        pg.display.init()
        pg.font.init()
        self.font = pg.font.Font(None, 20)
        self.screen = pg.display.set_mode((self.window_height + PANEL_W, self.window_height))
        title = self.env.spec.id if self.env.spec is not None else type(self.base).__name__
        pg.display.set_caption(f"GymV - {title}")
        self.clock = pg.time.Clock()

    def _draw(self, observation: Any) -> None:
        pg = self.pg
        frames = [observation] if isinstance(observation, np.ndarray) else [
            v for v in (observation.values() if isinstance(observation, dict) else []) if isinstance(v, np.ndarray) and v.ndim == 3]
        self.screen.fill((24, 24, 28))
        if frames:
            tile = self.window_height // len(frames) if len(frames) > 1 else self.window_height
            for i, frame in enumerate(frames):
                surface = pg.surfarray.make_surface(np.ascontiguousarray(np.transpose(frame[..., :3], (1, 0, 2))))
                h, w = frame.shape[:2]
                scale = min(self.window_height / w, tile / h)
                surface = pg.transform.scale(surface, (max(1, int(w * scale)), max(1, int(h * scale))))
                self.screen.blit(surface, (0, i * tile))
        lines = []
        for para in self.instruction.splitlines() or [""]:
            lines += textwrap.wrap(para, 48) or [""]
        keys = ["", "Keys: arrows / space / 1-9 / type + Enter; Esc quits"]
        if self.names and len(self.names) <= 10:
            keys.append("  " + "  ".join(f"{i + 1}={n}" for i, n in enumerate(self.names)))
        status = ["", *textwrap.wrap(self.message, 48), f"> {self.typed}_"]
        room = self.window_height // 18 - len(keys) - len(status)
        shown = lines[:room] + (["..."] if len(lines) > room else []) + keys + status
        for row, text in enumerate(shown):
            self.screen.blit(self.font.render(text, True, (230, 230, 230)), (self.window_height + 8, 6 + row * 18))
        pg.display.flip()

    def close(self) -> None:
        if self.screen is not None:
            self.pg.display.quit()
            self.screen = None


def play(env_id: str, episodes: int = 1, seed: int = 0, env_kwargs: dict[str, Any] | None = None,
         agent: HumanAgent | None = None) -> list[dict[str, Any]]:
    """Play ``episodes`` episodes under the registered budget; returns one scored record each
    (the benchmark's record: `gymv.benchmarks.rollout.rollout` plays them)."""
    from gymv.benchmarks.rollout import rollout

    env = agent.env if agent is not None else gym.make(env_id, **(env_kwargs or {}))
    player = agent or HumanAgent(env)
    records = []
    try:
        for k in range(episodes):
            record = rollout(env, player, seed + k)
            records.append(record)
            print(json.dumps(record, default=str), flush=True)
    except HumanQuit:
        pass
    finally:
        player.close()
        env.close()
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gymv.agents.human", description=__doc__.split("\n\n")[0])
    parser.add_argument("env", help="a GymV id, e.g. GymV/Sokoban-v1")
    parser.add_argument("--episodes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--difficulty", type=int, default=None, help="default: the id's registered difficulty")
    parser.add_argument("--env-kwargs", type=json.loads, default={}, help='JSON, e.g. \'{"answer_format": "mcq"}\'')
    args = parser.parse_args(argv)
    import gymv_envs

    if args.env not in gymv_envs.ids():
        parser.error(f"unknown id {args.env!r}; see gymv_envs.ids()")
    kwargs = dict(args.env_kwargs)
    if args.difficulty is not None:
        kwargs["difficulty"] = args.difficulty
    try:
        check_display()
        env = gym.make(args.env, **kwargs)
    except (NoDisplayError, ValueError, gym.error.Error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        play(args.env, args.episodes, args.seed, agent=HumanAgent(env))
    except KeyboardInterrupt:   # Ctrl-C in the terminal: a line, not pygame's event wait in a traceback
        print("stopped (Ctrl-C): the finished episodes' records are above", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
