"""The game screen's widgets: they render what the screen hands them and post messages."""

from tictactoe_tui.ui.widgets.board import Board
from tictactoe_tui.ui.widgets.eval_panel import EvalPanel
from tictactoe_tui.ui.widgets.move_list import MoveList
from tictactoe_tui.ui.widgets.position_view import PositionView
from tictactoe_tui.ui.widgets.scoreboard import Scoreboard

__all__ = [
    "Board",
    "EvalPanel",
    "MoveList",
    "PositionView",
    "Scoreboard",
]
