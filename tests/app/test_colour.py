"""Colour is never the only carrier: NO_COLOR takes every colour away, the board's marks differ
in shape too, and the high-contrast theme reaches the ratios its script asks of it."""

from __future__ import annotations

import dataclasses

import pytest
from rich.segment import Segment
from textual.geometry import Region
from textual.widget import Widget

from tests.app.conftest import SIZE, board, cell_words, game_app, press_settled, settle
from tests.scripts import load_script
from tictactoe_tui.cli.flags import parse_args
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.themes import HIGH_CONTRAST, THEMES

contrast = load_script("theme_contrast")


def drawn(widget: Widget) -> list[Segment]:
    """Every segment `widget` sends to the terminal (the app's filters applied)."""
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return [segment for strip in strips for segment in strip]


def coloured(segments: list[Segment]) -> list[Segment]:
    """The segments that carry a colour (foreground or background) other than the terminal's."""
    return [
        s
        for s in segments
        if s.style is not None
        and any(c is not None and not c.is_default for c in (s.style.color, s.style.bgcolor))
    ]


async def test_no_color_draws_no_colour_at_all_but_keeps_bold_and_reverse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "5", "1")
        shown = [
            widget
            for widget in app.screen.walk_children(Widget)
            if widget.display and widget.size.area
        ]
        segments = [segment for widget in shown for segment in drawn(widget)]
        assert segments and coloured(segments) == []
        styles = [s.style for s in segments if s.style is not None and s.text.strip()]
        assert any(style.bold for style in styles)
        assert any(style.reverse for style in styles), "the cursor is a reversed block"


async def test_an_empty_no_color_leaves_the_colours_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: set but empty means colour as usual
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert coloured(drawn(board(pilot)))
        # Not even Textual's grey: a grey is a colour.
        greys = {
            s.style.color.triplet
            for s in drawn(board(pilot))
            if s.style is not None and s.style.color is not None and s.style.color.triplet
        }
        assert any(len(set(triplet)) > 1 for triplet in greys)


async def test_the_last_move_the_hint_and_a_winning_line_differ_in_shape() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "5", "1")
        assert cell_words(pilot, 0)[-1] == "(O)", "the last move, as GNU Go marks it"
        assert cell_words(pilot, 4)[-1] == "X", "an earlier move has no frame"
        await press_settled(pilot, "h")
        hinted = board(pilot).best_move
        assert hinted is not None
        assert any(w.startswith(">") and w.endswith("<") for w in cell_words(pilot, hinted))
        await press_settled(pilot, "4", "2", "9", "3")  # O: 1 2 3, the top row
        for cell in (0, 1, 2):
            assert cell_words(pilot, cell)[-1] == "*O*"
        assert cell_words(pilot, 8)[-1] == "X", "the move before the win is not the last"


def test_the_high_contrast_theme_is_offered_and_reaches_every_ratio_it_needs() -> None:
    assert HIGH_CONTRAST.name in THEMES
    settings, _ = parse_args(["--theme", "HIGH-contrast"])
    assert settings.theme == "high-contrast"
    assert contrast.shortfalls() == []
    washed_out = dataclasses.replace(HIGH_CONTRAST, primary="#606000")
    assert contrast.shortfalls(washed_out) == ["high-contrast: X on cell 3.16 < 7"]


async def test_the_high_contrast_theme_is_the_one_drawn() -> None:
    app = TicTacToeApp(
        parse_args(["--theme", "high-contrast", "--mode", "human-vs-human"])[0], start_in_game=True
    )
    async with app.run_test(size=SIZE) as pilot:
        await press_settled(pilot, "5", "1")  # the cursor goes to O's cell
        assert app.theme == "high-contrast"
        x = next(s for s in drawn(board(pilot)) if s.text == "X")
        assert x.style is not None and x.style.color is not None
        red, green, blue = x.style.color.get_truecolor()
        assert min(red, green) > 240 and blue < 16, "X is drawn in the theme's yellow"
