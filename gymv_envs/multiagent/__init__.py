"""Two-player play: a PettingZoo AEC env over every two-player GymV game, both seats agents.

    >>> from gymv_envs import multiagent
    >>> env = multiagent.make("GymV/ConnectFour-v1", obs_size=(96, 96))
    >>> env.reset(seed=0)
    >>> for agent in env.agent_iter():
    ...     obs, reward, termination, truncation, info = env.last()
    ...     action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
    ...     env.step(action)

`make(env_id, **kwargs)` builds a `GymVGameEnv` (a ``pettingzoo.AECEnv``) for an id of `ids()`; any
other id raises `ValueError` naming the supported ones. It runs on the single-player env's own rules
and drawing, so a game plays and looks exactly as it does there; the single-player ids keep their
built-in opponents. Needs the ``multiagent`` extra (``pip install 'gymv[multiagent]'``: pettingzoo).

Agents and turns. The seats are ``"player_0"`` (the side the single-player id plays: X, red, black,
white in Breakthrough and chess, blue in Dots and Boxes, the first player in Nim and wild tic-tac-toe) and ``"player_1"``
(the built-in opponent's side); ``env.colour(agent)`` and ``info["colour"]`` name them as the frame
shows them. ``agent_selection`` is whoever is to move: in Dots and Boxes a player who closes a box,
and in checkers and Alquerque a piece that must keep jumping, moves again, so the same agent is selected twice.

Spaces. ``observation_space(agent)`` is ``Dict(observation=Box(0, 255, (H, W, 3), uint8),
action_mask=Box(0, 1, (n,), int8))``: the RGB frame of the board (the same picture for both seats,
drawn from the usual side: white at the bottom in chess; the cells changed by the last move are lit)
and the legal actions of that agent (all zero when it is not its turn or the game is over).
``action_space(agent)`` is ``Discrete(n)``, the single-player id's own move indexing (``len(
action_names)``: a cell, a column, ``64 * from + to`` in chess, ``n * n`` is the pass in Go);
Breakthrough numbers each side's moves from its own pieces (``3 * square + d`` with ``d`` the
forward-left, forward, forward-right step as that side moves).

Rewards and episode end. At the end of a game the winner gets +1 and the loser -1 (a draw 0 each):
zero-sum, given once (read with ``last()``). ``terminations`` are set for both at the game's end,
``truncations`` for both once ``2 * max_cycles`` moves have been played (default ``max_cycles=500``).
Go is won on the area count after komi (no draws), with no shaping reward.

Illegal actions (not in the mask, or not an action at all): ``illegal_action="lose"`` (default) is
PettingZoo's classic-games rule made zero-sum: the game ends, the offender gets -1 and the other
seat +1, and the offender's ``info["invalid_action"]`` is True. ``illegal_action="ignore"`` keeps the
GymV rule instead: nothing changes, the same agent is to move again, ``info["invalid_action"]`` is
True and the move counts against the ``max_cycles`` budget. The action mask makes both avoidable.

Start. ``start="standard"`` (default): the game's usual initial position on the board of the chosen
``difficulty`` (empty boards; the chess, checkers, Alquerque, Breakthrough, Lines of Action and Othello set-ups; Nim's classic
heaps 3-4-5, 1-3-5-7 or 1-3-5-7-9), ``player_0`` to move; it does not depend on the seed.
``start="level"``: the single-player id's own mid-game puzzle for the seed and difficulty, in which
``player_0``, to move, can force a win. ``reset(seed=s, options={"start": ...})`` switches for one
game. The seed also seeds the built-in opponent's random choices: same seed, same game.

Arguments of `make`: ``difficulty`` (the single-player id's levels: board size, and the built-in
opponent), ``obs_size`` (frame (H, W), as for the single-player id; default its default size),
``start``, ``illegal_action``, ``max_cycles``, ``render_mode`` (``"rgb_array"``, ``"human"``, None),
``text_in_image`` (passed to the single-player id, so that an SB3 checkpoint trained on it with
``text_in_image=True`` accepts the seat; the game frames carry no caption either way).

Card games (Kuhn poker, Leduc Hold'em, limit and no-limit Hold'em, Gin Rummy: hidden information). The adapter reads them
through `CardRules` (``gymv_envs/multiagent/_cards.py``), written against the card-game state API only
(``start_state``, ``mover``, ``legal_actions``, ``play``, ``chips``, ``is_over``, ``draw_seat``,
``opponent_action``), so another card game joins with one entry in ``CARD_TEXTS``. There, unlike the
board games: ``observe(agent)`` is the frame that seat sees (its own cards face up at the bottom, the
other's face down, both at a showdown), so the two seats' frames differ; ``player_0`` is the seat of the
single-player agent (the button in hand 1); both starts deal the seed's episode (the single-player
level: same seed, same cards), so ``start`` changes nothing; the rewards at the end are the chips each
seat won over the episode's hands (zero-sum, e.g. +14 / -14); an illegal action under
``illegal_action="lose"`` ends the game with the offender paying ``1 + |its winnings so far|``; ``render()``
shows ``player_0``'s view; ``parse_action`` is the single-player parser (``bet``, ``raise N``).

VLM play. ``info["instruction"]`` (also ``env.instructions[agent]``) tells each seat the game, its
colour, the rules and the move grammar; ``env.action_prompt(agent)``, ``env.parse_action(agent,
text)`` (robust, never raises) and ``env.move_name(agent, action)`` are the seat's grammar.
``env.seat(agent)`` wraps a seat as a single-player-shaped env for the ``gymv.agents`` (random samples
are legal moves; the VLM agent reads the seat's prompt and parser), and `play(env, players, seed)`
runs one game between two such agents, or an agent and ``"builtin"``: the single-player id's
built-in opponent at the env's difficulty, in seat ``player_1`` (``env.builtin_move()``).
"""

from __future__ import annotations

from typing import Any

from gymv_envs.multiagent._games import all_texts

__all__ = ["make", "ids", "play", "GymVGameEnv", "Seat", "BuiltinOpponent"]


def ids() -> list[str]:
    """The registered two-player game ids that `make` accepts, sorted."""
    import gymv_envs
    from gymv_envs.core.registry import task_spec

    texts = all_texts()
    return [i for i in gymv_envs.ids(domain="games") if task_spec(i).entry_point.__name__ in texts]


def make(env_id: str, *, difficulty: int | None = None, obs_size: tuple[int, int] | None = None,
         start: str = "standard", illegal_action: str = "lose", max_cycles: int = 500,
         render_mode: str | None = "rgb_array", text_in_image: bool = False, **unknown: Any) -> Any:
    """The two-player AEC env of a two-player game id (full id, ``Name-vN`` or ``Name``); see the module docs."""
    import inspect

    import gymnasium as gym

    if unknown:
        valid = [p for p in inspect.signature(make).parameters if p not in ("env_id", "unknown")]
        raise ValueError(f"make() got unknown argument(s) {sorted(unknown)}; valid arguments: {', '.join(valid)}")

    import gymv_envs  # noqa: F401 - registers the ids
    from gymv_envs.core.registry import task_spec

    supported = ids()
    try:
        full = task_spec(env_id).id if isinstance(env_id, str) else None
    except ValueError:
        full = None
    if full not in supported:
        raise ValueError(f"{env_id!r} is not a two-player GymV game; supported ids: {', '.join(supported)}")
    from gymv_envs.multiagent._env import GymVGameEnv

    kwargs = {k: v for k, v in (("difficulty", difficulty), ("obs_size", obs_size)) if v is not None}
    kwargs["text_in_image"] = text_in_image   # as the single-player id takes it (the games draw no caption)
    game = gym.make(full, render_mode="rgb_array", **kwargs).unwrapped
    return GymVGameEnv(full, game, start=start, illegal_action=illegal_action, max_cycles=max_cycles,
                       render_mode=render_mode)


def __getattr__(name: str) -> Any:
    if name in ("GymVGameEnv", "Seat", "BuiltinOpponent", "play"):
        from gymv_envs.multiagent import _env

        return getattr(_env, name)
    raise AttributeError(name)
