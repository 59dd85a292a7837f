"""Proven puzzles: the checker, the seeded generator and the shipped bank."""
