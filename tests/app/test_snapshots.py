"""What each screen looks like, pinned as SVG snapshots (pytest-textual-snapshot).

Update after an intended change with `pytest tests/app/test_snapshots.py --snapshot-update`, then
look at the report or the SVGs in `__snapshots__/` before committing them.

The scenes are the screenshot script's (scripts/screenshots.py), so the README shows what is
pinned here (the live thinking display and a picked line have their own scenes below). Every
picture is deterministic: seeded games, searches that finish (3×3 alpha-beta, or the H1
heuristic on 10×10, never a time-limited search) or are held with fixed progress, and the one
number that depends on the machine, the search time in the evaluation panel, replaced by a
fixed placeholder.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.app.conftest import SIZE, Gate, screenshots, settle
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import IterationInfo, Progress
from tictactoe_tui.play import compare
from tictactoe_tui.play import match as match_rules
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.analysis import AnalysisScreen
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.widgets import eval_panel

SnapCompare = Callable[..., bool]
"""The `snap_compare` fixture: (app, run_before=..., terminal_size=...) -> matches."""


@pytest.fixture(autouse=True)
def _fixed_search_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Show the search time as a placeholder: it is the one thing that varies between runs."""
    monkeypatch.setattr(eval_panel, "_duration", lambda seconds: "[time hidden]")
    monkeypatch.setattr(compare, "time_text", lambda seconds: "[time]")


def snap_scene(snap_compare: SnapCompare, name: str) -> bool:
    """Compare the screenshot script's scene `name` with its snapshot."""
    scene = screenshots.SCENES[name]
    return snap_compare(scene.app(), run_before=scene.play, terminal_size=SIZE)


class TestLearn:
    """A lesson of the course, its first exercise answered."""

    def test_a_lesson_and_a_verdict(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "learn")


class TestDrill:
    """The alpha-beta drill on docs/lab.md's worked example, checked with one value wrong."""

    def test_a_checked_drill_with_a_mistake_named(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "drill")


class TestYourEvaluation:
    """The heuristic lab with the learner's evaluation (--eval examples/my_eval.py)."""

    def test_its_column_beside_h1_and_h2(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "yours")


class TestPredictMode:
    """The Game screen in predict mode, after a wrong prediction."""

    def test_a_verdict_under_the_board(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "predict")


class TestSettingsScreen:
    """The first screen."""

    def test_defaults(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "settings")

    def test_invalid_difficulty_shows_its_message(self, snap_compare: SnapCompare) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            await pilot.pause()
            difficulty = pilot.app.screen.query_one("#difficulty", Input)
            difficulty.cursor_blink = False  # a blinking cursor would make the picture flaky
            difficulty.focus()
            # Enter, not a click on Start: the button's press animation would be in the picture.
            await pilot.press("5", "0", "0", "enter")

        assert snap_compare(TicTacToeApp(), run_before=run_before, terminal_size=SIZE)


class TestGameScreen:
    """A game in progress, with the evaluation panel after the computer's move."""

    def test_3x3_after_the_computer_replies(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "game")

    def test_10x10_against_h1(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "game-10x10")

    @pytest.mark.slow
    def test_the_computer_thinking_on_10x10(self, snap_compare: SnapCompare, gate: Gate) -> None:
        # The search is held (`gate`) and one progress report is handed to the screen, as the
        # worker would send it: the live display with fixed numbers.
        async def run_before(pilot: Pilot[Any]) -> None:
            await settle(pilot)
            await pilot.press("enter")  # X at F6; O thinks
            screen = pilot.app.screen
            assert isinstance(screen, GameScreen) and screen.thinking == "computer"
            story = tuple(
                IterationInfo(depth, move, score, "estimate", "heuristic", nodes, seconds, (move,))
                for depth, move, score, nodes, seconds in (
                    (1, 44, -10, 104, 0.002),
                    (2, 44, -21, 671, 0.007),
                    (3, 33, -10, 1_191, 0.008),
                    (4, 44, -25, 3_174, 0.015),
                )
            )
            progress = Progress(
                depth=4,
                nodes=52_272,
                elapsed=0.62,
                best_move=44,
                best_score=-25,
                pv=(44, 54, 53, 45),
                iterations=story,
            )
            screen.show_progress(progress)
            await pilot.pause()

        app = TicTacToeApp(GameSettings(size=10, seed=1), start_in_game=True)
        assert snap_compare(app, run_before=run_before, terminal_size=SIZE)

    def test_a_hints_expected_line_picked_in_the_panel(self, snap_compare: SnapCompare) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            await settle(pilot)
            for key in ("1", "h"):
                await pilot.press(key)
                await settle(pilot)
            await pilot.press("tab", "down")
            await pilot.pause()

        app = TicTacToeApp(GameSettings(seed=2), start_in_game=True)
        assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


class TestSmallTerminalsAndColour:
    """The compact layout of small terminals, NO_COLOR and the high-contrast theme."""

    def test_3x3_in_40x15_after_the_computer_replies(self, snap_compare: SnapCompare) -> None:
        scene = screenshots.SCENES["game"]
        assert snap_compare(scene.app(), run_before=scene.play, terminal_size=(40, 15))

    def test_3x3_in_40x15_with_the_panel_instead_of_the_board(
        self, snap_compare: SnapCompare
    ) -> None:
        scene = screenshots.SCENES["game"]

        async def run_before(pilot: Pilot[Any]) -> None:
            await scene.play(pilot)
            await pilot.app.screen.run_action("toggle_panel")
            await settle(pilot)

        assert snap_compare(scene.app(), run_before=run_before, terminal_size=(40, 15))

    def test_15x15_in_80x24(self, snap_compare: SnapCompare) -> None:
        app = TicTacToeApp(GameSettings(seed=1, size=15, opponent="h1"), start_in_game=True)

        async def run_before(pilot: Pilot[Any]) -> None:
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)

        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))

    def test_a_win_with_no_colour(
        self, snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("NO_COLOR", "1")
        assert snap_scene(snap_compare, "results")

    def test_the_high_contrast_theme(self, snap_compare: SnapCompare) -> None:
        app = TicTacToeApp(GameSettings(seed=1, theme="high-contrast"), start_in_game=True)
        assert snap_compare(app, run_before=screenshots.SCENES["game"].play, terminal_size=SIZE)


class TestCompactAnalysisAndLab:
    """The analysis board and the lab's screens in their compact layouts: 3×3 analysis in a
    40×15 pane, the 15×15 analysis board and every lab screen in 80×24."""

    def test_3x3_analysis_in_40x15(self, snap_compare: SnapCompare) -> None:
        scene = screenshots.SCENES["analysis-variations"]
        assert snap_compare(scene.app(), run_before=scene.play, terminal_size=(40, 15))

    def test_15x15_analysis_in_80x24(self, snap_compare: SnapCompare) -> None:
        async def run_before(pilot: Pilot[Any]) -> None:
            screen = AnalysisScreen(Position.empty(15).play(112), time_limit=None, depth=1)
            await pilot.app.push_screen(screen)
            await settle(pilot)
            await pilot.press("up", "enter")  # O's reply on H7, above X's H8
            await settle(pilot)

        assert snap_compare(TicTacToeApp(), run_before=run_before, terminal_size=(80, 24))

    # The charts' pane is pinned by tests/app/test_compact_screens.py (shown whole, apart): in
    # a picture plotext's axis labels at this width changed with the tests run before it.
    def test_compare_in_80x24(self, snap_compare: SnapCompare) -> None:
        assert snap_pane(snap_compare, "compare", switch=False)

    @pytest.mark.parametrize("switch", [False, True], ids=["tables", "board"])
    def test_heuristic_lab_in_80x24(self, snap_compare: SnapCompare, switch: bool) -> None:
        assert snap_pane(snap_compare, "heuristics", switch)

    def test_match_runner_in_80x24_before_a_run(self, snap_compare: SnapCompare) -> None:
        # Before a run: the charts' axis labels, drawn by plotext, changed in a picture at this
        # width with the tests run before it (the Pilot test runs a match at 80×24).
        app = TicTacToeApp(GameSettings(seed=1), start_in_game=True)

        async def run_before(pilot: Pilot[Any]) -> None:
            await settle(pilot)
            await pilot.press("m")
            await settle(pilot)

        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


def snap_pane(snap_compare: SnapCompare, name: str, switch: bool) -> bool:
    """The screenshot script's scene `name` at 80×24, after `i` (the other pane) if `switch`."""
    scene = screenshots.SCENES[name]

    async def run_before(pilot: Pilot[Any]) -> None:
        await scene.play(pilot)
        if switch:
            await pilot.press("i")
            await settle(pilot)

    return snap_compare(scene.app(), run_before=run_before, terminal_size=(80, 24))


class TestResultsScreen:
    """The results dialog over the finished game."""

    def test_the_computer_wins(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "results")


class TestHelpScreen:
    """The help text."""

    def test_help(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "help")


class TestLab:
    """The learning lab's screens."""

    def test_match_runner_after_ten_games(
        self, snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The time per move is the one number that varies between runs.
        monkeypatch.setattr(match_rules, "per_move_ms", lambda stats: 1.0)
        assert snap_scene(snap_compare, "match")

    def test_heuristic_lab_after_the_centre(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "heuristics")

    def test_compare_the_algorithms(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "compare")

    @pytest.mark.slow
    def test_the_search_tree_replayed_to_a_cut_off(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "tree")

    def test_the_search_tree_on_10x10_at_the_moves_left_out(
        self, snap_compare: SnapCompare
    ) -> None:
        assert snap_scene(snap_compare, "tree-10x10")


class TestHistoryScreen:
    """The table of kept games, with the all-time scores under it."""

    def test_a_few_dozen_games(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "history")


class TestReviewScreen:
    """A game stepped through, at a move the review marks as a mistake."""

    @pytest.mark.slow
    def test_a_mistake_and_the_better_move(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "review")

    def test_a_blunder_proven_lost_by_threats_beside_bounds_and_depths(
        self, snap_compare: SnapCompare
    ) -> None:
        # The scene caches depth-limited analyses (no time budget): the same on any machine.
        assert snap_scene(snap_compare, "proof")


class TestPuzzleScreen:
    """A proven puzzle waiting for a move, and a wrong move's refutation played out."""

    def test_a_10x10_puzzle(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "puzzle")

    @pytest.mark.slow
    def test_a_wrong_move_and_its_refutation(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "puzzle-refutation")


class TestAnalysisScreen:
    """The analysis board: a position set up by hand, and a tree of variations."""

    def test_setting_up_a_position(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "analysis-setup")

    def test_a_tree_of_variations(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "analysis-variations")


class TestPairingScreen:
    """Why a draw (d): a pairing to play against, and a board without one."""

    def test_the_5x5_pairing_after_two_answers(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "pairing")

    def test_3x3_has_no_pairing_and_says_why(self, snap_compare: SnapCompare) -> None:
        assert snap_scene(snap_compare, "pairing-3x3")
