"""The text mode's own words: the opening lines, who plays whom, a cell read from what was typed
(or the sentence saying why it is none), and what the program does while the computer thinks.

Read from the game's controller (`play.controller.GameController`), as `cli.text_mode` tells
them; the words the full screen shares with it are `text.plain`'s.
"""

from __future__ import annotations

from tictactoe_tui.engine import IllegalMove
from tictactoe_tui.engine.puzzles.proven import parse_cell
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.controller import GameController, Search
from tictactoe_tui.play.settings import Mode


def centre(size: int) -> str:
    """The name of the centre cell (of the one below and right of it on an even board)."""
    return cell_notation(size // 2 * (size + 1), size)


def read_cell(text: str, size: int) -> int | str:
    """The cell `text` names on a size×size board (by name, or by digit on 3×3), or the one
    sentence saying why it names none."""
    if text.isdigit():
        if size != 3:
            return (
                f"Digits name cells on the 3 by 3 board only: type a cell's name, "
                f"such as {centre(size)}, or help."
            )
        if not 1 <= int(text) <= 9:
            return f"{text} is not a cell: the digits 1 to 9 name them, or help."
        return int(text) - 1
    try:
        return parse_cell(text, size)
    except IllegalMove:
        name = text.strip().upper()
        if name[:1].isalpha() and name[1:].isdigit():
            last = f"{chr(ord('A') + size - 1)}{size}"
            return (
                f"{name} is off the board: the {size} by {size} board's cells run "
                f"from A1 to {last}."
            )
        return (
            f"{text!r} is neither a cell nor a word I know: type a cell such as "
            f"{centre(size)}, or help."
        )


def opening_lines(controller: GameController) -> list[str]:
    """The first lines: the game, and how to move."""
    size = controller.settings.size
    cells = (
        "a digit from 1 to 9, or a cell's name such as B2"
        if size == 3
        else f"a cell's name such as {centre(size)}"
    )
    return [
        f"Tic-tac-toe, text mode. {players_words(controller)}",
        f"Type {cells}; help lists the other words.",
    ]


def players_words(controller: GameController) -> str:
    """Who plays whom, on what board, and who starts."""
    settings = controller.settings
    board = f"a {settings.size} by {settings.size} board, {settings.win_length} in a row"
    if controller.mode is Mode.HUMAN_VS_COMPUTER:
        first = "The computer moves" if settings.first == "computer" else "You move"
    else:
        first = f"{settings.first_mark} moves"
    if controller.mode is Mode.HUMAN_VS_COMPUTER:
        players = (
            f"You play {settings.human_mark} against the computer, "
            f"{settings.computer_mark} ({controller.style_words()})"
        )
    elif controller.mode is Mode.COMPUTER_VS_COMPUTER:
        players = f"Two computers play each other ({controller.style_words()})"
    else:
        players = "Two people play X and O at one keyboard"
    return f"{players}, on {board}. {first} first."


def thinking_words(controller: GameController, search: Search) -> str:
    """What a search that takes a while is doing, and for how long at most (so silence is not
    taken for a hang)."""
    budget = controller.settings.search_time_limit
    within = f", up to {budget:g} second{'' if budget == 1 else 's'}" if budget is not None else ""
    doing = (
        f"{controller.who(controller.game.board.to_move)} is thinking"
        if search.kind == "computer"
        else "Analysing"
    )
    return f"{doing}{within}."
