"""Your own code in the app: a game against `python:path=FILE`, a faulty file that forfeits with
its reason (and its traceback one key away), the Settings' Python file, and `--eval FILE`'s
values in the compare screen and the heuristic lab, each equal to a direct call of the file's
`evaluate` (imported here). No learner's process is left once the app has gone (read from the
process table)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, Static

from tests.app.conftest import SIZE, game, game_app, panel, settle, status, text, wait_until
from tests.fake_brains import processes_running
from tests.test_cli_eval import depth_two, load
from tictactoe_tui.cli.play import app_from_args
from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.ui.screens.compare import CompareScreen
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.heuristics import HeuristicScreen
from tictactoe_tui.ui.screens.results import ResultsScreen

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MINIMAX_PLAYER = EXAMPLES / "minimax_player.py"
BUGGY_PLAYER = EXAMPLES / "buggy_player.py"
MY_EVAL = EXAMPLES / "my_eval.py"


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(body))
    return path


async def play_out(pilot: Pilot[None]) -> None:
    """Play X's moves (the first empty cell, by its digit) until the game is over."""
    screen = game(pilot)
    while screen.game.result is None:
        await wait_until(
            pilot,
            lambda: (
                screen.game.result is not None
                or (screen.controller.thinking is None and screen.game.board.to_move == Mark.X)
            ),
        )
        if screen.game.result is not None:
            break
        cell = screen.game.board.legal_moves()[0]
        await pilot.press(str(cell + 1))
        await wait_until(pilot, lambda cell=cell: screen.game.board[cell] is not None)


@pytest.mark.asyncio
async def test_a_game_against_the_minimax_example_is_played_to_its_end() -> None:
    app = game_app(opponent="python", learner=str(MINIMAX_PLAYER))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "yours: minimax_player.py" in status(pilot)
        await play_out(pilot)
        played = game(pilot).game
        assert len(set(played.moves)) == len(played.moves)
        assert played.result is not None and not played.result.forfeit
        # The example is a full minimax: the first-empty-cell player never beats it.
        assert played.board.winner in (None, Mark.O)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultsScreen))
    assert processes_running(MINIMAX_PLAYER) == []


@pytest.mark.asyncio
async def test_the_buggy_example_forfeits_with_its_reason_in_one_line() -> None:
    app = game_app(opponent="python", learner=str(BUGGY_PLAYER))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("5")  # X in the centre: the bug plays B2 again
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultsScreen))
        result = game(pilot).game.result
        assert result is not None
        assert result.forfeit == (
            "Computer (O) (yours: buggy_player.py) lost by a fault: buggy_player.py: choose() "
            "returned B2 on .../.X./..., a cell X already holds."
        )
        assert "\n" not in result.forfeit
        await pilot.press("escape")
        await pilot.pause(0.2)
        await pilot.press("l")
        await pilot.pause(0.2)
        assert "No traceback: your code raised no exception" in status(pilot)
    assert processes_running(BUGGY_PLAYER) == []


@pytest.mark.asyncio
async def test_an_exception_forfeits_and_l_shows_the_learners_traceback(tmp_path: Path) -> None:
    boom = write(
        tmp_path,
        "boom.py",
        """\
        def helper(board):
            return 1 / 0


        def choose(board):
            return helper(board)
        """,
    )
    app = game_app(opponent="python", learner=str(boom))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ResultsScreen))
        result = game(pilot).game.result
        assert result is not None
        assert result.forfeit.endswith(
            "lost by a fault: boom.py: choose() raised ZeroDivisionError: division by zero."
        )
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert "l shows its traceback" in panel(pilot)
        await pilot.press("l")
        await pilot.pause(0.2)
        words = panel(pilot)
        assert f'File "{boom}", line 2, in helper' in words
        assert "ZeroDivisionError: division by zero" in words
    assert processes_running(boom) == []


@pytest.mark.asyncio
async def test_each_new_game_reads_the_file_again(tmp_path: Path) -> None:
    player = write(tmp_path, "first.py", "def choose(board):\n    return board.legal_moves()[0]\n")
    app = game_app(opponent="python", learner=str(player), first="computer")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: len(game(pilot).game.moves) == 1)
        assert game(pilot).game.moves == (0,)
        first = processes_running(player)
        assert len(first) == 1
        player.write_text("def choose(board):\n    return board.legal_moves()[-1]\n")
        await pilot.press("n")
        await wait_until(pilot, lambda: len(game(pilot).game.moves) == 1)
        assert game(pilot).game.moves == (8,)
        second = processes_running(player)
        assert len(second) == 1 and second != first  # a new process, which read the file again
    assert processes_running(player) == []


@pytest.mark.asyncio
async def test_settings_offer_your_python_file_and_say_when_it_cannot_run(
    tmp_path: Path,
) -> None:
    app = app_from_args(["--data-dir", str(tmp_path / "data")])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        screen = pilot.app.screen
        assert not screen.query_one("#learner", Input).display
        screen.query_one("#opponent", Select).value = "python"
        await pilot.pause(0.2)
        assert screen.query_one("#learner", Input).display
        screen.query_one("#learner", Input).value = str(tmp_path / "missing.py")
        assert await pilot.click("#start")
        await pilot.pause(0.2)
        error = screen.query_one("#learner-error", Static)
        assert error.display and "does not exist" in str(error.render())
        screen.query_one("#learner", Input).value = str(MINIMAX_PLAYER)
        assert await pilot.click("#start")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, GameScreen))
        assert "yours: minimax_player.py" in status(pilot)
        await pilot.press("5")
        await wait_until(pilot, lambda: len(game(pilot).game.moves) == 2)
        assert "(yours: minimax_player.py, your code) played" in panel(pilot)
    assert processes_running(MINIMAX_PLAYER) == []


def compare_row(screen: CompareScreen, key: str) -> dict[str, str]:
    table = screen.query_one("#compare-table", DataTable)
    return {
        str(column.key.value): str(table.get_cell(key, column.key))
        for column in table.ordered_columns
    }


@pytest.mark.asyncio
async def test_eval_adds_a_row_to_compare_equal_to_the_files_own_values(tmp_path: Path) -> None:
    app = app_from_args(
        ["--mode", "human-vs-human", "--eval", str(MY_EVAL), "--data-dir", str(tmp_path)]
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1", "5")  # X../.O./...: X to move
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, CompareScreen)
        assert screen.controller.names[-1] == "yours"
        cells = compare_row(screen, "yours")
        assert cells["algorithm"] == "yours: my_eval.py"
        board = Board.from_string("X../.O./...")
        values = depth_two(board, load(MY_EVAL).evaluate)
        best = max(values.values())
        assert cells["depth"] == "2"
        assert int(cells["value"].split()[0]) == best
        move = next(m for m in board.legal_moves() if cell_notation(m, 3) == cells["move"])
        assert values[move] == best
    assert processes_running(MY_EVAL) == []


def lab_rows(screen: HeuristicScreen) -> list[list[str]]:
    table = screen.query_one("#heuristic-table", DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.mark.asyncio
async def test_the_heuristic_lab_shows_the_files_value_of_every_move(tmp_path: Path) -> None:
    mine = write(tmp_path, "mine.py", (MY_EVAL.read_text()))
    app = app_from_args(
        ["--mode", "human-vs-human", "--eval", str(mine), "--data-dir", str(tmp_path / "d")]
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1", "5")
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, HeuristicScreen)
        table = screen.query_one("#heuristic-table", DataTable)
        headers = [str(column.label) for column in table.ordered_columns]
        assert headers[:5] == ["rank", "cell", "H1", "H2", "yours: mine.py"]
        board = Board.from_string("X../.O./...")
        evaluate = load(mine).evaluate
        shown = lab_rows(screen)
        cells = {cell_notation(m, 3): m for m in board.legal_moves()}
        assert sorted(row[1] for row in shown) == sorted(cells)
        for row in shown:
            assert row[4] == f"{evaluate(board.play(cells[row[1]]), Mark.X):g}", row
        picks = text(screen.query_one("#lab-picks", Static))
        assert "yours: mine.py plays" in picks
        # r reads the file again: its new values at once, and a broken one is a line.
        mine.write_text("def evaluate(board, player):\n    return 7\n")
        await pilot.press("r")
        await settle(pilot)
        assert {row[4] for row in lab_rows(screen)} == {"7"}
        mine.write_text("def evaluate(board, player):\n    return None\n")
        await pilot.press("r")
        await settle(pilot)
        assert {row[4] for row in lab_rows(screen)} == {"—"}
        picks = text(screen.query_one("#lab-picks", Static))
        assert "Your evaluation failed: mine.py: evaluate() returned None on" in picks
        assert processes_running(mine) == []
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(pilot.app.screen, GameScreen)
    assert processes_running(mine) == []


@pytest.mark.asyncio
async def test_a_faulty_eval_is_one_line_in_compare_and_the_other_rows_stay(
    tmp_path: Path,
) -> None:
    chatty = write(tmp_path, "chatty.py", "def evaluate(board, player):\n    print(board)\n")
    app = app_from_args(
        ["--mode", "human-vs-human", "--eval", str(chatty), "--data-dir", str(tmp_path / "d")]
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1", "5", "a")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, CompareScreen)
        notes = text(screen.query_one("#compare-notes", Static))
        assert "Your evaluation failed: chatty.py: it printed to stdout" in notes
        assert compare_row(screen, "yours")["value"] == "—"
        assert compare_row(screen, "h1")["move"] != "…"
        assert processes_running(chatty) == []
        await pilot.press("r")
        await settle(pilot)
        assert "Your evaluation failed: chatty.py" in text(
            screen.query_one("#compare-notes", Static)
        )
    assert processes_running(chatty) == []


@pytest.mark.asyncio
async def test_the_panel_shows_the_files_value_beside_each_move(tmp_path: Path) -> None:
    app = app_from_args(
        ["--opponent", "alphabeta", "--eval", str(MY_EVAL), "--data-dir", str(tmp_path)]
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await wait_until(pilot, lambda: "yours: my_eval.py: its evaluate()" in panel(pilot))
        before = Board.from_string(".../.X./...")
        evaluate = load(MY_EVAL).evaluate
        rows = {
            line.strip("▶ ").split()[0]: line
            for line in panel(pilot).splitlines()
            if line.strip("▶ ")[:2] in {cell_notation(m, 3) for m in before.legal_moves()}
        }
        assert len(rows) == len(before.legal_moves())
        for move in before.legal_moves():
            value = evaluate(before.play(move), Mark.O)
            assert rows[cell_notation(move, 3)].endswith(f"yours {value:+g}"), rows
    assert processes_running(MY_EVAL) == []


@pytest.mark.asyncio
async def test_served_the_python_file_is_a_choice_of_what_the_server_offers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tictactoe_tui.engine.players.offered import SERVED_ENV, Offered

    monkeypatch.setenv(SERVED_ENV, Offered(python=(str(MINIMAX_PLAYER),)).to_env())
    app = app_from_args(["--data-dir", str(tmp_path)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        screen = pilot.app.screen
        opponents = screen.query_one("#opponent", Select)
        assert "python" in [value for _label, value in opponents._options]
        assert "engine" not in [value for _label, value in opponents._options]
        opponents.value = "python"
        await pilot.pause(0.2)
        learner = screen.query_one("#learner", Select)  # a list, not a path to type
        assert learner.value == str(MINIMAX_PLAYER)
        assert await pilot.click("#start")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, GameScreen))
        await pilot.press("5")
        await wait_until(pilot, lambda: len(game(pilot).game.moves) == 2)
    assert processes_running(MINIMAX_PLAYER) == []
    # A file the server did not offer is refused, in one line, before anything starts.
    capsys.readouterr()
    with pytest.raises(SystemExit):
        app_from_args(["--eval", str(MY_EVAL), "--data-dir", str(tmp_path)])
    error = capsys.readouterr().err
    assert error.startswith("tictactoe-tui: --eval cannot be used: this server offers no ")
    assert len(error.strip().splitlines()) == 1


@pytest.mark.asyncio
async def test_eval_reaches_the_tree_view_and_the_drill_opened_from_a_game(tmp_path: Path) -> None:
    from tictactoe_tui.engine.lab.drill_tree import LeafValues
    from tictactoe_tui.play.tree import YOURS
    from tictactoe_tui.ui.screens.drill import DrillScreen
    from tictactoe_tui.ui.screens.tree import TreeScreen

    app = app_from_args(
        ["--mode", "human-vs-human", "--eval", str(MY_EVAL), "--data-dir", str(tmp_path)]
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1", "5")  # X../.O./...: X to move
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        tree = pilot.app.screen
        assert isinstance(tree, TreeScreen)
        for _ in range(3):
            await pilot.press("o")
            await settle(pilot)
        assert tree.controller.algorithm == YOURS
        await pilot.press("D")
        await wait_until(
            pilot,
            lambda: (
                isinstance(pilot.app.screen, DrillScreen)
                and pilot.app.screen.controller.tree.shape.leaves is LeafValues.YOURS
            ),
        )
        drill = pilot.app.screen
        assert isinstance(drill, DrillScreen)
        assert "yours: my_eval.py leaves" in text(drill.query_one("#drill-title", Static))
        evaluate = load(MY_EVAL).evaluate
        cut = drill.controller.tree
        nodes, values = [cut.root], {}
        while nodes:
            node = nodes.pop()
            values[node.id] = node.value
            nodes.extend(node.children)
        yours = [ident for ident, kind in cut.leaf_kinds.items() if kind == "yours"]
        assert yours
        for ident in yours:
            assert values[ident] == round(evaluate(cut.boards[ident], cut.root_mark))
    assert processes_running(MY_EVAL) == []
