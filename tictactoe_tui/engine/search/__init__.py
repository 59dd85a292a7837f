"""The searches: their results and limits, plain minimax, alpha-beta, the big-board search."""
