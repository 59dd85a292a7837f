"""`tictactoe-tui puzzles`: the list, the JSON, the seed, bad values, and the history's mistakes."""

from __future__ import annotations

import json

import pytest

from tests.test_cli_analyse import run
from tests.test_puzzle_store import game_of
from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.puzzles.proven import parse_cell
from tictactoe_tui.history.store import HistoryStore

FIELDS = {
    "position",
    "size",
    "k",
    "to_move",
    "goal",
    "answer",
    "plies",
    "rating",
    "line",
    "explanation",
}


def puzzles(*args: str) -> list[dict[str, object]]:
    out = run("puzzles", *args, "--json")
    assert out.returncode == 0, out.stderr
    found: list[dict[str, object]] = json.loads(out.stdout)["puzzles"]
    return found


def test_the_json_has_the_fixed_fields_and_proven_answers() -> None:
    found = puzzles("--size", "4", "--k", "3", "--count", "4", "--seed", "2")
    assert len(found) == 4
    for item in found:
        assert set(item) >= FIELDS
        assert item["goal"] in ("win", "hold") and isinstance(item["rating"], int)
        board = Board.from_string(str(item["position"]), k=3, to_move=str(item["to_move"]))
        line = [parse_cell(str(name), 4) for name in item["line"]]  # type: ignore[union-attr]
        assert line[0] == parse_cell(str(item["answer"]), 4)
        assert len(item["explanation"]) == len(line)  # type: ignore[arg-type]
        assert board.to_move is Mark(str(item["to_move"]))


def test_the_same_seed_gives_the_same_puzzles() -> None:
    assert puzzles("--count", "3", "--seed", "9") == puzzles("--count", "3", "--seed", "9")


def test_the_readable_list_shows_goal_board_answer_and_words() -> None:
    out = run("puzzles", "--count", "2", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("2 puzzles, 3×3 with 3 in a row (seed 1, ")
    assert "1. " in out.stdout and "answer: " in out.stdout and "plies)" in out.stdout
    assert " plays " in out.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--size", "99"), "the board must be 3×3 to 20×20, not 99×99"),
        (("--size", "4", "--k", "7"), "k (marks in a row to win) must be between 3 and 4"),
        (("--count", "0"), "--count: must be at least 1, not 0"),
        (("--count", "9999"), "--count must be at most 500, not 9999"),
        (("--seed", "x"), "--seed: must be a whole number, not 'x'"),
    ],
)
def test_a_bad_value_is_one_line_and_status_2(args: tuple[str, ...], words: str) -> None:
    out = run("puzzles", *args)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr


def test_the_history_s_mistakes_become_puzzles() -> None:
    store = HistoryStore.open()
    store.save(game_of((0, 1, 4, 8), human=Mark.O))
    store.close()
    found = puzzles("--from-history")
    assert [(p["position"], p["answer"], p["goal"]) for p in found] == [
        ("X../.../...", "B2", "hold")
    ]
    assert found[0]["source"] == "your game (game 1, move 2: B1??)"
