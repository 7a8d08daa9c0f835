"""Limit Texas Hold'em, heads-up: blinds 1/2, bets of 2 and 4, four bets a round, best five of seven."""

from __future__ import annotations

from gymv_envs.core import TaskSpec
from gymv_envs.domains.games._poker import HOLDEM_RULES, Config, PokerEnv

HANDS = {0: 20, 1: 40, 2: 60}
CONFIG = Config(hole=2, deck=tuple(range(52)), board=(0, 3, 1, 1), streets=("preflop", "flop", "turn", "river"),
                blinds=(1, 2), bets=(2, 2, 4, 4), cap=4)


class LimitHoldem(PokerEnv):
    """Play heads-up limit Texas Hold'em against a built-in opponent over a fixed number of hands.

    ## Description
    A 52-card deck; each hand you and the opponent get two private cards. The button posts the small
    blind (1), the other player the big blind (2); the button alternates every hand (you have it in
    hand 1). Four betting rounds: preflop (the button acts first), then the flop (three public cards),
    the turn and the river (one each), where the big blind acts first. Bets and raises are fixed: 2
    chips preflop and on the flop, 4 on the turn and river, at most four per round (the big blind
    counts as the first preflop). At the showdown the best five-card hand of each player's seven
    cards wins (`gymv_envs.rules.poker`); equal hands split. The episode is ``20``, ``40`` or ``60``
    hands (difficulty 0, 1, 2); the frame shows ``Hand k/N``.

    ## Action Space
    `Discrete(4)`: ``fold``, ``check``, ``call``, ``raise`` (``bet`` is read as ``raise``). Fold and
    call need a bet to face, check needs none, raise needs a bet left this round; anything else is
    invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`, default 480x640: your two cards at the bottom, the opponent's
    face down at the top, the five board places and the pot in the middle, each player's chips in
    the pot, the button and who is to act; at the right this hand's actions and the last hand's
    result (the opponent's cards and the board after a showdown).

    ## Rewards
    After each step, the chips you won or lost in the hands it finished. ``max_return`` is 48 chips
    (the most one hand can win) times the 60 hands of difficulty 2.

    ## Starting State
    The whole deal of the episode (one shuffled deck per hand) is drawn from the seed; the
    opponent's random choices come from the env's generator too. You act first in hand 1.

    ## Episode End
    Terminates after the last hand; success is a positive total. The oracle reads the hidden deal
    and knows the opponent's policy: it folds hands it would lose unless a bet surely makes the
    opponent fold, and bets winning hands as far as the opponent will call.

    ## Arguments
    ``difficulty``: the opponent and the number of hands: 0 loose-passive, 20 hands; 1 hand-strength
    thresholds, 40 hands; 2 hand strength, pot odds and bluffs, 60 hands. ``obs_size``;
    ``text_in_image``. The registered id defaults to difficulty 2 (a uniform random policy wins too
    often against the weaker opponents).

    ## Version History
    - v0: initial version.
    """

    config = CONFIG
    hands_per_difficulty = HANDS
    title = "limit Texas Hold'em"
    rules_text = (HOLDEM_RULES + " Bets and raises are fixed: 2 chips preflop and on the flop, 4 on the turn and "
                  "river, at most four per round (the big blind counts as the first preflop).")


SPECS = (
    TaskSpec(name="LimitHoldem", entry_point=LimitHoldem, max_episode_steps=600, max_return=48 * HANDS[2],
             tags=("card-game", "adversarial", "hidden-information"), kwargs={"difficulty": 2}),
)
