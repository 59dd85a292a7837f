"""Predict the search (the tree view, issue 35 item 2): the facts it judges against, and the
judging itself, without a terminal.

The facts — which root moves cut off or fail low, and how many positions the search visits —
are checked against an alpha-beta written here from the lab's description (fail-soft negamax,
the same move orders, a winning move counted as a position), never against the lab's own
search: on every 3×3 position at most 4 plies in (every non-final one in the slow tier) and on
sampled 4×4 positions, in board order and in the ordered search's order.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest

from tests.engine.positions import reachable_3x3
from tests.test_predict import lines_of
from tictactoe_tui.cli.main import main
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.trace import record_search
from tictactoe_tui.history.predictions import keep_prediction, predictions, tally_of
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.lab_effects import Notify, RunJob
from tictactoe_tui.play.tree import (
    DrawPredict,
    KeepPredictions,
    Line,
    Look,
    Rebuild,
    Relabel,
    TreeController,
    TreeEffect,
)
from tictactoe_tui.play.tree_predict import (
    CONVENTION,
    GuessError,
    SearchFacts,
    count_is_right,
    parse_guess,
    search_facts,
)

AFTER_THE_CENTRE = Board.from_string("..O/.X./...")
"""X took the centre, O replied C1; X to move."""


# -- an independent alpha-beta --------------------------------------------------------------------


@dataclass
class Independent:
    """What the alpha-beta written here found: the root moves in the order tried with the
    root's α before each and the value returned, and the positions visited."""

    root: list[tuple[int, int, int]]
    visited: int

    @property
    def fails_low(self) -> frozenset[int]:
        """The root moves whose value was at most α when tried."""
        return frozenset(move for move, alpha, value in self.root if value <= alpha)


def independent_alphabeta(board: Board, ordered: bool) -> Independent:
    """Fail-soft negamax alpha-beta to the end of the game, from `board`.

    As the lab describes its searches: a win on ply d (the root's moves are ply 1) scores
    W − d with W = size² + 1; a full board is a draw; every position entered counts, the root
    too, and so does a move that wins at once (it is not entered: it scores at once). Board
    order is A1, B1, C1, A2, …; the ordered search tries winning moves, then blocks, then the
    moves whose lines gain most (an open line of n of one's own marks is worth 3^(n−1); a
    line the opponent holds alone is worth its weight to take), ties to the cells on most
    lines nearest the centre, then in board order.
    """
    size, k = board.size, board.k
    runs = lines_of(size, k)
    through = {cell: [run for run in runs if cell in run] for cell in range(size * size)}
    weight = [0] + [3 ** (n - 1) for n in range(1, k)] + [0]
    centre = (size - 1) / 2
    rank = {
        cell: (-len(through[cell]), abs(cell // size - centre) + abs(cell % size - centre), cell)
        for cell in range(size * size)
    }
    win = size * size + 1
    big = win + 1
    visited = 0

    def wins(marks: frozenset[int], cell: int) -> bool:
        return any(all(c == cell or c in marks for c in run) for run in through[cell])

    def order(me: frozenset[int], them: frozenset[int]) -> list[int]:
        empty = [c for c in range(size * size) if c not in me and c not in them]
        if not ordered:
            return empty

        def key(cell: int) -> tuple[bool, bool, int, tuple[int, float, int]]:
            gain = 0
            for run in through[cell]:
                mine = sum(c in me for c in run)
                theirs = sum(c in them for c in run)
                if theirs and not mine:
                    gain += weight[theirs]
                elif not theirs:
                    gain += weight[mine + 1] - weight[mine] if mine else 1
            return (not wins(me, cell), not wins(them, cell), -gain, rank[cell])

        return sorted(empty, key=key)

    root: list[tuple[int, int, int]] = []

    def search(me: frozenset[int], them: frozenset[int], ply: int, alpha: int, beta: int) -> int:
        nonlocal visited
        visited += 1
        moves = order(me, them)
        if not moves:
            return 0
        best = -big
        for cell in moves:
            before = alpha
            if wins(me, cell):
                visited += 1
                score = win - ply - 1
            else:
                score = -search(them, me | {cell}, ply + 1, -beta, -alpha)
            if ply == 0:
                root.append((cell, before, score))
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    cells = board.marks()
    me = frozenset(i for i, m in enumerate(cells) if m == str(board.to_move))
    them = frozenset(i for i, m in enumerate(cells) if m == str(board.to_move.opponent))
    search(me, them, 0, -big, big)
    return Independent(root, visited)


# -- the controller, as the screen drives it ------------------------------------------------------


def run(controller: TreeController, effects: Sequence[TreeEffect]) -> None:
    """Carry out a recording job as the screen would."""
    for effect in effects:
        if isinstance(effect, RunJob):
            controller.recorded(*effect.job(*effect.args))


def explorer(
    board: Board, algorithm: str = "alphabeta-ordered", clock: list[float] | None = None
) -> TreeController:
    """A tree controller on `board` showing `algorithm`'s recording."""
    times = clock if clock is not None else [0.0]
    controller = TreeController(board, clock=lambda: times[0])
    while controller.algorithm != algorithm:
        controller.cycle_algorithm()
    run(controller, controller.start())
    return controller


def judged_facts(board: Board, algorithm: str) -> SearchFacts | None:
    """The facts the screen judges a prediction against: prediction mode entered on the tree
    view's recording (None when it refuses: only a recording capped at its events)."""
    controller = explorer(board, algorithm)
    said = controller.toggle_predict()
    if controller.asking is None:
        assert controller.recorder is not None and controller.recorder.truncated
        assert isinstance(said[0], Notify) and "capped" in said[0].text
        return None
    return controller.asking.facts


def agree(board: Board, algorithm: str) -> bool:
    """The screen's facts equal the independent alpha-beta's; False when the screen asks
    nothing (a capped recording)."""
    facts = judged_facts(board, algorithm)
    if facts is None:
        return False
    reference = independent_alphabeta(board, ordered=algorithm == "alphabeta-ordered")
    assert [fate.move for fate in facts.moves] == [move for move, _, _ in reference.root], board
    assert facts.fails_low == reference.fails_low, board
    assert facts.visited == reference.visited, board
    return True


def open_3x3(max_plies: int | None = None) -> list[Board]:
    return [
        board
        for board in reachable_3x3()
        if not board.is_over and (max_plies is None or board.move_count <= max_plies)
    ]


def sampled_4x4(count: int, seed: int) -> list[Board]:
    """Random 4×4 (4 in a row) positions 7 to 9 plies in, not over."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board.empty(4, 4)
        for _ in range(rng.randint(7, 9)):
            board = board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            found.append(board)
    return found


@pytest.mark.parametrize("algorithm", ["alphabeta-plain", "alphabeta-ordered"])
@pytest.mark.slow
def test_the_facts_equal_an_independent_alphabeta_on_3x3_positions_a_few_plies_in(
    algorithm: str,
) -> None:
    # The fast tier: every fourth position at most 4 plies in (the slow tier does them all).
    for board in open_3x3(4)[::4]:
        assert agree(board, algorithm)
    for board in sampled_4x4(2, seed=7):
        assert agree(board, algorithm)


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["alphabeta-plain", "alphabeta-ordered"])
def test_the_facts_equal_an_independent_alphabeta_on_every_open_3x3_position(
    algorithm: str,
) -> None:
    boards = open_3x3()
    assert len(boards) == 4520
    assert len(open_3x3(4)) == 1090
    for board in boards:
        assert agree(board, algorithm)


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["alphabeta-plain", "alphabeta-ordered"])
def test_the_facts_equal_an_independent_alphabeta_on_sampled_4x4_positions(
    algorithm: str,
) -> None:
    # A 4×4 search 7 plies in can outgrow the recording (200,000 events); the screen then
    # offers no prediction, and the test checks it says why.
    compared = sum(agree(board, algorithm) for board in sampled_4x4(30, seed=35))
    assert compared >= 25


# -- the rules ------------------------------------------------------------------------------------


def test_a_guess_is_a_whole_number_and_anything_else_says_what_to_type() -> None:
    assert parse_guess(" 1,234 ") == 1234
    assert parse_guess("") is None
    for bad in ("abc", "-5", "12.5", "٣"):
        with pytest.raises(GuessError, match="type a"):
            parse_guess(bad)
    with pytest.raises(GuessError, match="at least the root"):
        parse_guess("0")


def test_a_count_within_ten_percent_is_right_in_whole_numbers() -> None:
    assert count_is_right(220, 220)
    assert count_is_right(198, 220) and count_is_right(242, 220)
    assert not count_is_right(197, 220) and not count_is_right(243, 220)
    assert count_is_right(11, 10) and not count_is_right(12, 10)


def test_prediction_mode_hides_the_values_and_states_the_convention() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    effects = controller.toggle_predict()
    assert effects == [Rebuild(), *effects[1:3], DrawPredict()]
    assert CONVENTION in controller.title()
    assert "α ≥ β" in controller.title() and "positions" not in controller.title().split("\n")[1]
    lines = controller.lines_under(0)
    reference = independent_alphabeta(AFTER_THE_CENTRE, ordered=True)
    assert [controller.root_move_of(line) for line in lines] == [m for m, _, _ in reference.root]
    # Only the root moves, no values, nothing under them.
    assert [controller.label(line).text for line in lines[:2]] == ["A1 X", "C3 X"]
    assert all(controller.label(line).look is Look.PLAIN for line in lines)
    assert all(controller.lines_under(line.node) == [] for line in lines)
    assert not any(controller.can_expand(line.node) for line in lines)
    view = controller.line_view(lines[0])
    assert view is not None and "hidden until the replay" in view.words


def test_marks_toggle_on_root_moves_only() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    assert controller.toggle_mark(Line(0)) == [Notify("Press p to predict the search first.", 2)]
    controller.toggle_predict()
    second = controller.lines_under(0)[1]
    assert controller.toggle_mark(second)[0] == Relabel((second,))
    assert controller.label(second).text == "C3 X   ◆ marked: cut off or fails low"
    assert "Marked: C3" in controller.step_words()
    controller.toggle_mark(second)
    assert controller.label(second).text == "C3 X"
    assert "Marked: none" in controller.step_words()
    said = controller.toggle_mark(Line(0))
    assert said == [Notify("Only a root move (a line just under the root) can be marked.", 2)]


def test_the_replay_judges_every_root_move_and_the_count_and_keeps_them() -> None:
    clock = [100.0]
    controller = explorer(AFTER_THE_CENTRE, clock=clock)
    reference = independent_alphabeta(AFTER_THE_CENTRE, ordered=True)
    controller.toggle_predict()
    lines = controller.lines_under(0)
    # Mark the first move (it raises α: wrong) and the second (it fails low: right).
    controller.toggle_mark(lines[0])
    controller.toggle_mark(lines[1])
    controller.set_guess("12x")
    assert "'12x' is not a count" in controller.step_words()
    said = controller.toggle_steps()
    assert said == [Notify("'12x' is not a count: type a whole number, like 1200.", 4)]
    assert controller.asking is not None  # nothing lost
    guess = reference.visited + reference.visited // 10  # just within 10%
    controller.set_guess(str(guess))
    clock[0] = 112.5
    effects = controller.toggle_steps()
    kept = next(e for e in effects if isinstance(e, KeepPredictions)).predictions
    assert controller.step == 0 and controller.asking is None
    first, second = (reference.root[i][0] for i in (0, 1))
    expected = " ".join(
        "ABC"[move % 3] + str(move // 3 + 1) for move, a, v in reference.root if v <= a
    )
    assert [(p.question, p.answer, p.expected, p.right, p.seconds, p.source) for p in kept] == [
        ("cutoffs", "A1 C3", expected, False, 12.5, "tree"),
        ("visits", str(guess), str(reference.visited), True, 12.5, "tree"),
    ]
    # At the first event no root move has ended: nothing judged on the lines yet.
    assert "✓" not in controller.label(lines[1]).text
    assert "each root move is judged when the replay reaches its end" in controller.title()
    assert "is judged at the replay's end" in controller.title()
    controller.step_end()
    assert controller.label(lines[0]).text.startswith("✗ mark wrong · A1 X")
    assert controller.label(lines[1]).text.startswith("✓ mark right · C3 X")
    assert controller.label(lines[2]).text.startswith("✗ missed · ")
    view = controller.line_view(lines[0])
    assert view is not None and view.words.endswith(
        "Not quite: you marked A1, but A1 raised α from −∞ to 0: the best move so far."
    )
    title = controller.title()
    n = len(reference.root)
    assert f"Your prediction: {n - len(reference.fails_low)} of {n} root moves right" in title
    assert f"Right: the search visited {reference.visited:,} positions" in title
    assert first not in reference.fails_low and second in reference.fails_low


def test_stepping_shows_a_root_moves_verdict_once_it_has_returned() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    controller.toggle_predict()
    first = controller.lines_under(0)[0]
    controller.commit()
    returned = controller.node(first.node).returned
    while controller.step is not None and controller.step < returned - 1:
        controller.step_by(1)
    assert "✓" not in controller.label(first).text
    controller.step_by(1)
    assert controller.label(first).text.startswith("✓ right · ")
    # No guess: the count is not asked, and only the marks are kept.
    assert "no guess of the positions" in controller.title()


def test_p_again_leaves_prediction_mode_and_a_new_search_drops_it() -> None:
    controller = explorer(AFTER_THE_CENTRE)
    controller.toggle_predict()
    controller.toggle_predict()
    assert controller.asking is None and "Value 0" in controller.title()
    controller.toggle_predict()
    controller.commit()
    assert controller.verdict is not None
    effects = controller.cycle_algorithm()
    assert DrawPredict() in effects
    assert controller.verdict is None and controller.asking is None
    assert controller.toggle_predict() == [
        Notify("Wait for the search to be recorded, then predict it.", 3)
    ]
    run(controller, effects)
    controller.toggle_predict()
    assert controller.asking is not None
    assert DrawPredict() in controller.change_depth(-1)  # the box goes with the prediction
    assert controller.asking is None


def test_no_prediction_on_a_capped_recording_or_a_finished_game() -> None:
    capped = TreeController(AFTER_THE_CENTRE, event_cap=50)
    run(capped, capped.start())
    (said,) = capped.toggle_predict()
    assert isinstance(said, Notify) and "capped at 50 of" in said.text
    assert capped.asking is None
    over = TreeController(Board.from_string("XXX/OO./..."))
    assert over.toggle_predict() == [Notify("The game is over: there is no search to predict.", 3)]
    result, recorder = record_search(AFTER_THE_CENTRE, "alphabeta-ordered", None, 0.0)
    if not result.finished:  # a zero time limit may stop it at once
        assert isinstance(search_facts(result, recorder), str)


def test_tree_predictions_are_counted_in_the_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = HistoryStore.open(tmp_path)
    controller = explorer(AFTER_THE_CENTRE)
    controller.toggle_predict()
    controller.set_guess("5")
    effects = controller.commit()
    kept = next(e for e in effects if isinstance(e, KeepPredictions)).predictions
    for prediction in kept:
        keep_prediction(store, prediction, when=datetime(2026, 12, 3))
    back = predictions(store)
    assert [p.question for p in back] == ["cutoffs", "visits"]
    tally = tally_of(back)
    assert tally.asked == 2 and tally.right == 0
    assert tally.lines()[:2] == [
        "the search's cut-offs: 0 of 1 right",
        "the positions visited: 0 of 1 right",
    ]
    store.close()
    assert main(["history", "--predictions", "--data-dir", str(tmp_path)]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[:4] == [
        "Predictions: 0 of 2 right.",
        "  the search's cut-offs: 0 of 1 right",
        "  the positions visited: 0 of 1 right",
        "  streak 0 (best 0)",
    ]
    assert main(["history", "--predictions", "--json", "--data-dir", str(tmp_path)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["questions"]["cutoffs"] == {"right": 0, "asked": 1}
    assert found["questions"]["visits"] == {"right": 0, "asked": 1}
    assert {answer["source"] for answer in found["answers"]} == {"tree"}
