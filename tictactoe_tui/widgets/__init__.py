"""The game screen's widgets: they render what the screen hands them and post messages."""

from tictactoe_tui.widgets.board import Board, Cell, cell_id
from tictactoe_tui.widgets.eval_panel import CandidateRow, EvalPanel, PanelReport
from tictactoe_tui.widgets.move_list import MoveList
from tictactoe_tui.widgets.scoreboard import Scoreboard

__all__ = [
    "Board",
    "CandidateRow",
    "Cell",
    "EvalPanel",
    "MoveList",
    "PanelReport",
    "Scoreboard",
    "cell_id",
]
