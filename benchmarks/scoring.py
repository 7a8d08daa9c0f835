"""The scoring protocol of DESIGN.md section 5, for one episode."""

from __future__ import annotations


def episode_score(protocol: str, episode_return: float, max_return: float, success: bool) -> float:
    """Single-turn: 100 for a correct answer, else 0. Multi-turn: 100 * clip(R / max_return, 0, 1).

    >>> episode_score("multi_turn", -3.0, 1.0, False)
    0.0
    >>> episode_score("single_turn", 1.0, 1.0, True)
    100.0
    """
    if protocol == "single_turn":
        return 100.0 if success else 0.0
    if protocol == "multi_turn":
        return 100.0 * min(1.0, max(0.0, episode_return / max_return))
    raise ValueError(f"unknown protocol {protocol!r}; valid: single_turn, multi_turn")
