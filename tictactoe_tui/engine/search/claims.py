"""What a root move of the depth-limited search claims, on the public scale of `types`: its
kind (exact, a bound, an estimate), its band and its score (`root_claim`)."""

from __future__ import annotations

from tictactoe_tui.engine.rules.board import Board
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.pvs import EXACT, LOWER, MATE, MATE_BAND, UPPER, RootMove
from tictactoe_tui.engine.search.types import GAME_RULES, Band, Kind, win_score


def public_score(value: int, board: Board) -> int:
    """A `pvs` score on the public scale: a win on ply d is W - d; a heuristic value kept within
    W - 2 either way (below a win in one's score).

    The heuristic's range does not shrink as the search deepens: a won position the search
    cannot prove (its nodes report the heuristic's extreme, `pvs.HEURISTIC_MAX`) reads the same
    number at every depth, rather than one squeezed towards 0 by each deeper iteration. The
    band (`MoveScore.band`), not the number, ranks a heuristic below every proven win.
    """
    big = win_score(board)
    if value >= MATE_BAND:
        return big - (MATE - value)
    if value <= -MATE_BAND:
        return -(big - (MATE + value))
    return capped_estimate(value, big)


def capped_estimate(value: int, big: int) -> int:
    """A heuristic value on the public scale (`big` = W): within W - 2 either way, so a win in
    one (W - 1) always ranks above it."""
    cap = big - 2
    return max(-cap, min(cap, value))


def root_claim(root: RootMove, board: Board) -> tuple[Kind, Band, int]:
    """What a root move's value says, as (kind, band, public score).

    A win or loss the search proves holds against every legal reply but its distance is only a
    bound ("at_least" a win in d, "at_most" a loss in d: a faster one may exist), unless a rule
    gave it or no faster result is possible (`_distance_is_exact`). A heuristic value is an
    estimate when the move was searched with a window that held it, else the bound its
    window gave. A win's or loss's score that is itself only a bound of the search (a move that
    failed low against a proven win) is not a proof: "at_most" a win in d means the search
    found no faster win.
    """
    value = root.value
    score = public_score(value, board)
    if value >= MATE_BAND:
        if root.bound == UPPER:
            return Kind.AT_MOST, Band.WIN, score
        plies = MATE - value
        exact = root.rule in GAME_RULES or _distance_is_exact(board, root.move, plies)
        return (Kind.EXACT if exact else Kind.AT_LEAST), Band.WIN, score
    if value <= -MATE_BAND:
        if root.bound == LOWER:
            return Kind.AT_LEAST, Band.LOSS, score
        plies = MATE + value
        exact = root.rule in GAME_RULES or _distance_is_exact(board, root.move, plies)
        return (Kind.EXACT if exact else Kind.AT_MOST), Band.LOSS, score
    kind = (
        Kind.ESTIMATE
        if root.bound == EXACT
        else Kind.AT_LEAST
        if root.bound == LOWER
        else Kind.AT_MOST
    )
    return kind, Band.HEURISTIC, score


def _distance_is_exact(board: Board, move: int, plies: int) -> bool:
    """Whether a win (odd `plies`) or loss (even) of `move` proven within `plies` plies cannot
    come sooner, by the rules alone: wins land on odd plies and losses on even ones, a win in 3
    needs two winning cells after the move, a loss in 4 needs a reply that makes two."""
    if plies in (1, 2, 3):
        # The quickest win a move that does not complete a line can have is on ply 3, the
        # quickest loss on ply 2 (a proven win in 1 completes a line).
        return True
    if plies > 6:
        return False
    sh = fs.shape(board.size, board.k)
    me = board.bits(board.to_move) | 1 << move
    opp = board.bits(board.to_move.opponent)
    empty = sh.full & ~(me | opp)
    theirs = fs.threats(sh, opp, me) & empty
    if plies == 5:
        mine = fs.threats(sh, me, opp) & empty
        return not (mine & (mine - 1) and not theirs)
    if theirs:
        return False
    return plies == 4 or not _loses_in_4(sh, me, opp, empty)


def _loses_in_4(sh: fs.Shape, me: int, opp: int, empty: int) -> bool:
    """Whether the opponent (to move, with no winning cell) wins on its second move whatever
    `me` does: a cell that gives it two winning cells while `me` keeps none of its own."""
    mine = fs.threats(sh, me, opp) & empty
    if mine & (mine - 1):
        return False
    need = sh.k - 2
    made: dict[int, int] = {}
    for line in sh.lines:
        if me & line or (opp & line).bit_count() != need:
            continue
        free = line & empty
        low = free & -free
        made[low] = made.get(low, 0) | free ^ low
        made[free ^ low] = made.get(free ^ low, 0) | low
    return any(wins & (wins - 1) and not mine & ~bit for bit, wins in made.items())
