"""The exact solver's proofs as public scores, and the depth-limited estimates they correct.

A solve under a clock settles some root moves and bounds others (`RootSolver.moves`); the
depth-limited search estimates every move. These turn the solver's bounds into scores and merge
the two into one ranking."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tictactoe_tui.engine.proofs.solver import Bounds, RootSolver
from tictactoe_tui.engine.search.kernel import Tracker
from tictactoe_tui.engine.search.types import (
    Band,
    Kind,
    MoveScore,
    Rule,
    Source,
    band_of,
    rank_key,
    value_key,
)


def bounds_listener(tracker: Tracker) -> Callable[[Bounds], None]:
    """Tell the tracker the best move a solve has proven so far, for the progress reports."""

    def heard(bounds: Bounds) -> None:
        if bounds.move >= 0:
            band = band_of(bounds.lo)
            tracker.best_so_far(
                bounds.move,
                bounds.lo,
                (bounds.move,),
                Kind.EXACT if bounds.exact else Kind.AT_LEAST,
                band,
            )

    return heard


def solver_score(exact: RootSolver, move: int) -> MoveScore:
    """The exact value of a root move the solver settled, with where it came from: its own
    search, its mirror twin's (0 positions of its own), or a win at once."""
    value = exact.moves[move].lo
    twin = exact.twin[move]
    pv = exact.walk_pv(move, exact.empties)
    if twin != move:
        return MoveScore(
            move, value, 0, True, pv, depth=exact.empties - 1, source=Source.SYMMETRY, twin=twin
        )
    if exact.my_thr >> move & 1:
        return MoveScore(
            move, value, exact.spent[move], True, pv, source=Source.RULE, rule=Rule.WINS_AT_ONCE
        )
    return MoveScore(move, value, exact.spent[move], True, pv, depth=exact.empties - 1)


def _proof(exact: RootSolver, move: int, lo: int, hi: int, nodes: int) -> MoveScore | None:
    """What `lo <= value <= hi` proves about the root move `move` as a score: its exact value,
    a win ("at least"), a loss, "not a win" ("at most" a draw) or "not a loss"; None when the
    bounds say none of these (the move may still win and may still lose)."""
    twin = exact.twin[move]
    source = Source.SYMMETRY if twin != move else Source.SEARCH

    def proof(score: int, kind: Kind, band: Band) -> MoveScore:
        return MoveScore(
            move,
            score,
            nodes,
            None,
            exact.walk_pv(move, exact.empties),
            kind,
            exact.empties - 1,
            source,
            band,
            twin=twin if twin != move else None,
        )

    if lo == hi:
        return proof(lo, Kind.EXACT, band_of(lo))
    if lo >= 1:
        return proof(lo, Kind.AT_LEAST, Band.WIN)
    if hi <= -1:
        return proof(hi, Kind.AT_MOST, Band.LOSS)
    if hi == 0:
        return proof(0, Kind.AT_MOST, Band.DRAW)
    if lo == 0:
        return proof(0, Kind.AT_LEAST, Band.DRAW)
    return None


def proven_score(exact: RootSolver, move: int) -> MoveScore | None:
    """The root move's score from the solver's proofs alone (see `_proof`), None when they
    prove neither a win, a loss, a draw nor a bound on the outcome."""
    bounds = exact.moves[move]
    if bounds.exact:
        return solver_score(exact, move)
    return _proof(exact, move, bounds.lo, bounds.hi, exact.spent[move])


def _with_bounds(estimate: MoveScore, exact: RootSolver) -> MoveScore:
    """A depth-limited score of a move, corrected by what the solver proved about it.

    The solver's bounds and the estimate's own proof (a proven win or loss) are both facts
    about the game: together they may settle the value exactly, or prove a win, a loss, "not a
    win" (at most a draw) or "not a loss" (at least a draw). A proof of "not a win" replaces any
    estimate (a heuristic +20 or -3 for a move proven not to win becomes "at most a draw": the
    estimate's number would claim what the game's value is not known to be, and a proven draw
    must rank above every such move). "Not a loss" replaces an estimate below 0. Otherwise the
    estimate stays, with the solver's work counted.
    """
    move = estimate.move
    bounds = exact.moves[move]
    nodes = estimate.nodes + exact.spent[move]
    if bounds.exact:
        settled = solver_score(exact, move)
        return replace(settled, nodes=settled.nodes + estimate.nodes)
    if estimate.exact:
        return replace(estimate, nodes=nodes)
    lo, hi = bounds.lo, bounds.hi
    if estimate.proven and estimate.kind is Kind.AT_LEAST:
        lo = max(lo, estimate.score)
    elif estimate.proven and estimate.kind is Kind.AT_MOST:
        hi = min(hi, estimate.score)
    if hi > 0 and lo == 0 and value_key(estimate.score, estimate.band) >= (1, 0):
        # Proven no loss, and the estimate hopes for more: it says more than the bound.
        return replace(estimate, nodes=nodes)
    proven = _proof(exact, move, lo, hi, nodes)
    if proven is None:
        return replace(estimate, nodes=nodes)
    if estimate.proven and (estimate.score, estimate.kind) == (proven.score, proven.kind):
        return replace(estimate, nodes=nodes)
    return proven


def _proof_rank(proof: MoveScore, estimate: MoveScore) -> tuple[int, tuple[int, int], int]:
    """Where a move ranks once the solver's proofs have corrected its depth-limited `estimate`
    into `proof` (`_with_bounds`): by `rank_key`, except that a proof that the move cannot win
    ("at most a draw") standing in for a heuristic number ranks at the lower of 0 and that
    number. The bound says only that the move does not win, which every move may share where
    a draw is the best there is; the estimate still says how the move compares with the
    others, and it never ranks the move above what the proof allows."""
    group, value, known = rank_key(proof)
    if (proof.kind, proof.band, estimate.band) == ("at_most", "draw", "heuristic"):
        value = value_key(min(0, estimate.score), Band.HEURISTIC)
    return group, value, known


def ranked_by_search(estimates: list[MoveScore], exact: RootSolver) -> tuple[MoveScore, ...]:
    """The depth-limited search's scores corrected by the solver's proofs, best first (see
    `_proof_rank`); among moves ranked equal, in the order the search ranks them, as in a
    position the solver never saw (a bound every move shares says nothing about which move to
    play, and the order of the cells says less)."""
    searched = sorted(estimates, key=rank_key, reverse=True)
    pairs = [(_with_bounds(estimate, exact), estimate) for estimate in searched]
    pairs.sort(key=lambda pair: _proof_rank(*pair), reverse=True)
    return tuple(proof for proof, _ in pairs)


def in_solver_order(proofs: list[MoveScore], exact: RootSolver) -> tuple[MoveScore, ...]:
    """The solver's proofs best first by `rank_key`; among equals, in the solver's own move
    order (the moves it judged most promising first) rather than by cell."""
    cells = exact.solver.ordered(exact.me, exact.opp, exact.empty)
    place = {cell: index for index, cell in enumerate(cells)}
    by_promise = sorted(proofs, key=lambda proof: place[proof.move])
    return tuple(sorted(by_promise, key=rank_key, reverse=True))
