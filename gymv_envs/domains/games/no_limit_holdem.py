"""No-limit Texas Hold'em, heads-up: blinds 1/2, stacks of 100 every hand, five bet sizes."""

from __future__ import annotations

from gymv_envs.core import TaskSpec
from gymv_envs.domains.games._poker import HOLDEM_RULES, NO_LIMIT_ACTIONS, Config, PokerEnv

HANDS = {0: 20, 1: 60, 2: 120}
CONFIG = Config(hole=2, deck=tuple(range(52)), board=(0, 3, 1, 1), streets=("preflop", "flop", "turn", "river"),
                blinds=(1, 2), stack=100)


class NoLimitHoldem(PokerEnv):
    """Play heads-up no-limit Texas Hold'em against a built-in opponent over a fixed number of hands.

    ## Description
    As `LimitHoldem` (52 cards, two private cards, blinds 1/2 with the alternating button as small
    blind, preflop/flop/turn/river, best five of seven), but both players start every hand with a
    stack of 100 chips and may raise any amount: the action set is the small discrete one RL suites
    use. A raise of half the pot or the pot puts in the call plus half or all of the pot after the
    call, at least the last raise (or the big blind); all in puts in the whole stack. The episode is
    ``20``, ``60`` or ``120`` hands (difficulty 0, 1, 2); the frame shows ``Hand k/N``.

    ## Action Space
    `Discrete(6)`: ``fold``, ``check``, ``call``, ``raise half pot``, ``raise pot``, ``all in``. Fold
    and call need a bet to face, check needs none; a raise needs chips beyond the call and an opponent
    who is not all in (a size that would use the whole stack is only ``all in``). In text, ``raise N``
    / ``bet N`` / ``raise to N`` is read as the legal raise whose total bet this round is nearest to N,
    and ``bet`` alone as ``raise half pot``. Illegal actions change nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`, default 480x640: as `LimitHoldem`, plus each player's stack.

    ## Rewards
    After each step, the chips you won or lost in the hands it finished. ``max_return`` is 100 chips
    (a whole stack) times the 120 hands of difficulty 2.

    ## Starting State
    The whole deal of the episode (one shuffled deck per hand) is drawn from the seed; the
    opponent's random choices come from the env's generator too. You act first in hand 1.

    ## Episode End
    Terminates after the last hand; success is a positive total. The oracle reads the hidden deal
    and knows the opponent's policy: it folds hands it would lose unless a bet surely makes the
    opponent fold, and bets winning hands as much as the opponent will call.

    ## Arguments
    ``difficulty``: the opponent and the number of hands: 0 loose-passive, 20 hands; 1 hand-strength
    thresholds, 60 hands; 2 hand strength, pot odds and bluffs (and all-in with its best hands),
    120 hands. ``obs_size``; ``text_in_image``. The registered id defaults to difficulty 2 (a
    uniform random policy wins too often against the weaker opponents).

    ## Version History
    - v0: initial version.
    """

    config = CONFIG
    hands_per_difficulty = HANDS
    action_names = NO_LIMIT_ACTIONS
    title = "no-limit Texas Hold'em"
    rules_text = (HOLDEM_RULES + " Both players start every hand with 100 chips. A raise of half the pot or the pot "
                  "puts in the call plus half or all of the pot after the call (at least the last raise); all in "
                  "puts in the whole stack. You may also say `raise N` for the allowed raise nearest to a total bet of N.")


SPECS = (
    TaskSpec(name="NoLimitHoldem", entry_point=NoLimitHoldem, max_episode_steps=800, max_return=100 * HANDS[2],
             tags=("card-game", "adversarial", "hidden-information"), kwargs={"difficulty": 2}),
)
