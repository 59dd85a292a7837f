"""The heuristic lab's rules (`play.heuristics.HeuristicController`), without a terminal: every
number is the engine's (H1 under the weights given, H2, alpha-beta's scores, each line's share),
the weights' rules, the move explained, and the worked example of H1 (O A1, X B2, O B1)."""

from __future__ import annotations

from tictactoe_tui.engine import Algorithm, Board, analyse_position
from tictactoe_tui.engine.evaluation.heuristics import candidate_terms, explain_lines, rank_moves
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.heuristics import (
    DrawAll,
    DrawPicks,
    DrawProblem,
    HeuristicController,
    ShowSelected,
)
from tictactoe_tui.play.lab_effects import Notify, RunJob
from tictactoe_tui.text.lab import alphabeta_cell
from tictactoe_tui.worker.jobs import clever_analysis

SEED_002 = Board.from_string("OO./.X./...")
"""Seed 002's board, O O . / . X . / . . . with X to move."""


def analysed(controller: HeuristicController) -> HeuristicController:
    """Run the alpha-beta job the controller asks for, as the screen would, and hand it back."""
    for effect in controller.start():
        if isinstance(effect, RunJob):
            controller.analysed(effect.job(*effect.args))
    return controller


def check_ranking(controller: HeuristicController, weights: tuple[int, ...]) -> None:
    """The ranking is the engine's, under `weights`, alpha-beta's scores included."""
    position = controller.position
    ranking = rank_moves(position, candidate_terms(position), weights)
    shown = controller.ranking_rows()
    assert [r.cell for r in shown] == [cell_notation(m, position.size) for m in ranking.order]
    assert [r.h1 for r in shown] == [ranking.h1[m] for m in ranking.order]
    assert [r.h2 for r in shown] == [ranking.h2[m] for m in ranking.order]
    analysis = analyse_position(position, "alphabeta")
    scores = {s.move: alphabeta_cell(s, position, analysis.depth) for s in analysis.scores}
    assert [r.alphabeta for r in shown] == [scores[m] for m in ranking.order]
    for row, move in zip(shown, ranking.order, strict=True):
        assert ("H1" in row.picked_by.split()) == (move in ranking.h1_pick.moves)
        assert ("H2" in row.picked_by.split()) == (move in ranking.h2_pick.moves)


def check_lines(controller: HeuristicController, move: int, weights: tuple[int, ...]) -> None:
    """The lines listed after `move` are every line, with the engine's shares."""
    position = controller.position
    after = position.play(move)
    lines = explain_lines(after, position.to_move, weights)
    shown = controller.line_rows()
    assert len(shown) == len(lines) == 8
    expected = sorted(
        (cell_notation(t.cells[0], 3) + "–" + cell_notation(t.cells[-1], 3), t.h1, t.h2)
        for t in lines
    )
    assert sorted((r.name, int(r.h1), int(r.h2)) for r in shown) == expected
    assert (
        sum(int(r.h1) for r in shown)
        == rank_moves(position, candidate_terms(position), weights).h1[move]
    )


def test_seed_002_reads_as_the_seed_works_it_out() -> None:
    controller = analysed(HeuristicController(SEED_002))
    check_ranking(controller, (1, 3))
    # The seed's best move, position 3 (C1), scores 4 and tops the ranking; it is also the
    # only block, so both heuristics play it, and so does alpha-beta.
    top = controller.ranking_rows()[0]
    assert (top.rank, top.cell, top.h1, top.h2, top.picked_by) == (1, "C1", 4, 2, "H1 H2 αβ")
    assert "H1 plays C1 (blocks a win); alpha-beta agrees" in controller.picks_text()
    assert controller.selected == 2
    check_lines(controller, 2, (1, 3))
    terms = controller.terms_text()
    assert "3·(1 − 0) + 1·(2 − 1) = 4" in terms
    assert "Open(X) − Open(O) = 4 − 2 = 2" in terms
    shown = {r.name: r for r in controller.line_rows()}
    # The anti-diagonal C1, B2, A3 holds two X and no O: X2, worth 3.
    assert (shown["C1–A3"].marks, shown["C1–A3"].counted) == ("XX.", "X2 (weight 3)")
    assert (shown["C1–A3"].h1, shown["C1–A3"].h2) == ("+3", "+1")
    assert (shown["A1–C1"].marks, shown["A1–C1"].counted) == ("OOX", "blocked (both marks)")
    assert (shown["A1–C1"].h1, shown["A1–C1"].h2) == ("0", "0")
    assert controller.weight_label(2) == "n = 2 (X2, O2)"
    assert controller.board_hints()[2] == "+4"


def test_typed_weights_re_rank_at_once_and_a_box_that_is_no_number_is_named() -> None:
    controller = analysed(HeuristicController(SEED_002))
    assert controller.weights_typed(["1", "0"]) == [DrawProblem(), DrawAll()]
    assert controller.weights == (1, 0)  # two in a line now counts for nothing
    check_ranking(controller, (1, 0))
    controller.weights_typed(["5", "0"])
    assert controller.weights == (5, 0)
    check_ranking(controller, (5, 0))
    # An empty box is named, nothing changes.
    assert controller.weights_typed(["", "0"]) == [DrawProblem()]
    assert controller.weights == (5, 0)
    assert "must be a whole number" in controller.problem
    assert controller.usual_weights() == (1, 3)
    controller.weights_typed([str(w) for w in controller.usual_weights()])
    assert controller.weights == (1, 3) and controller.problem == ""


def test_the_step_buttons_move_a_weight_by_one() -> None:
    controller = HeuristicController(SEED_002)
    assert controller.stepped(1, "1", 1) == "2"
    assert controller.stepped(2, "3", -1) == "2"
    # A box that is not a number goes back to the weight in force.
    assert controller.stepped(2, "", 1) == "3"


def test_the_table_cursor_and_the_board_choose_the_move_explained() -> None:
    controller = analysed(HeuristicController(SEED_002))
    ranking = rank_moves(SEED_002, candidate_terms(SEED_002), (1, 3))
    second = ranking.order[1]
    assert controller.highlight(second) == [ShowSelected(table=False, board=True)]
    assert controller.selected == second
    check_lines(controller, second, (1, 3))
    assert controller.highlight(second) == []  # already explained
    third = ranking.order[2]
    assert controller.choose_cell(third) == [ShowSelected(table=True, board=False)]
    assert controller.selected == third
    # A taken cell explains nothing.
    assert controller.choose_cell(0) == [Notify("A1 is taken: pick an empty cell.", 3)]
    assert controller.selected == third


def test_the_weights_the_mouse_sets_rank_the_moves_after_the_centre() -> None:
    position = Board.from_string("O../.X./...")  # you took the centre; alpha-beta replied A1
    controller = analysed(HeuristicController(position))
    check_ranking(controller, (1, 3))
    controller.weights_typed([controller.stepped(1, "2", 1), controller.stepped(2, "3", -1)])
    assert controller.weights == (3, 2)
    check_ranking(controller, (3, 2))
    move = next(m for m in position.legal_moves() if m != controller.selected)
    controller.choose_cell(move)
    check_lines(controller, move, (3, 2))


def test_a_big_board_lists_only_the_lines_that_hold_a_mark() -> None:
    position = Board.empty(7, 4).play(24).play(25)
    controller = HeuristicController(position)
    assert controller.weights == (1, 3, 9)
    ranking = rank_moves(position, candidate_terms(position), (1, 3, 9))
    assert [r.h1 for r in controller.ranking_rows()] == [ranking.h1[m] for m in ranking.order]
    move = controller.selected
    assert move == ranking.order[0]
    lines = explain_lines(position.play(move), position.to_move)
    marked = [t for t in lines if t.own or t.opp]
    assert len(controller.line_rows()) == len(marked)
    assert f"{len(lines) - len(marked)} empty lines are not listed" in controller.terms_text()


def test_the_game_panels_analysis_is_the_alpha_beta_column_with_its_marks() -> None:
    position = Board.empty(7, 4).play(24).play(25)
    analysis = clever_analysis(position, Algorithm.ALPHABETA, None, 4)
    controller = HeuristicController(position, 1.0, analysis=analysis)
    assert controller.from_panel and controller.alphabeta is analysis
    # Nothing to search: the panel's answer is in.
    assert controller.start() == [DrawAll()] and not controller.busy
    shown = {r.cell: r.alphabeta for r in controller.ranking_rows()}
    assert shown == {
        cell_notation(s.move, 7): alphabeta_cell(s, position, analysis.depth)
        for s in analysis.scores
    }
    for scored in analysis.scores:  # every number carries its kind (and its depth)
        words = shown[cell_notation(scored.move, 7)]
        if scored.kind != "exact":
            assert words.startswith(("~", "≤", "≥")) and "(" in words, words
    assert "Alpha-beta: the game panel's analysis" in controller.picks_text()


def test_the_labs_own_search_says_it_is_its_own() -> None:
    position = Board.from_string("......./......./......./...X.../..O..../......./.......", k=4)
    controller = HeuristicController(position, 0.3)
    assert controller.busy and "Alpha-beta is thinking…" in controller.picks_text()
    job = next(e for e in controller.start() if isinstance(e, RunJob))
    assert job.args == (position, Algorithm.ALPHABETA, 0.3, None) and not job.in_process
    assert controller.analysed(job.job(*job.args)) == [DrawAll()]
    analysis = controller.alphabeta
    assert not controller.from_panel and analysis is not None and not controller.busy
    assert "Alpha-beta: the lab's own 0.3 s search" in controller.picks_text()
    shown = {r.cell: r.alphabeta for r in controller.ranking_rows()}
    assert shown == {
        cell_notation(s.move, 7): alphabeta_cell(s, position, analysis.depth)
        for s in analysis.scores
    }


def test_a_3x3_search_runs_in_the_apps_process_and_a_failure_is_said() -> None:
    controller = HeuristicController(SEED_002)
    job = next(e for e in controller.start() if isinstance(e, RunJob))
    assert job.in_process
    assert controller.analysis_failed("the worker died") == [DrawPicks()]
    assert not controller.busy
    assert controller.picks_text().endswith("Alpha-beta failed: the worker died")


def test_a_finished_game_has_no_move_to_rank() -> None:
    controller = HeuristicController(Board.from_string("XXX/OO./..."))
    assert controller.ranking is None and controller.selected is None
    assert controller.start() == [DrawAll()]
    assert controller.picks_text() == "The game is over: there is no move to rank."
    assert controller.ranking_rows() == [] and controller.line_rows() == []
    assert controller.terms_text() == "" and controller.board_hints() == {}
