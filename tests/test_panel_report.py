"""What the evaluation panel, the board's faint scores and the live display say about each number,
built from hand-made analyses: every kind marked, every source explained, a count of 0 positions
said why, a bound never counted among the equally good moves, the search's story per depth."""

from __future__ import annotations

import random

from tictactoe_tui.engine import Analysis, Board, IterationInfo, MoveScore, Progress
from tictactoe_tui.engine.players.computer import _search_decision
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.panel import CandidateRow
from tictactoe_tui.text.report import (
    build_report,
    move_words,
    score_hints,
    score_words,
    thinking_report,
)
from tictactoe_tui.text.scores import (
    LEGEND_LINES,
    cell_score,
    fit_cell_score,
    marked_score,
    overlay_caption,
    overlay_marks,
    short_meaning,
)

EXAMPLE_1 = (
    "........../........../........../........../....XO..../"
    ".....X..../........../........../........../.........."
)
"""The issue's example 1: 10×10, five in a row, O to move."""

BIG = Board.from_string(EXAMPLE_1, k=5)
SMALL = Board.from_string("X../.O./...")


def cell(name: str, board: Board = BIG) -> int:
    """The cell named `name` ("E6") on `board`."""
    return next(i for i in range(board.size**2) if cell_notation(i, board.size) == name)


def row_of(rows: tuple[CandidateRow, ...], name: str) -> CandidateRow:
    """The panel row of the cell `name`."""
    return next(row for row in rows if row.cell == name)


def example_analysis() -> Analysis:
    """Example 1 as alpha-beta leaves it after depth 8: the best move an estimate, ties that are
    only bounds, far cells looked at one ply deep, a proof by threats, a table answer."""
    scores = (
        MoveScore(cell("E6"), -13, 117_403, False, (cell("E6"), cell("D7")), "estimate", 7),
        MoveScore(cell("D4"), -13, 46_227, False, (cell("D4"),), "at_most", 7),
        MoveScore(cell("G7"), -14, 5_394, False, (cell("G7"),), "estimate", 7),
        MoveScore(cell("C4"), -15, 0, False, (cell("C4"),), "estimate", 5, "table"),
        MoveScore(cell("F3"), -21, 8, False, (cell("F3"),), "at_most", 0),
        MoveScore(
            cell("A1"),
            -91,
            193,
            False,
            (cell("A1"), cell("G3"), cell("H2")),
            "at_most",
            0,
            "threats",
            "loss",
            "allows vct",
        ),
    )
    rows = (
        IterationInfo(7, cell("E6"), -7, "estimate", "heuristic", 97_395, 0.29),
        IterationInfo(8, cell("E6"), -13, "estimate", "heuristic", 374_033, 0.95),
    )
    return Analysis("alphabeta", scores, 395_806, 1.0, 8, False, False, iterations=rows)


def test_each_kind_has_its_mark_and_meaning() -> None:
    assert [
        marked_score(s, k)
        for s, k in (
            (-8, "exact"),
            (-13, "estimate"),
            (-14, "at_most"),
            (3, "at_least"),
            (0, "at_most"),
        )
    ] == ["-8", "~-13", "≤ -14", "≥ +3", "≤ 0"]
    assert short_meaning(-8, SMALL, "exact", "loss") == "loss in 2"
    assert short_meaning(0, SMALL, "exact", "draw") == "draw"
    assert short_meaning(-13, BIG, "estimate", "heuristic") == "estimate"
    assert short_meaning(-14, BIG, "at_most", "heuristic") == "upper bound"
    assert short_meaning(3, BIG, "at_least", "heuristic") == "lower bound"
    assert short_meaning(92, BIG, "at_least", "win") == "win in ≤ 9"
    assert short_meaning(-91, BIG, "at_most", "loss") == "loss in ≤ 10"
    assert short_meaning(86, BIG, "at_most", "win") == "at best win in 15"
    assert short_meaning(0, BIG, "at_least", "draw") == "draw or better"


def test_a_row_shows_its_marked_score_and_what_it_means() -> None:
    report = build_report("Hint", example_analysis(), BIG, cell("E6"))
    e6, d4, f3 = (row_of(report.rows, name) for name in ("E6", "D4", "F3"))
    assert (e6.marked, e6.words, e6.bound, e6.chosen) == ("~-13", "estimate", False, True)
    assert (d4.marked, d4.words, d4.bound) == ("≤ -13", "upper bound", True)
    assert (f3.marked, f3.words) == ("≤ -21", "upper bound")


def test_each_source_and_a_different_depth_is_noted() -> None:
    report = build_report("Hint", example_analysis(), BIG, cell("E6"))
    assert row_of(report.rows, "E6").note == ""  # searched to the root's depth
    assert row_of(report.rows, "F3").note == "depth 1"  # a far cell, one ply
    assert row_of(report.rows, "C4").note == "from the table"
    assert row_of(report.rows, "A1").note == "allows VCT"
    mirrored = Analysis(
        "alphabeta",
        (
            MoveScore(cell("A1", SMALL), 0, 29, True, depth=6),
            MoveScore(cell("C3", SMALL), 0, 0, True, depth=6, source="symmetry", twin=0),
            MoveScore(cell("B1", SMALL), 9, 0, True, depth=0, source="rule", rule="wins at once"),
        ),
        29,
        0.001,
        7,
        True,
        False,
    )
    small = build_report("Hint", mirrored, SMALL, -1)
    assert row_of(small.rows, "C3").note == "mirror of A1"
    assert row_of(small.rows, "B1").note == "wins at once"


def test_a_row_with_no_positions_says_why_and_the_legend_explains_the_zero() -> None:
    report = build_report("Hint", example_analysis(), BIG, cell("E6"))
    zeros = [row for row in report.rows if row.nodes == 0]
    assert zeros and all(row.note for row in zeros)
    assert LEGEND_LINES["zero"] in report.legend


def test_the_legend_explains_only_the_marks_shown() -> None:
    report = build_report("Hint", example_analysis(), BIG, cell("E6"))
    assert report.legend == tuple(
        LEGEND_LINES[key] for key in ("estimate", "at_most", "within", "zero", "depth", "threats")
    )
    exact_only = Analysis(
        "alphabeta",
        (
            MoveScore(cell("B1", SMALL), 0, 6, True, depth=6),
            MoveScore(cell("C1", SMALL), 0, 5, True, depth=6),
        ),
        11,
        0.001,
        7,
        True,
        False,
    )
    assert build_report("Hint", exact_only, SMALL, -1).legend == ()


def test_a_bound_is_never_counted_among_the_equally_good_moves() -> None:
    analysis = example_analysis()  # D4 "≤ -13" beside E6 "~-13"
    assert analysis.best_moves == (cell("E6"),)
    assert build_report("Hint", analysis, BIG, cell("E6")).equal == ""
    decision = _search_decision(BIG, random.Random(1), analysis, "alpha-beta")
    assert decision.move == cell("E6") and "equally good" not in decision.reason
    tied = Analysis(
        "alphabeta",
        (
            MoveScore(cell("B1", SMALL), 0, 6, True, depth=6),
            MoveScore(cell("C1", SMALL), 0, 5, True, depth=6),
            MoveScore(cell("A2", SMALL), 0, 5, False, kind="at_least", depth=6, band="draw"),
        ),
        16,
        0.001,
        7,
        True,
        False,
    )
    assert build_report("Hint", tied, SMALL, -1).equal == "2 moves equally good: B1, C1"


def test_the_reason_line_reads_a_proven_win_as_a_win() -> None:
    win = MoveScore(
        cell("F8"), 92, 537, False, (cell("F8"), cell("F9")), "at_least", 0, "threats", "win", "vct"
    )
    analysis = Analysis("alphabeta", (win,), 718, 0.01, 1, True, False)
    decision = _search_decision(BIG, random.Random(1), analysis, "alpha-beta")
    assert decision.reason == "alpha-beta: wins, in at most 9"


def test_a_threat_proof_is_told_with_its_line() -> None:
    report = build_report("Review", example_analysis(), BIG, cell("A1"))
    proof = row_of(report.rows, "A1")
    assert proof.chosen and proof.line == (cell("A1"), cell("G3"), cell("H2"))
    assert proof.proof == ("Lost: the opponent then wins by a chain of threats (VCT): A1 G3 H2.")
    assert proof.detail.startswith(
        "A1 (loses, in at most 10): Lost: the opponent then wins by "
        "a chain of threats (VCT). O plays A1."
    )  # told move by move
    assert row_of(report.rows, "F3").proof == ""
    assert row_of(report.rows, "F3").detail == "F3: at most -21 (heuristic), depth 1"


def test_how_far_the_search_got_says_what_the_scores_are() -> None:
    assert build_report("", example_analysis(), BIG, -1).reach == (
        "depth 8, cut off, heuristic at the leaves"
    )
    solved = Analysis(
        "alphabeta", (MoveScore(cell("B1", SMALL), 0, 6, True, depth=6),), 6, 0.001, 7, True, False
    )
    assert build_report("", solved, SMALL, -1).reach == "depth 7, solved to the end"
    proven = Analysis(
        "alphabeta",
        (
            MoveScore(cell("F2"), 86, 1353, False, kind="at_least", depth=4, band="win"),
            MoveScore(cell("H2"), 3, 8960, False, kind="at_most", depth=4),
        ),
        15_453,
        0.1,
        5,
        True,
        False,
    )
    assert build_report("", proven, BIG, -1).reach == "depth 5, F2 proven best (win in ≤ 15)"


def test_the_search_story_has_one_row_per_completed_depth() -> None:
    story = build_report("", example_analysis(), BIG, -1).story
    assert [(row.depth, row.cell, row.marked, row.nodes) for row in story] == [
        (7, "E6", "~-7", 97_395),
        (8, "E6", "~-13", 374_033),
    ]


def test_the_board_marks_estimates_and_bounds_as_the_panel_does() -> None:
    hints = score_hints(example_analysis())
    assert hints[cell("E6")] == "~-13" and hints[cell("D4")] == "≤-13"
    assert hints[cell("A1")] == "≤-91"
    assert (
        cell_score(0, "exact"),
        cell_score(-8, "exact"),
        cell_score(14, "estimate"),
        cell_score(0, "estimate"),
        cell_score(8, "at_most"),
        cell_score(92, "at_least"),
    ) == ("0", "-8", "~14", "~0", "≤8", "≥92")


def test_a_cell_too_narrow_for_its_score_cuts_the_digits_never_the_mark() -> None:
    assert [
        fit_cell_score(text, 3)
        for text in ("~16", "≤-9", "+92", "~-13", "≤-10", "≥+220", "+225", "-224", "0")
    ] == ["~16", "≤-9", "+92", "~-…", "≤-…", "≥…", "225", "-…", "0"]
    assert fit_cell_score("≤-100", 7) == "≤-100"


def test_the_board_caption_explains_every_mark_its_cells_show() -> None:
    texts = ["~16", "≤-…", "≥92", "+3"]
    assert overlay_marks(texts) == ("~", "≤", "≥", "…")
    assert overlay_caption("X's scores", texts, "v") == (
        "X's scores, ~ estimate, ≤ at most, ≥ at least, … see panel (v hides)"
    )
    assert overlay_caption("X's scores", ["+3", "0"], "v") == "X's scores (v hides)"
    assert overlay_caption("X's scores", ["~3"], "v", line=True) == (
        "X's scores, ~ estimate (v) · line #1 #2… (p)"
    )
    assert overlay_caption("", ["~3"], "v", line=True) == "line #1 #2 #3… (p hides)"
    for width in range(16, 70):
        caption = overlay_caption("X's scores", texts, "v", width=width)
        assert len(caption) <= max(width, len("~est ≤max ≥min …cut")), (width, caption)
        assert all(mark in caption for mark in ("~", "≤", "≥", "…")), (width, caption)


def test_the_live_display_marks_the_best_score_and_keeps_the_story() -> None:
    rows = (
        IterationInfo(1, cell("E6"), -10, "estimate", "heuristic", 209, 0.006),
        IterationInfo(2, cell("E6"), -21, "estimate", "heuristic", 671, 0.007),
    )
    running = Progress(2, 700, 0.01, cell("E6"), -21, (cell("E6"),), iterations=rows)
    live = thinking_report("O is thinking…", "alphabeta", running, BIG, 1.0)
    assert live.best == "E6, score ~-21 so far"
    assert [(row.depth, row.marked) for row in live.story] == [(1, "~-10"), (2, "~-21")]
    proven = Progress(1, 718, 0.01, cell("F8"), 92, (cell("F8"),), True, "at_least", "win")
    assert (
        thinking_report("", "alphabeta", proven, BIG, 1.0).best
        == "F8, ≥ +92 (win in ≤ 9), proven best"
    )


def test_headline_words_never_read_a_heuristic_as_a_win() -> None:
    assert score_words(92, BIG) == "heuristic estimate"
    assert score_words(92, BIG, kind="at_least", band="win") == "wins, in at most 9"
    assert score_words(-14, BIG, kind="at_most", band="heuristic") == "upper bound"
    assert score_words(-8, SMALL, True) == "loss in 2"
    bound = MoveScore(cell("D4"), -13, 9, False, kind="at_most", depth=7)
    assert move_words(bound, BIG) == "upper bound, score ≤ -13"
