"""Proofs: threat-space search, the exact solver, pairing strategies, the defence from a proof."""
