"""The alpha-beta drill's tree as an indented outline: one node a line, one line selected.

The screen hands it the lines (each already saying everything: the check's ✓ or ✗, the label,
the move, MAX/MIN or the leaf's value, what the learner wrote) with a style for each, which only
repeats what the words say (bold for a wrong node, dim for one marked never visited). The arrows
and a click select a line; Enter runs the screen's `enter` action, which writes the number typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class DrillOutline(OptionList):
    """The drill tree, one node a line; the highlighted line is the node selected."""

    DEFAULT_CSS = """
    DrillOutline { height: 1fr; border: round $primary 50%; }
    DrillOutline:focus { border: round $primary; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # The screen's own action, run at once: a message could arrive after the next keys
        # have moved the cursor, and write the number on the wrong node.
        Binding("enter", "screen.enter", "Set", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        """An empty outline (see `show`)."""
        super().__init__(id=id)
        self._ids: list[str] = []

    def show(self, lines: Sequence[tuple[str, str, str]], selected: str) -> None:
        """Draw `lines` (id, text, style), the line `selected` (an id) highlighted. Lines of the
        same ids in the same order are redrawn in place, so the list keeps its scroll."""
        ids = [ident for ident, _, _ in lines]
        if ids == self._ids:
            for index, (_, words, style) in enumerate(lines):
                self.replace_option_prompt_at_index(index, _line(words, style))
        else:
            self._ids = ids
            self.set_options(Option(_line(words, style), id=ident) for ident, words, style in lines)
        index = ids.index(selected)
        if self.highlighted != index:
            self.highlighted = index

    @property
    def selected(self) -> str | None:
        """The id of the line highlighted now (None before any is)."""
        index = self.highlighted
        return None if index is None else self._ids[index]

    def action_select(self) -> None:
        """A click only selects its line (Enter, not a click, writes a number)."""


def _line(words: str, style: str) -> Text:
    """One node's line: one row of the outline, cut with an ellipsis rather than wrapped."""
    return Text(words, style=style, no_wrap=True, overflow="ellipsis")
