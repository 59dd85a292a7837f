"""A notice shown in place of a screen's content when the terminal is too small for it."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Static


class TooSmall(Static):
    """Says how big the terminal must be; the screen gets the class `-too-small` meanwhile.

    A screen hides its content under `.-too-small` in its CSS and calls `fit` on mount and on
    every resize.
    """

    DEFAULT_CSS = """
    TooSmall {
        display: none;
        height: 1fr;
        content-align: center middle;
        text-align: center;
        color: $text-warning;
        text-style: bold;
        padding: 1 2;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        """An empty, hidden notice."""
        super().__init__("", id=id, markup=False)

    def fit(
        self,
        need: tuple[int, int],
        what: str,
        keys: str = "escape goes back.",
        note: str = "",
        refocus: Widget | None = None,
    ) -> bool:
        """Show the notice (and return True) when the terminal is smaller than `need`.

        `what` names what needs the room, `keys` what the keys can do meanwhile, and `note`
        (if any) what waits until the terminal is bigger. Hiding the content takes the focus
        from it: when the notice goes, `refocus` (the screen's board) gets the focus back if
        nothing that shows has it, or the arrows and Enter would do nothing.
        """
        have = self.app.size
        small = have.width < need[0] or have.height < need[1]
        was_small = self.display
        self.screen.set_class(small, "-too-small")
        self.display = small
        focused = self.screen.focused
        if (
            refocus is not None
            and was_small
            and not small
            and (focused is None or not focused.display)
        ):
            refocus.focus()
        if small:
            self.update(
                f"Enlarge the terminal: {what} needs at least {need[0]}×{need[1]} "
                f"characters, and this one is {have.width}×{have.height}."
                f"{' ' + note if note else ''}\n\n({keys})"
            )
        return small
