"""The analysis board in the app: each way in, the keys and clicks, bad input, the lab on it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Input, Static

from tests.app.conftest import SIZE, click_cell, game_app, settle, text
from tests.test_review import played_game
from tictactoe_tui.cli.play import app_from_args
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.analysis import AnalysisScreen
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.review import ReviewScreen
from tictactoe_tui.ui.screens.settings import SettingsScreen
from tictactoe_tui.ui.widgets import Board, EvalPanel
from tictactoe_tui.ui.widgets.variation_list import VariationList


def analysis(pilot: Pilot[None]) -> AnalysisScreen:
    screen = pilot.app.screen
    assert isinstance(screen, AnalysisScreen)
    return screen


def notices(pilot: Pilot[None]) -> list[str]:
    return [n.message for n in pilot.app._notifications]


def moves_shown(pilot: Pilot[None]) -> str:
    """The variation list's text on one line (it wraps to the board's width)."""
    return analysis(pilot).query_one(VariationList).text.replace("\n", " ")


def status_shown(pilot: Pilot[None]) -> str:
    return text(analysis(pilot).query_one("#analysis-status", Static))


async def test_e_opens_the_game_position_and_escape_returns_to_the_game_untouched() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("e")
        await settle(pilot)
        screen = analysis(pilot)
        assert screen.position_text == ".../.X./..."
        await pilot.press("1", "9")  # two moves explored on the board
        await settle(pilot)
        assert screen.position_text == "O../.X./..X"
        await pilot.press("escape")  # asks once: the two moves were never kept
        await settle(pilot)
        assert app.screen is screen
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is game and game.game.moves == (4,)


async def test_i_toggles_the_game_panel_now_that_e_analyses() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        panel = app.screen.query_one(EvalPanel)
        await pilot.press("i")
        assert not panel.display
        await pilot.press("i")
        assert panel.display


async def test_e_in_the_review_opens_the_position_shown() -> None:
    HistoryStore.open().save(played_game((4, 1, 0, 2, 7, 8)))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("home", "right", "right")
        await pilot.press("e")
        await settle(pilot)
        assert analysis(pilot).position_text == ".O./.X./..."
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen) and app.screen.index == 2


async def test_e_in_settings_opens_an_empty_board_of_the_chosen_size_and_k() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        settings = app.screen
        assert isinstance(settings, SettingsScreen)
        settings.query_one("#size").value = 7
        await pilot.pause()
        settings.query_one("#k").value = 4
        await pilot.pause()
        await pilot.press("e")
        await settle(pilot)
        position = analysis(pilot).position
        assert (position.size, position.k, position.move_count) == (7, 4, 0)
        assert analysis(pilot).query_one("#analysis-board", Board).board_size == 7
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is settings


def test_an_impossible_position_flag_is_one_line_and_exit_2() -> None:
    for position, why in [
        ("XX./.../...", "2 X and 0 O"),
        ("XXX/OOO/...", "both X and O have a line"),
        ("XQ./.../...", "unknown character"),
    ]:
        done = subprocess.run(
            [sys.executable, "-m", "tictactoe_tui", "--position", position],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, position
        assert done.stderr.count("\n") == 1 and why in done.stderr, done.stderr
        assert done.stderr.startswith("tictactoe-tui: --position")


def test_flags_beside_position_either_work_or_are_refused_in_one_line() -> None:
    """Issue 39: `--text --position` used to start an empty board and `--size 5` was ignored."""
    for flags, said in [
        (["--text", "--position", "X../.../..."], "text mode does not have"),
        (["--size", "5", "--position", "X../.../..."], "--size 5 does not fit --position"),
    ]:
        done = subprocess.run(
            [sys.executable, "-m", "tictactoe_tui", *flags],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, flags
        assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
    # A --size that is the position's own says nothing new and is taken.
    app = app_from_args(["--size", "3", "--position", "X../.../..."])
    assert app.start_position is not None and app.start_position.size == 3


async def test_a_position_never_changes_the_remembered_settings(tmp_path: Path) -> None:
    store = HistoryStore.open(str(tmp_path))
    store.remember_settings({"opponent": "random", "size": 4})
    store.close()
    flags = ["--opponent", "h1", "--position", "X../.O./...", "--data-dir", str(tmp_path)]
    app = app_from_args(flags)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(pilot.app.screen, AnalysisScreen)
    store = HistoryStore.open(str(tmp_path))
    remembered = store.last_settings()
    store.close()
    assert remembered is not None
    assert (remembered["opponent"], remembered["size"]) == ("random", 4)


async def test_escape_and_q_ask_once_before_dropping_unkept_moves(tmp_path: Path) -> None:
    """Issue 39: Escape dropped a study's moves without a word and q quit with no question."""
    flags = ["--position", "X../.O./...", "--data-dir", str(tmp_path)]
    app = app_from_args(flags)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await click_cell(pilot, 2, "#analysis-board")
        await settle(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, AnalysisScreen)
        assert notices(pilot)[-1].startswith("This study's 1 move is not kept: k keeps it")
        await pilot.press("k")
        await pilot.pause()
        assert notices(pilot)[-1].startswith("Study 1 kept in the history")
        assert await click_cell(pilot, 8, "#analysis-board")
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert notices(pilot)[-1].startswith("This study has changed since it was kept")
        assert pilot.app.is_running
        await pilot.press("q")
        await pilot.pause()
        assert not pilot.app.is_running


async def test_escape_leaves_at_once_with_nothing_to_lose() -> None:
    app = app_from_args(["--position", "X../.O./..."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, SettingsScreen)


def footer_keys(pilot: Pilot[None]) -> list[tuple[str, str]]:
    """The footer's keys as shown: (key, description), in order, the hidden ones left out."""
    from textual.widgets._footer import FooterKey

    return [
        (key.key_display, key.description)
        for key in pilot.app.screen.query(FooterKey)
        if key.display and not key.has_class("-command-palette")
    ]


async def test_the_footer_shows_whole_keys_and_the_set_up_keys_while_setting_up() -> None:
    """Issue 39: at 100 columns the footer ended "Hi ^ppa lette", and in set-up mode it listed
    , . ] + (which do nothing then) instead of the set-up keys."""
    from textual.widgets._footer import FooterKey

    app = app_from_args(["--position", "X../.O./..."])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for width in (100, 80, 120):
            await pilot.resize_terminal(width, 30)
            await pilot.pause(0.3)
            keys = list(pilot.app.screen.query(FooterKey))
            palette = next(key for key in keys if key.has_class("-command-palette"))
            shown = [key for key in keys if key.display and key is not palette]
            assert shown and all(key.region.right <= palette.region.x for key in shown), width
        shown_keys = [key for key, _ in footer_keys(pilot)]
        assert shown_keys[:3] == [",", ".", "]"]
        await pilot.press("s")
        await pilot.pause(0.3)
        described = dict(footer_keys(pilot))
        assert {k: described.get(k) for k in "xo.mns"} == {
            "x": "X",
            "o": "O",
            ".": "Empty",
            "m": "Side",
            "n": "Clear",
            "s": "Done",
        }
        assert described.get("esc") == "Cancel" and "," not in described and "]" not in described
        await pilot.press("escape")
        await pilot.pause(0.3)
        assert dict(footer_keys(pilot)).get("s") == "Set up"


async def test_position_flag_with_k_opens_that_board() -> None:
    app = app_from_args(["--position", "x..../...../..o../...../.....", "--k", "4"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        position = analysis(pilot).position
        assert (position.size, position.k, position.to_move.value) == (5, 4, "X")


async def test_clicks_and_keys_make_two_variations_promote_delete_and_root() -> None:
    app = app_from_args(["--position", "X../.O./..."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = analysis(pilot)
        assert await click_cell(pilot, 2, "#analysis-board")  # X C1
        await settle(pilot)
        await pilot.press("2")  # O B1
        await settle(pilot)
        await pilot.press("comma")
        await pilot.press("4")  # O A2: a variation
        await settle(pilot)
        await pilot.press("comma", "comma", "9")  # X C3: a second one
        await settle(pilot)
        assert moves_shown(pilot) == "1. X C1 ( 1. X C3 ) 2. O B1 ( 2. O A2 )"
        assert "3 variation" not in status_shown(pilot) and "2 variations" in status_shown(pilot)
        await pilot.press("plus")
        await settle(pilot)
        assert moves_shown(pilot).startswith("1. X C3 ( 1. X C1 2. O B1 ( 2. O A2 ) )")
        assert "1. X C3 is now the main line." in notices(pilot)
        await pilot.press("right_square_bracket")  # the next variation: C1
        await settle(pilot)
        assert screen.position_text == "X.X/.O./..."
        await pilot.press("delete")
        await settle(pilot)
        assert moves_shown(pilot) == "1. X C3"
        assert screen.position_text == "X../.O./..."
        await pilot.press("end")
        await settle(pilot)
        assert screen.position_text == "X../.O./..X"
        await pilot.press("home")
        await settle(pilot)
        assert screen.position_text == "X../.O./..."
        # A click on a move of the list goes there.
        assert await pilot.click("#variation-list-body", offset=(1, 0))
        await settle(pilot)
        assert screen.position_text == "X../.O./..X"


async def test_each_position_is_analysed_with_its_line_on_the_board() -> None:
    app = app_from_args(["--position", "XX./OO./..."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = analysis(pilot)
        panel = screen.query_one(EvalPanel).text
        assert panel.startswith("X to move: C1 (win in 1")
        assert screen.view.line_shown == (2,)
        assert "best" in screen.query_one("#analysis-board", Board).cell_highlights(2)
        await pilot.press("h")
        assert any(n.startswith("Hint: C1") for n in notices(pilot))


async def test_setup_keys_and_an_impossible_position_said_in_one_sentence() -> None:
    app = app_from_args(["--position", "X../.O./..."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = analysis(pilot)
        await pilot.press("s")
        assert "Setting up" in status_shown(pilot)
        board = screen.query_one("#analysis-board", Board)
        board.cursor = 8
        await pilot.press("x")
        assert screen.position_text == "X../.O./..X"
        board.cursor = 7
        await pilot.press("x")  # a third X against one O: refused
        assert screen.position_text == "X../.O./..X"
        assert notices(pilot)[-1] == (
            "Impossible position: 3 X and 1 O (the players take "
            "turns, so the counts differ by at most one)."
        )
        await pilot.press("o", "m")
        await pilot.pause()
        assert screen.position.to_move.value == "O"
        assert await click_cell(pilot, 7, "#analysis-board")  # O → empty
        assert screen.position_text == "X../.O./..X"
        await pilot.press("s")  # done: a new study from it
        await settle(pilot)
        assert "Setting up" not in status_shown(pilot)
        assert len(screen.controller.tree) == 0
        assert screen.position == Position.from_string("X../.O./..X")


async def test_paste_and_copy_round_trip_and_a_bad_string_changes_nothing() -> None:
    app = app_from_args(["--position", "X../.O./..."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = analysis(pilot)
        await pilot.press("c")
        assert app.clipboard == "X../.O./..."
        assert any(n.startswith("Copied X../.O./...") for n in notices(pilot))
        await pilot.press("v")
        box = screen.query_one("#paste", Input)
        assert box.has_focus
        await pilot.press(*"xo./...", "enter")
        await pilot.pause()
        assert notices(pilot)[-1].startswith("Not pasted: 6 cells cannot make a square board")
        assert screen.position_text == "X../.O./..." and box.display
        box.value = ""
        await pilot.press(*"x.o./.x../..o./....", "enter")
        await settle(pilot)
        assert not box.display
        assert screen.position_text == "X.O./.X../..O./...."
        assert screen.query_one("#analysis-board", Board).board_size == 4
        await pilot.press("v")
        box = screen.query_one("#paste", Input)
        box.value = app.clipboard
        await pilot.press("enter")
        await settle(pilot)
        assert screen.position_text == "X../.O./..."


async def test_the_lab_keys_open_on_the_position_shown() -> None:
    app = app_from_args(["--position", "X../.O./..."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("9")
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        lab = app.screen
        assert type(lab).__name__ == "HeuristicScreen"
        assert lab.position == Position.from_string("X../.O./..X")  # type: ignore[attr-defined]


async def test_k_keeps_the_study_and_the_history_reopens_it_with_its_variations() -> None:
    app = app_from_args(["--position", "X../.O./..."])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3", "2", "comma", "4", "home", "9")
        await settle(pilot)
        shown = moves_shown(pilot)
        await pilot.press("k")
        assert notices(pilot)[-1] == (
            "Study 1 kept in the history (4 moves, 2 variations): y, then s, lists the studies."
        )
        assert status_shown(pilot).startswith("Study 1 · ")
        await pilot.press("delete", "k")  # C3 deleted, and saved in place
        assert notices(pilot)[-1].startswith("Study 1 saved again (3 moves, 1 variation)")
        await pilot.press("escape", "y")
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        assert type(app.screen).__name__ == "StudiesScreen"
        await pilot.press("enter")
        await settle(pilot)
        reopened = analysis(pilot)
        assert reopened.study_id == 1 and reopened.position_text == "X../.O./..."
        assert moves_shown(pilot) == shown.replace(" ( 1. X C3 )", "")


async def test_a_long_refusal_is_shown_whole_in_the_status_at_100_columns() -> None:
    """Issue 39: the status cut the refusal of a pasted position at its third line."""
    app = app_from_args(["--position", "..../..../..../....", "--k", "3"])
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await pilot.pause()
        analysis(pilot).query_one("#paste", Input).value = "XXXO/XXO./X..O/.OO."
        await pilot.press("enter")
        await settle(pilot)
        status = analysis(pilot).query_one("#analysis-status", Static)
        painted = " ".join(strip.text.strip() for strip in status.render_lines(status.size.region))
        refusal = (
            "Not pasted: impossible position: no cell of X's is on all 3 of its lines, so no "
            "last move made them all, and the game ends at the first one."
        )
        assert refusal in painted, painted
        assert analysis(pilot).position == Position.empty(4, 3)


async def test_the_paste_box_says_its_words_whole_on_the_narrowest_screen() -> None:
    from tictactoe_tui.ui.screens.analysis import MIN_WIDTH, PASTE_PLACEHOLDER, needed_terminal

    app = app_from_args(["--position", "X../.O./..."])
    async with app.run_test(size=(MIN_WIDTH, needed_terminal(3)[1])) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await pilot.pause()
        box = analysis(pilot).query_one("#paste", Input)
        whole = Region(0, 0, *box.outer_size)
        painted = " ".join(strip.text for strip in box.render_lines(whole))
        assert PASTE_PLACEHOLDER in painted, painted
        assert "X../.O./..." in PASTE_PLACEHOLDER and "Enter" in PASTE_PLACEHOLDER
