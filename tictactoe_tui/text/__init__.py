"""Wording, pure: panel rows, game and lab sentences, plain text tables (no Textual)."""
