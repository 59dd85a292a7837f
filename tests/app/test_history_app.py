"""The history in the app: games kept as they end, the History and Review screens, the last
settings, and every kind of bad history file met at start-up."""

from __future__ import annotations

import sqlite3
from dataclasses import asdict
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import DataTable, ProgressBar, Static

import tictactoe_tui.ui.app as app_module
from benchmarks.history_bench import sample_games
from tests.app.conftest import (
    SIZE,
    game,
    game_app,
    pick_with_mouse,
    scores,
    settle,
    status,
    text,
    wait_until,
)
from tests.games import a_game
from tests.test_review import played_game
from tests.test_store import read_only_dir, read_only_history
from tictactoe_tui.cli.play import app_from_args
from tictactoe_tui.history.locations import DB_NAME
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.schema import SCHEMA_VERSION
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.history import FIRST_PAGE, HistoryScreen
from tictactoe_tui.ui.screens.results import ResultsScreen
from tictactoe_tui.ui.screens.review import EvalGraph, ReviewScreen, move_ticks
from tictactoe_tui.ui.screens.settings import SettingsScreen
from tictactoe_tui.ui.widgets import Board, EvalPanel, Scoreboard


def notices(pilot: Pilot[None]) -> list[str]:
    """The notifications the app has shown."""
    return [notification.message for notification in pilot.app._notifications]


def filled(games: int) -> None:
    """Put `games` sample games in the test's history."""
    store = HistoryStore.open()
    store.save_many(sample_games(games))
    store.close()


async def lose_to_h1(pilot: Pilot[None]) -> None:
    """X takes A1, B1, A2; H1 (seed 1) takes the centre, blocks at C1 and wins at A3."""
    for key in ("1", "2", "4"):
        await pilot.press(key)
        await settle(pilot)


async def open_history(pilot: Pilot[None]) -> HistoryScreen:
    """Press y and wait for the History screen."""
    await pilot.press("y")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, HistoryScreen)
    return screen


def history_table(pilot: Pilot[None]) -> DataTable[object]:
    return pilot.app.screen.query_one("#history-table", DataTable)


def column(pilot: Pilot[None], key: str) -> list[str]:
    table = history_table(pilot)
    return [
        str(table.get_cell_at((row, [c.value for c in table.columns].index(key))))
        for row in range(table.row_count)
    ]


# -- games are kept -------------------------------------------------------------------------------


async def test_a_finished_game_is_kept_with_its_moves_and_counted_all_time() -> None:
    app = game_app(opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await lose_to_h1(pilot)
        assert isinstance(pilot.app.screen, ResultsScreen)
        kept = app.store.game(1)
        assert kept is not None and kept.outcome == "O" and kept.cells == (0, 4, 1, 2, 3, 6)
        assert (kept.mode, kept.x, kept.o, kept.size, kept.k) == (
            "human-vs-computer",
            "human",
            "h1",
            3,
            3,
        )
        computer = [m for m in kept.moves if m.by_computer]
        assert len(computer) == 3 and all(m.positions and m.clever for m in computer)
        assert kept.settings["opponent"] == "h1"
        dialog_scores = scores(pilot.app.screen.query_one("#results-scoreboard", Scoreboard))
        assert dialog_scores == {
            "session": {"You": 0, "Computer": 1, "Draws": 0},
            "all time": {"You": 0, "Computer": 1, "Draws": 0},
        }
        await pilot.press("r")
        await settle(pilot)
        await lose_to_h1(pilot)
        assert app.all_time(app.settings) == (("You", 0), ("Computer", 2), ("Draws", 0))
        assert scores(game(pilot).query_one(Scoreboard))["all time"] == {
            "You": 0,
            "Computer": 2,
            "Draws": 0,
        }


async def test_a_game_left_unfinished_is_kept_as_abandoned() -> None:
    app = game_app(opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")  # nothing played yet: nothing to keep
        await settle(pilot)
        assert app.store.count() == 0
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("q", "y")  # quitting mid-game asks once
        await pilot.pause()
    store = HistoryStore.open()
    assert [g.outcome for g in store.games()] == ["abandoned", "abandoned"]
    assert [g.moves for g in store.games()] == [2, 2]


async def test_switching_the_computer_to_random_is_recorded() -> None:
    app = game_app(opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("c")
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("c")
        await pilot.press("n")
        await settle(pilot)
        kept = app.store.game(1)
        assert kept is not None
        assert kept.switched_to_random == (2,) and kept.switched_to_clever == (4,)
        assert kept.moves[3].clever is False and kept.moves[1].clever is True


async def test_settings_open_with_the_last_settings_used() -> None:
    store = HistoryStore.open()
    store.remember_settings({"size": 4, "opponent": "h2", "difficulty": 70, "unknown": 1})
    store.close()
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, SettingsScreen)
        assert (screen.settings.size, screen.settings.opponent, screen.settings.difficulty) == (
            4,
            "h2",
            70,
        )
    assert app_from_args([]).settings.size == 4
    assert app_from_args(["--theme", "nord"]).settings.theme == "nord"
    assert app_from_args(["--theme", "nord"]).settings.size == 4
    assert app_from_args(["--size", "5"]).settings == GameSettings(size=5)


async def test_starting_a_game_remembers_its_settings() -> None:
    app = game_app(size=5, opponent="h1", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
    remembered = HistoryStore.open().last_settings()
    assert remembered == asdict(GameSettings(size=5, opponent="h1", seed=3))
    assert remembered is not None and (remembered["size"], remembered["seed"]) == (5, 3)


# -- the History screen ---------------------------------------------------------------------------


async def test_y_opens_the_history_and_escape_closes_it() -> None:
    filled(12)
    app = game_app(opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await open_history(pilot)
        assert isinstance(pilot.app.screen, HistoryScreen)
        assert history_table(pilot).row_count == 12
        status = text(pilot.app.screen.query_one("#history-status", Static))
        assert status.startswith("12 games, by date, newest first")
        scores = text(pilot.app.screen.query_one("#history-scores", Static))
        assert "alpha-beta on 3×3: You" in scores
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)


async def test_an_empty_history_says_so() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_history(pilot)
        status = text(pilot.app.screen.query_one("#history-status", Static))
        assert status.startswith("No games yet")


@pytest.mark.slow
async def test_a_long_history_is_read_a_page_at_a_time() -> None:
    filled(250)
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_history(pilot)
        table = history_table(pilot)
        assert table.row_count == FIRST_PAGE
        assert "250 games" in text(pilot.app.screen.query_one("#history-status", Static))
        for _ in range(FIRST_PAGE):
            await pilot.press("down")
        await pilot.pause()
        assert FIRST_PAGE < table.row_count < 250
        table.scroll_end(animate=False)
        for _ in range(5):
            await pilot.pause()
            table.scroll_end(animate=False)
        await pilot.pause()
        assert table.row_count == 250
        dates = column(pilot, "date")
        assert dates == sorted(dates, reverse=True)


async def test_the_history_sorts_by_keys_and_by_header_clicks() -> None:
    filled(30)
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_history(pilot)
        await pilot.press("o")  # date -> mode, A to Z
        await pilot.pause()
        modes = {
            "vs computer": "human-vs-computer",
            "two people": "human-vs-human",
            "two computers": "computer-vs-computer",
        }
        ascending = [modes[m] for m in column(pilot, "mode")]
        assert ascending == sorted(ascending) and len(set(ascending)) > 1
        await pilot.press("r")
        await pilot.pause()
        descending = [modes[m] for m in column(pilot, "mode")]
        assert descending == sorted(descending, reverse=True) and descending[0] != ascending[0]
        table = history_table(pilot)
        x = sum(c.get_render_width(table) for c in table.ordered_columns[:5]) + 2
        assert await pilot.click("#history-table", offset=(x, 0))  # the Moves header
        await pilot.pause()
        lengths = [int(n) for n in column(pilot, "length")]
        assert lengths == sorted(lengths, reverse=True)


@pytest.mark.slow
async def test_the_history_filters_by_result_player_and_board() -> None:
    filled(40)
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_history(pilot)
        await pick_with_mouse(pilot, "filter-result", 3)  # prompt, X, O, Draw
        results = column(pilot, "result")
        assert results and set(results) == {"Draw"}
        await pick_with_mouse(pilot, "filter-result", 0)  # back to any result
        await pick_with_mouse(pilot, "filter-board", 3)  # prompt, 3×3, 4×4, 10×10
        assert set(column(pilot, "board")) == {"10×10, 5 in a row"}
        await pick_with_mouse(pilot, "filter-board", 0)
        # The players: prompt, alphabeta, h1, h2, human, minimax, random.
        await pick_with_mouse(pilot, "filter-opponent", 5)
        opponents = column(pilot, "opponent")
        assert opponents and all(o.startswith("minimax") for o in opponents)
        status = text(pilot.app.screen.query_one("#history-status", Static))
        assert status.startswith(f"{len(opponents)} games")


# -- the Review screen ----------------------------------------------------------------------------


async def review_of(pilot: Pilot[None]) -> ReviewScreen:
    await open_history(pilot)
    await pilot.press("enter")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    return screen


async def test_enter_reviews_a_game_and_the_arrows_step_through_it() -> None:
    HistoryStore.open().save(played_game((4, 1, 0, 2, 7, 8)))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        review = await review_of(pilot)
        board = review.query_one("#review-board", Board)
        assert review.index == 6
        await pilot.press("home")
        assert review.index == 0
        assert board.marks == ("",) * 9
        await pilot.press("right", "right")
        assert review.index == 2
        panel = review.query_one(EvalPanel).text
        assert panel.startswith("2. O B1??") and "A blunder (??)" in panel
        assert board.marks[1] == "O" and board.last_move == 1
        assert board.cell_highlights(1) >= {"o", "last"}
        await pilot.press("right", "right", "right")
        panel = review.query_one(EvalPanel).text
        assert panel.startswith("5. X B3?") and "B3 leads to a draw, where C3 wins in 1" in panel
        assert board.best_move == 8 and "best" in board.cell_highlights(8)
        await pilot.press("left")
        assert review.index == 4
        await pilot.press("end")
        assert review.index == 6
        await pilot.press("right")
        assert review.index == 6
        moves = text(review.query_one("#move-list-body", Static))
        assert "2. O B1??" in moves and "5. X B3?" in moves and "4. O C1?!" in moves
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HistoryScreen)


async def test_a_click_on_the_graph_jumps_to_that_move() -> None:
    HistoryStore.open().save(played_game((4, 1, 0, 2, 7, 8)))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        review = await review_of(pilot)
        graph = review.query_one("#review-graph", EvalGraph)
        assert await pilot.click("#review-graph", offset=(4, 3))
        assert review.index == 0
        assert await pilot.click("#review-graph", offset=(graph.size.width - 3, 3))
        assert review.index == 6
        assert await pilot.click("#review-graph", offset=(graph.size.width // 2 + 1, 3))
        assert review.index == 3


def test_the_graph_marks_whole_moves_however_long_the_game() -> None:
    assert move_ticks(6) == [0, 1, 2, 3, 4, 5, 6]
    assert move_ticks(41) == [0, 10, 20, 30, 40]
    assert move_ticks(224) == [0, 50, 100, 150, 200]
    for last in range(1, 226):
        ticks = move_ticks(last)
        assert ticks[0] == 0 and ticks[-1] <= last and 2 <= len(ticks) <= 25


async def test_a_long_games_graph_reads_whole_move_numbers() -> None:
    class GraphApp(App[None]):
        def compose(self) -> ComposeResult:
            yield EvalGraph(id="review-graph")

    app = GraphApp()
    async with app.run_test(size=(100, 12)) as pilot:
        graph = app.query_one(EvalGraph)
        graph.show([i % 7 - 3 for i in range(42)], 5, 10)  # 41 moves, as in the issue
        await pilot.pause()
        axis = str(graph.render()).splitlines()[-1].split()
        assert axis == ["0", "10", "20", "30", "40"]


async def test_a_one_move_game_is_over_after_one_move_not_one_moves() -> None:
    HistoryStore.open().save(a_game((4,), outcome="abandoned"))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        review = await review_of(pilot)
        status = text(review.query_one("#review-status", Static))
        assert "abandoned after 1 move" in status and "1 moves" not in status


async def test_a_click_on_a_move_in_the_list_jumps_there() -> None:
    HistoryStore.open().save(played_game((4, 1, 0, 2, 7, 8)))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        review = await review_of(pilot)
        assert await pilot.click("#move-list-body", offset=(1, 0))
        assert review.index == 1
        assert await pilot.click("#move-list-body", offset=(13, 0))  # entries are 12 wide
        assert review.index == 2


async def test_the_results_dialog_offers_a_review_of_the_game() -> None:
    app = game_app(opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await lose_to_h1(pilot)
        await pilot.press("v")
        await settle(pilot)
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen)
        assert review.game.cells == (0, 4, 1, 2, 3, 6) and review.game_id == 1
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)


@pytest.mark.slow
async def test_play_from_here_starts_a_game_from_the_shown_position() -> None:
    HistoryStore.open().save(a_game())
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await review_of(pilot)
        await pilot.press("end")
        await pilot.press("f")  # the game is over here: nothing to play
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReviewScreen)
        await pilot.press("home", "right", "right", "right", "f")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, GameScreen)
        assert screen.game.moves[:3] == a_game().cells[:3]
        assert (screen.settings.opponent, screen.settings.difficulty) == ("alphabeta", 80)
        # X (you) moved twice and O once: it is O's, the computer's, turn; it answers.
        assert len(screen.game.moves) == 4
        # n asks where the next game starts: Enter keeps the position, e gives an empty board.
        await pilot.press("n")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "NewGameDialog"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.game.moves[:3] == a_game().cells[:3]
        assert "New game from the position after move 3." in notices(pilot)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("e")
        await settle(pilot)
        assert screen.game.moves == ()
        assert "New game." in status(pilot)
        await pilot.press("n")  # the empty board is for good: no question
        await pilot.pause()
        assert pilot.app.screen is screen and screen.game.moves == ()


async def test_a_big_board_is_analysed_in_the_background_and_cached() -> None:
    HistoryStore.open().save(played_game((0, 5, 10, 15, 3, 6), size=4, k=4))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        review = await review_of(pilot)
        for _ in range(600):
            if review.review.progress == (7, 7):
                break
            await pilot.pause(0.05)
        await pilot.pause()
        assert review.review.progress == (7, 7)
        assert review.query_one("#review-progress", ProgressBar).progress == 7
        assert review.has_class("-analysed")
        jobs: list[object] = []
        run = app.thinker.run

        async def counted(job: object, *args: object, **kwargs: object) -> object:
            jobs.append(job)
            return await run(job, *args, **kwargs)  # type: ignore[arg-type]

        app.thinker.run = counted  # type: ignore[method-assign]
        await pilot.press("escape", "enter")
        await pilot.pause()
        again = pilot.app.screen
        assert isinstance(again, ReviewScreen) and again is not review
        # Everything came from the cache: no job went to the worker.
        assert again.review.progress == (7, 7) and jobs == []


# -- bad history files at start-up ----------------------------------------------------------------


async def test_a_damaged_history_is_moved_aside_and_the_app_says_so(data_dir: Path) -> None:
    (data_dir / DB_NAME).write_bytes(b"not sqlite at all" * 64)
    app = game_app(opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        [notice] = notices(pilot)
        [moved] = data_dir.glob(f"{DB_NAME}.damaged-*")
        assert "damaged" in notice and str(moved) in notice and "\n" not in notice
        await lose_to_h1(pilot)
        assert app.store.count() == 1


async def test_a_read_only_data_dir_warns_once_and_play_goes_on(tmp_path: Path) -> None:
    folder = read_only_dir(tmp_path)
    app = TicTacToeApp(
        GameSettings(opponent="h1", seed=1), start_in_game=True, store=HistoryStore.open(folder)
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [n for n in notices(pilot) if "History is off" in n]
        await lose_to_h1(pilot)
        assert isinstance(pilot.app.screen, ResultsScreen)
        await pilot.press("r")
        await settle(pilot)
        assert len(notices(pilot)) == 1


async def test_a_history_that_cannot_be_written_is_listed_read_only(tmp_path: Path) -> None:
    with read_only_history(tmp_path, games=12) as folder:
        app = TicTacToeApp(store=HistoryStore.open(folder))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert any("cannot be written" in n and "listed" in n for n in notices(pilot))
            screen = await open_history(pilot)
            await pilot.pause()
            assert history_table(pilot).row_count == 12
            status = screen.query_one("#history-status", Static)
            shown = " ".join(status.render_line(y).text for y in range(status.size.height))
            words = " ".join(shown.split())  # the whole notice shows, however it wraps
            assert "No games yet" not in words and "cannot be written (read-only)" in words
            assert words.endswith("new games are not saved.")
        app.store.close()


async def test_a_newer_history_is_read_only_and_the_app_says_so(data_dir: Path) -> None:
    HistoryStore.open().save(a_game())
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    app = game_app(opponent="h1", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any("newer" in n and "read-only" in n for n in notices(pilot))
        await lose_to_h1(pilot)
        await pilot.press("r", "y")
        await pilot.pause()
        assert history_table(pilot).row_count == 1  # read, but not written
    # The new game waits beside it, for the newer version to save.
    [record] = data_dir.glob("unsaved-*.txt")
    assert PlayedGame.from_record(record.read_text()).cells == (0, 4, 1, 2, 3, 6)


async def test_a_locked_history_keeps_the_game_until_it_can_save_it(data_dir: Path) -> None:
    app = TicTacToeApp(
        GameSettings(opponent="h1", seed=1),
        start_in_game=True,
        store=HistoryStore.open(busy_seconds=0.1),
    )
    other = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        other.execute("BEGIN EXCLUSIVE")
        await lose_to_h1(pilot)
        assert len(list(data_dir.glob("unsaved-*.txt"))) == 1
        assert any("busy" in n and "kept" in n for n in notices(pilot))
        other.execute("ROLLBACK")
        await pilot.press("r")
        await settle(pilot)
        await lose_to_h1(pilot)
        assert not list(data_dir.glob("unsaved-*.txt")) and app.store.count() == 2
    other.close()


def lock_out_readers(data_dir: Path) -> sqlite3.Connection:
    """Another program holding the history so that it cannot even be opened (a file not in WAL
    mode, under `BEGIN EXCLUSIVE`): the app starts with the history waiting."""
    HistoryStore.open().close()
    other = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    other.execute("PRAGMA journal_mode = DELETE")
    other.execute("BEGIN EXCLUSIVE")
    return other


async def test_a_history_locked_at_start_up_saves_the_game_once_the_lock_goes(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "HISTORY_RETRY_SECONDS", 0.1)
    other = lock_out_readers(data_dir)
    app = TicTacToeApp(
        GameSettings(opponent="h1", seed=1),
        start_in_game=True,
        store=HistoryStore.open(busy_seconds=0.1),
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any("locked" in n for n in notices(pilot))
        await lose_to_h1(pilot)
        [record] = data_dir.glob("unsaved-*.txt")  # kept at once, where a restart finds it
        other.execute("ROLLBACK")
        other.close()
        await wait_until(pilot, lambda: not record.exists(), 10)
        await pilot.pause()
        assert any("free again" in n and "1 waiting game saved" in n for n in notices(pilot))
        assert app.store.state == "ready" and app.store.count() == 1
    again = HistoryStore.open()
    assert again.count() == 1 and again.game(1).cells == (0, 4, 1, 2, 3, 6)  # type: ignore[union-attr]


async def test_a_history_locked_all_through_keeps_the_games_for_the_next_start(
    data_dir: Path,
) -> None:
    other = lock_out_readers(data_dir)
    app = TicTacToeApp(
        GameSettings(opponent="h1", seed=1),
        start_in_game=True,
        store=HistoryStore.open(busy_seconds=0.1),
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await lose_to_h1(pilot)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("q", "y")  # the second game, abandoned, is kept too
        await pilot.pause()
    assert len(list(data_dir.glob("unsaved-*.txt"))) == 2
    other.execute("ROLLBACK")
    other.close()
    again = HistoryStore.open()
    assert sorted(g.outcome for g in again.games()) == ["O", "abandoned"]
    assert not list(data_dir.glob("unsaved-*.txt"))


async def test_p_hides_and_shows_a_candidates_line_on_the_review_board() -> None:
    HistoryStore.open().save(played_game((4, 1, 0, 2, 7, 8)))
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        review = await review_of(pilot)
        await pilot.press("home", "right")
        await pilot.press("tab", "down")  # the panel's rows: the second candidate
        await pilot.pause()
        assert review.view.line_shown
        assert review.index == 1  # up/down pick rows; they do not step
        await pilot.press("p")
        assert not review.view.line_shown
        await pilot.press("p")
        assert review.view.line_shown


async def test_a_game_lost_by_a_fault_says_why_in_the_history_and_the_review() -> None:
    reason = (
        "Computer (O) (Named Brain) lost by a fault: Named Brain exited with status 3 in the "
        "middle of the game."
    )
    store = HistoryStore.open()
    store.save(a_game((4, 0, 8), o="engine:Named Brain", outcome="X", forfeit=reason))
    store.save(a_game((4, 0, 8, 2), o="engine:pbrain-other", outcome="abandoned"))
    store.close()
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        table = history_table(pilot)
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        by_opponent = {row[2]: row[4] for row in rows}
        assert by_opponent == {
            "Named Brain 80%": "You won (forfeit)",
            "pbrain-other 80%": "Abandoned",
        }
        status_of = screen.query_one("#history-status", Static)
        lost_row = [row[2] for row in rows].index("Named Brain 80%")
        table.move_cursor(row=lost_row)
        await pilot.pause()
        assert text(status_of).splitlines()[1] == reason
        table.move_cursor(row=1 - lost_row)
        await pilot.pause()
        assert reason not in text(status_of)
        table.move_cursor(row=lost_row)
        await pilot.press("enter")
        await settle(pilot)
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and review.index == 3
        first, second = text(review.query_one("#review-status", Static)).splitlines()
        assert "vs Named Brain 80%" in first and "X won by forfeit after 3 moves" in first
        assert second.endswith(reason)
        shown = review.query_one("#review-status", Static)
        painted = " ".join(s.text.strip() for s in shown.render_lines(shown.size.region))
        assert painted.endswith(reason), painted  # whole, however long
        await pilot.press("left")
        assert reason not in text(review.query_one("#review-status", Static))
