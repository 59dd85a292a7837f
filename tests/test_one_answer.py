"""One answer everywhere (issue 28): every surface gives each move the value and kind of the one
analysis it was built from.

A position (3×3, 4×4, 7×7 with four in a row, 10×10 and 15×15; fixed seeds and hypothesis) is
analysed once, as the game's panel analyses it (`clever_analysis`), and every surface is built
from that analysis by the functions the screens and the command line call:

- the evaluation panel's rows (`text.report.build_report`),
- the board overlay's cells, as a cell of that board draws them (`score_hints`, fitted by
  `fit_cell_score` to `score_room`),
- the heuristic lab's alpha-beta column (`text.lab.alphabeta_cell`),
- the review's sentence on each move, were it played (`text.review.verdict_words`),
- the random move's words, were it played at random (`text.report.clever_move_words`),
- `analyse --json` (`cli.analyse.as_json`): its number, its kind and its words.

Each text is read back here, independently of the code that wrote it, into a (value, kind) pair
and compared with the analysis' own. The search's story is checked on every board
(`STORY_SIZES`); the threat-line and puzzle sentences are checked in their own modules. The Pilot
tests in `tests/app/test_one_answer_screens.py` check that each screen shows these same texts.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tictactoe_tui.cli.analyse import as_json
from tictactoe_tui.engine import Analysis, Board, MoveScore, win_score
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.review import Verdict, judge
from tictactoe_tui.text.lab import alphabeta_cell
from tictactoe_tui.text.report import build_report, clever_move_words, score_hints
from tictactoe_tui.text.review import verdict_words
from tictactoe_tui.text.scores import fit_cell_score
from tictactoe_tui.ui.widgets.board import score_room
from tictactoe_tui.worker.jobs import clever_analysis

BUDGET = 0.2
"""Seconds of search on boards bigger than 3×3 (the analysis is run once per position)."""

BOARDS = ((3, 3), (4, 4), (7, 4), (10, 5), (15, 5))
"""(size, k) of the boards checked."""

STORY_SIZES = tuple(size for size, _ in BOARDS)
"""Board sizes whose story (the search's rows, one per depth) is checked to end on the verdict:
every one of `BOARDS` (issue 28 item 1: a proven root's story ends on its proof)."""


@dataclass(frozen=True)
class Said:
    """What a surface says of a move: its value (None when the surface cut the digits) and
    kind, read back from its text."""

    value: int | None
    kind: str


MARKS = {"~": "estimate", "≤": "at_most", "≥": "at_least", "": "exact"}
NUMBER = re.compile(r"^(~|≤ ?|≥ ?)?([+-]?\d+)")


def read_number(text: str) -> Said:
    """A marked number at the start of `text`: "~-13", "≤ -14", "≥+3", "-8", "0 draw"; a cell
    cut short keeps its mark: "≤-…" is at most, value unknown."""
    if "…" in text:
        mark = text[0] if text[0] in "~≤≥" else ""
        return Said(None, MARKS[mark])
    match = NUMBER.match(text)
    assert match is not None, text
    return Said(int(match.group(2)), MARKS[(match.group(1) or "").strip()])


def read_meaning(words: str, board: Board) -> Said:
    """`describe_score`'s words read back: "win in 3", "loses, in at most 9", "+6
    (heuristic)", "no win before ply 15", …"""
    w = win_score(board)
    patterns: tuple[tuple[str, str, object], ...] = (
        (r"^win in (\d+)$", "exact", lambda n: w - n),
        (r"^loss in (\d+)$", "exact", lambda n: -(w - n)),
        (r"^wins, in at most (\d+)$", "at_least", lambda n: w - n),
        (r"^loses, in at most (\d+)$", "at_most", lambda n: -(w - n)),
        (r"^no loss before ply (\d+)$", "at_least", lambda n: -(w - n)),
        (r"^no win before ply (\d+)$", "at_most", lambda n: w - n),
        (r"^([+-]?\d+) \(heuristic\)$", "estimate", lambda n: n),
        (r"^at least ([+-]?\d+) \(heuristic\)$", "at_least", lambda n: n),
        (r"^at most ([+-]?\d+) \(heuristic\)$", "at_most", lambda n: n),
    )
    fixed = {
        "draw": Said(0, "exact"),
        "draw or better": Said(0, "at_least"),
        "draw at best": Said(0, "at_most"),
    }
    if words in fixed:
        return fixed[words]
    for pattern, kind, value in patterns:
        match = re.match(pattern, words)
        if match:
            return Said(value(int(match.group(1))), kind)  # type: ignore[operator]
    raise AssertionError(f"unread words: {words!r}")


def read_outlook(words: str, board: Board) -> Said:
    """The review's words for a move read back: "wins in 5", "leads to a draw or better",
    "has no win before ply 15", "scores ~3 (an estimate)", "scores at most -14 (a bound)"."""
    heuristic = re.match(
        r"^scores (~|at most |at least )([+-]?\d+) \((an estimate|a bound)\)$", words
    )
    if heuristic:
        kind = {"~": "estimate", "at most ": "at_most", "at least ": "at_least"}
        return Said(int(heuristic.group(2)), kind[heuristic.group(1)])
    plain = re.sub(r"^wins in ", "win in ", words)
    plain = re.sub(r"^loses in ", "loss in ", plain)
    plain = re.sub(r"^leads to a ", "", plain)
    plain = re.sub(r"^has no ", "no ", plain)
    return read_meaning(plain, board)


def said_of(scored: MoveScore) -> Said:
    """What the analysis itself says of a move."""
    return Said(scored.score, scored.kind)


def agrees(said: Said, scored: MoveScore) -> bool:
    """Whether a surface's reading is the analysis' own (a cut number: its kind alone)."""
    if said.value is None:
        return said.kind == scored.kind
    return said == said_of(scored)


@dataclass(frozen=True)
class Surfaces:
    """Every surface's text for every move of one analysed position, by cell."""

    panel: dict[int, str]
    """The panel's rows shown (the top ten on big boards): each row's marked score."""
    board: dict[int, str]
    """The board's cells, as drawn."""
    lab: dict[int, str]
    """The heuristic lab's alpha-beta column."""
    review: dict[int, str]
    """The review's sentence, were the move played."""
    random: dict[int, str]
    """The random move's words, were the move played at random."""
    json: dict[int, dict[str, object]]
    """`analyse --json`'s entry."""


def surfaces(position: Board, analysis: Analysis) -> Surfaces:
    """Every surface built from `analysis` of `position`, as the screens build them."""
    size = position.size
    by_name = {cell_notation(s.move, size): s.move for s in analysis.scores}
    first = analysis.scores[0]
    report = build_report("", analysis, position, first.move)
    hints = score_hints(analysis)
    review = {}
    for scored in analysis.scores:
        verdict = Verdict(1, scored.move, position.to_move, judge(scored, first), scored, first)
        review[scored.move] = verdict_words(verdict, position)
    return Surfaces(
        panel={row.move: row.marked for row in report.rows},
        board={move: fit_cell_score(text, score_room(size)) for move, text in hints.items()},
        lab={s.move: alphabeta_cell(s, position, analysis.depth) for s in analysis.scores},
        review=review,
        random={s.move: clever_move_words(analysis, position, s.move) for s in analysis.scores},
        json={
            by_name[entry["move"]]: entry for entry in as_json(position, analysis, False)["moves"]
        },
    )


def check_one_answer(position: Board, analysis: Analysis) -> Surfaces:
    """Every surface gives every move the analysis' value and kind (see the module)."""
    shown = surfaces(position, analysis)
    size = position.size
    first = analysis.scores[0]
    first_name = cell_notation(first.move, size)
    assert (
        set(shown.board) == set(shown.lab) == set(shown.json) == {s.move for s in analysis.scores}
    )
    for scored in analysis.scores:
        move, name = scored.move, cell_notation(scored.move, size)
        where = f"{name} in {position} ({scored})"
        if move in shown.panel:
            assert read_number(shown.panel[move]) == said_of(scored), where
        cell = shown.board[move]
        assert len(cell) <= score_room(size), where
        assert agrees(read_number(cell), scored), (cell, where)
        assert read_number(shown.lab[move]) == said_of(scored), (shown.lab[move], where)
        entry = shown.json[move]
        assert Said(entry["score"], entry["kind"]) == said_of(scored), where  # type: ignore[arg-type]
        assert read_meaning(str(entry["words"]), position) == said_of(scored), where
        check_review_words(shown.review[move], scored, first, position)
        check_random_words(shown.random[move], scored, first, position)
    assert next(iter(shown.panel)) == first.move, f"the panel's first row is {first_name}"
    if position.size in STORY_SIZES:
        check_story(position, analysis)
    return shown


def check_review_words(sentence: str, scored: MoveScore, first: MoveScore, position: Board) -> None:
    """The review's sentence on `scored`, were it played: "The best move" only for the first
    move, each move named with its own row's words."""
    size = position.size
    name, first_name = cell_notation(scored.move, size), cell_notation(first.move, size)
    if scored.move == first.move:
        head = re.match(rf"^The best move: {name} (.*)\.$", sentence)
        assert head is not None, sentence
        assert read_outlook(head.group(1), position) == said_of(scored), sentence
        return
    assert "The best move" not in sentence, sentence
    mine = re.match(
        rf"^[^:]*: {name} (.*?)(?:; {first_name}, ranked first, (.*?)|, where "
        rf"{first_name} (.*?)|, the same estimate as {first_name}, ranked first)\."
        r"(?: |$)",
        sentence,
    )
    assert mine is not None, sentence
    assert read_outlook(mine.group(1), position) == said_of(scored), sentence
    theirs = mine.group(2) or mine.group(3)
    if theirs is not None:
        assert read_outlook(theirs, position) == said_of(first), sentence
    else:
        assert said_of(scored) == said_of(first) and scored.kind == "estimate", sentence


def check_random_words(sentence: str, scored: MoveScore, first: MoveScore, position: Board) -> None:
    """The words after a random move `scored`: the clever move is the first, with its own
    number; the random one is "just as good" only when proven, "the same estimate" only
    when both are equal estimates, and otherwise is given its own number."""
    size = position.size
    name, first_name = cell_notation(scored.move, size), cell_notation(first.move, size)
    numbers = [read_number(text) for text in re.findall(r"score ([^)]+)\)", sentence)]
    if scored.move == first.move:
        assert sentence.startswith(f"By chance it is the clever move: {first_name} ("), sentence
        assert numbers == [said_of(first)], sentence
        return
    assert sentence.startswith(f"The clever move was {first_name} ("), sentence
    assert numbers[0] == said_of(first), sentence
    if "just as good" in sentence:
        assert f"{name} is proven just as good" in sentence
        assert scored.kind in ("exact", "at_least") and first.kind in ("exact", "at_most")
        assert scored.score >= first.score and numbers[1] == said_of(scored), sentence
    elif "the same estimate" in sentence:
        same = re.search(rf"{name} scores the same estimate \((~-?\d+)\)", sentence)
        assert same is not None, sentence
        assert scored.kind == first.kind == "estimate", sentence
        assert read_number(same.group(1)) == said_of(scored) == Said(first.score, "estimate")
    else:
        assert f"not {name} (" in sentence and numbers[1] == said_of(scored), sentence


def check_story(position: Board, analysis: Analysis) -> None:
    """The search's story (the panel's rows per depth) ends on the verdict: the first move,
    with its value and kind (see `STORY_SIZES`)."""
    story = build_report("", analysis, position, -1).story
    first = analysis.scores[0]
    assert story, "a finished search tells its story"
    last = story[-1]
    assert last.cell == cell_notation(first.move, position.size), (position, story)
    assert read_number(last.marked) == said_of(first), (position, story)


def random_position(size: int, k: int, moves: int, seed: int) -> Board | None:
    """`moves` random moves from the empty board (None when the game ends before)."""
    rng = random.Random(seed)
    board = Board.empty(size, k)
    for _ in range(moves):
        if board.is_over:
            return None
        board = board.play(rng.choice(board.legal_moves()))
    return None if board.is_over else board


def analysed(position: Board) -> Analysis:
    """The analysis the game's panel makes of `position` (solved on 3×3)."""
    return clever_analysis(position, "alphabeta", None if position.size == 3 else BUDGET)


FIXED = [(size, k, moves, seed) for size, k in BOARDS for moves in (1, 4) for seed in (1, 2)]
"""Fixed positions: on every board, one and four random moves, two seeds each."""


@pytest.mark.parametrize(("size", "k", "moves", "seed"), FIXED)
def test_every_surface_gives_each_move_the_analysis_value_and_kind(
    size: int, k: int, moves: int, seed: int
) -> None:
    position = random_position(size, k, moves, seed)
    assert position is not None
    check_one_answer(position, analysed(position))


def test_the_issues_positions_give_one_answer() -> None:
    # 7×7, four in a row: X D4, O C5 (item 2); 10×10: X E5, O E6 (item 3); 3×3: X B2 (item 9).
    for text, k in (
        ("......./......./......./...X.../..O..../......./.......", 4),
        (
            "........../........../........../........../....X...../"
            "....O...../........../........../........../..........",
            5,
        ),
        (".../.X./...", 3),
    ):
        position = Board.from_string(text, k=k)
        check_one_answer(position, analysed(position))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_small_boards_give_one_answer_in_any_position(data: st.DataObject) -> None:
    size = data.draw(st.sampled_from((3, 4)), label="size")
    moves = data.draw(st.integers(0, size * size - 2), label="moves")
    seed = data.draw(st.integers(0, 10**6), label="seed")
    position = random_position(size, size, moves, seed)
    if position is not None:
        check_one_answer(position, analysed(position))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BOARDS[2:]), st.integers(0, 12), st.integers(0, 10**6))
@pytest.mark.slow
def test_big_boards_give_one_answer_in_any_position(
    board: tuple[int, int], moves: int, seed: int
) -> None:
    size, k = board
    position = random_position(size, k, moves, seed)
    if position is not None:
        check_one_answer(position, analysed(position))
