"""The Settings screen: start a game by keyboard alone and by mouse alone; refuse bad input."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, Label, RadioSet, Select, Static

from tests.app.conftest import SIZE, pick_with_mouse, settle
from tests.app.conftest import marks as marks_of_board
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.help import HelpScreen
from tictactoe_tui.ui.screens.settings import SettingsScreen, first_label

CHOSEN = GameSettings(first="computer", mark="O", opponent="h2", size=4)
"""The non-default game both start tests set up: 4×4, H2, you are O, the computer starts."""


async def test_the_defaults_start_with_one_enter() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen"
        assert app.settings == GameSettings()


@pytest.mark.slow
async def test_a_game_is_set_up_and_started_with_the_keyboard_alone() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("tab", "tab")  # Start -> mode -> who moves first
        await pilot.press("right", "space")  # the computer
        await pilot.press("tab", "right", "space")  # your mark: O
        # Past predict mode (left off), then the computer player: Heuristic H2.
        await pilot.press("tab", "tab", "enter", "down", "down", "down", "enter")
        await pilot.press("tab", "tab", "enter", "down", "enter")  # difficulty, size 4×4
        await pilot.press("tab", "tab", "enter")  # k, then Enter in the time box starts
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen"
        assert app.settings == CHOSEN
        marks = marks_of_board(pilot)
        assert len(marks) == 16
        assert marks.count("X") == 1 and marks.count("O") == 0


@pytest.mark.slow
async def test_a_game_is_set_up_and_started_with_the_mouse_alone() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        assert await pilot.click("#first-computer")
        assert await pilot.click("#mark-O")
        await pick_with_mouse(pilot, "opponent", 3)  # Heuristic H2
        await pick_with_mouse(pilot, "size", 1)  # 4×4
        assert await pilot.click("#start")
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen"
        assert app.settings == CHOSEN
        marks = marks_of_board(pilot)
        assert len(marks) == 16
        assert marks.count("X") == 1 and marks.count("O") == 0


async def test_the_first_choice_says_which_mark_starts() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        label = app.screen.query_one("#first-label", Label)
        assert str(label.render()) == "Who moves first (X starts: you)"
        assert await pilot.click("#mark-O")
        assert str(label.render()) == "Who moves first (O starts: you)"
        assert await pilot.click("#first-computer")
        assert str(label.render()) == "Who moves first (X starts: the computer)"
        assert await pilot.click("#mark-X")  # the computer plays O, and moves first
        assert str(label.render()) == "Who moves first (O starts: the computer)"


@pytest.mark.parametrize("mode", ["human-vs-computer", "human-vs-human", "computer-vs-computer"])
@pytest.mark.parametrize("first", ["human", "computer"])
@pytest.mark.parametrize("mark", ["X", "O"])
def test_the_first_label_names_the_mark_the_game_starts_with(
    mode: str, first: str, mark: str
) -> None:
    settings = GameSettings(mode=mode, first=first, mark=mark)
    label = first_label(mode, first, mark)
    assert f"({settings.first_mark} starts" in label
    if mode == "human-vs-computer":
        computer_starts = settings.is_computer(settings.first_mark)
        assert label.endswith("the computer)" if computer_starts else "you)")


async def test_who_moves_first_and_your_mark_are_disabled_between_two_computers() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        first = app.screen.query_one("#first", RadioSet)
        mark = app.screen.query_one("#mark", RadioSet)
        assert not first.disabled and not mark.disabled
        assert await pilot.click("#mode-computer-vs-computer")
        await pilot.pause()
        assert first.disabled and mark.disabled
        await pilot.click("#mark-O")  # a click on them changes nothing
        await pilot.pause()
        assert mark.pressed_button is not None and mark.pressed_button.id == "mark-X"
        assert await pilot.click("#mode-human-vs-human")
        await pilot.pause()
        assert not first.disabled and not mark.disabled


async def test_the_mouse_steps_the_number_boxes() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            assert await pilot.click("#difficulty-down")
        assert await pilot.click("#time_limit-up")
        await pilot.pause()
        assert app.screen.query_one("#difficulty", Input).value == "70"
        assert app.screen.query_one("#time_limit", Input).value == "1.5"


async def test_an_out_of_range_value_shows_why_and_does_not_start() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        difficulty = app.screen.query_one("#difficulty", Input)
        difficulty.focus()
        await pilot.press("5", "0", "0")  # the focus selects the old value
        await pilot.pause()
        message = app.screen.query_one("#difficulty-error", Static)
        assert message.display
        assert str(message.render()) == "Must be between 1 and 100, not 500"
        assert not difficulty.is_valid
        await pilot.press("enter")
        assert await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert app.focused is difficulty
        await pilot.press("5", "0")  # the focus selected the bad value
        await pilot.pause()
        assert not message.display


async def test_an_empty_time_limit_is_refused_on_start() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#time_limit", Input).value = ""
        assert await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        message = app.screen.query_one("#time_limit-error", Static)
        assert str(message.render()) == "Must be a number of seconds, not ''"


def k_label(pilot: Pilot[None]) -> str:
    """What the closed k list shows."""
    return str(pilot.app.screen.query_one("#k SelectCurrent #label", Static).render())


def k_labels(pilot: Pilot[None]) -> list[str]:
    """Every option the k list offers."""
    return [str(prompt) for prompt, _ in pilot.app.screen.query_one("#k", Select)._options]


@pytest.mark.slow
async def test_the_winning_length_list_follows_the_board_size() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pick_with_mouse(pilot, "size", 7)  # 10×10
        await pick_with_mouse(pilot, "k", 5)  # the list: 3, 4, 5 (default), 6, 7, 8...
        k = app.screen.query_one("#k", Select)
        assert k.value == 8
        await pick_with_mouse(pilot, "size", 3)  # 6×6: 8 in a row no longer fits
        assert k.value == "default" and k_label(pilot) == "5 (default)"
        await pick_with_mouse(pilot, "k", 3)  # 3, 4, 5 (default), 6
        assert k.value == 6
        assert k_label(pilot) == "6"


async def test_the_default_winning_length_is_redrawn_for_the_new_size() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        assert k_label(pilot) == "3 (default)" and k_labels(pilot) == ["3 (default)"]
        await pick_with_mouse(pilot, "size", 7)  # 3×3 -> 10×10
        assert k_label(pilot) == "5 (default)"
        assert k_labels(pilot) == ["3", "4", "5 (default)", "6", "7", "8", "9", "10"]
        app.screen.query_one("#size", Select).value = 3  # 10×10 -> 3×3 (scrolled out)
        await pilot.pause()
        assert k_label(pilot) == "3 (default)" and k_labels(pilot) == ["3 (default)"]
        await pick_with_mouse(pilot, "size", 1)  # 4×4: four in a row by default
        assert k_label(pilot) == "4 (default)" and k_labels(pilot) == ["3", "4 (default)"]


async def test_a_game_set_to_the_default_length_reopens_on_the_default() -> None:
    app = TicTacToeApp(GameSettings(size=7, k=5), True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert app.screen.query_one("#k", Select).value == "default"
        assert k_label(pilot) == "5 (default)"


@pytest.mark.slow
async def test_reopened_settings_show_the_current_game_and_escape_goes_back() -> None:
    app = TicTacToeApp(GameSettings(mark="O", size=5, k=4, seed=9, difficulty=60), True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.screen
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        screen = app.screen
        assert screen.query_one("#mark", RadioSet).pressed_button.id == "mark-O"
        assert screen.query_one("#size", Select).value == 5
        assert screen.query_one("#k", Select).value == 4
        assert screen.query_one("#seed", Input).value == "9"
        assert screen.query_one("#difficulty", Input).value == "60"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game


@pytest.mark.slow
async def test_starting_from_reopened_settings_replaces_the_game() -> None:
    app = TicTacToeApp(GameSettings(seed=1), True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_settings()
        await pilot.pause()
        await pick_with_mouse(pilot, "size", 2)  # 5×5
        assert await pilot.click("#start")
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen"
        assert len(app.screen_stack) == 2
        assert app.settings.size == 5


async def test_escape_does_nothing_without_a_game_to_go_back_to() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)


async def test_choosing_a_theme_previews_it_and_escape_restores_it() -> None:
    app = TicTacToeApp(GameSettings(seed=1), True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_settings()
        await pilot.pause()
        app.screen.query_one("#theme", Select).value = "nord"
        await pilot.pause()
        assert app.theme == "nord"
        await pilot.press("escape")
        await pilot.pause()
        assert app.theme == "textual-dark"


async def test_help_opens_from_settings() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_a_theme_chosen_in_the_palette_survives_a_new_game_from_settings() -> None:
    app = TicTacToeApp(GameSettings(seed=1), True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.theme = "gruvbox"  # what the command palette's "Change theme" does
        app.open_settings()
        await pilot.pause()
        assert app.screen.query_one("#theme", Select).value == "gruvbox"
        assert await pilot.click("#start")
        await settle(pilot)
        assert app.theme == "gruvbox"
        assert app.settings.theme == "gruvbox"


async def test_the_steppers_move_to_the_next_grid_mark_and_stay_in_range() -> None:
    app = TicTacToeApp(GameSettings(difficulty=55))
    async with app.run_test(size=SIZE) as pilot:
        box = app.screen.query_one("#difficulty", Input)
        assert await pilot.click("#difficulty-up")
        assert box.value == "60"
        box.value = "100"
        assert await pilot.click("#difficulty-up")
        assert box.value == "100"
        box.value = "5"
        assert await pilot.click("#difficulty-down")
        assert box.value == "1"


async def test_enter_on_a_radio_set_starts_the_game_as_the_hint_says() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("tab", "tab", "tab")  # Start -> mode -> first -> your mark
        assert app.focused is app.screen.query_one("#mark", RadioSet)
        assert hint(pilot) == "Enter starts · Tab moves · ? help"
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen"
        assert app.settings == GameSettings()


def hint(pilot: Pilot[None]) -> str:
    return str(pilot.app.screen.query_one("#settings-hint", Static).render())


@pytest.mark.slow
async def test_the_hint_says_what_enter_does_where_the_focus_is() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        assert hint(pilot).startswith("Enter starts")  # on Start
        await pilot.press("tab", "tab", "tab", "tab", "tab")  # past predict: the opponent list
        assert isinstance(app.focused, Select)
        assert hint(pilot).startswith("Enter opens the list")
        await pilot.press("enter")  # as it says: it opens
        await pilot.pause()
        assert app.screen.query_one("#opponent", Select).expanded
        assert "Enter chooses" in hint(pilot)
        await pilot.press("down", "enter")  # chooses, and closes
        await pilot.pause()
        assert app.screen.query_one("#opponent", Select).value == "minimax"
        assert hint(pilot).startswith("Enter opens the list")
        await pilot.press("tab")  # the difficulty box
        assert hint(pilot).startswith("Enter starts")
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen"
        assert app.settings.opponent == "minimax"


async def test_arrows_choose_in_a_radio_set_and_enter_starts_with_that_choice() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("tab", "tab", "tab", "right")  # your mark: O, chosen by the arrow
        await pilot.pause()
        mark = app.screen.query_one("#mark", RadioSet)
        assert mark.pressed_button is not None and mark.pressed_button.id == "mark-O"
        label = app.screen.query_one("#first-label", Label)
        assert str(label.render()) == "Who moves first (O starts: you)"
        await pilot.press("enter")
        await settle(pilot)
        assert app.settings == GameSettings(mark="O")


async def test_the_search_depth_is_set_on_the_settings_screen() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        depth = app.screen.query_one("#depth", Input)
        assert depth.value == "" and depth.placeholder == "automatic"
        depth.focus()
        await pilot.press("2", "5")
        await pilot.pause()
        message = app.screen.query_one("#depth-error", Static)
        assert str(message.render()) == "Must be between 1 and 20, not 25"
        await pilot.press("backspace", "enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen"
        assert app.settings == GameSettings(depth=2)


async def test_reopened_settings_show_the_depth_and_blank_means_automatic() -> None:
    app = TicTacToeApp(GameSettings(depth=4, seed=1), True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_settings()
        await pilot.pause()
        depth = app.screen.query_one("#depth", Input)
        assert depth.value == "4"
        depth.value = ""
        assert await pilot.click("#start")
        await settle(pilot)
        assert app.settings.depth is None


async def test_the_settings_screen_hands_its_choice_back_to_whoever_opened_it() -> None:
    """The screen knows nothing of the tic-tac-toe app: any app can push it and get the result."""
    chosen: list[GameSettings | None] = []

    class Host(App[None]):
        CSS_PATH = TicTacToeApp.CSS_PATH

        def on_mount(self) -> None:
            self.push_screen(SettingsScreen(GameSettings(size=5), can_cancel=True), chosen.append)

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert chosen == [GameSettings(size=5)]
        app.push_screen(SettingsScreen(GameSettings(), can_cancel=True), chosen.append)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert chosen == [GameSettings(size=5), None]


async def test_the_size_list_reaches_20x20_and_starts_such_a_game() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=(131, 32)) as pilot:
        size = app.screen.query_one("#size", Select)
        labels = [str(prompt) for prompt, _ in size._options]
        assert labels[-5:] == ["16×16", "17×17", "18×18", "19×19", "20×20"]
        size.value = 20
        await pilot.pause()
        assert await pilot.click("#start")
        await settle(pilot)
        assert type(app.screen).__name__ == "GameScreen"
        assert app.settings.size == 20 and app.settings.k is None  # the default: 5 in a row
        assert len(marks_of_board(pilot)) == 400
