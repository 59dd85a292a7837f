"""What the app's charts (textual-plotext) share: the colours of the numbers written on them."""

from __future__ import annotations

from textual.color import Color

Colours = tuple[tuple[int, int, int], tuple[int, int, int]]
"""The (text, background) colours of the numbers written on a chart, as RGB."""


def label_colours(theme: dict[str, str]) -> Colours:
    """The theme's text and surface colours, for the numbers written on a chart (plotext's own
    "default" prints them faint on a light box, whatever the theme)."""
    return Color.parse(theme["foreground"]).rgb, Color.parse(theme["surface"]).rgb
