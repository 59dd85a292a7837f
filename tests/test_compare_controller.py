"""The compare screen's rules (`play.compare.CompareController`), without a terminal: the jobs it
runs and their order, every cell of the table against the lab engine's own numbers, minimax's
states and what each offers, and the charts' series."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from tictactoe_tui.engine import Board, Game, Progress
from tictactoe_tui.engine.lab.compare import MinimaxRun, score_by_depth, verdict
from tictactoe_tui.engine.lab.trace import LAB_ALGORITHMS, trace_search, tree_size
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.compare import (
    QUICK_ALGORITHMS,
    CompareController,
    CompareEffect,
    Draw,
    MinimaxState,
    Part,
    RunSteps,
    StepKind,
    StopRun,
    game_history,
)
from tictactoe_tui.play.compare_charts import CHART_NAMES, log_axis
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.text.lab import left_out_note, step_label
from tictactoe_tui.text.scores import first_cut_text, searched_words

AFTER_YOUR_REPLY = Board.from_string("..X/.O./X..")
"""The game with seed 1, the computer first: X C1, you the centre, X A3; X... O to move."""

MIDDLE_GAME = Board.from_string(
    "........../........../........../....O...../....XX..../....O...../........../"
    "........../........../..........",
    k=5,
)
"""A 10×10 position where every search but minimax keeps to the cells next to a mark."""


def run(controller: CompareController, effects: Sequence[CompareEffect]) -> list[CompareEffect]:
    """Carry out `effects` as the screen would: each run's jobs here, in order, every answer
    handed back; the effects those answers gave."""
    done: list[CompareEffect] = []
    for effect in effects:
        if isinstance(effect, RunSteps):
            for step in effect.steps:
                done += controller.answered(step, step.job(*step.args))
    return done


def compared(board: Board, **options: object) -> CompareController:
    """A controller on `board` with every search of its first run answered."""
    controller = CompareController(board, **options)  # type: ignore[arg-type]
    run(controller, controller.start())
    return controller


def row(controller: CompareController, name: str) -> dict[str, str]:
    """A row of the table as the player reads it, by column."""
    return {column: controller.cell(name, column).plain for column in controller.columns()}


def agreement(name: str, board: Board) -> str:
    """The agreement column's words for `name` on `board`, from the engine's own verdict."""
    if name == "minimax":
        return "reference"
    judged = verdict(trace_search(board, name), trace_search(board, "minimax"))
    if judged.agrees:
        return "yes"
    return "move only" if judged.move else "value only" if judged.value else "no"


def check_rows(controller: CompareController, board: Board) -> None:
    """Every row's move, positions, cut-offs, table hits and agreement are the lab engine's."""
    for name in LAB_ALGORITHMS:
        expected = trace_search(board, name)
        assert expected.move is not None
        cells = row(controller, name)
        assert cells["move"] == cell_notation(expected.move, board.size), name
        assert [cells["positions"], cells["cut-offs"], cells["table hits"]] == [
            f"{expected.positions:,}",
            f"{expected.cutoffs:,}",
            f"{expected.table_hits:,}",
        ], name
        assert cells["agrees"] == agreement(name, board), name


def test_the_searches_run_in_order_and_every_row_is_the_lab_engines() -> None:
    board = Board.from_string("..O/.X./...")
    controller = CompareController(board)
    effects = controller.start()
    assert effects[0] == Draw(Part.MINIMAX)
    assert controller.minimax_words() == "Minimax waits for the quicker searches…"
    steps = next(e for e in effects if isinstance(e, RunSteps)).steps
    assert [(s.kind, s.name) for s in steps] == [
        *((StepKind.QUICK, name) for name in QUICK_ALGORITHMS),
        *((StepKind.BY_DEPTH, name) for name in QUICK_ALGORITHMS),
        (StepKind.GAME_COSTS, ""),
        (StepKind.TREE_SIZE, ""),
        (StepKind.MINIMAX, ""),
    ]
    assert [s.reports for s in steps] == [False] * 12 + [True]
    drawn = run(controller, effects)
    # Each quick row, then the notes once they are all in, the charts as their numbers come.
    assert drawn[:2] == [Draw(Part.TABLE), Draw(Part.BARS)]
    assert drawn.index(Draw(Part.NOTES)) == 2 * len(QUICK_ALGORITHMS)
    assert controller.minimax_state is MinimaxState.DONE
    check_rows(controller, board)
    title = controller.title()
    assert f"X to move on {board}" in title and "searched to the end" in title
    positions = trace_search(board, "minimax").positions
    assert controller.minimax_words().startswith(
        f"Minimax searched the whole tree, full width: {positions:,} positions"
    )
    assert controller.progress_shown and controller.bar_done == controller.bar_total == positions


def test_the_heuristics_are_judged_against_minimax_and_may_agree_on_the_move_only() -> None:
    board = Board.from_string("X../.O./...")
    controller = compared(board)
    for name in ("h1", "h2"):
        cells = row(controller, name)
        assert cells["agrees"] == agreement(name, board)
        assert (cells["algorithm"], cells["depth"]) == (f"H{name[1]} search", "2")
        assert cells["value"].endswith("estimate")
        # The number, and its meaning fainter.
        value = controller.cell(name, "value")
        assert value.tail.endswith("estimate") and not value.faint
    assert row(controller, "minimax")["depth"] == "end"


def test_the_chart_over_the_game_charts_each_computer_move_and_the_position_now() -> None:
    game = Game(3, 3)
    for move in (2, 4, 6):  # the computer (X) made moves 1 and 3
        game.play(move)
    settings = GameSettings(seed=1, first="computer", mark="O")
    history = game_history(game, settings)
    # Move 4 is the position compared now.
    assert [number for number, _ in history] == [1, 3, 4]
    boards = [board for _, board in history]
    assert boards[-1] == game.board
    controller = compared(game.board, history=history)
    assert [cost.minimax.positions for cost in controller.costs] == [
        tree_size(board).positions for board in boards
    ]
    assert controller.costs[0].minimax.positions == 549_946
    assert all(cost.minimax.exact for cost in controller.costs)
    plain = trace_search(Board.empty(3, 3), "alphabeta-plain").positions
    assert controller.costs[0].plain == plain
    chart = controller.game()
    assert chart is not None and chart.x_axis.labels == ("1", "3", "4")
    assert [note.text for note in chart.notes] == [
        f"{controller.costs[-1].minimax.positions:,}",
        f"{controller.costs[-1].plain:,}",
        f"{controller.costs[-1].table:,}",
    ]
    # Between two people every move is charted.
    people = game_history(game, GameSettings(mode="human-vs-human"))
    assert [number for number, _ in people] == [1, 2, 3, 4]


def started_minimax(board: Board) -> CompareController:
    """A controller whose quick searches are in and whose minimax has just been sized."""
    controller = CompareController(board)
    steps = next(e for e in controller.start() if isinstance(e, RunSteps)).steps
    for step in steps[:-1]:
        controller.answered(step, step.job(*step.args))
    return controller


def test_minimax_runs_with_a_progress_bar_and_cancel_keeps_the_other_rows() -> None:
    board = Board.empty(3, 3)
    controller = started_minimax(board)
    assert controller.minimax_state is MinimaxState.RUNNING
    assert controller.offers("cancel") and not controller.offers("rerun")
    assert controller.minimax_words().startswith("Minimax is searching the full tree")
    assert controller.bar_total == tree_size(board).positions and controller.bar_done == 0
    assert controller.progress(Progress(3, 1000, 0.5, 4, 0, (4,))) == [Draw(Part.PROGRESS)]
    assert controller.bar_done == 1000
    assert controller.cancel() == [StopRun(), Draw(Part.TABLE), Draw(Part.MINIMAX)]
    assert controller.minimax_state is MinimaxState.CANCELLED
    assert row(controller, "minimax")["value"] == "cancelled"
    assert controller.cell("minimax", "value").faint
    assert "r runs it again" in controller.minimax_words()
    assert "after 1,000 of" in controller.minimax_words()
    # The other rows keep their numbers; the agreement column has nothing to judge by.
    table = trace_search(board, "alphabeta-tt")
    assert row(controller, "alphabeta-tt")["positions"] == f"{table.positions:,}"
    assert row(controller, "alphabeta-tt")["agrees"] == "—"
    assert controller.progress(Progress(3, 2000, 0.9, 4, 0, (4,))) == []  # no longer running
    assert controller.cancel() == [] and controller.offers("rerun")
    effects = controller.rerun()
    assert isinstance(effects[-1], RunSteps) and controller.minimax_state is MinimaxState.WAITING


def test_minimax_run_again_after_a_cancel_fills_the_reference() -> None:
    board = Board.from_string("X../.O./...")
    controller = started_minimax(board)
    controller.cancel()
    run(controller, controller.rerun())
    assert controller.minimax_state is MinimaxState.DONE
    positions = trace_search(board, "minimax").positions
    assert row(controller, "minimax")["positions"] == f"{positions:,}"
    assert row(controller, "alphabeta-tt")["agrees"] == "yes"


@pytest.mark.slow
def test_a_tree_too_big_for_the_budget_is_sized_and_a_depth_that_fits_is_offered() -> None:
    board = Board.from_string("XO../.XO./..../....", k=4)  # 12 empty cells: a huge tree
    # To the end, not to the default depth of a position with this many empty cells.
    controller = compared(board, time_limit=0.5, depth=None)
    assert controller.minimax_state is MinimaxState.TOO_BIG
    status = controller.minimax_words()
    full = tree_size(board)
    assert full.positions > 10**8
    assert f"The full tree has {full.positions:,} positions" in status
    assert "more than the 0.5 s budget" in status
    minimax = controller.minimax
    assert minimax is not None and minimax.suggested_depth is not None
    assert f"d: minimax to depth {minimax.suggested_depth}" in status
    assert controller.offers("minimax_depth") and controller.offers("minimax_full")
    assert not controller.offers("cancel") and not controller.progress_shown
    full_run = controller.minimax_full()
    assert [s.kind for s in next(e for e in full_run if isinstance(e, RunSteps)).steps] == [
        StepKind.TREE_SIZE,
        StepKind.MINIMAX,
    ]
    run(controller, controller.minimax_to_depth())
    assert controller.minimax_state is MinimaxState.DONE
    depth = minimax.suggested_depth
    assert row(controller, "minimax")["depth"] == str(depth)
    expected = trace_search(board, "minimax", depth).positions
    assert row(controller, "minimax")["positions"] == f"{expected:,}"
    assert controller.minimax_to_depth() == [] and controller.minimax_full() == []


def test_a_failed_job_ends_the_run_and_says_why() -> None:
    controller = CompareController(Board.from_string("X../.O./..."))
    controller.start()
    assert controller.step_failed("the worker died") == [Draw(Part.MINIMAX)]
    assert controller.minimax_state is MinimaxState.FAILED
    assert controller.minimax_words() == "The search failed: the worker died"
    assert controller.offers("rerun") and not controller.offers("cancel")


def test_a_finished_position_says_there_is_nothing_to_search() -> None:
    controller = CompareController(Board.from_string("XXX/OO./..."))
    assert controller.start() == [Draw(Part.MINIMAX), Draw(Part.TABLE)]
    assert "The game is over (X won)" in controller.minimax_words()
    assert all(controller.cell(name, "value").plain == "—" for name in LAB_ALGORITHMS)
    # Nothing to run again either.
    assert not controller.offers("rerun") and controller.rerun() == []


def test_a_big_board_shows_first_move_cut_offs_and_the_moves_each_search_left_out() -> None:
    controller = compared(MIDDLE_GAME, depth=2)
    assert controller.minimax_state is MinimaxState.DONE
    results = []
    for name in LAB_ALGORITHMS:
        expected = trace_search(MIDDLE_GAME, name, 2)
        results.append(expected)
        cells = row(controller, name)
        assert cells["1st cuts"] == first_cut_text(expected), name
        assert cells["moves"] == searched_words(expected), name
    assert row(controller, "minimax")["1st cuts"] == "—"
    assert row(controller, "minimax")["moves"] == "all 96"
    assert row(controller, "alphabeta-plain")["moves"] == f"{results[1].root_moves} of 96"
    notes = controller.notes()
    assert left_out_note(results, titles=True) in " ".join(notes.split("\n"))
    assert "1st cuts: the share of cut-offs made by the first move tried" in notes
    assert "to depth 2 (H1 at the cut-off)" in controller.title()
    assert "the position after 4 moves" in controller.title()


def test_on_3x3_no_moves_are_left_out_and_the_column_is_not_shown() -> None:
    controller = compared(Board.from_string("X../.O./..."))
    columns = controller.columns()
    assert "moves" not in columns and "1st cuts" in columns
    assert "near stones" not in controller.notes()


def test_the_charts_show_the_best_score_by_depth_and_exact_counts() -> None:
    board = Board.empty(3, 3).play(0).play(4)
    controller = compared(board)
    for name in QUICK_ALGORITHMS:
        # The engine's rows, but for the time each took.
        assert [replace(step, elapsed=0) for step in controller.by_depth[name]] == [
            replace(step, elapsed=0) for step in score_by_depth(board, name)
        ]
    chart = controller.depths()
    assert chart is not None
    notes = [note.text for note in chart.notes]
    # Every depth's best score is written on its point; the last one is proven.
    last = controller.by_depth["alphabeta-tt"][-1]
    assert last.kind == "exact" and "0 draw" in notes
    for step in controller.by_depth["alphabeta-tt"][:-1]:
        assert step_label(step, board) in notes
    # The curves that share their scores share a line, named by all of them.
    assert [curve.name for curve in chart.curves] == ["α-β ×3, H1", "H2"]
    assert chart.reference == (7, controller.results["minimax"].value)
    bars = controller.bars()
    assert bars is not None
    assert bars.names == tuple(CHART_NAMES[name] for name in reversed(LAB_ALGORITHMS))
    for name in LAB_ALGORITHMS:
        assert f" {controller.results[name].positions:,}" in [n.text for n in bars.notes]


def test_minimax_s_bar_stands_for_its_tree_until_it_is_searched() -> None:
    board = Board.empty(3, 3)
    controller = started_minimax(board)
    bars = controller.bars()
    # Listed bottom up: minimax, first in the table, is the top bar.
    assert bars is not None and bars.names[-1] == "minimax (tree)"
    assert f" {tree_size(board).positions:,}" in [note.text for note in bars.notes]


def test_counts_are_drawn_on_a_log_scale_by_hand() -> None:
    heights, ticks, labels = log_axis([1, 10, 549_946])
    assert heights[:2] == [0.0, 1.0] and ticks == [0, 1, 2, 3, 4, 5, 6]
    assert labels[0] == "1" and len(labels) == len(ticks)
    assert log_axis([0])[1] == [0, 1]  # a count of 0 stands at 1


def test_a_stopped_search_shows_its_best_move_so_far_faintly() -> None:
    board = Board.from_string("X../.O./...")
    minimax = compared(board).minimax
    assert minimax is not None
    controller = started_minimax(board)
    stopped = replace(minimax.result, finished=False, stopped="time limit")
    last = controller.start()[-1]
    assert isinstance(last, RunSteps) and last.steps[-1].kind is StepKind.MINIMAX
    controller.answered(last.steps[-1], MinimaxRun(stopped, minimax.tree, 1000.0))
    assert controller.minimax_state is MinimaxState.CANCELLED
    assert controller.cell("minimax", "value").faint
    assert controller.cell("minimax", "moves").faint


def test_the_title_counts_moves_in_words_and_a_finished_board_has_nobody_to_move() -> None:
    """Issue 39 item 5: "after 1 moves", and "O to move" on a finished position."""
    one = Board.from_string("...../...../..X../...../.....", k=4)
    assert (
        CompareController(one)
        .title()
        .startswith(
            "Compare the algorithms: O to move on the position after 1 move (5×5, 4 in a row)"
        )
    )
    won = CompareController(Board.from_string("XXX/OO./..."))
    assert won.title() == (
        "Compare the algorithms: the game is over on XXX/OO./... (3×3, 3 in a row): X has won"
    )
    drawn = CompareController(Board.from_string("XOX/XOO/OXX"))
    assert drawn.title().endswith(": a draw")
