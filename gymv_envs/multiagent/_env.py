"""The PettingZoo AEC env over one two-player GymV game, a seat view for GymV agents, and `play`."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gymv_envs.core.display import check_display
from gymv_envs.core.parsing import parse_choice
from gymv_envs.core.rng import level_generator
from gymv_envs.multiagent._games import DRAW, all_texts, rules_for

try:
    from pettingzoo import AECEnv
except ImportError as exc:  # the 'multiagent' extra
    raise gym.error.DependencyNotInstalled(
        "gymv_envs.multiagent needs the 'multiagent' extra (pettingzoo is not installed); "
        "install it with: pip install 'gymv[multiagent]'") from exc

AGENTS = ("player_0", "player_1")
STARTS = ("standard", "level")
ILLEGAL = ("lose", "ignore")
DEFAULT_MAX_CYCLES = 500


def _choice(name: str, value: Any, valid: tuple) -> Any:
    if isinstance(value, bool) or value not in valid:
        raise ValueError(f"invalid {name}={value!r}; valid values: {', '.join(map(repr, valid))}")
    return value


def _index(agent: Any) -> int:
    """The seat number of ``agent`` (0 or 1), or a `ValueError` naming the seats."""
    return AGENTS.index(_choice("agent", agent, AGENTS))


class GymVGameEnv(AECEnv):
    """A two-player GymV game as a PettingZoo AEC env; see `gymv_envs.multiagent` for the whole contract."""

    metadata = {"render_modes": ["rgb_array", "human"], "name": "gymv_game", "is_parallelizable": False, "render_fps": 4}

    def __init__(self, env_id: str, game: gym.Env, *, start: str = "standard", illegal_action: str = "lose",
                 max_cycles: int = DEFAULT_MAX_CYCLES, render_mode: str | None = "rgb_array") -> None:
        super().__init__()
        self.game = game
        self.start = _choice("start", start, STARTS)
        self.illegal_action = _choice("illegal_action", illegal_action, ILLEGAL)
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer)) or max_cycles < 1:
            raise ValueError(f"invalid max_cycles={max_cycles!r}; valid values: an integer >= 1")
        self.max_cycles = int(max_cycles)
        self.render_mode = _choice("render_mode", render_mode, ("rgb_array", "human", None))
        if self.render_mode == "human":
            check_display(f"render_mode='human' (a window for {env_id})",
                          "for frames as arrays use render_mode='rgb_array', or set SDL_VIDEODRIVER=dummy to open no window")
        self.env_id = env_id
        self.rules = rules_for(game)
        self.text = all_texts()[type(game).__name__]
        self.per_seat = getattr(self.rules, "per_seat", False)   # card games: each seat its own frame
        if hasattr(game, "score_names"):   # Dots and Boxes: the score strip names the colours
            game.score_names = self.text.colours
        self.metadata = {**self.metadata, "name": env_id.split("/")[-1]}
        self.possible_agents = list(AGENTS)
        n, (h, w) = self.rules.n, game.frame_size
        frame = spaces.Box(0, 255, (h, w, 3), np.uint8)
        self.observation_spaces = {a: spaces.Dict({"observation": frame, "action_mask": spaces.Box(0, 1, (n,), np.int8)})
                                   for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self._rng = np.random.default_rng()
        self._state, self._done = None, True
        self.instructions = {a: self._instruction(i) for i, a in enumerate(AGENTS)}

    # ------------------------------------------------------------------ spaces and text
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[_choice("agent", agent, AGENTS)]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[_choice("agent", agent, AGENTS)]

    def colour(self, agent: str) -> str:
        """The side ``agent`` plays, as the frame shows it (``"black"``, ``"red"``, ...)."""
        return self.text.colours[_index(agent)]

    def _instruction(self, seat: int) -> str:
        t, me, other = self.text, self.text.colours[seat], self.text.colours[1 - seat]
        return (f"You play {t.title} as {me} against {other}, another player; the image shows {t.scene}. "
                f"{t.rules} The players alternate (a player moves again only where the rules say so). When it is "
                f"your turn, reply with one legal move for {me}.\n\n{self.action_prompt(AGENTS[seat])}")

    def action_prompt(self, agent: str) -> str:
        """The action grammar of ``agent``'s seat, with an example legal move when it is that seat's turn."""
        seat = _index(agent)
        legal = self.legal_actions(agent) if self._state is not None else []
        example = self.rules.names[seat][legal[0] if legal else 0]
        return f"Name your move as {self.text.grammar}.\nEnd your reply with a line like `Action: {example}`."

    def move_name(self, agent: str, action: int) -> str:
        """How ``agent``'s action ``action`` is said (``parse_action`` reads it back)."""
        return self.rules.names[_index(agent)][int(action)]

    def parse_action(self, agent: str, text: str) -> int | None:
        """The action a free-form reply of ``agent`` names, or None; never raises."""
        try:
            if not isinstance(text, str):
                return None
            seat = AGENTS.index(agent)
            game = self.game
            if self.rules.names[seat] == tuple(getattr(game, "action_names", ())) and hasattr(game, "parse_action"):
                if self._state is not None and hasattr(game, "state"):
                    game.state = self._state   # Chess reads algebraic moves against the position
                return game.parse_action(text)
            names = self.rules.names[seat]
            return parse_choice(text, names) if parse_choice(text, names) is not None else parse_choice(
                text, [nm.replace("-", "") for nm in names])
        except Exception:  # noqa: BLE001 - never raises
            return None

    # ------------------------------------------------------------------ state
    @property
    def state_of_game(self) -> Any:
        """The game's own state (read-only by convention; the rules of the single-player env read it)."""
        return self._state

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """Legal actions of ``agent`` (default: the agent to move); empty when it is not its turn."""
        agent = agent or self.agent_selection
        if self._done or agent != self.agent_selection:
            return []
        return self.rules.legal(self._state)

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.rules.n, np.int8)
        mask[self.legal_actions(agent)] = 1
        return mask

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game. ``options={"start": "standard" | "level"}`` overrides the start for this game;
        other options are ignored."""
        start = _choice("start", (options or {}).get("start", self.start), STARTS)
        if seed is not None:
            self._rng = level_generator(seed)
        if self.per_seat:   # card games: both starts deal the seed's episode (the single-player level)
            state = self.rules.deal(self._rng if seed is None else level_generator(seed))
        elif start == "level":
            state = self.rules.level(int(seed) if seed is not None else int(self._rng.integers(2**31)))
        else:
            state = self.rules.standard()
        self.rules.prepare(state, self._rng)
        self._state, self._before, self._last, self._frame, self._frames = state, state, (), None, {}
        self._moves, self._done = 0, False
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = AGENTS[self.rules.seat(state)]
        self.infos = {a: {} for a in self.agents}
        self._set_infos("", None)
        if self.render_mode == "human":
            self.render()

    def _started(self, what: str) -> None:
        if self._state is None:
            raise gym.error.ResetNeeded(f"call reset() before {what}() on {self.env_id}")

    def last(self, observe: bool = True) -> tuple:
        self._started("last")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._started("observe")
        seat = _index(agent)
        if self.per_seat:   # a card game: the frame this seat sees (its own cards, the other's backs)
            if seat not in self._frames:
                self._frames[seat] = self.rules.frame(self._state, self._before, self._last, seat)
            return {"observation": self._frames[seat].copy(), "action_mask": self._mask(agent)}
        if self._frame is None:
            self._frame = self.rules.frame(self._state, self._before, self._last)
        return {"observation": self._frame.copy(), "action_mask": self._mask(agent)}

    def step(self, action: Any) -> None:
        self._started("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        other = AGENTS[1 - AGENTS.index(agent)]
        a = self._coerce(action)
        legal = self.rules.legal(self._state)
        self._moves += 1
        if a is None or a not in legal:
            said = repr(action) if a is None else self.move_name(agent, a)
            if self.illegal_action == "lose":
                lost = self.rules.forfeit(self._state, AGENTS.index(agent)) if self.per_seat else None
                self.rewards[agent], self.rewards[other] = (-1.0, 1.0) if lost is None else (
                    lost[AGENTS.index(agent)], lost[AGENTS.index(other)])
                self._finish(other, f"{self.colour(agent)} played the illegal move {said} and forfeits", agent)
            else:
                self._set_infos(f"{said} is not a legal move for {self.colour(agent)}; nothing changed", agent)
                self._truncate_if_over()
            self._accumulate_rewards()
            return
        self._before, self._state, self._last = self._state, self.rules.play(self._state, a), (a,)
        self._frame, self._frames = None, {}
        said = f"{self.colour(agent)} played {self.move_name(agent, a)}"
        won = self.rules.winner(self._state)
        if won is None:
            self.agent_selection = AGENTS[self.rules.seat(self._state)]
            self._set_infos(said, None)
            self._truncate_if_over()
        else:
            if self.per_seat:   # a card game: each seat gets the chips it won
                for i, r in enumerate(self.rules.payoff(self._state)):
                    self.rewards[AGENTS[i]] = r
                verdict = "a draw" if won == DRAW else f"{self.colour(AGENTS[won])} wins"
            elif won == DRAW:
                verdict = "a draw"
            else:
                winner = AGENTS[won]
                self.rewards[winner], self.rewards[AGENTS[1 - won]] = 1.0, -1.0
                verdict = f"{self.colour(winner)} wins"
            self._finish(other, f"{said}: {verdict}")
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self, first: str, feedback: str, invalid_by: str | None = None) -> None:
        """End the game: everyone terminated; ``first`` is selected to see the result first."""
        self._done = True
        self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = first
        self._set_infos(feedback, invalid_by)
        winner = [a for a in self.agents if self.rewards[a] > 0]
        for a in self.agents:
            self.infos[a]["winner"] = winner[0] if winner else None

    def _truncate_if_over(self) -> None:
        if self._moves >= self.max_cycles * len(AGENTS):
            self._done = True
            self.truncations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a]["feedback"] += f"; truncated after {self._moves} moves (max_cycles={self.max_cycles})"

    def _set_infos(self, feedback: str, invalid_by: str | None) -> None:
        for a in self.agents:
            self.infos[a] = {"instruction": self.instructions[a], "colour": self.colour(a), "feedback": feedback,
                             "invalid_action": a == invalid_by, "to_move": a == self.agent_selection and not self._done,
                             "moves": self._moves}

    def _coerce(self, action: Any) -> int | None:
        if isinstance(action, (bool, np.bool_, str, bytes)) or action is None:
            return None
        try:
            a = np.asarray(action)
            if a.size != 1 or not np.issubdtype(a.dtype, np.integer):
                return None
            a = int(a.reshape(()))
        except (TypeError, ValueError, OverflowError):
            return None
        return a if 0 <= a < self.rules.n else None

    def builtin_move(self) -> int:
        """The single-player game's built-in opponent's move (at the env's difficulty) for the agent to move,
        which must be ``player_1`` (the side those opponents play)."""
        if self._done or self.agent_selection != AGENTS[1]:
            raise ValueError(f"the built-in opponent plays player_1 ({self.colour(AGENTS[1])}) when it is its turn")
        return self.rules.opponent(self._state)

    def render(self) -> np.ndarray | None:
        if self._state is None:
            return None
        if self.per_seat:   # a card game renders the first seat's view
            self._frame = self.observe(AGENTS[0])["observation"]
        elif self._frame is None:
            self._frame = self.rules.frame(self._state, self._before, self._last)
        if self.render_mode == "human":
            self.game._show(self._frame)
            return None
        return self._frame.copy()

    def close(self) -> None:
        self.game.close()

    def __str__(self) -> str:
        return self.metadata["name"]

    def seat(self, agent: str) -> Seat:
        """A single-seat view of this game for GymV agents (``gymv.agents``): see `Seat`."""
        return Seat(self, _choice("agent", agent, AGENTS))


class _LegalMoves(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws a legal move of its seat (so
    ``gymv.agents.RandomAgent`` plays random legal moves)."""

    def __init__(self, n: int, env: GymVGameEnv, agent: str) -> None:
        super().__init__(n)
        self._env, self._agent = env, agent

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            m = self._env._mask(self._agent)
            mask = m if m.any() else None
        return super().sample(mask=mask, probability=probability)


class Seat:
    """One seat of a `GymVGameEnv`, shaped like a single-player GymV env for the agents of
    ``gymv.agents`` (``RandomAgent(seat)``, ``make_agent("vlm", seat, ...)``, ``SB3Agent``): it has
    ``action_space`` (random samples are legal moves), ``observation_space`` (the frame),
    ``instruction``, ``action_prompt``, ``parse_action``, ``format_action`` and ``unwrapped``. The
    game itself is stepped by `play` (or by you), not through the seat."""

    spec = None

    def __init__(self, env: GymVGameEnv, agent: str) -> None:
        self.env, self.agent = env, agent
        self.action_space = _LegalMoves(env.rules.n, env, agent)
        self.observation_space = env.observation_space(agent)["observation"]
        self.text_in_image = env.game.text_in_image

    @property
    def unwrapped(self) -> Seat:
        return self

    @property
    def instruction(self) -> str:
        return self.env.instructions[self.agent]

    @property
    def action_prompt(self) -> str:
        return self.env.action_prompt(self.agent)

    def parse_action(self, text: str) -> int | None:
        return self.env.parse_action(self.agent, text)

    def format_action(self, action: int) -> str:
        return self.env.move_name(self.agent, action)


class BuiltinOpponent:
    """The single-player game's built-in opponent as an agent for seat ``player_1`` (`play`)."""

    def __init__(self, env: GymVGameEnv) -> None:
        self.env = env

    def reset(self, instruction: str, info: dict[str, Any]) -> None:
        pass

    def act(self, observation: Any, info: dict[str, Any]) -> int:
        return self.env.builtin_move()


def play(env: GymVGameEnv, players: dict[str, Any], seed: int | None = None, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play one game between ``players`` (``{"player_0": agent, "player_1": agent}``) and return
    ``{"rewards", "winner", "moves", "truncated", "invalid"}``.

    An agent is anything with ``reset(instruction, info)`` and ``act(observation, info)`` (the
    ``gymv.agents`` interface), or the string ``"builtin"`` (`BuiltinOpponent`, seat ``player_1`` only).
    It gets the RGB frame as its observation, and an info dict with ``instruction``, ``colour``,
    ``feedback``, ``invalid_action`` and ``action_mask``.
    """
    missing = sorted(set(AGENTS) - set(players))
    if missing or set(players) - set(AGENTS):
        raise ValueError(f"players must name exactly the seats {', '.join(AGENTS)}; got {sorted(players)}")
    for a, p in players.items():
        is_agent = callable(getattr(p, "reset", None)) and callable(getattr(p, "act", None))
        if not (p == "builtin" if isinstance(p, str) else is_agent):
            raise ValueError(f"invalid player {p!r} for {a}; valid values: an agent with reset(instruction, info) and "
                             "act(observation, info) (e.g. from gymv.agents.make_agent), or 'builtin' (player_1 only)")
    if isinstance(players["player_0"], str):
        raise ValueError("the built-in opponent plays player_1 only; give player_0 an agent")
    seats = {a: BuiltinOpponent(env) if isinstance(p, str) else p for a, p in players.items()}
    env.reset(seed=seed, options=options)
    for a, agent in seats.items():
        agent.reset(env.instructions[a], dict(env.infos[a]))
    totals = dict.fromkeys(AGENTS, 0.0)
    invalid = dict.fromkeys(AGENTS, 0)
    truncated = False
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += float(reward)
        if term or trunc:
            truncated = truncated or trunc
            env.step(None)
            continue
        action = seats[agent].act(obs["observation"], {**info, "action_mask": obs["action_mask"]})
        env.step(action)
        invalid[agent] += bool(env.infos.get(agent, {}).get("invalid_action", False))
    winner = next((a for a in AGENTS if totals[a] > 0), None)
    return {"rewards": totals, "winner": winner, "moves": env._moves, "truncated": truncated, "invalid": invalid}
