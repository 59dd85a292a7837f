"""Every puzzle is re-proven by searches that share no code with the engine.

On the boards brute force can finish (3×3, 4×4) the win/draw/loss of every legal move comes from
`wdl.WinDrawLoss` (and on 3×3 the exact distances from `brute.BruteForce`): the answer must be
the only winning move, or the only move that does not lose. On bigger boards the independent
prover (`prover.Prover`) confirms the answer's win within `plies` and, for "hold", that every
other move loses within `plies`; the full-width `bounded.Bounded` search confirms that no other
move wins within `plies` (and that a "hold" answer does not lose within them) wherever it
finishes in seconds. The shipped bank is checked the same way, puzzle by puzzle.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.engine.bounded import Bounded
from tests.engine.brute import BruteForce
from tests.engine.prover import Prover
from tests.engine.wdl import WinDrawLoss
from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.puzzles.proven import (
    SHAPES,
    Puzzle,
    PuzzleChecker,
    canonical,
    generate,
    load_bank,
    parse_cell,
    puzzle_of_the_day,
    rate,
    rating_word,
)

BRUTE_FORCE_MAX_SIZE = 4
"""Boards the win/draw/loss brute force finishes quickly from any puzzle position."""


def outcomes(puzzle: Puzzle) -> dict[int, int]:
    """Win (1), draw (0) or loss (-1) of every legal move, by brute force."""
    board = puzzle.board
    solver = WinDrawLoss(puzzle.size, puzzle.k)
    me, opp = board.bits(board.to_move), board.bits(board.to_move.opponent)
    return {move: solver.move_outcome(me, opp, move) for move in board.legal_moves()}


def check_by_brute_force(puzzle: Puzzle) -> None:
    """The puzzle's claim, exactly, from every move's outcome."""
    found = outcomes(puzzle)
    others = [value for move, value in found.items() if move != puzzle.answer]
    if puzzle.goal == "win":
        assert found[puzzle.answer] == 1, puzzle
        assert all(value < 1 for value in others), puzzle
    else:
        assert found[puzzle.answer] == 0, puzzle
        assert all(value == -1 for value in others), puzzle


def check_distances_3x3(puzzle: Puzzle) -> None:
    """On 3×3 the proof's length is the exact distance: of the win, or of the slowest loss."""
    brute = BruteForce(3, 3)
    cells = str(puzzle.board).replace("/", "")
    values = brute.move_values(cells, str(puzzle.to_move))
    if puzzle.goal == "win":
        assert brute.big - values[puzzle.answer] == puzzle.plies, puzzle
    else:
        losses = [brute.big + v for m, v in values.items() if m != puzzle.answer]
        assert max(losses) == puzzle.plies, puzzle


def check_by_prover(puzzle: Puzzle, bounded_up_to: int) -> None:
    """The win (or every other move's loss) by the prover; the rest by the full-width search
    when the proof is at most `bounded_up_to` plies long."""
    board = puzzle.board
    me, other = board.to_move, board.to_move.opponent
    prover = Prover(puzzle.size, puzzle.k)
    if puzzle.goal == "win":
        after = board.play(puzzle.answer)
        assert after.winner is me or prover.defender_loses(
            after.bits(me), after.bits(other), puzzle.plies - 1
        ), puzzle
    else:
        for move in board.legal_moves():
            if move != puzzle.answer:
                after = board.play(move)
                assert after.winner is None and prover.attacker_wins(
                    after.bits(other), after.bits(me), puzzle.plies - 1
                ), (puzzle, move)
    if puzzle.plies > bounded_up_to:
        return
    full = Bounded(puzzle.size, puzzle.k)
    mine, theirs = board.bits(me), board.bits(other)
    if puzzle.goal == "win":
        for move in board.legal_moves():
            if move != puzzle.answer:
                assert not full.after(mine | 1 << move, theirs, puzzle.plies - 1), (puzzle, move)
    else:
        assert not full.wins(theirs, mine | 1 << puzzle.answer, puzzle.plies - 1), puzzle


def check_line(puzzle: Puzzle) -> None:
    """The line starts with the answer, is legal, and a win's line ends in the win."""
    assert puzzle.line[0] == puzzle.answer
    board = puzzle.board
    for move in puzzle.line:
        board = board.play(move)
    if puzzle.goal == "win":
        assert board.winner is puzzle.to_move
        assert len(puzzle.line) == puzzle.plies


# -- what the command asks for ------------------------------------------------------------------


@pytest.mark.parametrize(("size", "k", "count"), [(3, 3, 20), (4, 3, 10), (4, 4, 10)])
@pytest.mark.slow
def test_small_board_puzzles_are_unique_and_proven_by_brute_force(
    size: int, k: int, count: int
) -> None:
    made = generate(size, k, count, seed=1)
    assert len(made.puzzles) == count
    assert len({canonical(p.board) for p in made.puzzles}) == count
    for puzzle in made.puzzles:
        check_by_brute_force(puzzle)
        check_line(puzzle)
        if size == 3:
            check_distances_3x3(puzzle)


@pytest.mark.slow
def test_10x10_puzzles_are_unique_and_proven_by_the_prover() -> None:
    made = generate(10, 5, 10, seed=1)
    assert len(made.puzzles) == 10
    assert len({p.key for p in made.puzzles}) == 10
    for puzzle in made.puzzles:
        check_by_prover(puzzle, bounded_up_to=5)
        check_line(puzzle)


def test_the_same_seed_gives_the_same_puzzles() -> None:
    assert generate(3, 3, 8, seed=5).puzzles == generate(3, 3, 8, seed=5).puzzles
    assert generate(3, 3, 8, seed=5).puzzles != generate(3, 3, 8, seed=6).puzzles


def test_a_3x3_position_with_only_one_defence_is_a_hold_puzzle() -> None:
    # X took a corner: only the centre holds for O.
    puzzle = PuzzleChecker(3, 3).examine(Board.from_string("X../.../...", to_move="O"))
    assert puzzle is not None
    assert (puzzle.goal, puzzle.answer, puzzle.plies) == ("hold", parse_cell("B2", 3), 6)


def test_a_win_in_one_and_a_forced_block_are_not_puzzles() -> None:
    checker = PuzzleChecker(3, 3)
    assert checker.examine(Board.from_string("XX./OO./...")) is None  # X wins at once
    assert checker.examine(Board.from_string("X../OO./X..")) is None  # X must block C2


def test_a_position_with_two_winning_moves_is_not_a_puzzle() -> None:
    # 10×10: X's open three D5–F5 can become an open four at C5 or G5: two winning moves.
    cells = ["."] * 100
    for name in ("D5", "E5", "F5"):
        cells[parse_cell(name, 10)] = "X"
    for name in ("A1", "J10", "A10"):
        cells[parse_cell(name, 10)] = "O"
    board = Board.from_string("".join(cells), k=5, to_move="X")
    assert PuzzleChecker(10, 5).examine(board) is None


def test_a_wrong_move_is_refuted_and_a_right_one_played_out() -> None:
    puzzle = PuzzleChecker(3, 3).examine(Board.from_string("X../.../...", to_move="O"))
    assert puzzle is not None
    checker = PuzzleChecker(3, 3)
    refutation = checker.refutation(puzzle, parse_cell("B1", 3))
    board = puzzle.board
    for move in refutation:
        board = board.play(move)
    assert refutation[0] == parse_cell("B1", 3) and board.winner is Mark.X
    assert checker.continuation(puzzle)[0] == puzzle.answer


def test_a_10x10_wrong_move_gets_the_defence_that_holds() -> None:
    made = generate(10, 5, 3, seed=2)
    puzzle = next(p for p in made.puzzles if p.goal == "win")
    checker = PuzzleChecker(10, 5)
    wrong = next(m for m in puzzle.board.legal_moves() if m != puzzle.answer)
    line = checker.refutation(puzzle, wrong)
    assert line[0] == wrong and len(line) >= 1
    rest = checker.continuation(puzzle)
    board = puzzle.board
    for move in rest:
        board = board.play(move)
    assert board.winner is puzzle.to_move and len(rest) == puzzle.plies


def test_ratings_grow_with_the_proof_and_have_words() -> None:
    assert rate("win", 3, 0, 1, 9) < rate("win", 5, 0, 1, 9) < rate("win", 7, 0, 1, 9)
    assert rate("win", 5, 0, 1, 9) < rate("win", 5, 6, 1, 9) < rate("win", 5, 6, 8, 9)
    assert rate("win", 5, 0, 1, 9) < rate("win", 5, 0, 1, 100)
    assert [rating_word(r) for r in (700, 1000, 1300, 1700)] == [
        "easy",
        "medium",
        "hard",
        "very hard",
    ]


def test_the_puzzle_of_the_day_is_the_same_all_day_and_changes_the_next() -> None:
    bank = load_bank()
    assert puzzle_of_the_day(bank, 739_000) == puzzle_of_the_day(bank, 739_000)
    assert puzzle_of_the_day(bank, 739_000) != puzzle_of_the_day(bank, 739_001)
    assert puzzle_of_the_day((), 739_000) is None


def test_a_puzzle_survives_its_json() -> None:
    puzzle = generate(4, 3, 1, seed=3).puzzles[0]
    assert Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle


def test_a_damaged_bank_reads_as_empty() -> None:
    assert load_bank("not json") == ()
    assert load_bank('{"puzzles": [{"size": 99}]}') == ()


# -- the shipped bank -------------------------------------------------------------------------


def test_the_bank_covers_every_board_with_unique_puzzles() -> None:
    bank = load_bank()
    shapes = Counter((p.size, p.k) for p in bank)
    assert set(shapes) == set(SHAPES)
    assert len({p.key for p in bank}) == len(bank)
    assert {p.goal for p in bank} == {"win", "hold"}


@pytest.mark.parametrize("shape", [s for s in SHAPES if s[0] <= BRUTE_FORCE_MAX_SIZE])
def test_every_small_board_puzzle_in_the_bank_is_proven_by_brute_force(
    shape: tuple[int, int],
) -> None:
    for puzzle in load_bank():
        if (puzzle.size, puzzle.k) == shape:
            check_by_brute_force(puzzle)
            check_line(puzzle)
            if shape == (3, 3):
                check_distances_3x3(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [s for s in SHAPES if s[0] > BRUTE_FORCE_MAX_SIZE])
def test_every_bigger_board_puzzle_in_the_bank_is_proven_by_the_prover(
    shape: tuple[int, int],
) -> None:
    # The full-width search finishes in seconds to 7 plies on 5×5 and to 5 on the rest
    # (15×15 is left to the prover alone: 5 plies there take tens of seconds).
    bounded = 7 if shape == (5, 4) else 0 if shape == (15, 5) else 5
    for puzzle in load_bank():
        if (puzzle.size, puzzle.k) == shape:
            check_by_prover(puzzle, bounded_up_to=bounded)
            check_line(puzzle)
