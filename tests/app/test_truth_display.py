"""What the screens add to the words of `text.report`: a bound drawn fainter than a value (in the
panel and on the board), the search's story growing a row per depth while it runs, and a
threat proof's line drawn on the board with p."""

from __future__ import annotations

from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import OptionList

from tests.app.conftest import SIZE, Gate, game, game_app, panel, settle
from tests.test_panel_report import BIG, cell, example_analysis
from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import IterationInfo, Progress
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.text.report import build_report, score_hints
from tictactoe_tui.ui.screens.review import EvalGraph
from tictactoe_tui.ui.widgets import Board, PositionView

THREAT_POSITION = (
    "........../........../........../.....O..../....XXO.../"
    "....XXO.../....OX..../........../........../..O......."
)
"""X to move and win by a chain of threats (VCT) starting at F8."""


class ViewApp(App[None]):
    """A position view alone, to hand it reports."""

    def compose(self) -> ComposeResult:
        yield PositionView(10, id="view")


def segment_at(board: Board, index: int, text: str) -> Segment:
    """The segment that draws `text` in cell `index` of a compact board."""
    row = index // board.board_size
    strip = board.render_line(1 + row)
    return next(segment for segment in strip if segment.text == text)


async def test_a_bound_is_drawn_fainter_than_a_value_in_the_panel_and_on_the_board() -> None:
    app = ViewApp()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(PositionView)
        analysis = example_analysis()
        view.show_position(list(BIG.marks()))
        view.show_report(build_report("Hint for O", analysis, BIG, cell("G7")))
        view.show_scores(score_hints(analysis), "O's scores")
        await pilot.pause()
        options = view.panel.query_one("#eval-rows", OptionList)
        prompts = [options.get_option_at_index(i).prompt for i in range(options.option_count)]
        rows = {
            prompt.plain.split()[0]: prompt for prompt in prompts if isinstance(prompt, Content)
        }

        def dim(name: str) -> bool:
            return any("dim" in str(span.style) for span in rows[name].spans)

        assert dim("D4") and dim("F3"), "bounds are fainter"
        assert not dim("E6") and not dim("C4"), "values are not"
        assert "≤ -13" in rows["D4"].plain and "~-13" in rows["E6"].plain
        board = view.board
        # A 10×10 cell keeps a column free: "≤-13" and "~-13" keep their marks, cut their digits.
        assert board.cell_text(cell("D4")) == "≤-…" and board.cell_text(cell("E6")) == "~-…"
        bound = segment_at(board, cell("D4"), "≤-…").style
        value = segment_at(board, cell("E6"), "~-…").style
        assert bound is not None and value is not None
        assert bound.dim and bound.color != value.color


async def test_a_bound_too_wide_for_its_cell_is_never_cut_into_a_wrong_number() -> None:
    app = ViewApp()
    async with app.run_test(size=SIZE):
        board = app.query_one(PositionView).board
        board.show([""] * 100, hints={0: "≥+220", 1: "≤-100", 2: "≤-21", 3: "+97", 4: "~-9"})
        assert [board.cell_text(i) for i in range(5)] == ["≥…", "≤-…", "≤-…", "+97", "~-9"]


async def test_neighbouring_scores_on_a_big_board_never_run_together() -> None:
    app = ViewApp()
    async with app.run_test(size=SIZE):
        board = app.query_one(PositionView).board
        board.show([""] * 100, hints=dict.fromkeys(range(10), "≤-10") | {1: "≤-9", 2: "~16"})
        row = "".join(segment.text for segment in board.render_line(1))
        assert "≤-…≤-9" not in row and "≤-10" not in row
        assert row.split() == ["1", "≤-…", "≤-9", "~16", *["≤-…"] * 7]


async def test_the_search_story_grows_a_row_per_depth_while_it_runs(gate: Gate) -> None:
    app = game_app(opponent="alphabeta", size=10, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # X at F6; O thinks, held by the gate
        screen = game(pilot)
        rows: list[IterationInfo] = []
        for depth, move, score in ((1, 44, -10), (2, 44, -21), (3, 33, -12)):
            rows.append(
                IterationInfo(
                    depth, move, score, "estimate", "heuristic", 100 * depth, 0.01 * depth
                )
            )
            screen.show_progress(
                Progress(
                    depth, 100 * depth, 0.01 * depth, move, score, (move,), iterations=tuple(rows)
                )
            )
            await pilot.pause()
            story = panel(pilot).split("depth  move score positions  time")[1].splitlines()
            assert [line.split()[:3] for line in story if line.strip()] == [
                [str(row.depth), cell_notation(row.move, 10), f"~{row.score}"] for row in rows
            ]
        assert "best so far: D4, score ~-12 so far" in panel(pilot)
        gate.set()
        await settle(pilot)
        assert "depth  move score positions  time" in panel(pilot)


async def test_p_draws_the_line_of_a_win_proven_by_threats() -> None:
    app = game_app(mode="human-vs-human", size=10, k=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        position = Position.from_string(THREAT_POSITION, k=5)
        x_cells = [i for i, mark in enumerate(position.marks()) if mark == "X"]
        o_cells = [i for i, mark in enumerate(position.marks()) if mark == "O"]
        moves = [cell for pair in zip(x_cells, o_cells, strict=True) for cell in pair]
        app.start_game(GameSettings(mode="human-vs-human", size=10, k=5), moves)
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        shown = panel(pilot)
        assert shown.startswith("Hint for X: F8 (wins, in at most 9, score ≥ +92)")
        assert "win in ≤ 9 · VCT" in shown
        assert "F8 (wins, in at most 9): Won by a chain of threats (VCT)" in shown
        assert "X plays F8: a four (F5–F8), O must block F9." in shown
        view = game(pilot).view
        assert view.line_shown == ()
        await pilot.press("p", "p")  # off, then on: the chosen row's line
        chosen = view.panel.highlighted
        assert chosen is not None and chosen.cell == "F8" and len(chosen.line) > 3
        assert view.line_shown == chosen.line
        for step, cell_index in enumerate(chosen.line, start=1):
            # The hint's cell is framed, so that no colour is needed to find it.
            framed = f">#{step}<" if cell_index == view.board.best_move else f"#{step}"
            assert view.board.cell_text(cell_index).split()[0] == framed


class GraphApp(App[None]):
    """The review's evaluation graph alone."""

    def compose(self) -> ComposeResult:
        yield EvalGraph(id="review-graph")


async def test_the_review_graph_marks_a_bound_and_reads_out_the_shown_value() -> None:
    app = GraphApp()
    async with app.run_test(size=SIZE) as pilot:
        graph = app.query_one(EvalGraph)
        graph.show(
            [0, -4, -9, 14],
            2,
            20,
            ["exact", "estimate", "at_most", "at_least"],
            "after move 2: ≤ -9 for X (upper bound)",
        )
        await pilot.pause()
        drawn = str(graph.render())
        assert "≤" in drawn and "≥" in drawn
        assert graph.border_subtitle == "after move 2: ≤ -9 for X (upper bound)"
        graph.show([0, -4], 1, 20, ["exact", "estimate"])
        assert "≤" not in str(graph.render()) and "≥" not in str(graph.render())


async def test_a_hint_in_an_empty_panel_gives_its_rows_the_keys_with_tab() -> None:
    app = game_app(mode="human-vs-human")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("h")  # the first analysis the panel shows
        await settle(pilot)
        await pilot.press("tab", "down")
        view = game(pilot).view
        picked = view.panel.highlighted
        assert picked is not None and view.line_shown == picked.line
        assert picked.detail in panel(pilot)
