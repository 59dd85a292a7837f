"""Every game played, pure (no Textual): where it is kept, the store, a game's record as text, and
the review of a game."""
