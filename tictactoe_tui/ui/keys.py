"""Which key a screen binds to an action, for words that name it (the footer may be too narrow
to list it)."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen


def key_for(screen: Screen[Any], action: str, default: str) -> str:
    """The key shown for `action` among `screen`'s active bindings, else `default`."""
    return next(
        (
            screen.app.get_key_display(active.binding)
            for active in screen.active_bindings.values()
            if active.binding.action == action
        ),
        default,
    )
