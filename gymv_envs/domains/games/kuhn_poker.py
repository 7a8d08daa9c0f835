"""Kuhn poker: three cards, one private card each, no public card, one betting round of one bet."""

from __future__ import annotations

import numpy as np

from gymv_envs.core import TaskSpec
from gymv_envs.domains.games._poker import (
    CALL,
    CHECK,
    FOLD,
    RAISE,
    Config,
    PokerEnv,
    State,
    holes,
    legal,
    play,
    to_call,
)

HANDS = {0: 60, 1: 100, 2: 160}
CONFIG = Config(hole=1, deck=tuple(4 * r + 3 for r in (9, 10, 11)), board=(0,), streets=("betting",), ante=1,
                bets=(1,), cap=1)   # the deck's ranks; `KuhnPoker._generate` draws the suits
# the chance that each opponent bets (not facing a bet) or calls (facing one), by rank J, Q, K, per situation:
# (first to act, after a check, facing a bet as the second to act, facing a bet after its own check)
STRATEGY = {0: ((0, 0, 0), (0, 0, 0), (1, 1, 1), (1, 1, 1)),                    # never bets, always calls
            1: ((0, 0, 1), (0, 0, 1), (0, 0, 1), (0, 0, 1)),                    # bets and calls only with the king
            2: ((1 / 3, 0, 1), (1 / 3, 0, 1), (0, 1 / 3, 1), (0, 2 / 3, 1))}   # a Nash equilibrium (alpha = 1/3)


def aggression(s: State, difficulty: int) -> tuple[float, int, int]:
    """The opponent's chance of betting or calling in ``s``, with that action and the passive one."""
    rank = (holes(CONFIG, s)[s.mover][0] >> 2) - 9
    facing = to_call(s) > 0
    row = STRATEGY[difficulty][2 + (len(s.history) > 1) if facing else int(len(s.history) > 0)]
    return row[rank], (CALL if facing else RAISE), (FOLD if facing else CHECK)


def expected(s: State, hand: int, difficulty: int) -> float:
    """Seat 0's expected chips from ``s`` to the end of hand ``hand``, both cards known, the opponent's
    strategy known, seat 0 playing the best action."""
    if s.over or s.hand != hand:
        return float(s.chips[0])
    if s.mover == 0:
        return max(expected(play(CONFIG, s, a), hand, difficulty) for a in legal(CONFIG, s))
    p, bold, meek = aggression(s, difficulty)
    return p * expected(play(CONFIG, s, bold), hand, difficulty) + (1 - p) * expected(play(CONFIG, s, meek), hand, difficulty)


class KuhnPoker(PokerEnv):
    """Play Kuhn poker heads-up against a built-in opponent over a fixed number of hands.

    ## Description
    The deck has three cards: jack, queen and king (each of a suit drawn at random every hand, for
    variety only: suits do not matter). Each hand both players ante 1 chip and get one
    private card (the third card is not used); there is no public card. One betting round follows,
    with a single bet of 1 chip allowed: the first to act checks or bets; after a check the second
    checks (showdown) or bets; facing a bet a player calls (showdown) or folds. So after check-bet
    the first player calls or folds. The higher card wins the pot at the showdown. The button
    alternates every hand (you have it in hand 1) and acts first. The episode is ``60``, ``100`` or
    ``160`` hands (difficulty 0, 1, 2); the frame shows ``Hand k/N``.

    ## Action Space
    `Discrete(4)`: ``fold``, ``check``, ``call``, ``raise`` (``bet`` is read as ``raise``). Fold and
    call need a bet to face, check and raise need none; anything else is invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`, default 480x640: your card at the bottom, the opponent's card
    face down at the top, the pot in the middle, each player's chips in the pot, who has the button
    and who is to act; at the right this hand's actions and the last hand's result (both cards
    after a showdown).

    ## Rewards
    After each step, the chips you won or lost in the hands it finished (ante and bet). ``max_return``
    is 2 chips per hand, the most one hand can win.

    ## Starting State
    The whole deal of the episode (one shuffled deck per hand) is drawn from the seed; the
    opponent's random choices come from the env's generator too. You act first in hand 1.

    ## Episode End
    Terminates after the last hand; success is a positive total. The oracle reads the hidden deal
    and knows the opponent's (mixed) strategy: it plays the action of the highest expected chips
    over the rest of the hand.

    ## Arguments
    ``difficulty``: the opponent and the number of hands: 0 never bets and always calls, 60 hands;
    1 bets and calls only with the king, 100 hands; 2 a Nash equilibrium strategy (bluffs the jack
    1/3 of the time, calls a bet with the queen 1/3 or, after its own check, 2/3 of the time), 160
    hands. ``obs_size``; ``text_in_image``. The registered id defaults to difficulty 2 (a uniform
    random policy wins too often against the weaker opponents).

    ## Version History
    - v0: initial version.
    """

    config = CONFIG
    hands_per_difficulty = HANDS
    title = "Kuhn poker"
    rules_text = ("Deck: jack, queen, king. Each hand both ante 1 and get one private card; no public card. One "
                  "betting round with one bet of 1: the first to act checks or bets; after a check the other checks "
                  "or bets; facing a bet, call or fold. The higher card wins at the showdown. The button alternates "
                  "and acts first.")
    opponent_styles = {0: "never bets and calls every bet", 1: "bets and calls only with the king",
                       2: "plays a game-theoretic equilibrium strategy that bluffs and calls at random with set odds"}

    def _generate(self, rng: np.random.Generator) -> None:
        """One deck per hand: the jack, queen and king shuffled, each of a random suit (suits do not matter)."""
        suits = rng.integers(0, 4, size=(self.hands, 3))
        self.decks = tuple(tuple(int(4 * (9 + r) + suits[h, r]) for r in rng.permutation(3)) for h in range(self.hands))
        self.state = self.start_state()

    def opponent_action(self, s: State, rng: np.random.Generator) -> int:
        p, bold, meek = aggression(s, self.difficulty)
        return bold if float(rng.random()) < p else meek

    def oracle_action(self) -> int:
        s = self.state
        if s.over:
            return CHECK
        return max(legal(CONFIG, s), key=lambda a: expected(play(CONFIG, s, a), s.hand, self.difficulty))


SPECS = (
    TaskSpec(name="KuhnPoker", entry_point=KuhnPoker, max_episode_steps=640, max_return=2 * HANDS[2],
             tags=("card-game", "adversarial", "hidden-information"), kwargs={"difficulty": 2}),
)
