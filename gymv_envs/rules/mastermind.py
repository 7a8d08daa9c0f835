"""Mastermind codes and their scores (MastermindDeduce, Mastermind): every code, and the black and white pegs
of one code against another as ``black * base + white`` (base 16 unless a caller packs them tighter)."""

from __future__ import annotations

import functools
import itertools

import numpy as np


@functools.cache
def all_codes(length: int, colours: int, repeats: bool) -> tuple[np.ndarray, np.ndarray]:
    """Every code (rows of colour indices) and its colour counts (read-only)."""
    codes = np.array([p for p in itertools.product(range(colours), repeat=length) if repeats or len(set(p)) == length],
                     dtype=np.int8)
    counts = np.stack([(codes == k).sum(1) for k in range(colours)], axis=1)
    codes.setflags(write=False)
    counts.setflags(write=False)
    return codes, counts


def score_pair(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """`score` of one code against another: black * 16 + white."""
    black = sum(x == y for x, y in zip(a, b))
    common = sum(min(a.count(k), b.count(k)) for k in set(a))
    return black * 16 + common - black


def score(codes: np.ndarray, counts: np.ndarray, guess: np.ndarray, colours: int) -> np.ndarray:
    """(black, white) pegs of ``guess`` against every code, as black * 16 + white."""
    black = (codes == guess).sum(1)
    gcount = np.bincount(guess, minlength=colours)
    common = np.minimum(counts, gcount).sum(1)
    return black * 16 + (common - black)


@functools.cache
def _score_rows(length: int, colours: int, repeats: bool) -> np.ndarray:
    """For every code of `all_codes` (columns): per (position, colour), whether the colour sits there,
    then per (colour, j), whether the code holds at least j + 1 pegs of it (read-only uint8 rows)."""
    codes, counts = all_codes(length, colours, repeats)
    at = (codes[:, :, None] == np.arange(colours)).reshape(len(codes), -1)
    least = (counts[:, :, None] > np.arange(length)).reshape(len(codes), -1)
    out = np.ascontiguousarray(np.concatenate([at, least], axis=1).T.astype(np.uint8))
    out.setflags(write=False)
    return out


def score_all(length: int, colours: int, repeats: bool, guess) -> np.ndarray:
    """`score` of ``guess`` against every code of `all_codes` (black * 16 + white = 15 * black + common):
    sums of a few rows of `_score_rows`."""
    rows = _score_rows(length, colours, repeats)
    guess = [int(v) for v in guess]
    black = rows[[p * colours + v for p, v in enumerate(guess)]].sum(axis=0, dtype=np.int64)
    gcount = np.bincount(guess, minlength=colours)
    shared = [length * colours + k * length + j for k in range(colours) for j in range(int(gcount[k]))]
    return 15 * black + rows[shared].sum(axis=0, dtype=np.int64)


@functools.lru_cache(maxsize=8)
def feedback_table(length: int, colours: int, repeats: bool, base: int = 16) -> np.ndarray:
    """The score of every code of `all_codes` (row) against every code (column), ``black * base + white``,
    as a read-only uint8 array (``base`` at most 16 and ``length`` at most 15: each score fits)."""
    if not 2 <= base <= 16 or length >= 16:
        raise ValueError(f"feedback_table: base must be 2-16 and length under 16, got base={base}, length={length}")
    codes, counts = all_codes(length, colours, repeats)
    black = (codes[:, None, :] == codes[None, :, :]).sum(-1)
    common = np.minimum(counts[:, None, :], counts[None, :, :]).sum(-1)
    table = (black * base + common - black).astype(np.uint8)
    table.setflags(write=False)
    return table


@functools.cache
def score_table(length: int, colours: int, repeats: bool) -> list[list[int]] | None:
    """`feedback_table` (base 16) as lists, for scores read one at a time; None from 400 codes on (5 pegs of
    6 colours: 7,776 codes, a table of 60 million scores)."""
    if len(all_codes(length, colours, repeats)[0]) > 400:
        return None
    return feedback_table(length, colours, repeats).tolist()
