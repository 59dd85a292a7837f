"""The game screen's widgets: they render what the screen hands them and post messages.

`from tictactoe_tui.ui.widgets import Board` works for each name in `__all__`, but a widget's
module loads only when first asked for (PEP 562): the Settings screen, which needs only the
"enlarge the terminal" notice from here, paints without loading the board and the panel.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tictactoe_tui.ui.widgets.board import Board
    from tictactoe_tui.ui.widgets.eval_panel import EvalPanel
    from tictactoe_tui.ui.widgets.move_list import MoveList
    from tictactoe_tui.ui.widgets.position_view import PositionView
    from tictactoe_tui.ui.widgets.scoreboard import Scoreboard

_MODULE_OF = {
    "Board": "board",
    "EvalPanel": "eval_panel",
    "MoveList": "move_list",
    "PositionView": "position_view",
    "Scoreboard": "scoreboard",
}
"""Each public name and the module (in this package) that defines it."""

__all__ = [
    "Board",
    "EvalPanel",
    "MoveList",
    "PositionView",
    "Scoreboard",
]


def __getattr__(name: str) -> object:
    """Load a public widget from its module on first access, and keep it here for the next."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's own names and every public one, loaded or not."""
    return sorted({*globals(), *__all__})
