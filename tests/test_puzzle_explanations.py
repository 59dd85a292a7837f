"""Every puzzle's words agree with its line: each sentence is replayed against the board it is
said on by an independent reader (`tests/explanations.py`), for every puzzle of the shipped bank
and for puzzles `tictactoe-tui puzzles --json` makes on the spot; each hint's claim is checked
the same way."""

from __future__ import annotations

import json

import pytest

from tests.explanations import Replay, problems
from tests.test_cli_analyse import run
from tictactoe_tui.engine.puzzles.proven import Puzzle, load_bank, parse_cell
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.puzzles import explanation, goal_words, hint

BANK = load_bank()


def _key(puzzle: Puzzle) -> str:
    return f"{puzzle.size}x{puzzle.size}k{puzzle.k}-{puzzle.rating}-{puzzle.position}"


def test_the_bank_is_there() -> None:
    assert len(BANK) > 200


@pytest.mark.parametrize("shape", sorted({(p.size, p.k) for p in BANK}), ids=str)
def test_every_bank_explanation_tells_its_own_line(shape: tuple[int, int]) -> None:
    wrong = {}
    for puzzle in BANK:
        if (puzzle.size, puzzle.k) == shape:
            found = problems(
                puzzle.position, puzzle.k, str(puzzle.to_move), puzzle.line, explanation(puzzle)
            )
            if found:
                wrong[_key(puzzle)] = found
    assert not wrong, json.dumps(wrong, indent=1, ensure_ascii=False)


def hint_problem(puzzle: Puzzle) -> str | None:
    """What is wrong with the puzzle's second hint, read against the board (None if right)."""
    words = hint(puzzle, 2)
    board = Replay(puzzle.position, puzzle.k)
    mark = str(puzzle.to_move)
    other = "O" if mark == "X" else "X"
    answer = puzzle.answer
    if "line to complete" in words:
        return None if board.wins_at(answer, mark) else "the answer completes no line"
    board.marks[answer] = mark
    wins = board.win_cells(mark)
    if "cannot block" in words:
        return None if len(wins) >= 2 else "the answer makes fewer than two winning cells"
    if "forced block cannot stop both" in words:
        if len(wins) != 1:
            return "the answer does not make exactly one winning cell"
        board.marks[wins.pop()] = other
        return None if board.fork_cells(mark) else "the forced block leaves no fork"
    if "cannot meet in one move" in words and (not board.fork_cells(mark) or board.stoppers(mark)):
        return "one move meets the threat"
    if "Threaten a fork" in words and not board.fork_cells(mark):
        return "the answer threatens no fork"
    if "reply is forced" in words and len(wins) != 1:
        return "the answer makes no single winning cell"
    return None


def test_every_bank_hint_says_what_the_answer_does() -> None:
    wrong = {_key(p): (hint(p, 2), hint_problem(p)) for p in BANK if hint_problem(p)}
    assert not wrong, json.dumps(wrong, indent=1, ensure_ascii=False)


def test_the_7x7_win_in_5_reported_in_issue_28_tells_its_line() -> None:
    # Step 2 used to say "O must stop it at D2" and step 3 was O's D5 (a line of three of its
    # own, which rule 5 allows); the hint said the block "cannot stop both" as it does.
    position = "...X.O./....XX./....XO./...O..O/.....X./......./......."
    [puzzle] = [p for p in BANK if p.position == position]
    assert goal_words(puzzle) == "O to play and win in 5"
    assert [cell_notation(cell, 7) for cell in puzzle.line] == ["E4", "F4", "D5", "C6", "G2"]
    assert explanation(puzzle) == [
        "O plays E4: a line of three (D4–G4) and an open line of two (F3–E4), X must block F4.",
        "X blocks F4: an open line of two (E3–F4); O must stop it at D2, or make a line of "
        "three of its own first.",
        "O plays D5: an open line of three (F3–D5) with two winning cells (G2 and C6): X can "
        "block only one.",
        "X blocks C6, but O can win at once at G2.",
        "O plays G2 and wins (G2–D5).",
    ]
    assert hint(puzzle, 2) == (
        "Hint 2 of 3: Make a line of three that also makes an open line "
        "of two: X's forced block cannot stop both."
    )


@pytest.mark.parametrize(
    "args",
    [("--size", "5", "--k", "4", "--seed", "3"), ("--size", "10", "--seed", "8")],
    ids=["5x5", "10x10"],
)
@pytest.mark.slow
def test_generated_puzzles_json_explanations_tell_their_lines(args: tuple[str, ...]) -> None:
    out = run("puzzles", *args, "--count", "4", "--json")
    assert out.returncode == 0, out.stderr
    made = json.loads(out.stdout)["puzzles"]
    assert made
    for item in made:
        size = int(item["size"])
        line = [parse_cell(name, size) for name in item["line"]]
        found = problems(
            item["position"], int(item["k"]), item["to_move"], line, item["explanation"]
        )
        assert not found, (item["position"], found)
