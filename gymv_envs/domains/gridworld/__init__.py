"""Gridworld: MiniGrid-style 2D worlds of rooms, doors, keys, balls, boxes, lava and goals."""
