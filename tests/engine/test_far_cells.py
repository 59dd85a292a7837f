"""A proof holds against every legal reply, far cells included (the audit's far-cell findings).

The positions are built so that the only move that stops a double (or wins at once by one) lies
two cells away from every stone: three lines of three X stones point at one empty cell `c` from
three directions, each closed at its far end by an O stone, so that an X stone on `c` makes three
fours at once. The old engine only tried cells next to a stone: it called such positions a
proven "loss in 4" and let the double four happen. Every claim is checked here with this file's
own threat code over plain `Board`s (the rules), never with the engine's search or threat code.

Taking `c` stops the double four but does not save O for good: X's nine stones still win by a
longer chain of threats (within 9 plies after `c`, as the independent prover in
`tests/engine/prover.py` shows). So the far cell is the only move that does not lose in 4, and a
search that sees far enough may rightly prove it a longer loss: any loss it claims there is
checked with that prover, never taken on trust.
"""

from __future__ import annotations

import random

import pytest

from tests.engine.prover import confirmed
from tictactoe_tui.engine import (
    AlphaBetaPlayer,
    Board,
    Mark,
    alphabeta,
    analyse_position,
    win_score,
)


def cell(size: int, row: int, col: int) -> int:
    """The index of (row, col)."""
    return row * size + col


def build(size: int, xs: list[tuple[int, int]], os_: list[tuple[int, int]]) -> Board:
    """The board with X and O on the given (row, col) cells; the side to move from the counts."""
    text = ["."] * (size * size)
    for row, col in xs:
        text[cell(size, row, col)] = "X"
    for row, col in os_:
        text[cell(size, row, col)] = "O"
    return Board.from_string("".join(text), k=5)


TRIPLES = {
    # size: (X stones, O stones, the far cell, one more O stone to make it X's turn)
    10: (
        [(5, 1), (5, 2), (5, 3), (7, 5), (8, 5), (9, 5), (1, 9), (2, 8), (3, 7)],
        [(5, 0), (0, 0), (9, 9), (9, 0), (0, 4), (2, 0), (9, 2), (7, 9)],
        (5, 5),
        (0, 7),
    ),
    15: (
        [(7, 3), (7, 4), (7, 5), (9, 7), (10, 7), (11, 7), (3, 11), (4, 10), (5, 9)],
        [(7, 2), (12, 7), (2, 12), (0, 0), (14, 14), (0, 14), (14, 0), (1, 3)],
        (7, 7),
        (13, 1),
    ),
}
"""Three lines of three X point at the far cell from the left, from below and from the upper
right, each closed at its outer end (by an O stone or the edge); the O stones are far apart."""


def triple_at(size: int, x_to_move: bool = False) -> tuple[Board, int]:
    """The position of `TRIPLES` for `size` (O to move unless `x_to_move`) and its far cell."""
    xs, os_, far, extra = TRIPLES[size]
    return build(size, xs, [*os_, extra] if x_to_move else os_), cell(size, *far)


# -- this file's own threat code ---------------------------------------------------------------


def winning_cells(board: Board, mark: Mark) -> set[int]:
    """The empty cells where `mark` would complete a line at once."""
    mine, theirs = board.bits(mark), board.bits(mark.opponent)
    need = board.k - 1
    found = 0
    for mask in board.geometry.lines:
        if not theirs & mask and (mine & mask).bit_count() == need:
            found |= mask & ~mine
    return {c for c in range(board.size * board.size) if found >> c & 1}


def double_makers(board: Board, mark: Mark) -> set[int]:
    """The cells where a move of `mark` leaves it two or more winning cells.

    Only a cell on a line holding k-2 of `mark`'s stones (and none of the other's) can give a
    new winning cell, so only those cells are tried.
    """
    mine, theirs = board.bits(mark), board.bits(mark.opponent)
    hopeful = set()
    for cells, mask in zip(board.geometry.line_cells, board.geometry.lines, strict=True):
        if not theirs & mask and (mine & mask).bit_count() == board.k - 2:
            hopeful.update(c for c in cells if board[c] is None)
    out = set()
    for c in hopeful:
        after = Board(board.geometry, *_with(board, mark, c), mark.opponent)
        if len(winning_cells(after, mark)) >= 2:
            out.add(c)
    return out


def _with(board: Board, mark: Mark, c: int) -> tuple[int, int]:
    x, o = board.x_bits, board.o_bits
    return (x | 1 << c, o) if mark is Mark.X else (x, o | 1 << c)


def loses_to_a_double(board: Board, move: int) -> bool:
    """After the side to move plays `move`, the opponent wins by the rules: it has a winning cell
    now, or a move that leaves two winning cells while the mover has none to answer with."""
    after = board.play(move)
    attacker = after.to_move
    if winning_cells(after, attacker.opponent):
        return False
    return bool(winning_cells(after, attacker) or double_makers(after, attacker))


def far_from_every_stone(board: Board, c: int) -> bool:
    """True when every stone is at least two cells (king moves) away from `c`."""
    size = board.size
    row, col = divmod(c, size)
    return all(
        max(abs(r - row), abs(k - col)) >= 2
        for r in range(size)
        for k in range(size)
        if board[r * size + k] is not None
    )


# -- the positions are what they claim to be ---------------------------------------------------


@pytest.mark.parametrize("size", [10, 15])
def test_the_only_saving_move_is_a_far_cell(size: int) -> None:
    board, c = triple_at(size)
    assert board.to_move is Mark.O and far_from_every_stone(board, c)
    assert not winning_cells(board, Mark.X) and not winning_cells(board, Mark.O)
    assert double_makers(board, Mark.X) == {c}
    losing = [m for m in board.legal_moves() if loses_to_a_double(board, m)]
    assert sorted(losing) == sorted(set(board.legal_moves()) - {c})
    # After O takes c, X has nothing that wins by the rules.
    held = board.play(c)
    assert not winning_cells(held, Mark.X) and not double_makers(held, Mark.X)


# -- the engine --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("size", [10, 15])
@pytest.mark.parametrize("limits", [{"depth": 4}, {"time_limit": 1.0}])
def test_alphabeta_takes_the_far_cell_and_any_loss_it_proves_is_real(
    size: int, limits: dict[str, float]
) -> None:
    board, c = triple_at(size)
    result = alphabeta(board, **limits)  # type: ignore[arg-type]
    assert result.move == c
    if result.complete and result.score < 0:
        assert far_cell_loss_is_real(board, c, result.score), result


def far_cell_loss_is_real(board: Board, c: int, score: int) -> bool:
    """Whether a loss claimed for the far cell is longer than the rules' "loss in 4" of every
    other move and confirmed by the independent prover (the attacker wins within its plies)."""
    return score > -(win_score(board) - 4) and confirmed(board, c, score)


@pytest.mark.slow
@pytest.mark.parametrize("size", [10, 15])
def test_the_analysis_calls_every_other_move_a_loss_in_4_and_the_far_cell_not(size: int) -> None:
    board, c = triple_at(size)
    analysis = analyse_position(board, time_limit=1.0)
    big = win_score(board)
    scores = {m.move: m for m in analysis.scores}
    assert set(scores) == set(board.legal_moves())
    assert analysis.scores[0].move == c
    # Complete (the far cell proven best) exactly when every move is a proven loss: the far
    # cell's only by a deep enough search, and then its distance may be a bound ("at_most").
    assert analysis.complete == all(scored.outcome == "loss" for scored in analysis.scores)
    if scores[c].outcome == "loss":
        assert scores[c].kind in ("exact", "at_most")
        assert far_cell_loss_is_real(board, c, scores[c].score), scores[c]
    for move, scored in scores.items():
        if move != c:
            # Proven by the rules, and the test's own code agrees it loses.
            assert scored.exact and -(big - 4) <= scored.score < 0, (move, scored)
    for move in random.Random(size).sample([m for m in scores if m != c], 12):
        assert loses_to_a_double(board, move)


def test_the_player_takes_the_far_cell() -> None:
    board, c = triple_at(15)
    decision = AlphaBetaPlayer(random.Random(0), time_limit=0.5).choose(board)
    assert decision.move == c


@pytest.mark.parametrize("size", [10, 15])
def test_the_only_move_that_wins_by_a_double_is_a_far_cell_and_is_found(size: int) -> None:
    board, c = triple_at(size, x_to_move=True)
    assert board.to_move is Mark.X and far_from_every_stone(board, c)
    assert double_makers(board, Mark.X) == {c} and not winning_cells(board, Mark.O)
    result = alphabeta(board, time_limit=1.0)
    assert (result.move, result.score, result.complete) == (c, win_score(board) - 3, True)
    # A win in 3 against every reply: after c, each O move leaves X a winning cell.
    after = board.play(c)
    assert all(winning_cells(after.play(reply), Mark.X) for reply in after.legal_moves())


def test_a_move_that_makes_the_double_is_not_called_a_win_when_a_far_cell_stops_it() -> None:
    # X to move, one stone short of the triple: completing it lets O answer on the far cell.
    board, c = triple_at(15)
    missing = cell(15, 5, 9)
    text = list(str(board).replace("/", ""))
    text[missing] = "."
    short = Board.from_string("".join(text), k=5, to_move=Mark.X)
    assert short.to_move is Mark.X
    analysis = analyse_position(short, depth=4)
    scored = {m.move: m for m in analysis.scores}[missing]
    assert not (scored.exact and scored.score > 0)
    # The test's own code: after X completes the triple, O's far cell leaves X no double.
    answered = short.play(missing).play(c)
    assert not winning_cells(answered, Mark.X) and not double_makers(answered, Mark.X)
