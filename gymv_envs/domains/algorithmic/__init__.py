"""Algorithmic tasks: simulations (cellular automata, ants, Turing machines), grid algorithms
(distances, rotations, matchings, paths), impartial games and counting on drawn boards."""
