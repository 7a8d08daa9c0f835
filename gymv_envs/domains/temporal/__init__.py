"""Temporal: native real-time arcade games under the Arcade Learning Environment's conventions."""
