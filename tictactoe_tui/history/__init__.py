"""Every game and study kept, pure (no Textual): where it is kept, the store and its parts, a
game's record as text, a study's move tree, the review of a game and the puzzles tried."""
