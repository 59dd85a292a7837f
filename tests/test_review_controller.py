"""The review screen's rules without Textual (`play.review.ReviewController`): stepping, what the
board, the panel, the move list, the status and the graph say, and playing on from a position.
The verdicts themselves are checked against an independent solver in tests/test_review.py."""

from __future__ import annotations

from tests.games import a_game
from tictactoe_tui.engine import Board
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.play.review import ReviewController, readout, settings_of
from tictactoe_tui.play.settings import Mode
from tictactoe_tui.text.panel import PanelReport

EDGE_REPLY = (4, 1, 0, 8, 6, 2, 3)
"""X takes the centre, O answers on an edge (which loses), and X wins on move 7 (A2... A3)."""


def reviewed(game: PlayedGame, game_id: int | None = 7) -> ReviewController:
    controller = ReviewController(game, game_id)
    controller.review.analyse_all()
    return controller


def test_it_opens_at_the_end_and_steps_within_the_game() -> None:
    controller = ReviewController(a_game(EDGE_REPLY, outcome="X"))
    assert controller.index == 7
    controller.step(1)
    assert controller.index == 7
    controller.jump(0)
    controller.step(-1)
    assert controller.index == 0
    controller.goto(3)
    assert controller.index == 3 and str(controller.position) == str(
        Board.empty(3, 3).play(4).play(1).play(0)
    )
    controller.goto(99)
    assert controller.index == 7
    controller.jump(-1)
    assert controller.index == 7


def test_before_the_analysis_the_panel_and_graph_say_they_wait() -> None:
    controller = ReviewController(a_game(EDGE_REPLY, outcome="X"))
    controller.goto(3)
    done, total = controller.review.progress
    assert not controller.analysed and done < total
    assert controller.panel() == f"Analysing the game: {done} of {total} positions done…"
    assert controller.graph().readout == "after move 3: not analysed yet"
    assert controller.verdict() is None


def test_the_blunder_is_named_in_the_move_list_the_status_and_the_panel() -> None:
    controller = reviewed(a_game(EDGE_REPLY, outcome="X"))
    assert controller.analysed
    assert controller.moves() == [
        ("X", "B2"),
        ("O", "B1??"),
        ("X", "A1"),
        ("O", "C3"),
        ("X", "A3"),
        ("O", "C1"),
        ("X", "A2"),
    ]
    first, second = controller.status()
    assert first == (
        "Game 7, 2025-03-01 14:00: you (X) vs alpha-beta 80%, 3×3, X won after 7 moves"
    )
    assert second == "Move 7 of 7 (←/→ step)   X: 0 ?!, 0 ?, 0 ??   O: 0 ?!, 0 ?, 1 ??"
    controller.goto(2)
    panel = controller.panel()
    assert isinstance(panel, PanelReport)
    assert panel.title == "2. O B1??"
    assert controller.board().caption == "scores before move 2"
    assert controller.board().better is not None
    assert controller.board().better != 1  # the move the review says was better is not B1


def test_the_start_shows_every_first_move_and_the_end_says_the_game_is_over() -> None:
    controller = reviewed(a_game(EDGE_REPLY, outcome="X"))
    controller.jump(0)
    start = controller.panel()
    assert isinstance(start, PanelReport) and start.title == "Start: X to move"
    assert controller.board().last is None and controller.board().caption == "scores before move 1"
    controller.jump(-1)
    assert controller.board().winning == (0, 3, 6)
    assert controller.graph().readout == "after move 7: X won"


def test_play_goes_on_only_from_a_position_that_is_not_over() -> None:
    controller = reviewed(a_game(EDGE_REPLY, outcome="X"))
    assert controller.play_from_here() == (
        "The game is over in this position: step back to play on from an earlier one."
    )
    controller.goto(4)
    assert controller.play_from_here() == (4, 1, 0, 8)


def test_the_graph_is_seen_from_x_with_each_values_kind() -> None:
    controller = reviewed(a_game(EDGE_REPLY, outcome="X"))
    graph = controller.graph()
    assert len(graph.values) == 8 and graph.index == 7
    # On 3x3 every value is exact: after O's edge reply X wins, so every value from there is
    # a win for X (positive), and the start is a draw.
    assert graph.values[0] == 0
    assert all(value is not None and value > 0 for value in graph.values[2:])
    assert graph.kinds == ["exact"] * 8
    controller.goto(2)
    assert controller.graph().readout == "after move 2: 5 for X (win in 5)"


def test_a_forfeit_is_said_at_the_end_of_the_game() -> None:
    game = a_game((4, 0), outcome="X", forfeit="O's engine timed out")
    controller = reviewed(game, game_id=None)
    first, second = controller.status()
    assert first.startswith("Game, ") and first.endswith("X won by forfeit after 2 moves")
    assert second == "Move 2 of 2 (←/→ step)   O's engine timed out"
    controller.goto(1)
    assert controller.status()[1].startswith("Move 1 of 2 (←/→ step)   X: 0 ?!")


def test_moves_set_up_from_an_earlier_game_are_said_while_shown() -> None:
    controller = reviewed(a_game(EDGE_REPLY, outcome="X", setup_moves=2))
    controller.goto(2)
    assert controller.status()[1].endswith("(moves 1–2 were set up from an earlier game)")
    controller.goto(3)
    assert "set up" not in controller.status()[1]


def test_the_settings_to_play_on_with_come_from_the_record_or_are_rebuilt() -> None:
    kept = settings_of(a_game(EDGE_REPLY), "textual-light")
    assert kept.opponent == "alphabeta" and kept.theme == "textual-light"
    rebuilt = settings_of(a_game(EDGE_REPLY, settings={}, o="outside?"), "nord")
    assert rebuilt.mode == Mode.HUMAN_VS_COMPUTER and rebuilt.opponent == "alphabeta"
    assert rebuilt.mark == "X" and rebuilt.theme == "nord"


def test_the_readout_marks_a_bound_and_an_estimate() -> None:
    board = Board.from_string("X../.O./...", k=3)
    assert readout(2, (-13, "estimate", "heuristic"), board) == (
        "after move 2: ~-13 for X (estimate)"
    )
    assert readout(2, (0, "at_most", "draw"), board) == "after move 2: ≤ 0 for X (draw at best)"
    assert readout(2, (None, "", "draw"), board) == "after move 2: not analysed yet"
