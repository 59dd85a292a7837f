"""The tree explorer's rules (`play.tree.TreeController`), without a terminal: the search it
records, the lines it shows and how they read, the step mode's replay, the keys that change the
algorithm and the depth. Every number is the engine's recording's."""

from __future__ import annotations

from collections.abc import Sequence

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.trace import EventKind, TraceRecorder, node_board, record_search
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.lab_effects import Notify, RunJob
from tictactoe_tui.play.tree import (
    Advance,
    DrawStep,
    DrawTitle,
    Line,
    Lit,
    Look,
    Rebuild,
    Searching,
    TreeController,
    TreeEffect,
)
from tictactoe_tui.text.lab import node_label
from tictactoe_tui.text.scores import first_cut_text

AFTER_THE_CENTRE = Board.from_string("..O/.X./...")
"""The game with seed 1 after you take the centre: alpha-beta replied C1; X to move."""

MIDDLE_GAME = Board.from_string(
    "........../........../........../....O...../....XX..../....O...../........../"
    "........../........../..........",
    k=5,
)
"""A 10×10 position where the alpha-betas search only the cells next to a mark."""


def run(controller: TreeController, effects: Sequence[TreeEffect]) -> list[TreeEffect]:
    """Carry out `effects` as the screen would: a job runs here, its answer goes back."""
    done: list[TreeEffect] = []
    for effect in effects:
        if isinstance(effect, RunJob):
            done += controller.recorded(*effect.job(*effect.args))
    return done


def explorer(
    board: Board, depth: int | None = None, event_cap: int | None = None
) -> TreeController:
    """A controller on `board` with its recording in."""
    controller = (
        TreeController(board, depth)
        if event_cap is None
        else TreeController(board, depth, event_cap)
    )
    run(controller, controller.start())
    assert controller.recorder is not None
    return controller


def recording(
    board: Board, algorithm: str = "alphabeta-ordered", depth: int | None = None
) -> TraceRecorder:
    return record_search(board, algorithm, depth)[1]


def shown_lines(controller: TreeController) -> list[Line]:
    """Every node entered by now, and every pruned move shown, in the tree's order."""
    found = [Line(0)]

    def walk(index: int) -> None:
        for line in controller.lines_under(index):
            found.append(line)
            if line.pruned is None:
                walk(line.node)

    walk(0)
    return found


def test_the_search_is_recorded_once_the_screen_opens_and_the_title_has_its_numbers() -> None:
    controller = TreeController(AFTER_THE_CENTRE)
    effects = controller.start()
    assert isinstance(effects[0], Searching) and controller.busy
    assert controller.title().endswith("Searching…")
    job = next(e for e in effects if isinstance(e, RunJob))
    assert job.job is record_search
    assert job.args[:3] == (AFTER_THE_CENTRE, "alphabeta-ordered", None)
    assert [type(e) for e in run(controller, effects)] == [Rebuild, DrawTitle, DrawStep]
    assert not controller.busy
    result, recorder = record_search(AFTER_THE_CENTRE, "alphabeta-ordered")
    title = controller.title()
    assert (
        f"Value {'0' if not result.value else result.value} (draw) · "
        f"{result.positions:,} positions · {result.cutoffs:,} cut-offs"
    ) in title
    assert f" · {result.pruned:,} moves pruned" in title
    # The root and one line per root move, each labelled from the engine's recording.
    root = recorder.nodes[0]
    under = controller.lines_under(0)
    assert [line.node for line in under] == root.children
    for line, index in zip(under, root.children, strict=True):
        assert controller.label(line).text == node_label(recorder.nodes[index], AFTER_THE_CENTRE)


def test_a_lines_position_is_what_the_small_board_shows() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    recorder = recording(AFTER_THE_CENTRE)
    first = recorder.nodes[recorder.nodes[0].children[0]]
    assert first.move is not None
    view = controller.line_view(Line(first.id))
    assert view is not None
    assert view.marks == node_board(AFTER_THE_CENTRE, recorder.nodes, first.id).marks()
    assert view.path == (first.move,) and view.lit == first.move and view.lit_kind is Lit.MOVE
    assert f"X {cell_notation(first.move, 3)}, ply 1" in view.words


def test_step_mode_replays_every_event_with_the_running_counts() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    recorder = recording(AFTER_THE_CENTRE)
    assert [type(e) for e in controller.toggle_steps()] == [Rebuild, DrawStep]
    assert controller.step_words().startswith(f"Event 1 of {len(recorder.events):,}: enter")
    # Only the root has been entered: no other line yet.
    assert shown_lines(controller) == [Line(0)]
    for _ in range(11):
        effects = controller.step_by(1)
        assert isinstance(effects[0], Advance)
    event = recorder.events[11]
    words = controller.step_words()
    assert words.startswith(f"Event 12 of {len(recorder.events):,}: {event.kind.value}")
    assert f"positions visited {event.positions:,} · moves pruned {event.pruned:,}" in words
    entered = sum(1 for e in recorder.events[:12] if e.kind is EventKind.ENTER)
    assert len(shown_lines(controller)) == entered
    assert controller.shown_line() == Line(event.node) == Line(controller.cursor_node() or 0)
    assert isinstance(controller.step_by(-1)[0], Rebuild)
    assert controller.step_words().startswith("Event 11 of")
    controller.step_end()
    assert controller.step is None and controller.step_words().startswith("Step mode")
    assert controller.shown_line() == Line(0)


def test_stepping_past_either_end_says_so_and_stays() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    assert controller.step_end() == []  # not stepping: nothing to leave
    controller.step_by(1)  # starts the replay at the first event
    assert controller.step == 0
    assert controller.step_by(-1) == [Notify("The first event.", 2)]
    last = len(controller.recorder.events) - 1 if controller.recorder else 0
    controller.step = last
    assert controller.step_by(1) == [Notify("The last recorded event.", 2)]
    assert controller.step == last


def test_after_a_cut_the_skipped_moves_are_listed_greyed_as_pruned() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    recorder = recording(AFTER_THE_CENTRE)
    cut = next(i for i, e in enumerate(recorder.events) if e.kind is EventKind.CUT)
    controller.toggle_steps()
    for _ in range(cut):
        controller.step_by(1)
    node = recorder.nodes[recorder.events[cut].node]
    assert "are pruned" in controller.step_words()
    pruned = [line for line in shown_lines(controller) if line.pruned is not None]
    assert [line.pruned for line in pruned] == list(node.pruned)
    for line in pruned:
        label = controller.label(line)
        assert "pruned (never searched)" in label.text and label.look is Look.PRUNED
    # The move that made the cut is marked from this event on, not before.
    marked = [
        controller.label(line).text
        for line in shown_lines(controller)
        if controller.label(line).text.startswith("✂")
    ]
    assert marked == [
        node_label(recorder.nodes[node.cut_by], AFTER_THE_CENTRE, step=cut, nodes=recorder.nodes)
    ]
    change = controller.step_change()
    assert change.cut == node.id and node.cut_by in change.relabel
    controller.step_by(-1)
    assert not [
        line for line in shown_lines(controller) if controller.label(line).text.startswith("✂")
    ]


def test_o_switches_the_algorithm_and_the_numbers_follow() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    run(controller, controller.cycle_algorithm())
    result, _ = record_search(AFTER_THE_CENTRE, "alphabeta-plain")
    assert controller.title().startswith("α-β plain")
    assert f"{result.positions:,} positions" in controller.title()
    run(controller, controller.cycle_algorithm())
    result, _ = record_search(AFTER_THE_CENTRE, "alphabeta-tt")
    assert f"{result.table_hits:,} table hits" in controller.title()
    run(controller, controller.cycle_algorithm())
    assert controller.algorithm == "alphabeta-ordered"


def test_a_big_board_is_searched_to_a_chosen_depth() -> None:
    board = Board.empty(10).play(44).play(45)  # you at E5, H1 (seed 1) beside it
    controller = explorer(board)
    assert "to depth 2" in controller.title()
    result, _ = record_search(board, "alphabeta-ordered", 2)
    assert f"{result.positions:,} positions" in controller.title()
    run(controller, controller.change_depth(1))
    result, _ = record_search(board, "alphabeta-ordered", 3)
    title = controller.title()
    assert "to depth 3" in title and f"{result.positions:,} positions" in title
    run(controller, controller.change_depth(-1))
    run(controller, controller.change_depth(-1))
    assert "to depth 1" in controller.title()
    assert controller.change_depth(-1) == [Notify("Depth 1 is the shallowest.", 2)]
    assert "to depth 1" in controller.title()


def test_a_small_position_goes_to_the_end_and_no_further() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    assert controller.depth is None and "to the end of the game" in controller.title()
    assert controller.change_depth(1) == [Notify("That is as far as the explorer goes here.", 2)]
    effects = controller.change_depth(-1)
    # One short of the end (7 empty cells): depth 6.
    assert controller.depth == 6 and any(isinstance(e, RunJob) for e in effects)


def test_a_capped_recording_says_how_much_it_left_out() -> None:
    board = Board.from_string("X../.O./...")
    controller = explorer(board, event_cap=50)
    total = recording(board).total_events
    assert f"recording capped at 50 of {total:,} events" in controller.title()


def test_a_finished_position_has_no_tree() -> None:
    controller = TreeController(Board.from_string("XXX/OO./..."))
    assert controller.start() == [Searching(), DrawTitle()]
    assert "The game is over (X won)" in controller.title()
    assert controller.root_label == "no search" and not controller.busy
    assert controller.cycle_algorithm() == []  # nothing to search


def test_a_failed_search_says_why() -> None:
    controller = TreeController(AFTER_THE_CENTRE)
    controller.start()
    assert controller.search_failed("the worker died") == [DrawTitle()]
    assert controller.title() == "The search failed: the worker died" and not controller.busy


def test_the_moves_a_big_board_search_left_out_stand_as_one_line_with_their_rule() -> None:
    controller = explorer(MIDDLE_GAME)
    result = record_search(MIDDLE_GAME, "alphabeta-ordered", 2)[0]
    left = result.legal_moves - result.root_moves
    under = controller.lines_under(0)
    # A line per move searched, then one line for all the others, last.
    assert len(under) == result.root_moves + 1
    last = controller.label(under[-1])
    assert last.text == f"… near stones only: {left} moves not searched"
    assert last.look is Look.LEFT_OUT and controller.stand_in(0) == under[-1].node
    assert f"near stones only: {result.root_moves} of 96 moves at the root" in controller.title()
    view = controller.line_view(under[-1])
    assert view is not None and view.lit_kind is Lit.LEFT_OUT
    assert view.words.startswith(f"{left} moves left out (near stones only), lit on the board.")


def test_the_move_that_made_a_cut_off_is_marked() -> None:
    controller = explorer(MIDDLE_GAME)
    _, recorder = record_search(MIDDLE_GAME, "alphabeta-ordered", 2)
    nodes = recorder.nodes
    # The second move X tried failed low: O's first reply reached β and cut off the rest.
    second = nodes[nodes[0].children[1]]
    assert second.cut_by >= 0
    marked = [
        controller.label(line).text
        for line in controller.lines_under(second.id)
        if "✂" in controller.label(line).text
    ]
    maker = nodes[second.cut_by]
    assert marked == [node_label(maker, MIDDLE_GAME, nodes=nodes)]
    assert second.cut_index == 0 and marked[0].startswith("✂ ")
    assert marked[0].endswith("β cut-off, 1st tried")
    result = record_search(MIDDLE_GAME, "alphabeta-ordered", 2)[0]
    assert f"({first_cut_text(result)} by the 1st move tried)" in controller.title()


def test_step_mode_keeps_the_left_out_line_last_while_moves_are_entered() -> None:
    controller = explorer(MIDDLE_GAME, depth=1)
    controller.toggle_steps()
    for _ in range(5):
        controller.step_by(1)
    under = controller.lines_under(0)
    assert len(under) >= 2 and controller.label(under[-1]).look is Look.LEFT_OUT
    controller.step_end()
    assert controller.label(controller.lines_under(0)[-1]).look is Look.LEFT_OUT
