"""Mastermind code enumeration and scoring for MastermindDeduce: all codes, peg scores, scores against all."""

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


@functools.cache
def score_table(length: int, colours: int, repeats: bool) -> list[list[int]] | None:
    """`score` of every code of `all_codes` (row) against every code (column), as lists; None from 400
    codes on (5 pegs of 6 colours: 7,776 codes, a table of 60 million scores)."""
    codes, counts = all_codes(length, colours, repeats)
    if len(codes) > 400:
        return None
    return [score(codes, counts, guess, colours).tolist() for guess in codes]
