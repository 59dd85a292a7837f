"""What each move of a line does, read with the forcing rules (`threats`' module docstring) on
the position it is played in: the threat it makes, the cells that answer it, whether it was
forced (`read_move`, `read_line`). The words of an explanation are made from these facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tictactoe_tui.engine.proofs.forcing import fork_stops, lowest
from tictactoe_tui.engine.proofs.lines import LineState, iter_bits, side_of
from tictactoe_tui.engine.rules.board import Board, Mark, geometry

MoveKind = Literal["win", "fork", "four", "three", "stop", "quiet"]
"""What a move does, strongest first: completes a line; makes two or more winning cells (rule 2
for the opponent); makes one winning cell (rule 3: the block is forced); makes a double for its
next move (rule 5: the opponent must stop it or make a four); takes away the opponent's double;
nothing forcing."""


@dataclass(frozen=True)
class Run:
    """One side's marks along one line, with the empty cells of the windows that hold them."""

    cells: tuple[int, ...]
    """The side's marks on the line, in order along it."""
    empty: tuple[int, ...]
    """The empty cells of the windows of k cells holding exactly these marks and none of the
    other side's: for a run of k-1 its winning cells, for a run of k-2 the cells that would make
    it a run of k-1."""


@dataclass(frozen=True)
class MoveFacts:
    """What one move does, read with the forcing rules above on the position it is played in:
    the threat it makes, the cells that answer it, whether it was itself forced."""

    mark: Mark
    move: int
    kind: MoveKind
    won: tuple[int, ...] = ()
    """The completed line, for "win"."""
    blocked: bool = False
    """The move took a winning cell of the opponent."""
    forced: bool = False
    """The move blocked the opponent's only winning cell, having none of its own: by rule 3
    every other move lost at once."""
    wins: tuple[int, ...] = ()
    """The mover's winning cells after the move (one for "four", two or more for "fork")."""
    fours: tuple[Run, ...] = ()
    """The runs of k-1 through the move, each with its winning cells."""
    threes: tuple[Run, ...] = ()
    """The runs of k-2 through the move that give the mover a double: for "three" after the
    move, for "four" still after the opponent's forced block."""
    forks: tuple[int, ...] = ()
    """Every double cell the mover has once the runs above make some (for "four", after the
    forced block): the cells the opponent must deal with."""
    answers: tuple[int, ...] = ()
    """The opponent's cells that meet the threat: for "four" and "fork" the winning cells to
    block; for "three" every cell that stops all the doubles (none when one move cannot)."""
    counters: tuple[int, ...] = ()
    """For "three": where the opponent can make a four of its own instead (rule 5 lets it)."""
    stopped: tuple[int, ...] = ()
    """The opponent's double cells the move took away (it had no winning cell)."""
    still_open: tuple[int, ...] = ()
    """The opponent's winning cells left open after the move: it can win at once."""


def read_move(board: Board, move: int) -> MoveFacts:
    """What `board.to_move` playing `move` does (`move` must be legal on `board`)."""
    mark = board.to_move
    after = board.play(move)
    if after.winner is not None:
        return MoveFacts(mark, move, "win", won=after.winning_line)
    state = LineState.from_board(board)
    side = side_of(mark)
    threats = state.win_cells(1 - side)
    blocked = bool(threats >> move & 1)
    forced = blocked and not threats & (threats - 1) and not state.win_cells(side)
    # Doubles mean something only while a side has no winning cell (`double_cells`).
    their_forks = 0 if threats else state.double_cells(1 - side)
    state.play(move, side)
    still = tuple(iter_bits(state.win_cells(1 - side)))
    wins = state.win_cells(side)
    if wins:
        return _winning_cells(state, mark, move, blocked, forced, still)
    threes, forks = _fork_runs(state, side, move, board.k)
    if threes and not still:
        stops = fork_stops(state, 1 - side) or 0
        return MoveFacts(
            mark,
            move,
            "three",
            blocked=blocked,
            forced=forced,
            threes=threes,
            forks=tuple(iter_bits(forks)),
            answers=tuple(iter_bits(stops)),
            counters=tuple(iter_bits(state.four_moves(1 - side) & ~stops)),
        )
    stopped = tuple(iter_bits(their_forks & ~state.double_cells(1 - side))) if not still else ()
    return MoveFacts(
        mark,
        move,
        "stop" if stopped else "quiet",
        blocked=blocked,
        forced=forced,
        stopped=stopped,
        still_open=still,
    )


def _winning_cells(
    state: LineState,
    mark: Mark,
    move: int,
    blocked: bool,
    forced: bool,
    still: tuple[int, ...],
) -> MoveFacts:
    """The facts of a `move` (played on `state`) that made winning cells for `mark`: a "fork"
    (two or more), else a "four" with what it threatens once the forced block is played."""
    side = side_of(mark)
    k = state.shape.k
    wins = state.win_cells(side)
    fours = _runs(state, side, move, k - 1)
    if wins & (wins - 1):
        return MoveFacts(
            mark,
            move,
            "fork",
            blocked=blocked,
            forced=forced,
            wins=tuple(iter_bits(wins)),
            fours=fours,
            answers=tuple(iter_bits(wins)),
            still_open=still,
        )
    block = lowest(wins)
    threes: tuple[Run, ...] = ()
    forks = 0
    if not still:
        # The block is forced: what the move threatens next is what survives it.
        state.play(block, 1 - side)
        threes, forks = _fork_runs(state, side, move, k)
        state.undo(block, 1 - side)
    return MoveFacts(
        mark,
        move,
        "four",
        blocked=blocked,
        forced=forced,
        wins=(block,),
        fours=fours,
        threes=threes,
        forks=tuple(iter_bits(forks)),
        answers=(block,),
        still_open=still,
    )


def read_line(board: Board, moves: Sequence[int]) -> tuple[MoveFacts, ...]:
    """What each move of `moves` does, played in turn from `board`; it stops where the game
    ends (or at a move that is not legal, which a stale line may hold)."""
    facts = []
    for move in moves:
        if board.is_over or move not in board.legal_moves():
            break
        facts.append(read_move(board, move))
        board = board.play(move)
    return tuple(facts)


def _runs(state: LineState, side: int, through: int, count: int) -> tuple[Run, ...]:
    """The runs through `through` of `count` marks of `side` on windows free of the other's
    (windows holding the same marks are one run: an open four is one run, two winning cells)."""
    shape = state.shape
    cells_of = geometry(shape.size, shape.k).line_cells
    own, other = state.bits[side], state.bits[1 - side]
    merged: dict[tuple[int, ...], set[int]] = {}
    for line in shape.lines_of[through]:
        mask = shape.line_mask[line]
        if other & mask or (own & mask).bit_count() != count:
            continue
        cells = tuple(c for c in cells_of[line] if own >> c & 1)
        merged.setdefault(cells, set()).update(c for c in cells_of[line] if not own >> c & 1)
    return tuple(Run(cells, tuple(sorted(empty))) for cells, empty in merged.items())


def _fork_runs(state: LineState, side: int, move: int, k: int) -> tuple[tuple[Run, ...], int]:
    """The runs of k-2 through `move` one of whose cells is a double of `side`, and every double
    `side` has (none for k = 3, where a run of one mark is no threat worth a word)."""
    doubles = state.double_cells(side)
    if not doubles or k < 4:
        return (), 0
    runs = tuple(
        run
        for run in _runs(state, side, move, k - 2)
        if sum(1 << cell for cell in run.empty) & doubles
    )
    return runs, doubles if runs else 0
