"""Puzzles: single-turn visual puzzles (paths, counts, arrangements)."""
