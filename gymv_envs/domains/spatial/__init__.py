"""Spatial: geometry, physics and aiming tasks."""
