"""Wrappers for GymV envs: one concept per module."""
