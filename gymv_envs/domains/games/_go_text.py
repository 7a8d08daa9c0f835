"""Go's words: the name of each point, and what each built-in opponent does."""

from __future__ import annotations

from gymv_envs.core.cells import GO_LETTERS, cell_name

OPPONENT_TEXT = {
    "random": "plays a random legal point that is not one of its own eyes, and passes only when none is left",
    "greedy": "captures when it can, else saves its stones in atari, else puts your stones in atari, else plays "
              "a random point that is neither self-atari nor one of its own eyes",
    "search": "plays the point that most improves its estimate of the count, in which stones in atari are lost "
              "and each empty point goes to the nearer colour, and passes when none improves it",
}


def point_name(i: int, n: int) -> str:
    r, c = divmod(i, n)
    return cell_name(r, c, n, bottom_up=True, letters=GO_LETTERS)
