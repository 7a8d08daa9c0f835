"""Cognition: memory, attention, perception and abstract and spatial reasoning tasks."""
