"""The tree explorer (key `t`) on screen: its keys and buttons reach the controller, and the tree,
the step panel and the small board draw what it says, from the keyboard alone and from the mouse
alone. The rules themselves are tested without a terminal in `tests/test_tree_controller.py`."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static, Tree
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
from tests.test_tree_predict import independent_alphabeta
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.trace import EventKind, TraceRecorder, node_board, record_search
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.predictions import predictions
from tictactoe_tui.play.tree import Line
from tictactoe_tui.play.tree_predict import CONVENTION
from tictactoe_tui.text.lab import node_label
from tictactoe_tui.ui.app import TicTacToeApp
from tictactoe_tui.ui.screens.game import GameScreen
from tictactoe_tui.ui.screens.tree import LOOKS, TreeScreen
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


async def test_t_shows_the_recorded_search_and_its_keys_replay_it_as_the_controller_says() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tree(pilot, "5")
        board = game(pilot).game.board
        controller = screen.controller
        recorder = recording(board)
        assert screen.position == board and title(screen) == controller.title()
        shown = lines(screen)
        root = recorder.nodes[0]
        # The root and one line per root move, each drawn as the controller labels it.
        assert len(shown) == 1 + len(root.children)
        for line, index in zip(shown[1:], root.children, strict=True):
            assert str(line.label) == node_label(recorder.nodes[index], board)
        # A line with a cut-off opened: every line drawn in its look (pruned moves greyed).
        cut = next(line for line in shown if line.data and controller.node(line.data.node).pruned)
        cut.expand()
        await pilot.pause()
        for line in lines(screen):
            assert line.data is not None
            label = controller.label(line.data)
            assert (str(line.label), str(line.label.style)) == (label.text, LOOKS[label.look])
        assert any(line.data and line.data.pruned is not None for line in lines(screen))
        cut.collapse()
        await pilot.press("down")  # the first root move
        await pilot.pause()
        first = recorder.nodes[root.children[0]]
        assert first.move is not None
        after = node_board(board, recorder.nodes, first.id)
        drawn = board_text(screen)
        for row in range(3):
            marks = [str(after[row * 3 + col] or "·") for col in range(3)]
            # Marks on the line since the root carry their move number ("X1").
            assert [cell[0] for cell in drawn.splitlines()[row + 1].split()[1:]] == marks
        info = text(screen.query_one("#node-info", Static))
        assert f"X {cell_notation(first.move, 3)}, ply 1" in info
        await pilot.press("s")
        await pilot.pause()
        panel = screen.query_one("#step-info", Static)
        assert text(panel).startswith(f"Event 1 of {len(recorder.events):,}: enter")
        # Only the root has been entered: no other line yet.
        assert len(lines(screen)) == 1
        for _ in range(11):
            await pilot.press("n")
        await pilot.pause()
        assert controller.step == 11 and text(panel) == controller.step_words()
        entered = sum(1 for e in recorder.events[:12] if e.kind is EventKind.ENTER)
        assert len(lines(screen)) == entered
        await pilot.press("b")
        await pilot.pause()
        assert text(panel).startswith("Event 11 of")
        await pilot.press("e")
        await pilot.pause()
        assert controller.step is None and text(panel).startswith("Step mode")
        await pilot.press("o")
        await settle(pilot)
        assert title(screen).startswith("α-β plain") and title(screen) == controller.title()


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
        assert screen.controller.step == 2
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
        # + and - reach the controller: a search one ply deeper, then back.
        await pilot.press("plus")
        await settle(pilot)
        assert "to depth 2" in title(screen) and title(screen) == screen.controller.title()
        await pilot.press("minus", "minus")
        await settle(pilot)
        assert "to depth 1" in title(screen)


async def test_p_predicts_the_search_and_the_replay_says_which_marks_were_right() -> None:
    app = game_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tree(pilot, "5")
        board = game(pilot).game.board
        reference = independent_alphabeta(board, ordered=True)
        assert await pilot.click("#predict")  # the button does what p does
        await pilot.pause()
        assert CONVENTION in title(screen) and "positions" not in title(screen).split("\n")[1]
        shown = lines(screen)
        # The root and its moves only, no values: "A1 X", "C3 X", ...
        assert [str(line.label) for line in shown[1:3]] == ["A1 X", "C3 X"]
        box = screen.query_one("#predict-guess", Input)
        assert box.display
        # Mark the second root move with m, and the first with a click on its line.
        await pilot.press("down", "down", "m")
        await pilot.pause()
        assert str(lines(screen)[2].label).endswith("◆ marked: cut off or fails low")
        assert await pilot.click("#search-tree", offset=(6, 2))
        await pilot.pause()
        assert str(lines(screen)[1].label).endswith("◆ marked: cut off or fails low")
        assert await pilot.click("#predict-guess")
        await pilot.press(*"abc", "enter")
        await pilot.pause()
        assert "'abc' is not a count" in text(screen.query_one("#step-info", Static))
        assert screen.controller.asking is not None  # nothing lost
        await pilot.press(*("backspace",) * 3, *str(reference.visited), "enter")
        await pilot.pause()
        # The replay starts; leaving it shows every verdict in words and symbols.
        assert screen.controller.step == 0 and not box.display
        await pilot.press("e")
        await pilot.pause()
        labels = [str(line.label) for line in lines(screen)[1:]]
        assert labels[0].startswith("✗ mark wrong · A1 X")  # A1 raised α: the best so far
        assert labels[1].startswith("✓ mark right · C3 X")  # C3 failed low
        assert all(label.startswith("✗ missed · ") for label in labels[2:])
        assert len(labels) == len(reference.root)
        assert f"Right: the search visited {reference.visited:,} positions" in title(screen)
        kept = predictions(app.store)
        assert [(p.question, p.answer, p.right, p.source) for p in kept] == [
            ("cutoffs", "A1 C3", False, "tree"),
            ("visits", str(reference.visited), True, "tree"),
        ]
