"""Shared poker engine of the games domain: deal, betting rounds, opponents, oracle, table drawing.

Everything here is a pure function of an immutable `State` and a `Config` (Leduc, limit and
no-limit hold'em differ only in their config; Kuhn poker is a config without public cards and
its own opponents). `PokerEnv` is the single-player env over it, with
the card-game state API of the two-player adapter (`start_state`, `mover`, `legal_actions`, `play`,
`chips`, `is_over`, `draw_seat`, `opponent_action`). Seat 0 is the agent, seat 1 the built-in
opponent; the button is seat ``hand % 2``. Hold'em: the button posts the small blind, acts first
before the flop and last after it. Leduc: antes, and the button acts first in both rounds.
"""

from __future__ import annotations

import functools
import re
from typing import Any, ClassVar, NamedTuple

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome
from gymv_envs.core.canvas import WHITE, blend_mask, fill_rect, new_frame, text_mask
from gymv_envs.core.parsing import candidates, parse_choice, strip_reasoning
from gymv_envs.domains.games._cards import FELT, draw_card, draw_slot
from gymv_envs.rules.poker import evaluate

FOLD, CHECK, CALL, RAISE, POT, ALLIN = range(6)
LIMIT_ACTIONS = ("fold", "check", "call", "raise")
NO_LIMIT_ACTIONS = ("fold", "check", "call", "raise half pot", "raise pot", "all in")
RANK_TEXT = tuple("23456789") + ("10", "J", "Q", "K", "A")
GOLD = (240, 200, 60)
HOLDEM_RULES = ("A 52-card deck; each hand both players get two private cards. The button posts the small blind (1), "
                "the other the big blind (2); the button alternates every hand. Betting rounds: preflop (the button "
                "acts first), flop (3 public cards), turn and river (1 each), where the big blind acts first. At the "
                "showdown the best five-card hand of each player's seven cards wins; equal hands split.")


class Config(NamedTuple):
    hole: int                      # private cards per seat
    deck: tuple[int, ...]          # the cards in play (ints of `gymv_envs.rules.poker`)
    board: tuple[int, ...]         # public cards dealt at the start of each street
    streets: tuple[str, ...]
    ante: int = 0
    blinds: tuple[int, int] = (0, 0)
    bets: tuple[int, ...] = ()     # fixed bet size per street (limit games); () for no-limit
    cap: int = 99                  # bets and raises per street (limit games; the big blind counts)
    stack: int = 0                 # no-limit: each seat's stack, reset every hand


class State(NamedTuple):
    decks: tuple[tuple[int, ...], ...]   # one shuffled deck per hand of the episode
    hand: int
    chips: tuple[int, int]               # net winnings before this hand
    street: int
    contrib: tuple[int, int]             # chips each seat has put in this hand
    bet: tuple[int, int]                 # chips each seat has put in this street
    raises: int
    acted: tuple[bool, bool]
    mover: int | None
    last_raise: int
    history: tuple[tuple[int, int, str], ...]   # (seat, street, words) of this hand
    prev: tuple | None                   # the last hand: (holes, board, delta for seat 0, shown, how)
    over: bool = False


# ------------------------------------------------------------------ rules
def holes(cfg: Config, s: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    d = s.decks[min(s.hand, len(s.decks) - 1)]
    return d[: cfg.hole], d[cfg.hole: 2 * cfg.hole]


def board(cfg: Config, s: State, full: bool = False) -> tuple[int, ...]:
    d = s.decks[min(s.hand, len(s.decks) - 1)]
    n = sum(cfg.board) if full else sum(cfg.board[: s.street + 1])
    return d[2 * cfg.hole: 2 * cfg.hole + n]


def hand_value(cfg: Config, hole: tuple[int, ...], brd: tuple[int, ...]) -> tuple[int, ...]:
    if cfg.hole == 1:   # Leduc: a pair with the public card beats any high card
        return (1, hole[0] >> 2) if brd and brd[0] >> 2 == hole[0] >> 2 else (0, hole[0] >> 2)
    return evaluate((*hole, *brd))


def showdown(cfg: Config, s: State, seat: int) -> int:
    """+1 if ``seat`` wins the current hand at showdown on the full board, -1 if it loses, 0 for a split."""
    hs, full = holes(cfg, s), board(cfg, s, full=True)
    a, b = hand_value(cfg, hs[seat], full), hand_value(cfg, hs[1 - seat], full)
    return (a > b) - (a < b)


def pot(s: State) -> int:
    return s.contrib[0] + s.contrib[1]


def to_call(s: State) -> int:
    return s.bet[1 - s.mover] - s.bet[s.mover]


def remaining(cfg: Config, s: State, seat: int) -> int:
    return cfg.stack - s.contrib[seat] if cfg.stack else 10**9


def new_hand(cfg: Config, decks: tuple, hand: int, chips: tuple[int, int], prev: tuple | None) -> State:
    if hand >= len(decks):
        return State(decks, hand, chips, 0, (0, 0), (0, 0), 0, (False, False), None, 0, (), prev, True)
    button = hand % 2
    sb, bb = cfg.blinds
    bet = (sb, bb) if button == 0 else (bb, sb)
    contrib = (cfg.ante + bet[0], cfg.ante + bet[1])
    return State(decks, hand, chips, 0, contrib, bet, 1 if bb else 0, (False, False), button, max(bb, 1), (), prev)


def raise_amount(cfg: Config, s: State, a: int) -> int:
    """Chips the mover puts in now with raise action ``a``."""
    tc = to_call(s)
    if cfg.bets:
        return tc + cfg.bets[s.street]
    rem = remaining(cfg, s, s.mover)
    if a == ALLIN:
        return rem
    by = max(s.last_raise, int(round((0.5 if a == RAISE else 1.0) * (pot(s) + tc))))
    return min(tc + by, rem)


def legal(cfg: Config, s: State) -> list[int]:
    if s.over:
        return []
    tc = to_call(s)
    out = [FOLD, CALL] if tc > 0 else [CHECK]
    if cfg.bets:
        if s.raises < cfg.cap:
            out.append(RAISE)
        return out
    rem, opp = remaining(cfg, s, s.mover), remaining(cfg, s, 1 - s.mover)
    if opp > 0 and rem > tc:
        out += [a for a in (RAISE, POT) if raise_amount(cfg, s, a) < rem] + [ALLIN]
    return out


def _end_hand(cfg: Config, s: State, winner: int | None, shown: bool, how: str) -> State:
    delta = 0 if winner is None else (s.contrib[1] if winner == 0 else -s.contrib[0])
    chips = (s.chips[0] + delta, s.chips[1] - delta)
    prev = (holes(cfg, s), board(cfg, s, full=shown), delta, shown, how)
    return new_hand(cfg, s.decks, s.hand + 1, chips, prev)


def play(cfg: Config, s: State, a: int) -> State:
    """The state after the mover's legal action ``a`` (moving on to the next hand when this one ends)."""
    m, tc = s.mover, to_call(s)
    if a == FOLD:
        return _end_hand(cfg, s._replace(history=(*s.history, (m, s.street, "fold"))), 1 - m, False, "fold")
    put = tc if a == CALL else 0 if a == CHECK else raise_amount(cfg, s, a)
    bet, contrib = list(s.bet), list(s.contrib)
    bet[m] += put
    contrib[m] += put
    if a in (CHECK, CALL):
        word = "check" if a == CHECK else f"call {put}"
        acted = (True, s.acted[1]) if m == 0 else (s.acted[0], True)
        s = s._replace(bet=tuple(bet), contrib=tuple(contrib), acted=acted, history=(*s.history, (m, s.street, word)))
        if not all(acted):
            return s._replace(mover=1 - m)
        all_in = cfg.stack and min(remaining(cfg, s, 0), remaining(cfg, s, 1)) == 0
        if s.street == len(cfg.streets) - 1 or all_in:
            r = showdown(cfg, s, 0)
            return _end_hand(cfg, s, None if r == 0 else 0 if r > 0 else 1, True, "showdown")
        first = s.hand % 2 if not cfg.blinds[1] else 1 - s.hand % 2
        return s._replace(street=s.street + 1, bet=(0, 0), raises=0, acted=(False, False), mover=first,
                          last_raise=max(cfg.blinds[1], 1))
    word = ("all in" if contrib[m] == cfg.stack else "raise") + f" to {bet[m]}" if cfg.stack else f"raise to {bet[m]}"
    acted = (True, False) if m == 0 else (False, True)
    return s._replace(bet=tuple(bet), contrib=tuple(contrib), raises=s.raises + 1, acted=acted, mover=1 - m,
                      last_raise=max(s.last_raise, put - tc), history=(*s.history, (m, s.street, word)))


# ------------------------------------------------------------------ hand strength, opponents, oracle
def strength(cfg: Config, hole: tuple[int, ...], brd: tuple[int, ...]) -> float:
    """A rough 0..1 strength of ``hole`` on the visible board (what a player can know), scaled like an
    equity against a random hand."""
    if cfg.hole == 1:
        r = (hole[0] >> 2) - 9   # J, Q, K = 0, 1, 2
        if not brd:
            return (0.3, 0.5, 0.8)[r]
        return 1.0 if brd[0] >> 2 == hole[0] >> 2 else (0.1, 0.35, 0.6)[r]
    hi, lo = sorted((c >> 2 for c in hole), reverse=True)
    if not brd:
        pair = (0.2 + 0.1 * hi / 12) if hi == lo else 0.0
        return (0.28 + 0.22 * hi / 12 + 0.12 * lo / 12 + pair + 0.03 * ((hole[0] & 3) == (hole[1] & 3))
                + 0.02 * (hi - lo == 1))
    v, bv = evaluate((*hole, *brd)), evaluate(brd)
    if v[0] <= bv[0]:
        return 0.15 + 0.2 * hi / 12
    if v[0] == 1:
        return 0.45 + 0.3 * v[1] / 12
    return (0.0, 0.0, 0.8, 0.85, 0.88, 0.9, 0.95, 0.99, 0.99)[v[0]]


def _sized(leg: list[int], want: int) -> int:
    """The legal raise nearest to the wanted size (RAISE < POT < ALLIN), or a call/check when none is."""
    raises = [a for a in leg if a >= RAISE]
    if not raises:
        return CALL if CALL in leg else CHECK
    return min(raises, key=lambda a: (abs(a - want), a))


def opponent(cfg: Config, s: State, rng: np.random.Generator, difficulty: int) -> int:
    """The built-in opponent's action for the mover: 0 loose-passive, 1 strength thresholds,
    2 strength, pot odds and bluffs. It sees only the mover's cards and the visible board."""
    leg, m = legal(cfg, s), s.mover
    st = strength(cfg, holes(cfg, s)[m], board(cfg, s))
    tc, p = to_call(s), pot(s)
    u = float(rng.random())
    if difficulty == 0:
        if tc > 0:
            if st < 0.3 and u < 0.3:
                return FOLD
            return _sized(leg, RAISE) if st > 0.8 and u > 0.8 else CALL
        return _sized(leg, RAISE) if u < (0.35 if st > 0.7 else 0.08) else CHECK
    if difficulty == 1:
        st += 0.1 * u - 0.05
        if tc > 0:
            return _sized(leg, POT) if st >= 0.7 else CALL if st >= 0.42 else FOLD
        return _sized(leg, RAISE) if st >= 0.5 else CHECK
    odds = tc / (p + tc)
    if tc > 0:
        if st >= 0.75:
            return _sized(leg, ALLIN if st > 0.93 else POT)
        if st >= 0.1 + odds:
            return CALL
        return _sized(leg, RAISE) if u < 0.1 else FOLD
    if st >= 0.5:
        return _sized(leg, POT if st > 0.8 else RAISE)
    return _sized(leg, RAISE) if u < 0.3 else CHECK


def fold_chance(cfg: Config, s: State, difficulty: int) -> float:
    """How likely `opponent` of ``difficulty`` folds in ``s`` (its mover faces a bet): the oracle's model of it."""
    if s.over or to_call(s) <= 0:
        return 0.0
    st = strength(cfg, holes(cfg, s)[s.mover], board(cfg, s))
    if difficulty == 0:
        return 0.3 if st < 0.3 else 0.0
    if difficulty == 1:
        return min(1.0, max(0.0, (0.47 - st) / 0.1))
    tc = to_call(s)
    return 0.9 if st < min(0.75, 0.1 + tc / (pot(s) + tc)) else 0.0


def oracle(cfg: Config, s: State, difficulty: int) -> int:
    """The oracle reads the whole deal and knows the opponent's policy: with a hand it will lose at the
    showdown it bluffs when the opponent surely folds, else checks or folds; with a winning hand it raises
    as much as the opponent will call, and otherwise checks and calls to keep it in."""
    leg, m = legal(cfg, s), s.mover
    r = showdown(cfg, s, m)
    passive = CHECK if CHECK in leg else CALL if r >= 0 else FOLD
    raises = [(fold_chance(cfg, play(cfg, s, a), difficulty), a) for a in leg if a >= RAISE]
    if r < 0:
        bluffs = [a for p, a in raises if p >= 0.75]
        return bluffs[0] if bluffs else passive
    if r == 0:
        return passive
    limit = 0.5 if s.street == len(cfg.streets) - 1 else 0.3
    value = [a for p, a in raises if p < limit]
    return value[-1] if value else passive


# ------------------------------------------------------------------ drawing
def card_label(c: int) -> str:
    return RANK_TEXT[c >> 2] + "\u2663\u2666\u2665\u2660"[c & 3]


SIDE = (22, 85, 50)


@functools.lru_cache(maxsize=4096)
def _text_tile(text: str, size: int, colour: tuple, bg: tuple, bold: bool) -> np.ndarray:
    mask = text_mask(text, size, bold)
    tile = new_frame(*mask.shape, bg)
    blend_mask(tile, mask, 0, 0, colour)
    tile.setflags(write=False)
    return tile


def _text(f: np.ndarray, text: str, xy: tuple[float, float], size: int, colour: tuple = WHITE, anchor: str = "lt",
          bold: bool = False, bg: tuple = FELT) -> None:
    """`draw_text` on a plain background, from a cached tile (a frame draws a dozen labels)."""
    tile = _text_tile(text, max(4, int(size)), colour, bg, bold)
    h, w = tile.shape[:2]
    x = int(round(xy[0] - (w if anchor[0] == "r" else w / 2 if anchor[0] == "m" else 0)))
    y = int(round(xy[1] - (h / 2 if anchor[1] == "m" else 0)))
    fh, fw = f.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, fw), min(y + h, fh)
    if x0 < x1 and y0 < y1:
        f[y0:y1, x0:x1] = tile[y0 - y: y1 - y, x0 - x: x1 - x]


class _Layout(NamedTuple):
    main: int
    cw: int
    ch: int
    gap: int
    ts: int
    background: np.ndarray


@functools.lru_cache(maxsize=32)
def _layout(cfg: Config, H: int, W: int) -> _Layout:
    """Card sizes and the static part of the frame (felt, side panel, empty board places), cached."""
    main = int(W * 0.66)
    ch = max(4, int(H * 0.2))
    cw = max(3, min(int(ch * 0.72), int(main / (max(len(cfg.board), sum(cfg.board)) + 1.2))))
    ch = min(ch, int(cw / 0.72))
    gap = max(1, cw // 10)
    ts = max(4, int(H * 0.045))
    f = new_frame(H, W, FELT)
    for k in range(sum(cfg.board)):
        draw_slot(f, int(W * 0.03 + k * (cw + gap)), int(H * 0.42), cw, ch)
    fill_rect(f, main, 0, W, H, SIDE)
    _text(f, "This hand:", (main + W * 0.02, H * 0.02), max(4, int(ts * 0.8)), bold=True, bg=SIDE)
    f.setflags(write=False)
    return _Layout(main, cw, ch, gap, ts, f)


def _cards(frame: np.ndarray, cards: list[int | None], x: float, y: float, w: int, h: int, gap: int,
           bg: tuple = FELT) -> None:
    for i, c in enumerate(cards):
        draw_card(frame, int(x + i * (w + gap)), int(y), w, h, None if c is None else RANK_TEXT[c >> 2], (c or 0) & 3, bg)


def draw_table(cfg: Config, s: State, seat: int, hands: int, frame_size: tuple[int, int]) -> np.ndarray:
    """The table as seat ``seat`` sees it: its own cards at the bottom, the other's backs at the top,
    the board, pot, bets and this hand's actions; the last hand's result (and a showdown's cards) at the right."""
    H, W = frame_size
    lay = _layout(cfg, H, W)
    f = lay.background.copy()
    main, cw, ch, gap, ts = lay.main, lay.cw, lay.ch, lay.gap, lay.ts
    other = 1 - seat
    you = lambda i: "You" if i == seat else "Opponent"   # noqa: E731
    hand_no = min(s.hand + 1, hands)
    _text(f, f"Hand {hand_no}/{hands}" + (" (over)" if s.over else ""), (W * 0.02, H * 0.015), ts, WHITE, "lt", bold=True)
    net = s.chips[seat]
    _text(f, f"you {net:+d}", (main - W * 0.02, H * 0.015), ts, GOLD if net > 0 else WHITE, "rt", bold=True)
    hs = holes(cfg, s)
    ys = {other: H * 0.1, seat: H * 0.72}
    for i in (other, seat):
        cards = list(hs[i]) if i == seat and not s.over else [None] * cfg.hole
        if s.over:
            cards = []
        x0 = W * 0.03
        _cards(f, cards, x0, ys[i], cw, ch, gap)
        tx = x0 + cfg.hole * (cw + gap) + W * 0.02
        ty = ys[i] + ch * 0.15
        who = you(i) + (" (button)" if s.hand % 2 == i and not s.over else "")
        colour = GOLD if s.mover == i else WHITE
        _text(f, who + (" to act" if s.mover == i else ""), (tx, ty), ts, colour, "lt", bold=s.mover == i)
        if not s.over:
            info = f"in pot {s.contrib[i]}, this round {s.bet[i]}"
            _text(f, info, (tx, ty + ts * 1.4), int(ts * 0.85), WHITE, "lt")
            if cfg.stack:
                _text(f, f"stack {cfg.stack - s.contrib[i]}", (tx, ty + ts * 2.7), int(ts * 0.85), WHITE, "lt")
    by = H * 0.42
    if not s.over:
        brd = board(cfg, s)
        _cards(f, list(brd), W * 0.03, by, cw, ch, gap)
        _text(f, f"Pot {pot(s)}  ({cfg.streets[s.street]})", (W * 0.03, by - ts * 1.3), ts, WHITE, "lt", bold=True)
    else:
        f[int(by):int(by) + ch, : main] = FELT
        _text(f, f"Episode over: you {net:+d} chips", (W * 0.03, by), ts, GOLD, "lt", bold=True)
    _side(cfg, f, s, seat, main, ts, you)
    return f


def _side(cfg: Config, f: np.ndarray, s: State, seat: int, main: int, ts: int, you: Any) -> None:
    H, W = f.shape[:2]
    x, y, small = main + W * 0.02, H * 0.02, max(4, int(ts * 0.8))
    short = {"preflop": "pre", "round 1": "r1", "round 2": "r2"}
    lines = [f"{short.get(cfg.streets[k], cfg.streets[k])} {'you' if i == seat else 'opp'}: {w}"
             for i, k, w in s.history][-7:]
    for k, line in enumerate(lines):
        _text(f, line, (x, y + (k + 1) * small * 1.3), small, WHITE, "lt", bg=SIDE)
    if s.prev is None:
        return
    (h0, h1), brd, delta, shown, how = s.prev
    d = delta if seat == 0 else -delta
    y = H * 0.55
    _text(f, "Last hand:", (x, y), small, WHITE, "lt", bold=True, bg=SIDE)
    _text(f, f"{how}, you {'won' if d > 0 else 'lost' if d < 0 else 'split'} {abs(d) if d else ''}".strip(),
          (x, y + small * 1.3), small, GOLD if d > 0 else WHITE, "lt", bg=SIDE)
    sw = max(3, int((W - main - small * 3.6) * 0.92 / 5.4))
    sh = int(sw / 0.72)
    rows = [("you", (h0, h1)[seat])]
    if shown:
        rows = [("opp", (h0, h1)[1 - seat]), *rows, ("board", brd)]
    for k, (label, cards) in enumerate(rows):
        ry = y + small * 2.8 + k * (sh + 3)
        _text(f, label, (x, ry + sh / 2), small, WHITE, "lm", bg=SIDE)
        _cards(f, list(cards), x + small * 3.6, ry, sw, sh, 2, SIDE)


# ------------------------------------------------------------------ the single-player env
_RAISE_N = re.compile(r"\b(?:raise|bet|all[\s-]*in)\s*(?:to\s*|by\s*)?(\d{1,6})\b", re.IGNORECASE)


class PokerEnv(MultiTurnEnv):
    """Base of the poker ids (see the task files): seat 0 plays against the built-in opponent."""

    config: ClassVar[Config]
    hands_per_difficulty: ClassVar[dict[int, int]]
    default_obs_size = (480, 640)
    min_obs_size = (32, 32)
    action_names = LIMIT_ACTIONS
    title: ClassVar[str] = "poker"
    rules_text: ClassVar[str] = ""
    opponent_styles: ClassVar[dict[int, str]] = {   # what the instruction says of each difficulty's opponent
        0: "loose and passive: it calls almost anything and rarely bets",
        1: "plays by hand strength: it bets and raises strong hands, calls medium ones and folds weak ones",
        2: "plays by hand strength and pot odds, and sometimes bluffs"}

    def _configure(self) -> None:
        self.cfg = type(self).config
        self.hands = self.hands_per_difficulty[self.difficulty]

    # -- generate: the whole deal of the episode
    def _generate(self, rng: np.random.Generator) -> None:
        deck = np.array(self.cfg.deck)
        self.decks = tuple(tuple(int(c) for c in rng.permutation(deck)) for _ in range(self.hands))
        self.state = self.start_state()

    # -- the card-game state API (pure)
    def start_state(self) -> State:
        return new_hand(self.cfg, self.decks, 0, (0, 0), None)

    def mover(self, s: State) -> int | None:
        return None if s.over else s.mover

    def legal_actions(self, s: State) -> list[int]:
        return legal(self.cfg, s)

    def play(self, s: State, a: int) -> State:
        return play(self.cfg, s, a)

    def chips(self, s: State) -> tuple[int, int]:
        return s.chips

    def is_over(self, s: State) -> bool:
        return s.over

    def draw_seat(self, s: State, seat: int) -> np.ndarray:
        return draw_table(self.cfg, s, seat, self.hands, self.obs_size)

    def opponent_action(self, s: State, rng: np.random.Generator) -> int:
        return opponent(self.cfg, s, rng, self.difficulty)

    # -- rules
    def _apply(self, action: int) -> Outcome:
        s = self.state
        if action not in legal(self.cfg, s):
            names = ", ".join(self.action_names[a] for a in legal(self.cfg, s))
            return Outcome(invalid=True, feedback=f"{self.action_names[action]} is not legal now; legal: {names}")
        before, hand = s.chips[0], s.hand
        s = play(self.cfg, s, action)
        while not s.over and s.mover == 1:
            s = play(self.cfg, s, self.opponent_action(s, self.np_random))
        self.state = s
        text = self._narrate(hand, s)
        reward = float(s.chips[0] - before)
        return Outcome(reward=reward, terminated=s.over, success=s.over and s.chips[0] > 0, feedback=text)

    def _narrate(self, hand: int, s: State) -> str:
        if s.hand == hand:
            return "; ".join(f"{'you' if i == 0 else 'opponent'} {w}" for i, _, w in s.history[-3:])
        (_, h1), brd, delta, shown, how = s.prev
        text = f"hand {hand + 1} ended by {how}: you {'won' if delta > 0 else 'lost' if delta < 0 else 'split'} {abs(delta)}"
        if shown:
            text += f"; opponent showed {' '.join(card_label(c) for c in h1)}"
        return text + (f"; episode over, you {s.chips[0]:+d}" if s.over else "")

    def _progress(self) -> float:
        return 1.0 if self._success else min(1.0, self.state.hand / self.hands) if self.state.chips[0] > 0 else 0.0

    def _draw(self) -> np.ndarray:
        return self.draw_seat(self.state, 0)

    def _state_text(self) -> str:
        s, cfg = self.state, self.cfg
        if s.over:
            return f"Episode over after {self.hands} hands: you {s.chips[0]:+d} chips."
        mine = " ".join(card_label(c) for c in holes(cfg, s)[0])
        brd = " ".join(card_label(c) for c in board(cfg, s)) or "none"
        hist = ", ".join(f"{'you' if i == 0 else 'opp'} {w}" for i, _, w in s.history) or "none"
        return (f"Hand {s.hand + 1}/{self.hands} ({cfg.streets[s.street]}), you {s.chips[0]:+d}. Your cards: {mine}. "
                f"Board: {brd}. Pot {pot(s)}. Actions: {hist}.")

    def _task_text(self) -> str:
        style = self.opponent_styles[self.difficulty]
        middle = "the public cards and pot" if sum(self.cfg.board) else "the pot"
        return (f"You play {self.title} heads-up against a built-in opponent for {self.hands} hands. {self.rules_text} "
                f"The image shows your cards at the bottom, the opponent's face-down cards at the top, {middle} "
                f"in the middle, this hand's actions and the last hand's result at the right; a "
                f"showdown reveals both hands. The opponent {style}. Reward: the chips you win or lose each hand; you "
                f"succeed if you are ahead after the last hand. Illegal actions (e.g. check facing a bet) change nothing.")

    # -- parsing: `bet` means raise; no-limit reads `raise N` as the nearest allowed size
    def parse_action(self, text: Any) -> Any:
        try:
            if not isinstance(text, str):
                return None
            tail = strip_reasoning(text[-4000:])
            if self.cfg.stack:
                hit = None
                for c in candidates(tail) or [tail]:
                    found = list(_RAISE_N.finditer(c[-2000:]))
                    if found:
                        hit = found[-1]
                        break
                if hit is not None and not self.state.over:
                    return self._nearest_raise(int(hit.group(1)))
            a = parse_choice(tail, self.action_names)
            if a is None:   # `bet` and (no-limit) a bare `raise` are the smallest raise
                names = (*self.action_names, "raise", *(("allin",) if self.cfg.stack else ()))
                a = parse_choice(re.sub(r"\bbet\b", "raise", tail, flags=re.IGNORECASE), names)
                a = a if a is None or a < len(self.action_names) else RAISE if a == len(self.action_names) else ALLIN
            return a
        except Exception:  # noqa: BLE001 - never raises
            return None

    def _nearest_raise(self, total: int) -> int | None:
        s = self.state
        options = [a for a in legal(self.cfg, s) if a >= RAISE]
        if not options:
            return None
        return min(options, key=lambda a: (abs(s.bet[s.mover] + raise_amount(self.cfg, s, a) - total), a))

    # -- oracle (reads the deal)
    def oracle_action(self) -> int:
        if self.state.over:
            return CHECK
        return oracle(self.cfg, self.state, self.difficulty)
