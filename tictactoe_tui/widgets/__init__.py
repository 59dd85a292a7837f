"""The game screen's widgets: they render what the screen hands them and post messages."""

from tictactoe_tui.widgets.board import Board, Cell, cell_id
from tictactoe_tui.widgets.eval_panel import CandidateRow, EvalPanel, PanelReport, ThinkingReport
from tictactoe_tui.widgets.move_list import MoveList
from tictactoe_tui.widgets.position_view import PositionView
from tictactoe_tui.widgets.scoreboard import Scoreboard

__all__ = [
    "Board",
    "CandidateRow",
    "Cell",
    "EvalPanel",
    "MoveList",
    "PanelReport",
    "PositionView",
    "Scoreboard",
    "ThinkingReport",
    "cell_id",
]
