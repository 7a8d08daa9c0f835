"""Cognition: memory and attention tasks."""
