"""Plane geometry read off a coordinate grid: hulls, circles, areas, envelopes, dissections."""
