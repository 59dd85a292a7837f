"""Which hand-made positions a game can reach, and reading a position a user typed.

One rule for every command and screen that reads a board (`--position`, `analyse`, `compare`,
`drill`, the analysis board's set-up and paste, a study's record): `setup_position` builds the
board or raises IllegalMove with one sentence saying why no game reaches it, and
`read_position` reads the text a user typed (rows split by '/') with the same checks.

A game stops at the first line, so a position is reachable exactly when the counts alternate,
the side to move is the one the counts and any line allow, at most one side has lines, and,
when a side has lines, one of its marks lies on all of them (its last move made every line, and
the position before that move had none). The 3×3 and 4×4 tests compare this with a brute-force
search over every position.
"""

from __future__ import annotations

from collections import Counter

from tictactoe_tui.engine.rules.board import Board, IllegalMove, Mark, geometry

__all__ = ["reachability_problem", "read_position", "setup_position", "side_to_move"]


def reachability_problem(x: int, o: int, lines: tuple[int, ...], to_move: Mark) -> str | None:
    """Why no game reaches the position of marks `x` and `o` (bit masks) with `to_move` to
    move, on a board whose winning lines are the masks `lines`; None when a game reaches it."""
    xs, os_ = x.bit_count(), o.bit_count()
    x_lines = [line for line in lines if x & line == line]
    o_lines = [line for line in lines if o & line == line]
    if x_lines and o_lines:
        return "Impossible position: both X and O have a line, but the game ends at the first one."
    if abs(xs - os_) > 1:
        return (
            f"Impossible position: {xs} X and {os_} O (the players take turns, "
            "so the counts differ by at most one)."
        )
    if xs != os_:
        due = Mark.O if xs > os_ else Mark.X
        if to_move is not due:
            return (
                f"{to_move} cannot be to move with {xs} X and {os_} O: the side "
                f"with fewer marks moves, {due}."
            )
    won, winner = (x_lines, Mark.X) if x_lines else (o_lines, Mark.O)
    if not won:
        return None
    if to_move is winner:
        return f"{winner} cannot be to move: {winner} has a line, so {winner} moved last."
    return _lines_problem(won, winner)


def _lines_problem(won: list[int], winner: Mark) -> str | None:
    """Why no single last move of `winner` made all its lines `won`; None when one did."""
    common = won[0]
    for line in won[1:]:
        common &= line
    if common:
        return None
    if any(not a & b for i, a in enumerate(won) for b in won[i + 1 :]):
        return (
            f"Impossible position: {winner} has two lines with no cell in common, "
            "but the game ends at the first one."
        )
    return (
        f"Impossible position: no cell of {winner}'s is on all {len(won)} of its lines, "
        "so no last move made them all, and the game ends at the first one."
    )


def setup_position(marks: str, size: int, k: int, to_move: Mark) -> Board:
    """The position of `marks` ('X', 'O', '.' per cell, row-major) with `to_move` to move.

    Raises IllegalMove with one sentence when no game can reach it (`reachability_problem`).
    """
    geo = geometry(size, k)
    if len(marks) != geo.cells:
        raise IllegalMove(f"a {size}×{size} board has {geo.cells} cells, not {len(marks)}")
    x = sum(1 << i for i, ch in enumerate(marks) if ch == "X")
    o = sum(1 << i for i, ch in enumerate(marks) if ch == "O")
    problem = reachability_problem(x, o, geo.lines, to_move)
    if problem is not None:
        raise IllegalMove(problem)
    rows = "/".join(marks[row * size : (row + 1) * size] for row in range(size))
    return Board.from_string(rows, k=k, to_move=to_move)


def side_to_move(marks: str, size: int, k: int, wanted: Mark) -> Mark:
    """The side to move that `marks` allow, `wanted` when both may (equal counts, no line)."""
    xs, os_ = marks.count("X"), marks.count("O")
    if xs != os_:
        return Mark.O if xs > os_ else Mark.X
    geo = geometry(size, k)
    x = sum(1 << i for i, ch in enumerate(marks) if ch == "X")
    o = sum(1 << i for i, ch in enumerate(marks) if ch == "O")
    if any(x & line == line for line in geo.lines):
        return Mark.O
    if any(o & line == line for line in geo.lines):
        return Mark.X
    return wanted


def read_position(text: str, k: int | None = None, to_move: Mark | None = None) -> Board:
    """A position string as every command reads it (rows split by '/', '.', 'X', 'O', in either
    case; the size comes from it, `k` defaults to the size's), with the set-up rules' checks.
    The side to move is the one the counts allow; with equal counts, `to_move` (X by default).
    Raises IllegalMove with one sentence."""
    _check_rows(text)
    cells = "".join(ch for ch in text.upper() if ch != "/" and not ch.isspace())
    # The characters and the shape first (the engine's words), then the set-up rules.
    shape = Board.from_string(cells.replace("X", ".").replace("O", "."), k=k)
    wanted = to_move if to_move is not None else Mark.X
    return setup_position(
        cells, shape.size, shape.k, side_to_move(cells, shape.size, shape.k, wanted)
    )


def _check_rows(text: str) -> None:
    """Refuse rows of different lengths, naming the first row that differs from the others."""
    rows = ["".join(row.split()) for row in text.split("/")]
    # A slash before the first row or after the last one closes nothing: "X......../" is a board.
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    if len(rows) < 2:
        return
    lengths = [len(row) for row in rows]
    usual, _ = Counter(lengths).most_common(1)[0]
    if lengths.count(usual) == 1:
        usual = lengths[0]
    for number, length in enumerate(lengths, start=1):
        if length != usual:
            raise IllegalMove(
                f"row {number} has {length} cells but row {lengths.index(usual) + 1} has "
                f"{usual}: every row of a board has the same number of cells"
            )
