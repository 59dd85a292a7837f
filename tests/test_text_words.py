"""The text mode's own words (cli.text_words): a typed cell or why it is none, who plays whom."""

from __future__ import annotations

from tictactoe_tui.cli.text_words import centre, opening_lines, read_cell
from tictactoe_tui.play.controller import GameController
from tictactoe_tui.play.settings import GameSettings


def test_a_cell_is_read_by_name_or_by_digit_on_3x3() -> None:
    assert read_cell("5", 3) == 4
    assert read_cell("b2", 3) == 4
    assert read_cell("0", 3) == "0 is not a cell: the digits 1 to 9 name them, or help."
    assert read_cell("5", 10) == (
        "Digits name cells on the 3 by 3 board only: type a cell's name, such as F6, or help."
    )
    assert read_cell("Z9", 3) == "Z9 is off the board: the 3 by 3 board's cells run from A1 to C3."
    assert read_cell("hello", 3) == (
        "'hello' is neither a cell nor a word I know: type a cell such as B2, or help."
    )
    assert centre(10) == "F6"


def test_the_opening_names_the_players_and_how_to_move() -> None:
    lines = opening_lines(GameController(GameSettings(mode="human-vs-human", size=4, k=3)))
    assert lines == [
        "Tic-tac-toe, text mode. Two people play X and O at one keyboard, on a 4 by 4 board, "
        "3 in a row. X moves first.",
        "Type a cell's name such as C3; help lists the other words.",
    ]
