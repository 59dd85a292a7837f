"""`tictactoe-tui --text --predict`: the questions before each computer move, as plain lines.

A scripted learner answers from what the loop has just written (the lines are read lazily, one
at a time, as a person types them): one who answers with the best moves of the brute force in
`test_predict` (not the engine's) is told Right every time; one who answers a worse move and a
wrong value is told Not quite every time, with the right answer in the line.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.test_predict import brute_force
from tests.test_text_mode import play
from tictactoe_tui.cli.text_mode import TextGame
from tictactoe_tui.engine import Board
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.predictions import predictions
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.predict import MOVE_PROMPT, VALUE_PROMPT
from tictactoe_tui.play.settings import GameSettings

VALUES = brute_force(3, 3)
"""Every legal move's depth-aware score on 3×3 (a win on ply d scores 10 - d)."""

Learner = Callable[[str, Board], str]
"""Answers the last line written (a question, or "Your move, X.") about the board shown."""


def scores(board: Board) -> dict[int, int]:
    return VALUES(board)  # type: ignore[operator,no-any-return]


def value_words(score: int) -> str:
    """ "draw", "win in 3", "loss in 6": the brute force's value as a learner types it."""
    if score == 0:
        return "draw"
    return f"{'win' if score > 0 else 'loss'} in {10 - abs(score)}"


def best_learner(last: str, board: Board) -> str:
    """Answers every question with the brute force's answer; plays its best move."""
    values = scores(board)
    best = max(values.values())
    if last == VALUE_PROMPT:
        return value_words(best)
    return cell_notation(min(m for m, v in values.items() if v == best), 3)


def wrong_learner(last: str, board: Board) -> str:
    """Predicts a move worse than the best (when one is) and a value the position is not."""
    values = scores(board)
    best = max(values.values())
    if last == VALUE_PROMPT:
        return "loss" if best >= 0 else "win"
    if last == MOVE_PROMPT:
        worse = [m for m, v in values.items() if v < best]
        return cell_notation(min(worse), 3) if worse else "skip"
    return cell_notation(max(m for m, v in values.items() if v == best), 3)


def run(learner: Learner, data_dir: Path, **settings: object) -> list[str]:
    """Play one 3×3 game in predict mode, `learner` typing each line; the lines written."""
    out = io.StringIO()
    store = HistoryStore.open(data_dir)
    game = TextGame(GameSettings(predict=True, **settings), store, out)  # type: ignore[arg-type]

    def typed() -> Iterator[str]:
        while not game.controller.game.is_over:
            last = out.getvalue().splitlines()[-1]
            yield learner(last, game.controller.game.board) + "\n"

    try:
        assert game.play(typed()) == 0
    finally:
        game.close()
        store.close()
    return out.getvalue().splitlines()


def judged(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith(("Right", "Not quite"))]


def test_a_learner_who_answers_as_the_brute_force_is_right_every_time(data_dir: Path) -> None:
    for seed in range(4):
        said = run(best_learner, data_dir, seed=seed)
        verdicts = judged(said)
        # X moves first: the computer replies four times, two questions each.
        assert len(verdicts) == 8 and all(v.startswith("Right") for v in verdicts), verdicts
        assert "Predictions: 8 of 8 right" in said
        assert said.index("Predictions: 8 of 8 right") > next(
            i for i, line in enumerate(said) if line.startswith("Game over: Draw")
        )


def test_each_question_comes_before_the_computer_move_is_told(data_dir: Path) -> None:
    said = run(best_learner, data_dir, seed=1)
    for i, line in enumerate(said):
        if line.startswith("Computer (O) played"):
            assert said[i - 4 : i - 2] == [MOVE_PROMPT, said[i - 3]]
            assert said[i - 2] == VALUE_PROMPT and said[i - 1].startswith("Right")


def test_a_wrong_learner_is_told_not_quite_with_the_answer(data_dir: Path) -> None:
    said = run(wrong_learner, data_dir, seed=2)
    verdicts = judged(said)
    assert verdicts and all(v.startswith("Not quite") for v in verdicts), verdicts
    # The first reply to X's corner (C3): only the centre keeps the draw.
    assert verdicts[0] == "Not quite: A1 loses in 6 (score -4); B2 draws."
    assert verdicts[1] == "Not quite: the position is a draw for O (score 0), not a loss."
    assert f"Predictions: 0 of {len(verdicts)} right" in said


def test_every_answer_is_kept_with_its_verdict(data_dir: Path) -> None:
    run(best_learner, data_dir, seed=0)
    store = HistoryStore.open(data_dir)
    try:
        kept = predictions(store)
    finally:
        store.close()
    assert [p.question for p in kept] == ["move", "value"] * 4
    assert all(p.right and p.source == "text" and p.size == 3 for p in kept)
    assert str(kept[0].position).count("X") == 1 and "O" not in kept[0].position
    assert kept[0].expected == "B2" and kept[1].expected == "draw"


def test_no_answer_asks_again_a_skip_keeps_nothing(data_dir: Path) -> None:
    said = play("A1\nZ9\nA1\nskip\nmaybe\nskip\n", data_dir, predict=True)
    at = said.index(MOVE_PROMPT)
    assert said[at : at + 7] == [
        MOVE_PROMPT,
        "'z9' is not a cell: predict a cell such as B2, or skip.",
        MOVE_PROMPT,
        "A1 is taken: predict an empty cell, or skip.",
        MOVE_PROMPT,
        "Skipped.",
        VALUE_PROMPT,
    ]
    assert said[at + 7].startswith("Answer win, draw or loss")
    assert said[at + 8 : at + 10] == [VALUE_PROMPT, "Skipped."]
    assert said[at + 10].startswith("Computer (O) played B2.")
    store = HistoryStore.open(data_dir)
    try:
        assert predictions(store) == []
    finally:
        store.close()


def test_the_input_ending_inside_a_question_ends_cleanly(data_dir: Path) -> None:
    said = play("B2\n", data_dir, predict=True)
    # What was left unasked is skipped: the computer's move is told, and the game kept.
    at = said.index(MOVE_PROMPT)
    assert VALUE_PROMPT not in said and said[at + 1].startswith("Computer (O) played ")
    assert said[-2:] == [
        "Your move, X.",
        "End of input. The unfinished game is kept in the history.",
    ]


def test_the_predict_word_turns_the_questions_on_and_off(data_dir: Path) -> None:
    said = play("p\nB2\nA1\ndraw\np\nA2\n", data_dir, seed=1)
    assert said[3].startswith("Predict mode on: before each computer move")
    assert judged(said) == [
        "Right: A1 draws, as do C1, A3 and C3.",
        "Right: the position is a draw for O (score 0).",
    ]
    off = said.index("Predict mode off: the computer's moves are told at once.")
    assert MOVE_PROMPT not in said[off:]
    assert said[off + 1 : off + 3] == ["You (X) played A2.", said[off + 2]]
    assert said[off + 2].startswith("Computer (O) played ")


def test_a_question_whose_answer_is_not_proven_is_not_asked(data_dir: Path) -> None:
    # A depth-limited search on 4×4 proves nothing about the opening: one line says why.
    said = play("B2\n", data_dir, predict=True, size=4, depth=2, seed=1)
    assert MOVE_PROMPT not in said and VALUE_PROMPT not in said
    assert any(line.startswith("No move question: ") for line in said)
    assert any(line.startswith("No value question: ") for line in said)
    assert any(line.startswith("Computer (O) played") for line in said)


def test_predict_outside_a_game_against_the_computer_is_a_warning() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "--text", "--predict", "--mode", "human-vs-human"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0
    assert (
        "tictactoe-tui: warning: --predict has no effect outside human-vs-computer mode"
        in out.stderr
    )


def test_the_command_asks_and_judges_through_a_pipe(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tictactoe_tui",
            "--text",
            "--predict",
            "--size",
            "3",
            "--data-dir",
            str(tmp_path),
        ],
        input="A1\nB2\ndraw\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert judged(out.stdout.splitlines()) == [
        "Right: B2 is the only move that keeps the draw.",
        "Right: the position is a draw for O (score 0).",
    ]


def test_history_lists_the_predictions_with_their_tally(tmp_path: Path) -> None:
    def command(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tictactoe_tui", *args, "--data-dir", str(tmp_path)],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )

    assert command("history", "--predictions").stdout.startswith("No predictions yet")
    command("--text", "--predict", stdin="A1\nB2\ndraw\nC3\nA3\nwin\n")
    listed = command("history", "--predictions").stdout.splitlines()
    assert listed[:4] == [
        "Predictions: 2 of 4 right.",
        "  the move: 1 of 2 right",
        "  the value: 1 of 2 right",
        "  streak 0 (best 2)",
    ]
    assert "not quite (expected B1 A2 C2 B3)" in listed[-2]
    found = json.loads(command("history", "--predictions", "--json").stdout)
    assert found["right"] == 2 and found["asked"] == 4 and found["best_streak"] == 2
    assert found["questions"]["move"] == {"right": 1, "asked": 2}
    assert [a["answer"] for a in found["answers"]] == ["B2", "draw", "A3", "win"]
    both = command("history", "--predictions", "--studies")
    assert both.returncode == 2 and "give one" in both.stderr
