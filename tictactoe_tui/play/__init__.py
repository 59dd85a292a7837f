"""The game, pure (no Textual): settings and the flags that make them, the game's record while it
is played, and the session's score."""
