"""What a position is worth without a search: the heuristics H1 and H2."""
