"""The players: random, heuristic, minimax, alpha-beta, difficulty, outside engines, matches."""
