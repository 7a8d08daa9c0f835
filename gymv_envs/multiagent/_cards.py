"""The two-player view of the hidden-information card games (`CardRules`), and their texts.

A card game env keeps the card-game contract (its pure state API): ``_generate(rng)`` deals the
whole episode, ``start_state()``, ``mover(s)``, ``legal_actions(s)``, ``play(s, a)``, ``chips(s)``,
``is_over(s)``, ``draw_seat(s, seat)`` and ``opponent_action(s, rng)``. `CardRules` speaks only
that API, so a new card game joins the adapter with one entry in `CARD_TEXTS` (its class name and
what a player is told). Unlike the board games, each seat sees its own frame (its cards face up,
the other's face down until a showdown), there is no fixed standard position (both starts deal
the seed's episode, the single-player level), and the rewards at the end are the chips each seat
won (zero-sum), not +1/-1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gymv_envs.multiagent._games import DRAW, GameText

_SCENE = "your own cards face up (at the bottom), the other player's face down (at the top) and the table"
_SEATS = ("the first player", "the second player")
_HOLDEM = ("52 cards, two private cards each; the button (the first player in hand 1, then alternating) posts the "
           "small blind 1 and acts first preflop, the big blind 2 acts first on the flop (3 cards), turn and river "
           "(1 each); the best five of seven cards wins at the showdown, equal hands split.")
_POKER_GRAMMAR = "one of the action words"

CARD_TEXTS: dict[str, GameText] = {
    "KuhnPoker": GameText("Kuhn poker", _SEATS,
        "Three cards (J, Q, K); each hand both ante 1 and get one private card, with no public card. One betting "
        "round with one bet of 1: the button (the first player in hand 1, then alternating) checks or bets; after a "
        "check the other checks or bets; facing a bet, call or fold. The higher card wins at the showdown. The game "
        "is a fixed number of hands (shown as Hand k/N); you win the chips you are ahead at the end.",
        f"{_POKER_GRAMMAR} fold, check, call, raise (or bet)", _SCENE),
    "LeducHoldem": GameText("Leduc Hold'em", _SEATS,
        "Six cards (J, Q, K of hearts and spades); each hand both ante 1 and get one private card, bet, see one "
        "public card and bet again. Bets are 2 in round 1 and 4 in round 2, at most two per round; the button "
        "(the first player in hand 1, then alternating) acts first. Pairing the public card wins, else the higher "
        "card. The game is a fixed number of hands (shown as Hand k/N); you win the chips you are ahead at the end.",
        f"{_POKER_GRAMMAR} fold, check, call, raise", _SCENE),
    "LimitHoldem": GameText("heads-up limit Texas Hold'em", _SEATS,
        _HOLDEM + " Bets are 2 preflop and on the flop, 4 on the turn and river, at most four per round. The game "
                  "is a fixed number of hands (Hand k/N); you win the chips you are ahead at the end.",
        f"{_POKER_GRAMMAR} fold, check, call, raise", _SCENE),
    "NoLimitHoldem": GameText("heads-up no-limit Texas Hold'em", _SEATS,
        _HOLDEM + " Stacks are 100 at the start of every hand; a raise puts in the call plus half or all of the pot "
                  "(at least the last raise), or the whole stack. The game is a fixed number of hands (Hand k/N); "
                  "you win the chips you are ahead at the end.",
        f"{_POKER_GRAMMAR} fold, check, call, raise half pot, raise pot, all in (or `raise N` for the nearest "
        "allowed raise to a total bet of N)", _SCENE),
    "GinRummy": GameText("Gin Rummy", _SEATS,
        "10 cards each from one deck; the first player starts hand 1, then the first turn alternates. On a turn "
        "draw the top of the face-down stock or of the face-up discard pile, then discard one card (not the card "
        "just taken from the pile). Melds are 3-4 of a rank or runs of 3+ in a suit (ace low); deadwood is the "
        "value of the cards outside melds (ace 1, J/Q/K 10). Knock with deadwood 10 or less, or go gin with 0 "
        "(bonus 25); the other player lays off on the knocker's melds and scores an undercut (bonus 25) with "
        "less or equal deadwood. A hand with 2 cards left in the stock is a draw. The game is a fixed number "
        "of hands; you win the points you are ahead at the end.",
        "one of the action words: draw stock, draw discard, discard <card> (like discard 7H), knock, gin", _SCENE),
}


class CardRules:
    """The adapter's rules of a card game env, written against the card-game state API only."""

    per_seat = True   # each seat sees its own frame

    def __init__(self, env: Any) -> None:
        self.env = env
        self.n = len(env.action_names)
        self.names = (tuple(env.action_names),) * 2
        self.rng = np.random.default_rng(0)

    def deal(self, rng: np.random.Generator) -> Any:
        """A new episode's deal from ``rng`` (the single-player level of a seed's generator)."""
        self.env._generate(rng)
        return self.env.start_state()

    def prepare(self, s: Any, rng: np.random.Generator) -> None:
        self.rng = rng
        self.env.state = s

    def seat(self, s: Any) -> int:
        return int(self.env.mover(s))

    def legal(self, s: Any) -> list[int]:
        return [] if self.env.is_over(s) else sorted(self.env.legal_actions(s))

    def play(self, s: Any, a: int) -> Any:
        return self.env.play(s, a)

    def payoff(self, s: Any) -> tuple[float, float]:
        """Each seat's reward at the end: its chips won (zero-sum)."""
        c = self.env.chips(s)
        return float(c[0]), float(c[1])

    def forfeit(self, s: Any, offender: int) -> tuple[float, float]:
        """Rewards when ``offender`` plays an illegal action: it pays the other 1 + its winnings so far in size."""
        stake = 1.0 + abs(float(self.env.chips(s)[offender]))
        return (-stake, stake) if offender == 0 else (stake, -stake)

    def winner(self, s: Any) -> int | str | None:
        if not self.env.is_over(s):
            return None
        c = self.env.chips(s)
        return DRAW if c[0] == c[1] else 0 if c[0] > c[1] else 1

    def frame(self, s: Any, before: Any, last: tuple[int, ...], seat: int = 0) -> np.ndarray:
        return np.array(self.env.draw_seat(s, seat), dtype=np.uint8, copy=True)

    def opponent(self, s: Any) -> int:
        return int(self.env.opponent_action(s, self.rng))
