"""The files in examples/ do what docs/your-code.md says they do.

Each example is imported here and called directly (it is the subject); what it is checked
against is the engine's own h1 (the example claims to be H1 written by hand) or the independent
brute force of tests/engine/brute.py, and the grade's report on it is the one the docs show.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

from tests.engine.brute import BruteForce
from tests.engine.positions import reachable_3x3
from tests.engine.test_grade import as_board, every_open_position
from tests.fake_brains import processes_running
from tictactoe_tui.engine import Board, Mark, h1
from tictactoe_tui.engine.lab.grade import grade

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> Path:
    return EXAMPLES / f"{name}.py"


def load(name: str) -> ModuleType:
    path = example(name)
    spec = importlib.util.spec_from_file_location(f"example_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def brute() -> BruteForce:
    return BruteForce(3, 3)


def test_h1_by_hand_is_the_engines_h1_on_every_reachable_position_from_both_sides():
    evaluate = load("h1_by_hand").evaluate
    boards = reachable_3x3(Mark.X) + reachable_3x3(Mark.O)
    assert len(boards) > 5478
    for board in boards:
        for player in Mark:
            assert evaluate(board, player) == h1(board, player), (str(board), player)


@pytest.mark.parametrize(("size", "k"), [(4, 3), (4, 4), (5, 4), (7, 5)])
def test_h1_by_hand_is_the_engines_h1_on_bigger_boards_too(size: int, k: int):
    evaluate = load("h1_by_hand").evaluate
    rng = random.Random(size * 10 + k)
    checked = 0
    for _ in range(40):
        board = Board.empty(size, k)
        while not board.is_over:
            for player in Mark:
                assert evaluate(board, player) == h1(board, player), str(board)
            checked += 1
            board = board.play(rng.choice(board.legal_moves()))
    assert checked > 200


@pytest.mark.slow
def test_h1_by_hand_is_short_and_its_grade_finds_it_symmetric():
    source = example("h1_by_hand").read_text()
    body = source.split("def evaluate", 1)[1]
    assert len(body.strip().splitlines()) <= 12
    report = grade(example("h1_by_hand"), games=1)
    assert report.passed
    assert report.symmetry is not None
    assert report.symmetry.positions == report.symmetry.same == 5478
    assert report.symmetry.first_different is None
    # Its one-ply choice is H1's, position for position.
    yours, ours = (row for row in report.one_ply if row.name in ("yours", "h1"))
    assert yours.value_preserving == ours.value_preserving


def test_the_minimax_player_plays_a_best_move_on_every_position(brute):
    choose = load("minimax_player").choose
    positions = every_open_position(brute)
    assert len(positions) == 4520
    for cells, mover in positions:
        values = brute.move_values(cells, mover)
        assert values[choose(as_board(cells, mover))] == max(values.values()), cells


@pytest.mark.slow
def test_the_minimax_players_grade_is_perfect_and_it_is_about_25_lines():
    code = [
        line
        for line in example("minimax_player").read_text().split('"""', 2)[2].splitlines()
        if line.strip()
    ]
    assert len(code) <= 25
    report = grade(example("minimax_player"), games=2)
    assert report.passed
    assert report.positions == report.graded == report.value_preserving == report.best == 4520
    assert report.first_worse is None
    against_alphabeta = [m for m in report.matches if m.against == "alphabeta"]
    assert against_alphabeta and all(m.losses == 0 for m in against_alphabeta)
    assert not processes_running(example("minimax_player"))


def test_the_random_player_is_legal_everywhere_and_says_it_is_random(brute):
    module = load("random_player")
    assert module.RANDOM is True
    for cells, mover in every_open_position(brute):
        board = as_board(cells, mover)
        assert module.choose(board) in board.legal_moves()
    report = grade(example("random_player"), games=1)
    assert report.passed
    assert report.best < report.value_preserving < report.positions == 4520


def test_the_buggy_players_first_failure_is_the_occupied_centre():
    board = Board.from_string(".../.X./...", k=3)
    assert load("buggy_player").choose(board) == 4 and board[4] is Mark.X
    report = grade(example("buggy_player"), games=1)
    assert not report.passed
    failed = {check.name: check.detail for check in report.checks if not check.passed}
    assert list(failed) == ["legal moves"]
    assert "choose() returned B2 on .../.X./..., a cell X already holds" in failed["legal moves"]
    assert not processes_running(example("buggy_player"))


@pytest.mark.slow
def test_my_eval_still_grades_and_beats_h1_as_x():
    report = grade(example("my_eval"), games=2)
    assert report.passed
    as_x = next(m for m in report.matches if m.against == "h1" and m.mark is Mark.X)
    assert (as_x.wins, as_x.draws, as_x.losses) == (2, 0, 0)


def test_the_tutorial_shows_h1_by_hand_as_the_file_has_it():
    page = (EXAMPLES.parent / "docs" / "your-code.md").read_text()
    code = example("h1_by_hand").read_text().split('"""\n', 1)[1].strip()
    assert f"```python\n{code}\n```" in page
    for name in ("random_player", "h1_by_hand", "minimax_player", "buggy_player", "my_eval"):
        assert f"(../examples/{name}.py)" in page
