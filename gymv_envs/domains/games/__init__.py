"""Games: multi-turn puzzles, board games and arcade games."""
