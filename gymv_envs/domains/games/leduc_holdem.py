"""Leduc Hold'em: six cards, one private card each, one public card, two limit betting rounds."""

from __future__ import annotations

from gymv_envs.core import TaskSpec
from gymv_envs.domains.games._poker import Config, PokerEnv

HANDS = {0: 20, 1: 30, 2: 40}
CONFIG = Config(hole=1, deck=tuple(4 * r + s for r in (9, 10, 11) for s in (2, 3)), board=(0, 1),
                streets=("round 1", "round 2"), ante=1, bets=(2, 4), cap=2)


class LeducHoldem(PokerEnv):
    """Play Leduc Hold'em heads-up against a built-in opponent over a fixed number of hands.

    ## Description
    The deck has six cards: jack, queen and king of hearts and of spades. Each hand both players
    ante 1 chip and get one private card; a betting round follows, then one public card is turned
    and a second betting round is played. Bets and raises are fixed: 2 chips in round 1, 4 in round
    2, at most two (a bet and a raise) per round. At the showdown a private card that pairs the
    public card wins, otherwise the higher private card; equal ranks split the pot. The button
    alternates every hand (you have it in hand 1) and acts first in both rounds. The episode is
    ``20``, ``30`` or ``40`` hands (difficulty 0, 1, 2); the frame shows ``Hand k/N``.

    ## Action Space
    `Discrete(4)`: ``fold``, ``check``, ``call``, ``raise`` (``bet`` is read as ``raise``). Fold and
    call need a bet to face, check needs none, raise needs a raise left this round; anything else is
    invalid and changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`, default 480x640: your card at the bottom, the opponent's card
    face down at the top, the public card and pot in the middle, each player's chips in the pot,
    who has the button and who is to act; at the right this hand's actions and the last hand's
    result (both cards and the public card after a showdown).

    ## Rewards
    After each step, the chips you won or lost in the hands it finished (ante and bets). ``max_return``
    is 13 chips per hand, the most one hand can win.

    ## Starting State
    The whole deal of the episode (one shuffled deck per hand) is drawn from the seed; the
    opponent's random choices come from the env's generator too. You act first in hand 1.

    ## Episode End
    Terminates after the last hand; success is a positive total. The oracle reads the hidden
    deal and knows the opponent's policy: it folds hands it would lose unless a bet surely makes the
    opponent fold, and bets winning hands as far as the opponent will call.

    ## Arguments
    ``difficulty``: the opponent and the number of hands: 0 loose-passive (calls almost anything),
    20 hands; 1 hand-strength thresholds, 30 hands; 2 hand strength, pot odds and bluffs, 40 hands.
    ``obs_size``; ``text_in_image``. The registered id defaults to difficulty 2 (a uniform random
    policy wins too often against the weaker opponents).

    ## Version History
    - v0: initial version.
    """

    config = CONFIG
    hands_per_difficulty = HANDS
    title = "Leduc Hold'em"
    rules_text = ("Deck: jack, queen, king of hearts and spades. Each hand both ante 1 and get one private card; "
                  "betting round 1; one public card is shown; betting round 2. Bets and raises are 2 chips in "
                  "round 1 and 4 in round 2, at most two per round. A card pairing the public card wins, else the "
                  "higher card; equal ranks split. The button alternates and acts first in both rounds.")


SPECS = (
    TaskSpec(name="LeducHoldem", entry_point=LeducHoldem, max_episode_steps=250, max_return=13 * HANDS[2],
             tags=("card-game", "adversarial", "hidden-information"), kwargs={"difficulty": 2}),
)
