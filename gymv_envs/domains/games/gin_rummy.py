"""Gin Rummy against a built-in opponent over several hands, for chips (points)."""

from __future__ import annotations

import copy
import re

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec
from gymv_envs.domains.games._gin_view import draw_table, news
from gymv_envs.rules import gin_rummy as gr

HANDS = {0: 3, 1: 4, 2: 5}   # difficulty -> hands per episode
POINTS = 100                 # reward = points won / (POINTS * hands)
OPPONENT = {0: "draws from the stock unless the up-card completes a meld, discards a random unmatched card, "
               "and knocks only for gin or once the stock is down to 10 cards",
            1: "takes the up-card when it lowers its deadwood, discards its highest deadwood card, and knocks as "
               "soon as it may",
            2: "plays like a greedy player that knocks as soon as it may, and also avoids discarding cards that "
               "would fit the cards you took from the discard pile"}
_SUIT = {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"}
_CARD = re.compile(r"\b(10|[2-9aAjJqQkKtT]|ace|jack|queen|king)\s*(?:of\s+)?(clubs?|diamonds?|hearts?|spades?|[cdhs])\b",
                   re.IGNORECASE)
_ARTICLE = re.compile(r"\bdiscard\s+(?:the|a|an|my)\s+", re.IGNORECASE)


class GinRummy(MultiTurnEnv):
    """Play several hands of two-player Gin Rummy against a scripted opponent and win more points.

    ## Description
    Standard Gin Rummy with a 52-card deck: each player holds 10 cards; a turn is a draw (the top
    of the face-down stock or the face-up top of the discard pile) and then a discard. Melds are
    sets (3-4 cards of a rank) and runs (3+ consecutive cards of a suit, ace low); deadwood is the
    value of unmatched cards (ace 1, J/Q/K 10). Instead of discarding, a player with deadwood <= 10
    may knock (or go gin with 0 deadwood): the best melds of both hands are laid down and the
    defender lays cards off on the knocker's melds (not after gin). The knocker wins the deadwood
    difference; gin wins 25 plus the defender's deadwood; if the defender's deadwood is not higher,
    the defender undercuts and wins 25 plus the difference. The card just taken from the discard pile
    may not be discarded again. A hand is a draw (no points) when a discard leaves 2 cards in the
    stock, or after 80 draws. An episode is N hands (N = 3, 4, 5 at difficulty 0, 1, 2); the deal
    alternates (you play first in hands 1, 3, ...). You are seat 0; the opponent (seat 1) answers
    within the same step. The best melds and lay-offs are computed exactly (`gymv_envs.rules.gin_rummy`).

    ## Action Space
    `Discrete(56)`: 0 ``draw stock``, 1 ``draw discard``, 2-53 ``discard <card>`` with one action per
    card of the deck (``discard AC`` .. ``discard KS``, rank A 2-10 J Q K then suit C D H S, index
    ``2 + suit * 13 + rank``), 54 ``knock``, 55 ``gin``. ``knock`` and ``gin`` discard the card that
    leaves the least deadwood themselves. The prompt lists the actions legal now; ``action_masks()``
    gives them as a mask. Illegal actions are invalid and change nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: the table: the opponent's cards face down at the top (face up at
    the end), the stock (with its count) and the discard pile (its last 8 cards fanned, the top one
    whole on the right), the score, whose turn it is,
    the opponent's last actions and the last hand's result; your hand face up at the bottom, sorted by
    suit and rank, the card you just drew tinted yellow.

    ## Rewards
    The change of your net points (your points minus the opponent's) each step, divided by
    100 * N. ``max_return`` 1.25 (a bound: 125 points a hand).

    ## Starting State
    N shuffled decks drawn from the seed (one per hand): the whole deal is fixed at reset.

    ## Episode End
    Terminates after N hands; success is a positive net total (you won more points than the opponent).

    ## Arguments
    ``difficulty``: 0, 1, 2 (the opponent's strength and N; the opponent at each level: 0 draws from the
    stock unless the up-card completes a meld, discards a random unmatched card, knocks only for gin
    or with 10 or fewer cards in the stock; 1 takes the up-card when it lowers its deadwood, discards
    its highest deadwood and knocks when allowed; 2 also avoids discarding cards that fit the cards you
    took from the pile); ``obs_size``. The registered id defaults to difficulty 1.
    The oracle reads the hidden state (the stock order, the opponent's hand and its random stream).

    ## Version History
    - v0: initial version.
    """

    action_names = tuple(gr.action_name(a) for a in range(gr.N_ACTIONS))
    reply_tail = 4000

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        self.decks = tuple(tuple(int(c) for c in rng.permutation(52)) for _ in range(HANDS[self.difficulty]))
        self.state = self.start_state()

    # -- the card-game API (pure functions of an immutable state)
    def start_state(self) -> gr.GinState:
        return gr.deal(self.decks, 0, (0, 0))

    def mover(self, s: gr.GinState) -> int | None:
        return None if s.phase == "over" else s.mover

    def legal_actions(self, s: gr.GinState) -> list[int]:
        return gr.legal(s)

    def play(self, s: gr.GinState, a: int) -> gr.GinState:
        return gr.play(s, a)

    def chips(self, s: gr.GinState) -> tuple[int, int]:
        return s.chips[0] - s.chips[1], s.chips[1] - s.chips[0]

    def is_over(self, s: gr.GinState) -> bool:
        return s.phase == "over"

    def opponent_action(self, s: gr.GinState, rng: np.random.Generator) -> int:
        """The built-in opponent of ``self.difficulty`` for the seat to move (it reads only what that seat sees)."""
        return gr.scripted_action(s, self.difficulty, rng)

    # -- step
    def action_masks(self) -> np.ndarray:
        """The legal actions now as a 0/1 vector (sb3-contrib's MaskablePPO reads this)."""
        out = np.zeros(gr.N_ACTIONS, dtype=bool)
        out[gr.legal(self.state)] = True
        return out

    def _apply(self, action: int) -> Outcome:
        s = self.state
        legal = gr.legal(s)
        if action not in legal:
            return Outcome(invalid=True, feedback=f"{self.action_names[action]} is not legal now; legal: "
                                                  f"{', '.join(self.action_names[a] for a in legal)}")
        before = self.chips(s)[0]
        s = gr.play(s, action)
        while s.phase != "over" and s.mover == 1:
            s = gr.play(s, self.opponent_action(s, self.np_random))
        self.state = s
        delta = self.chips(s)[0] - before
        done = s.phase == "over"
        return Outcome(reward=delta / (POINTS * len(self.decks)), terminated=done, success=done and self.chips(s)[0] > 0,
                       feedback=news(s, 0))

    def _progress(self) -> float:
        return self.state.hand_no / len(self.decks) if self.state.phase != "over" else float(self._success)

    # -- draw
    def draw_seat(self, s: gr.GinState, seat: int) -> np.ndarray:
        """The table as seat ``seat`` sees it: its own cards face up, the other's face down (up at the end)."""
        return draw_table(self.obs_size, s, seat)

    def _draw(self) -> np.ndarray:
        return self.draw_seat(self.state, 0)

    def _task_text(self) -> str:
        n = len(self.decks) if hasattr(self, "decks") else HANDS[self.difficulty]
        return (f"You play {n} hands of Gin Rummy against a built-in opponent that {OPPONENT[self.difficulty]}. "
                "Each player holds 10 cards. On your turn draw one card (the top of the face-down stock or the top "
                "card of the face-up discard pile), then discard one card (not the card you just took from the "
                "discard pile). Melds are sets of 3 or 4 cards of one rank and runs of 3 or more consecutive cards "
                "of one suit (ace low: A-2-3, not Q-K-A). Deadwood is the total value of cards outside melds (ace "
                "1, number cards their number, J/Q/K 10). After drawing, if your deadwood would be 10 or less "
                "you may knock, or go gin with 0 deadwood (the game discards your worst card). The opponent may "
                "then lay off cards on your melds unless you went gin. The knocker scores the deadwood difference; "
                "gin scores 25 plus the opponent's deadwood; if the opponent's deadwood is not higher than yours "
                "it undercuts you and scores 25 plus the difference. A hand is a draw when only 2 cards are left "
                "in the stock. Your cards are at the bottom, the opponent's face down at the top, the stock and "
                "the discard pile in the middle. Win more points than the opponent over all hands.")

    @property
    def action_prompt(self) -> str:
        s = getattr(self, "state", None)
        legal = ", ".join(self.action_names[a] for a in gr.legal(s)) if s is not None else "draw stock, draw discard"
        return ("Actions: draw stock, draw discard, discard <card> (rank A 2-10 J Q K and suit C D H S, like "
                f"discard 7H or discard 10S), knock, gin. Legal now: {legal}.\n"
                "End your reply with a line like `Action: draw stock`.")

    def parse_action(self, text: str):
        if isinstance(text, str):
            text = text[-self.reply_tail:]
            for glyph, letter in _SUIT.items():
                text = text.replace(glyph, letter + " ")
            text = _CARD.sub(lambda mt: _card_word(mt.group(1), mt.group(2)), _ARTICLE.sub("discard ", text))
        return super().parse_action(text)

    def _state_text(self) -> str:
        s = self.state
        names = " ".join(gr.card_name(c) for c in s.hands[0])
        top = gr.card_name(s.discard[-1]) if s.discard else "none"
        return (f"hand {s.hand_no + 1}/{len(self.decks)}; points you {s.chips[0]} opponent {s.chips[1]}; your cards: {names}; "
                f"discard top: {top}; stock: {len(s.stock)}; to move: {'you' if s.mover == 0 else 'opponent'} ({s.phase})")

    # -- oracle
    def oracle_action(self) -> int:
        """A planner that reads the hidden state: the stock order, the opponent's hand and its random
        stream (so it foresees the opponent's next turn exactly)."""
        s = self.state
        legal = gr.legal(s)
        if gr.GIN in legal:
            return gr.GIN
        return max(legal, key=lambda a: (self._turn_value(gr.play(s, a)), -a))

    def _turn_value(self, s: gr.GinState) -> float:
        """The value of ``s`` for seat 0 after the rest of its turn is played as well as possible."""
        if s.phase == "discard" and s.mover == 0:
            return max(self._value_after(gr.play(s, a)) for a in gr.legal(s))
        return self._value_after(s)

    def _value_after(self, s: gr.GinState) -> float:
        """How good ``s`` is for seat 0, with the opponent's next turn simulated exactly."""
        start_hand, chips0 = s.hand_no, self.chips(s)[0]
        rng = copy.deepcopy(self.np_random)
        while s.phase != "over" and s.mover == 1 and s.hand_no == start_hand:
            s = gr.play(s, self.opponent_action(s, rng))
        if s.phase == "over" or s.hand_no != start_hand:
            return 1000.0 * (self.chips(s)[0] - chips0)
        hand, opp, dw, knock = s.hands[0], s.hands[1], [], 0
        draws = ([(s.stock[0], -1)] if s.stock else []) + ([(s.discard[-1], s.discard[-1])] if s.discard else [])
        for card, taken in draws:   # our next draw is known: the best knock it allows, else the deadwood
            d, c = gr.best_discard((*hand, card), taken)
            dw.append(d)
            if d <= gr.KNOCK_LIMIT:
                ten = tuple(x for x in (*hand, card) if x != c)
                knock = max(knock, gr.score_knock(ten, opp, d == 0)[0])
        if knock > 0:
            return 900.0 * knock
        return -min(dw) + 0.3 * gr.deadwood(opp) / 10


def _card_word(r: str, su: str) -> str:
    rank = {"ace": "A", "jack": "J", "queen": "Q", "king": "K", "t": "10"}.get(r.lower(), r.upper())
    return rank + su[0].upper()


SPECS = (
    TaskSpec(name="GinRummy", entry_point=GinRummy, max_episode_steps=400, max_return=1.25,
             tags=("card-game", "adversarial", "hidden-information"), kwargs={"difficulty": 1}),
)
