"""The tree explorer (key `t`): the tree, the step mode and the small board show the engine's
recorded search exactly, from the keyboard alone and from the mouse alone."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from tests.app.conftest import (
    SIZE,
    click_cell,
    click_command,
    game,
    game_app,
    press_settled,
    settle,
    text,
)
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.trace import EventKind, TraceRecorder, node_board, record_search
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.lab import node_label
from tictactoe_tui.text.scores import first_cut_text
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.tree import Line, TreeScreen
from tictactoe_tui.ui.widgets.mini_board import MiniBoard


def tree_screen(pilot: Pilot[None]) -> TreeScreen:
    screen = pilot.app.screen
    assert isinstance(screen, TreeScreen)
    return screen


def lines(screen: TreeScreen) -> list[TreeNode[Line]]:
    """Every line the tree shows now, top to bottom (expanded parts only)."""
    tree: Tree[Line] = screen.query_one("#search-tree", Tree)
    found: list[TreeNode[Line]] = []

    def walk(node: TreeNode[Line]) -> None:
        found.append(node)
        if node.is_expanded:
            for child in node.children:
                walk(child)

    walk(tree.root)
    return found


def title(screen: TreeScreen) -> str:
    return text(screen.query_one("#tree-title", Static))


def board_text(screen: TreeScreen) -> str:
    return text(screen.query_one(MiniBoard))


def recording(
    board: Board, algorithm: str = "alphabeta-ordered", depth: int | None = None
) -> TraceRecorder:
    return record_search(board, algorithm, depth)[1]


async def open_tree(pilot: Pilot[None], *keys: str) -> TreeScreen:
    """Play `keys` on the game screen, then press `t` and wait for the recording."""
    await press_settled(pilot, *keys, "t")
    return tree_screen(pilot)


async def test_t_shows_the_recorded_search_with_the_engines_numbers_and_labels() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tree(pilot, "5")
        board = game(pilot).game.board
        result, recorder = record_search(board, "alphabeta-ordered")
        assert screen.position == board
        assert (
            f"Value {'0' if not result.value else result.value} (draw) · "
            f"{result.positions:,} positions · {result.cutoffs:,} cut-offs"
        ) in title(screen)
        assert f" · {result.pruned:,} moves pruned" in title(screen)
        shown = lines(screen)
        root = recorder.nodes[0]
        # The root and one line per root move, each labelled from the engine's recording.
        assert len(shown) == 1 + len(root.children)
        for line, index in zip(shown[1:], root.children, strict=True):
            assert str(line.label) == node_label(recorder.nodes[index], board)


async def test_highlighting_a_line_shows_its_position_on_the_small_board() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tree(pilot, "5")
        board = game(pilot).game.board
        recorder = recording(board)
        await pilot.press("down")  # the first root move
        await pilot.pause()
        first = recorder.nodes[recorder.nodes[0].children[0]]
        assert first.move is not None
        after = node_board(board, recorder.nodes, first.id)
        shown = board_text(screen)
        for row in range(3):
            marks = [str(after[row * 3 + col] or "·") for col in range(3)]
            # Marks on the line since the root carry their move number ("X1").
            assert [cell[0] for cell in shown.splitlines()[row + 1].split()[1:]] == marks
        info = text(screen.query_one("#node-info", Static))
        assert f"X {cell_notation(first.move, 3)}, ply 1" in info


async def test_step_mode_replays_every_event_with_the_running_counts() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tree(pilot, "5")
        recorder = recording(game(pilot).game.board)
        await pilot.press("s")
        await pilot.pause()
        panel = screen.query_one("#step-info", Static)
        assert text(panel).startswith(f"Event 1 of {len(recorder.events):,}: enter")
        # Only the root has been entered: no other line yet.
        assert len(lines(screen)) == 1
        for _ in range(11):
            await pilot.press("n")
        await pilot.pause()
        event = recorder.events[11]
        assert text(panel).startswith(f"Event 12 of {len(recorder.events):,}: {event.kind.value}")
        assert f"positions visited {event.positions:,} · moves pruned {event.pruned:,}" in text(
            panel
        )
        entered = sum(1 for e in recorder.events[:12] if e.kind is EventKind.ENTER)
        assert len(lines(screen)) == entered
        await pilot.press("b")
        await pilot.pause()
        assert text(panel).startswith("Event 11 of")
        await pilot.press("e")
        await pilot.pause()
        assert screen.step is None and text(panel).startswith("Step mode")


@pytest.mark.slow
async def test_after_a_cut_the_skipped_moves_are_listed_greyed_as_pruned() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tree(pilot, "5")
        recorder = recording(game(pilot).game.board)
        cut = next(i for i, e in enumerate(recorder.events) if e.kind is EventKind.CUT)
        await pilot.press("s", *["n"] * cut)
        await pilot.pause()
        node = recorder.nodes[recorder.events[cut].node]
        assert "are pruned" in text(screen.query_one("#step-info", Static))
        pruned = [
            line for line in lines(screen) if line.data is not None and line.data.pruned is not None
        ]
        assert [line.data.pruned for line in pruned if line.data] == list(node.pruned)
        for line in pruned:
            assert "pruned (never searched)" in str(line.label)
            assert "dim" in str(line.label.style)
        # The move that made the cut is marked from this event on, not before.
        marked = [str(line.label) for line in lines(screen) if str(line.label).startswith("✂")]
        board = game(pilot).game.board
        assert marked == [
            node_label(recorder.nodes[node.cut_by], board, step=cut, nodes=recorder.nodes)
        ]
        await pilot.press("b")
        await pilot.pause()
        assert not [line for line in lines(screen) if str(line.label).startswith("✂")]


async def test_o_switches_the_algorithm_and_the_numbers_follow() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tree(pilot, "5")
        await pilot.press("o")
        await settle(pilot)
        result, _ = record_search(game(pilot).game.board, "alphabeta-plain")
        assert title(screen).startswith("α-β plain")
        assert f"{result.positions:,} positions" in title(screen)
        await pilot.press("o")
        await settle(pilot)
        result, _ = record_search(game(pilot).game.board, "alphabeta-tt")
        assert f"{result.table_hits:,} table hits" in title(screen)


async def test_a_big_board_is_searched_to_a_chosen_depth() -> None:
    app = game_app(seed=1, size=10, opponent="h1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await click_cell(pilot, 44)
        screen = await open_tree(pilot)
        board = game(pilot).game.board
        assert "to depth 2" in title(screen)
        result, _ = record_search(board, "alphabeta-ordered", 2)
        assert f"{result.positions:,} positions" in title(screen)
        await pilot.press("plus")
        await settle(pilot)
        result, _ = record_search(board, "alphabeta-ordered", 3)
        assert "to depth 3" in title(screen) and f"{result.positions:,} positions" in title(screen)
        await pilot.press("minus", "minus")
        await settle(pilot)
        assert "to depth 1" in title(screen)
        await pilot.press("minus")
        await pilot.pause()
        assert "to depth 1" in title(screen)


async def test_a_capped_recording_says_how_much_it_left_out() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        board = Board.from_string("X../.O./...")
        await app.push_screen(TreeScreen(board, event_cap=50))
        await settle(pilot)
        total = recording(board).total_events
        assert f"recording capped at 50 of {total:,} events" in title(tree_screen(pilot))


@pytest.mark.slow
async def test_the_mouse_alone_opens_steps_highlights_and_closes() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await click_cell(pilot, 4)
        await settle(pilot)
        await click_command(pilot, "Search tree")
        screen = tree_screen(pilot)
        recorder = recording(game(pilot).game.board)
        for button in ("#step-mode", "#step-next", "#step-next"):
            assert await pilot.click(button)
            await pilot.pause(0.3)  # two quick clicks in one place would be a double click
        assert screen.step == 2
        assert text(screen.query_one("#step-info", Static)).startswith("Event 3 of")
        assert await pilot.click("#step-end")
        await pilot.pause()
        # A click on the second line (the first root move) shows that move's position.
        assert await pilot.click("#search-tree", offset=(6, 2))
        await pilot.pause()
        first = recorder.nodes[recorder.nodes[0].children[0]]
        assert first.move is not None
        info = text(screen.query_one("#node-info", Static))
        assert f"X {cell_notation(first.move, 3)}, ply 1" in info
        assert await pilot.click("#close")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_a_finished_position_has_no_tree() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(TreeScreen(Board.from_string("XXX/OO./...")))
        await settle(pilot)
        assert "The game is over (X won)" in title(tree_screen(pilot))


async def test_a_small_terminal_asks_to_be_enlarged_and_the_tree_comes_back() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=(20, 5)) as pilot:
        await app.push_screen(TreeScreen(Board.from_string("X../.O./...")))
        await settle(pilot)
        notice = tree_screen(pilot).query_one("#too-small", Static)
        assert notice.display and "Enlarge the terminal" in text(notice)
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert not notice.display
        assert tree_screen(pilot).query_one("#search-tree").region.width > 0


MIDDLE_GAME = Board.from_string(
    "........../........../........../....O...../....XX..../....O...../........../"
    "........../........../..........",
    k=5,
)
"""A 10×10 position where the alpha-betas search only the cells next to a mark."""


def labels(screen: TreeScreen) -> list[str]:
    return [str(line.label) for line in lines(screen)]


async def test_the_moves_a_big_board_search_left_out_stand_as_one_line_with_their_rule() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(TreeScreen(MIDDLE_GAME))
        await settle(pilot)
        screen = tree_screen(pilot)
        result = record_search(MIDDLE_GAME, "alphabeta-ordered", 2)[0]
        left = result.legal_moves - result.root_moves
        shown = labels(screen)
        # The root, a line per move searched, then one line for all the others, last.
        assert len(shown) == 1 + result.root_moves + 1
        assert shown[-1] == f"… near stones only: {left} moves not searched"
        assert f"near stones only: {result.root_moves} of 96 moves at the root" in title(screen)
        tree: Tree[Line] = screen.query_one("#search-tree", Tree)
        tree.move_cursor(lines(screen)[-1])
        await pilot.pause()
        info = text(screen.query_one("#node-info", Static))
        assert info.startswith(f"{left} moves left out (near stones only), lit on the board.")


async def test_the_move_that_made_a_cut_off_is_marked() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(TreeScreen(MIDDLE_GAME))
        await settle(pilot)
        screen = tree_screen(pilot)
        _, recorder = record_search(MIDDLE_GAME, "alphabeta-ordered", 2)
        nodes = recorder.nodes
        # The second move X tried failed low: O's first reply reached β and cut off the rest.
        second = nodes[nodes[0].children[1]]
        assert second.cut_by >= 0
        line = next(line for line in lines(screen) if line.data == Line(second.id))
        line.expand()
        await pilot.pause()
        marked = [label for label in labels(screen) if "✂" in label]
        maker = nodes[second.cut_by]
        assert marked == [node_label(maker, MIDDLE_GAME, nodes=nodes)]
        assert second.cut_index == 0 and marked[0].startswith("✂ ")
        assert marked[0].endswith("β cut-off, 1st tried")
        result = record_search(MIDDLE_GAME, "alphabeta-ordered", 2)[0]
        assert f"({first_cut_text(result)} by the 1st move tried)" in title(screen)


async def test_step_mode_keeps_the_left_out_line_last_while_moves_are_added() -> None:
    app = TicTacToeApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(TreeScreen(MIDDLE_GAME, depth=1))
        await settle(pilot)
        screen = tree_screen(pilot)
        await pilot.press("s", "n", "n", "n", "n", "n")
        await pilot.pause()
        # The root and its first moves tried are in, the left-out line after them.
        shown = labels(screen)
        assert len(shown) >= 3 and shown[-1].startswith("… near stones only:")
        await pilot.press("e")
        await pilot.pause()
        assert labels(screen)[-1].startswith("… near stones only:")
