"""ARC-style abstraction and reasoning tasks: infer a grid transformation from demonstrations."""
