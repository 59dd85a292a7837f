"""The rules: the board, its lines and cells, a game's moves and result."""
