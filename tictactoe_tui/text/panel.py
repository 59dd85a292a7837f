"""What the evaluation panel shows, as plain values: the screen builds these (see `report`) and
the panel widget only lays them out."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CandidateRow:
    """One candidate move in the panel."""

    cell: str
    """The cell's name, e.g. "B2"."""
    score: int
    """The score, seen from the side that was to move."""
    words: str
    """The score in words: "win in 3", "draw", "+12 (heuristic)"."""
    nodes: int
    """Positions searched for this move."""
    exact: bool
    """False when the score is an estimate (a heuristic at a depth cut-off), not a game value."""
    chosen: bool
    """True for the move that was played (or that the hint recommends)."""
    move: int = -1
    """The cell, row-major (-1 when unknown)."""
    line: tuple[int, ...] = ()
    """The expected line after this move, the move first (cells, row-major)."""
    line_names: str = ""
    """The same line in cell names, e.g. "B2 A1 C3"."""
    kind: str = ""
    """What `score` is: "exact", "estimate", "at_most", "at_least" (empty: read from `exact`)."""
    marked: str = ""
    """The score with its kind's mark, as the score column shows it: "-8", "~-13", "≤ -14"."""
    note: str = ""
    """Where the score came from or how deep, when it says more than a search's number:
    "mirror of B1", "from the table", "leaves a four", "VCT", "depth 1" (explains 0 positions)."""
    detail: str = ""
    """The row in a sentence, shown when it is picked: its meaning in full, its origin, its
    line; for a rule or a threat search, the proof ("Won by a chain of fours (VCF): …")."""
    proof: str = ""
    """For a score a rule or a threat search proved, the proof in a sentence (else "")."""

    @property
    def bound(self) -> bool:
        """True when the score is a bound (at most / at least), not a value: drawn fainter."""
        return self.kind in ("at_most", "at_least")


@dataclass(frozen=True)
class StoryRow:
    """One completed depth of a search, as a chess engine's `info` line tells it."""

    depth: int
    """Plies searched from the position."""
    cell: str
    """The best move after this depth, e.g. "E5"."""
    marked: str
    """Its score with the mark of its kind: "~-13", "≥ +92", "0"."""
    nodes: int
    """Positions searched so far, over every depth."""
    elapsed: float
    """Seconds since the search started."""
    note: str = ""
    """How the score was found when not by the search itself: "VCT", "wins at once"."""


@dataclass(frozen=True)
class PanelReport:
    """Everything the panel shows about one analysed position."""

    title: str
    """What was analysed: "O (computer) played B2", "Hint for X"."""
    algorithm: str
    """The algorithm's name for people: "alpha-beta", "minimax", "H1", "H2"."""
    nodes: int
    """Positions searched in all."""
    elapsed: float
    """Seconds the search took."""
    depth: int
    """Plies searched."""
    complete: bool
    """True when the best move is proven best (see `reach` for what the scores are)."""
    rows: tuple[CandidateRow, ...]
    """The candidates shown, best first (the top ten on big boards)."""
    total_moves: int
    """How many legal moves there were (more than `rows` when the list is cut)."""
    verdict: str = ""
    """Whether the move was clever or random, and why."""
    terms: tuple[str, ...] = ()
    """For H1 / H2: the terms and the formula, one line each."""
    mover: str = ""
    """The mark ("X" or "O") whose moves the rows score: it plays the lines' odd steps."""
    reach: str = ""
    """How far the search got and what that makes the scores: "depth 7, cut off, heuristic at
    the leaves", "depth 9, solved to the end", "depth 5, F2 proven best; the rest cut off"."""
    legend: tuple[str, ...] = ()
    """One line per mark the rows show (estimate, bounds, 0 positions, depths, threats)."""
    equal: str = ""
    """The moves known to be equally good, when more than one: "3 moves equally good: …"."""
    story: tuple[StoryRow, ...] = ()
    """The search's completed depths, first to last (shown when there are two or more)."""


@dataclass(frozen=True)
class ThinkingReport:
    """A running search, as the panel shows it live."""

    title: str
    """Who is thinking: "O (computer) is thinking…", "Analysing X's position…"."""
    algorithm: str
    """The algorithm's name for people."""
    depth: int
    """Plies of the deepest completed iteration (0 before the first)."""
    nodes: int
    """Positions searched so far."""
    elapsed: float
    """Seconds since the search started."""
    budget: float | None
    """The time budget in seconds, or None when the search runs to its end."""
    best: str
    """The best move so far in words: "E5, score ~+3 so far", or "" before any."""
    line_names: str
    """The expected line so far, in cell names."""
    story: tuple[StoryRow, ...] = ()
    """The depths completed so far, first to last."""
    said: tuple[str, ...] = ()
    """An outside engine's own words so far (its MESSAGE lines), oldest first."""
    said_by: str = ""
    """The outside engine thinking (its name), or "" for our own search."""
