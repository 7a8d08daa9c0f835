"""Logic: single-turn constraint and deduction puzzles."""
