"""The themes the app offers: Textual's own, and one of its own with the highest contrast.

`high-contrast` is white and pure colours on black, for a projector, a washed-out laptop screen
or weak eyes: the marks (yellow X, cyan O), the text and the board's labels all stand at 7:1 or
more against the cells (WCAG 2.1's AAA level for text), a bound's fainter figures at 4.5:1, and
the cursor is a solid white block. `scripts/theme_contrast.py` measures every theme and fails
when this one falls short. `with_known_theme` keeps a game's settings to the themes offered.
"""

from __future__ import annotations

from dataclasses import replace

from textual.theme import BUILTIN_THEMES, Theme

from tictactoe_tui.play.settings import GameSettings

HIGH_CONTRAST = Theme(
    name="high-contrast",
    primary="#ffff00",
    secondary="#ffffff",
    warning="#00ffff",
    error="#ff6060",
    success="#00d000",
    accent="#ff80ff",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#333333",
    dark=True,
    variables={
        "text-muted": "#e6e6e6",
        "text-disabled": "#b0b0b0",
        "border": "#ffffff",
        "border-blurred": "#c0c0c0",
        "footer-key-foreground": "#ffff00",
        "footer-description-foreground": "#ffffff",
    },
)
"""White and pure colours on black, every pair the board draws at AAA contrast or better."""

OWN_THEMES = (HIGH_CONTRAST,)
"""The themes the app registers beside Textual's."""

THEMES = (*BUILTIN_THEMES, *(theme.name for theme in OWN_THEMES))
"""The names of every theme the app offers: `--theme`, Settings and the palette."""


def with_known_theme(settings: GameSettings) -> GameSettings:
    """`settings`, with the default theme instead of one Textual does not have (a history
    written by another version may remember one)."""
    if settings.theme in THEMES:
        return settings
    return replace(settings, theme=GameSettings().theme)
