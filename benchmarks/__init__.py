"""Benchmark-only code that is not part of the installed package."""
