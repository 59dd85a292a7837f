"""The two classic heuristics, H1 and H2, generalised to any k, with their terms for the panel.

For the player P and the opponent Q, over every line (run of k cells) of the board:

- **H1** = Σ over lines holding n marks of P and none of Q of 3^(n-1), minus the same for Q.
  On 3×3 this is exactly `3·X2 + X1 − (3·O2 + O1)` with X = P. A full line is a win, not a term.
- **H2** = Open(P) − Open(Q), where Open(P) counts the lines that hold no mark of Q.

For the heuristic lab, H1's weights can be changed (`H1Terms.weighted`), every line's share of
H1 and H2 is spelled out (`explain_lines`), and `heuristic_pick` says which move the heuristic
players would choose under any scoring: win at once, else block, else the best score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tictactoe_tui.engine.rules.board import Board, Mark


def h1_weights(k: int) -> tuple[int, ...]:
    """H1's usual weights, for n = 1 .. k-1 marks in a line: 3^(n-1), so (1, 3) on 3×3."""
    return tuple(3**n for n in range(k - 1))


def _checked_weights(weights: Sequence[int], k: int) -> tuple[int, ...]:
    """`weights` as a tuple, if there is one per n = 1 .. k-1; else ValueError."""
    if len(weights) != k - 1:
        raise ValueError(
            f"H1 needs {k - 1} weights with k = {k} (one for each n = 1 .. "
            f"{k - 1} marks in a line), not {len(weights)}"
        )
    return tuple(weights)


@dataclass(frozen=True)
class H1Terms:
    """The terms of H1 seen from `player`: `own[n-1]` lines hold n of its marks and none of Q's."""

    player: Mark
    own: tuple[int, ...]
    """For n = 1 .. k-1: lines with n of P's marks and no mark of Q (on 3×3: X1, X2)."""
    opp: tuple[int, ...]
    """For n = 1 .. k-1: lines with n of Q's marks and no mark of P (on 3×3: O1, O2)."""

    @property
    def value(self) -> int:
        """Σ 3^(n-1)·own[n] − Σ 3^(n-1)·opp[n]: `weighted` with `h1_weights`."""
        return self.weighted(h1_weights(len(self.own) + 1))

    def weighted(self, weights: Sequence[int]) -> int:
        """Σ weights[n-1]·(own[n] − opp[n]): H1 with other weights (`h1_weights` gives `value`)."""
        w = _checked_weights(weights, len(self.own) + 1)
        return sum(
            a * (mine - theirs) for a, mine, theirs in zip(w, self.own, self.opp, strict=True)
        )

    def formula(self) -> str:
        """The sum written out with its numbers, e.g. `3·1 + 2 − (3·0 + 1) = 4`."""
        weights = h1_weights(len(self.own) + 1)

        def side(counts: tuple[int, ...]) -> str:
            terms = zip(weights, counts, strict=True)
            parts = [f"{w}·{c}" if w > 1 else f"{c}" for w, c in terms]
            return " + ".join(reversed(parts))

        return f"{side(self.own)} − ({side(self.opp)}) = {self.value}"


@dataclass(frozen=True)
class H2Terms:
    """The terms of H2 seen from `player`: lines still open to it and to its opponent."""

    player: Mark
    open_own: int
    """Open(P): lines holding no mark of the opponent."""
    open_opp: int
    """Open(Q): lines holding no mark of P."""

    @property
    def value(self) -> int:
        """Open(P) − Open(Q)."""
        return self.open_own - self.open_opp

    def formula(self) -> str:
        """The difference written out, e.g. `5 − 2 = 3`."""
        return f"{self.open_own} − {self.open_opp} = {self.value}"


def explain_h1(board: Board, player: Mark) -> H1Terms:
    """H1's line counts for `player` on `board`."""
    mine, theirs = board.bits(player), board.bits(player.opponent)
    k = board.k
    own = [0] * (k - 1)
    opp = [0] * (k - 1)
    for mask in board.geometry.lines:
        a = (mine & mask).bit_count()
        b = (theirs & mask).bit_count()
        if a and not b and a < k:
            own[a - 1] += 1
        elif b and not a and b < k:
            opp[b - 1] += 1
    return H1Terms(player, tuple(own), tuple(opp))


def explain_h2(board: Board, player: Mark) -> H2Terms:
    """H2's open-line counts for `player` on `board`."""
    mine, theirs = board.bits(player), board.bits(player.opponent)
    open_own = open_opp = 0
    for mask in board.geometry.lines:
        if not theirs & mask:
            open_own += 1
        if not mine & mask:
            open_opp += 1
    return H2Terms(player, open_own, open_opp)


def h1(board: Board, player: Mark) -> int:
    """H1 seen from `player`: 3·X2 + X1 − (3·O2 + O1) on 3×3, the same shape for any k."""
    return explain_h1(board, player).value


def h2(board: Board, player: Mark) -> int:
    """H2 seen from `player`: Open(player) − Open(opponent)."""
    return explain_h2(board, player).value


@dataclass(frozen=True)
class LineTerm:
    """One line's share of H1 and H2, seen from `player`."""

    cells: tuple[int, ...]
    """The line's cells, in order along it."""
    own: int
    """Marks of the player in the line."""
    opp: int
    """Marks of the opponent in the line."""
    h1: int
    """What the line adds to H1: +w(own) when only the player's marks are in it, −w(opp) when
    only the opponent's, 0 when it is empty, blocked (both marks) or complete (a win)."""

    @property
    def open_own(self) -> bool:
        """True when the line holds no mark of the opponent: it counts in Open(player)."""
        return self.opp == 0

    @property
    def open_opp(self) -> bool:
        """True when the line holds no mark of the player: it counts in Open(opponent)."""
        return self.own == 0

    @property
    def h2(self) -> int:
        """What the line adds to H2: +1 open to the player only, −1 to the opponent only, else 0."""
        return int(self.open_own) - int(self.open_opp)

    @property
    def kind(self) -> str:
        """ "empty", "own" (only the player's marks), "opp", "blocked" (both) or "won"."""
        if self.own and self.opp:
            return "blocked"
        if self.own + self.opp == len(self.cells):
            return "won"
        if self.own:
            return "own"
        return "opp" if self.opp else "empty"


def explain_lines(
    board: Board, player: Mark, weights: Sequence[int] | None = None
) -> tuple[LineTerm, ...]:
    """Every line of `board` with its marks and its share of H1 (with `weights`) and of H2.

    The shares add up to H1 (`H1Terms.weighted(weights)`) and to H2 from `player`'s side.
    """
    w = h1_weights(board.k) if weights is None else _checked_weights(weights, board.k)
    mine, theirs = board.bits(player), board.bits(player.opponent)
    geo = board.geometry
    out = []
    for mask, cells in zip(geo.lines, geo.line_cells, strict=True):
        a = (mine & mask).bit_count()
        b = (theirs & mask).bit_count()
        share = 0
        if a and not b and a < board.k:
            share = w[a - 1]
        elif b and not a and b < board.k:
            share = -w[b - 1]
        out.append(LineTerm(cells, a, b, share))
    return tuple(out)


@dataclass(frozen=True)
class CandidateTerms:
    """One legal move and the heuristics' terms of the board after it, from the mover's side."""

    move: int
    h1: H1Terms
    h2: H2Terms
    after: Board
    """The board after the move."""


def candidate_terms(board: Board) -> tuple[CandidateTerms, ...]:
    """H1's and H2's terms after each legal move of `board`, in cell order (the lab's table)."""
    mover = board.to_move
    out = []
    for move in board.legal_moves():
        after = board.play(move)
        out.append(CandidateTerms(move, explain_h1(after, mover), explain_h2(after, mover), after))
    return tuple(out)


def immediate_wins(board: Board, mark: Mark) -> list[int]:
    """The empty cells where `mark` would complete a line at once, in increasing order."""
    if board.is_over:
        return []
    bits = board.bits(mark)
    return [
        cell
        for cell in board.legal_moves()
        if any((bits | 1 << cell) & mask == mask for mask in board.geometry.cell_lines[cell])
    ]


@dataclass(frozen=True)
class HeuristicPick:
    """The moves a heuristic player would choose from, and by which rule."""

    rule: str
    """"win" (a move wins at once), "block" (the opponent threatens to win there) or "score"."""
    moves: tuple[int, ...]
    """The equally good moves, in increasing order: the player picks one of them at random."""
    score: float | None
    """Their score (None for "win": a win is played without scoring); a learner's evaluation
    may give any number, ours give whole ones."""


def heuristic_pick(board: Board, score: Callable[[int], float]) -> HeuristicPick:
    """Seed 004's clever computer: win now, else block, else the best `score(move)`.

    With several blocks, the best-scoring ones; every tie is kept. `board` must not be over.
    """
    me = board.to_move
    wins = immediate_wins(board, me)
    if wins:
        return HeuristicPick("win", tuple(wins), None)
    blocks = immediate_wins(board, me.opponent)
    candidates = blocks or board.legal_moves()
    if not candidates:
        raise ValueError("the game is over: there is no move to choose")
    scored = {move: score(move) for move in candidates}
    best = max(scored.values())
    return HeuristicPick(
        "block" if blocks else "score",
        tuple(sorted(m for m, s in scored.items() if s == best)),
        best,
    )


@dataclass(frozen=True)
class Ranking:
    """A position's moves under H1 with some weights, and under H2: values, order and picks."""

    weights: tuple[int, ...]
    h1: dict[int, int]
    """Weighted H1 of the board after each legal move, from the mover's side."""
    h2: dict[int, int]
    """H2 of the board after each legal move, from the mover's side."""
    order: tuple[int, ...]
    """The legal moves, best H1 first (then best H2, then cell order)."""
    h1_pick: HeuristicPick
    """What an H1 player with these weights would choose from."""
    h2_pick: HeuristicPick
    """What an H2 player would choose from."""


def rank_moves(
    board: Board, candidates: Sequence[CandidateTerms], weights: Sequence[int]
) -> Ranking:
    """Rank `candidates` (`candidate_terms(board)`) under H1 with `weights`, and under H2.

    Re-ranking with new weights reuses the terms, so it costs a few multiplications per move.
    """
    w = _checked_weights(weights, board.k)
    h1_of = {c.move: c.h1.weighted(w) for c in candidates}
    h2_of = {c.move: c.h2.value for c in candidates}
    order = tuple(sorted(h1_of, key=lambda m: (-h1_of[m], -h2_of[m], m)))
    return Ranking(
        w,
        h1_of,
        h2_of,
        order,
        heuristic_pick(board, h1_of.__getitem__),
        heuristic_pick(board, h2_of.__getitem__),
    )
