"""FreeCell solitaire: move every card to the foundations, one card at a time."""

from __future__ import annotations

import re

import numpy as np

from gymv_envs.core import MultiTurnEnv, Outcome, TaskSpec, parsing
from gymv_envs.domains.games._freecell_solver import (
    CASCADES,
    CELLS,
    FOUNDATION,
    State,
    can_move,
    card_at,
    check,
    legal_moves,
    move,
    solve,
)
from gymv_envs.domains.games._freecell_view import card_name, paint, table_layout
from gymv_envs.rules.cards import GLYPHS, RANKS

LEVELS = {0: 4, 1: 7, 2: 13}   # difficulty -> ranks per suit (A-4, A-7, a full deck)
SOLVER_LIMIT = 4000            # positions the solver may expand to accept a deal (else a new deal is drawn)
ACTIONS = tuple((src, dst) for src in range(FOUNDATION) for dst in range(FOUNDATION + 1) if src != dst)
_PLACE = r"(?:(cascade|column|col|c)\s*#?\s*([1-8])|(free\s*cell|freecell|cell|fc)\s*#?\s*([1-4])?|(foundations?|home|f|h))"
_MOVE = re.compile(rf"(?<![a-z0-9]){_PLACE}(?![a-z0-9])\s*(?:(?:to|onto|into|on|->|=>|\u2192|-|,)\s*)?(?:the\s+)?"
                   rf"(?<![a-z0-9]){_PLACE}(?![a-z0-9])")


def place_name(p: int) -> str:
    if p < CASCADES:
        return f"cascade {p + 1}"
    return f"free cell {p - CASCADES + 1}" if p < FOUNDATION else "foundation"


class FreeCell(MultiTurnEnv):
    """Solve a FreeCell deal by moving one card at a time until every card is on its foundation.

    ## Description
    Eight cascades of face-up cards, four free cells (top left) and four foundations (top right, one
    per suit, in the order spades, hearts, diamonds, clubs). Only the last (lowest drawn) card of a
    cascade, or a card in a free cell, can move, one card per step: to its suit's foundation if it is
    the next rank up (ace first); to an empty free cell; onto the last card of another cascade if that
    card is one rank higher and of the other colour (hearts and diamonds are red); or to an empty
    cascade. Cards never leave the foundations. Every card on the foundations wins.

    The oracle follows a plan from a best-first solver (runs of cards moved through free cells and
    safe cards sent home at once, all expanded into single-card moves) and solves again from any
    position off its plan.

    ## Action Space
    `Discrete(144)`: a (source, destination) pair: sources are cascades 1-8 and free cells 1-4;
    destinations are cascades 1-8, free cells 1-4 and the foundation (the card's own suit pile).
    Named like ``cascade 3 to foundation`` or ``free cell 2 to cascade 5``; short codes ``c3 f``,
    ``c3 fc1``, ``fc2 c5`` are read too. An empty source or a move against the rules is invalid and
    changes nothing.

    ## Observation Space
    `Box(0, 255, (H, W, 3), uint8)`: cards on green felt with rank and suit sign (red or black) in the
    top-left corner; places are labelled FC1-FC4, F and C1-C8.

    ## Rewards
    ``+1/cards`` for each card moved to a foundation (``max_return`` 1.0, reached exactly on success).

    ## Starting State
    A deck of the four suits from ace to rank 4 (difficulty 0), 7 (1) or king (2), shuffled from the
    seed and dealt left to right into the eight cascades; a deal is kept only when the solver solves it.

    ## Episode End
    Terminates with success when every card is on the foundations, in failure when no legal move is
    left; the step budget truncates.

    ## Arguments
    ``difficulty`` (0: 16 cards, 1: 28 cards, 2: 52 cards), ``obs_size``. The registered id defaults to
    difficulty 1.

    ## Version History
    - v0: initial version.
    - v1: levels are drawn from a generator derived from the seed apart from Gymnasium's action-space
      seeding (a seeded random policy no longer replays the level's draws). The registered id defaults
      to difficulty 1: random play scored 38 (cards sent home) on the 16-card deals of difficulty 0, 10
      at difficulty 1.
    """

    transient_attrs = (*MultiTurnEnv.transient_attrs, "_canvas", "_shown", "_table")

    def _configure(self) -> None:
        self.ranks = LEVELS[self.difficulty]
        self.total = 4 * self.ranks
        self.action_names = tuple(f"{place_name(s)} to {place_name(d)}" for s, d in ACTIONS)
        self._index = {a: i for i, a in enumerate(ACTIONS)}
        self._canvas = self._shown = self._table = None

    # -- generate
    def _generate(self, rng: np.random.Generator) -> None:
        deck = [r * 4 + s for s in range(4) for r in range(1, self.ranks + 1)]
        while True:
            order = rng.permutation(len(deck))
            cascades = tuple(tuple(deck[int(k)] for k in order[j::CASCADES]) for j in range(CASCADES))
            self.state: State = (cascades, (0,) * CELLS, (0,) * 4)
            if self._plan_from(self.state, SOLVER_LIMIT):
                return

    def _plan_from(self, s: State, limit: int) -> bool:
        """Solve from ``s``; remember the move to make in each position of the solution."""
        steps = solve(s, limit)
        if steps is None:
            return False
        self._plan, self._unsolved = {}, set()
        for src, dst in steps:
            self._plan[s] = self._index[(src, dst)]
            s = move(s, src, dst)
        return True

    # -- rules
    def _apply(self, action: int) -> Outcome:
        src, dst = ACTIONS[action]
        why = check(self.state, src, dst)
        if why:
            return Outcome(invalid=True, feedback=f"{self.action_names[action]} is not allowed: {why}")
        card = card_at(self.state, src)
        self.state = move(self.state, src, dst)
        text = f"moved {card_name(card)} from {place_name(src)} to {place_name(dst)}"
        reward = 1.0 / self.total if dst == FOUNDATION else 0.0
        if sum(self.state[2]) == self.total:
            return Outcome(reward=reward, terminated=True, success=True, feedback=f"{text}: every card is home")
        if not can_move(self.state):
            return Outcome(reward=reward, terminated=True, feedback=f"{text}: no legal move is left")
        return Outcome(reward=reward, feedback=text)

    def _progress(self) -> float:
        return sum(self.state[2]) / self.total

    # -- draw
    def _layout(self) -> dict:
        """Card size, places and the empty table (labels, outlines), made once per env."""
        if self._table is None:
            self._table = table_layout(self.obs_size)
        return self._table

    def _draw(self) -> np.ndarray:
        L = self._layout()
        if self._canvas is None:
            self._canvas, self._shown = L["base"].copy(), {}
        cascades, cells, found = self.state
        regions = [(("cell", k), cells[k]) for k in range(CELLS)]
        regions += [(("home", s), found[s]) for s in range(4)]
        regions += [(("col", j), cascades[j]) for j in range(CASCADES)]
        for region, key in regions:
            if self._shown.get(region) != key:
                paint(self._canvas, region, key, L, self.obs_size[0])
                self._shown[region] = key
        return self._canvas

    # -- oracle
    def oracle_action(self) -> int:
        s = self.state
        if s not in self._plan and s not in self._unsolved and not self._plan_from(s, 5 * SOLVER_LIMIT):
            self._unsolved.add(s)
        if s in self._plan:
            return self._plan[s]
        moves = legal_moves(s)   # no plan found from here: any legal move, a card home first
        home = [m for m in moves if m[1] == FOUNDATION]
        return self._index[(home or moves or [ACTIONS[0]])[0]]

    # -- VLM protocol
    def _task_text(self) -> str:
        top = RANKS[self.ranks]
        return (f"This is FreeCell solitaire with the four suits from A to {top} ({self.total} cards). Top left are "
                "four free cells (FC1-FC4), top right the four foundations (F, one per suit: spades, hearts, "
                "diamonds, clubs), and below are eight cascades (C1-C8). Only the last (lowest drawn) card of a "
                "cascade, or a card in a free cell, can move, one card per turn: to its suit's foundation if it is "
                "the next rank up (ace first); to an empty free cell; onto the last card of another cascade if that "
                "card is one rank higher and of the other colour (hearts and diamonds are red, spades and clubs "
                "black); or to an empty cascade. Cards on the foundations stay there. Move every card to the "
                "foundations to win; each card sent home earns reward.")

    @property
    def action_prompt(self) -> str:
        return ("Each turn, reply with one move `<source> to <destination>`: the source is `cascade 1`-`cascade 8` or "
                "`free cell 1`-`free cell 4`; the destination is a cascade, a free cell or `foundation`. Short codes "
                "work too: c1-c8, fc1-fc4 and f (e.g. `c3 f`, `c3 fc1`, `fc2 c5`).\n"
                "End your reply with a line like `Action: cascade 3 to foundation`.")

    def _place(self, m: re.Match, first: int, source: bool) -> int | None:
        g = m.groups()[first:first + 5]
        if g[0]:
            return int(g[1]) - 1
        if g[2]:
            if g[3]:
                return CASCADES + int(g[3]) - 1
            pick = [k for k in range(CELLS) if bool(self.state[1][k]) == source]   # the one card in a cell, or the first empty cell
            return CASCADES + pick[0] if len(pick) == 1 or (pick and not source) else None
        return None if source else FOUNDATION

    def parse_action(self, text: str):
        try:
            if not isinstance(text, str):
                return None
            for cand in parsing.candidates(text):
                found = None
                for m in _MOVE.finditer(cand.lower()):
                    src, dst = self._place(m, 0, True), self._place(m, 5, False)
                    if src is not None and dst is not None and (src, dst) in self._index:
                        found = self._index[(src, dst)]
                if found is not None:
                    return found
            return None
        except Exception:  # noqa: BLE001 - the contract: never raises
            return None

    def _state_text(self) -> str:
        cascades, cells, found = self.state
        free = "  ".join(f"FC{k + 1}: {card_name(c) if c else '--'}" for k, c in enumerate(cells))
        home = "  ".join(f"{GLYPHS[s]}: {RANKS[found[s]] or '--'}" for s in range(4))
        cols = "\n".join(f"C{j + 1}: " + (" ".join(map(card_name, col)) or "(empty)") for j, col in enumerate(cascades))
        return f"free cells  {free}\nfoundations {home}\n{cols}\n(the last card of each cascade is the one that moves)"


SPECS = (
    TaskSpec(name="FreeCell", entry_point=FreeCell, version=1, max_episode_steps=300,
             tags=("puzzle", "cards", "planning"), kwargs={"difficulty": 1}),
)
