"""`tictactoe-tui --text`: the game as plain lines, driven as a person or a pipe drives it.

Most tests run the loop in this process on a string of lines (`TextGame.play`); a few start the
real command with its input piped in, as a script or a screen reader's terminal would.
"""

from __future__ import annotations

import io
import json
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_brains import write_brain
from tests.test_store import fill, read_only_dir, read_only_history, tiny_disk
from tictactoe_tui.cli.text_mode import TextGame
from tictactoe_tui.engine import Board, analyse_position
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.history.locations import DB_NAME
from tictactoe_tui.history.schema import SCHEMA_VERSION
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.text.game import opponent_words, result_words, score_line_words
from tictactoe_tui.text.scores import score_meaning


def play(lines: str, data_dir: Path, **settings: object) -> list[str]:
    """The lines the text mode writes for `lines` typed with `settings`."""
    out = io.StringIO()
    store = HistoryStore.open(data_dir)
    game = TextGame(GameSettings(**settings), store, out)  # type: ignore[arg-type]
    try:
        assert game.play(io.StringIO(lines)) == 0
    finally:
        game.close()
        store.close()
    return out.getvalue().splitlines()


def outcomes(data_dir: Path) -> list[str]:
    """The outcomes the history keeps, newest first."""
    store = HistoryStore.open(data_dir)
    try:
        return [game.outcome for game in store.games()]
    finally:
        store.close()


def cli(*args: str, stdin: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *args, "--data-dir", str(data_dir)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_game_between_two_people_is_told_move_by_move_and_kept(data_dir: Path) -> None:
    said = play("5\n1\nc1\nB1\n7\n", data_dir, mode="human-vs-human")
    assert said[0].startswith("Tic-tac-toe, text mode. Two people play X and O")
    moves = [line for line in said if " played " in line]
    assert moves == ["X played B2.", "O played A1.", "X played C1.", "O played B1.", "X played A3."]
    assert "Game over: X wins. X made 3 in a row, C1 to A3, in 5 moves." in said
    assert "This session: X 1, O 0, Draws 0." in said
    assert outcomes(data_dir) == ["X"]


def test_the_computer_answers_each_move_with_its_reason(data_dir: Path) -> None:
    said = play("5\n", data_dir, seed=3)
    assert "You (X) played B2." in said
    computer = [line for line in said if line.startswith("Computer (O) played")]
    assert len(computer) == 1 and "A clever move: alpha-beta: draw" in computer[0]
    assert said[-2:] == [
        "Your move, X.",
        "End of input. The unfinished game is kept in the history.",
    ]
    assert outcomes(data_dir) == ["abandoned"]


def test_a_whole_game_against_the_perfect_computer_ends_in_a_draw(data_dir: Path) -> None:
    # Every cell typed in order, twice: a taken one gets its sentence, a free one is played,
    # until the game ends (the perfect computer never loses).
    said = play("\n".join(["5", *"123456789" * 2, "quit"]), data_dir, seed=1)
    over = [line for line in said if line.startswith("Game over")]
    assert len(over) == 1
    assert over[0].startswith(("Game over: Draw.", "Game over: Computer wins."))
    assert outcomes(data_dir) in (["draw"], ["O"])


def test_a_hint_lists_the_moves_with_their_marked_scores_in_analyses_words(data_dir: Path) -> None:
    said = play("1\nhint\n", data_dir, mode="human-vs-human")
    board = Board.from_string("X../.../...")
    analysis = analyse_position(board, "alphabeta")
    start = said.index(next(line for line in said if line.startswith("Hint for O: B2")))
    assert said[start + 3] == "All 8 moves, best first:"
    rows = said[start + 4 : start + 12]
    for rank, (row, scored) in enumerate(zip(rows, analysis.scores, strict=True), start=1):
        name = cell_notation(scored.move, 3)
        score = str(scored.score).replace("-", "\N{MINUS SIGN}")
        assert row.startswith(f"{rank}. {name}, score {score}: {score_meaning(scored, board)}")


def test_a_hint_on_a_big_board_names_its_marks_and_lists_the_top_five(data_dir: Path) -> None:
    said = play("H8\nhint\n", data_dir, mode="human-vs-human", size=15, time_limit=0.3)
    assert "Analysing, up to 0.3 seconds." in said
    top = next(line for line in said if line.startswith("The top 5 moves of 224"))
    rows = said[said.index(top) + 1 : said.index(top) + 6]
    assert [row.split(".")[0] for row in rows] == ["1", "2", "3", "4", "5"]
    assert any(mark in " ".join(rows) for mark in ("~", "≤", "≥"))
    # A minus a speech synthesizer says (a hyphen after a mark it takes for a pause).
    assert "-" not in " ".join(row.split(":")[0] for row in rows)
    assert any(line.startswith("Marks: ") for line in said)


def test_bad_input_is_one_sentence_and_changes_nothing(data_dir: Path) -> None:
    said = play("5\nfoo\n5\n0\nZ9\n", data_dir, mode="human-vs-human")
    after = said[said.index("X played B2.") + 2 :]
    assert after == [
        "'foo' is neither a cell nor a word I know: type a cell such as B2, or help.",
        "B2 (row 2, column 2) is taken by X.",
        "0 is not a cell: the digits 1 to 9 name them, or help.",
        "Z9 is off the board: the 3 by 3 board's cells run from A1 to C3.",
        "End of input. The unfinished game is kept in the history.",
    ]


def test_digits_name_cells_on_3x3_only(data_dir: Path) -> None:
    said = play("5\n", data_dir, mode="human-vs-human", size=7, k=4)
    assert (
        "Digits name cells on the 3 by 3 board only: type a cell's name, such as D4, or help."
    ) in said


def test_the_board_is_a_grid_and_a_sentence(data_dir: Path) -> None:
    said = play("5\n1\nboard\n", data_dir, mode="human-vs-human")
    start = said.index("   A B C")
    assert said[start : start + 5] == [
        "   A B C",
        "1  O . .",
        "2  . X .",
        "3  . . .",
        "X has B2. O has A1. 7 empty cells.",
    ]


def test_undo_takes_back_the_move_and_the_reply(data_dir: Path) -> None:
    said = play("5\nundo\nmoves\n", data_dir, seed=2)
    took = next(line for line in said if line.startswith("Took back"))
    assert took.startswith("Took back B2, ")
    assert said[-2] == "No move has been played yet."


def test_why_repeats_the_computers_reasons_with_its_scores(data_dir: Path) -> None:
    said = play("why\n5\nwhy\n", data_dir, seed=2)
    assert said[3] == "The computer has not moved yet in this game."
    start = said.index(next(line for line in said if line.startswith("A clever move")))
    assert said[start + 2] == "All 8 moves, best first:"
    assert sum(" (played), score " in line for line in said[start:]) == 1


def test_score_counts_the_session_and_every_game_like_this(data_dir: Path) -> None:
    play("5\n1\n3\n2\n7\n", data_dir, mode="human-vs-human")
    said = play("5\n1\n3\n2\n7\nscore\n", data_dir, mode="human-vs-human")
    assert said[-3:-1] == [
        "This session: X 1, O 0, Draws 0.",
        "All time, games like this one: X 2, O 0, Draws 0.",
    ]


def test_new_keeps_the_unfinished_game_and_starts_again(data_dir: Path) -> None:
    said = play("5\nnew\nquit\n", data_dir, mode="human-vs-human")
    assert "The unfinished game is kept in the history." in said
    assert any(line.startswith("New game. Two people play") for line in said)
    assert outcomes(data_dir) == ["abandoned"]


def test_quit_mid_game_keeps_it_at_once(data_dir: Path) -> None:
    said = play("5\nquit\n5\n", data_dir, mode="human-vs-human")
    assert said[-1] == "The unfinished game is kept in the history."
    assert outcomes(data_dir) == ["abandoned"]


def test_two_computers_play_a_whole_game_without_waiting(data_dir: Path) -> None:
    said = play("B2\n", data_dir, mode="computer-vs-computer", seed=5)
    assert sum(line.startswith("Computer X played") for line in said) >= 3
    assert any(line.startswith("Game over: Draw.") for line in said)
    assert "Two computers play this game: new starts another, quit ends." not in said


def test_help_names_every_word(data_dir: Path) -> None:
    said = " ".join(play("help\n", data_dir))
    words = ("undo", "hint", "new", "score", "board", "help", "quit", "why", "clever", "moves")
    for word in (*words, "engine"):
        assert f"{word} (or " in said


def test_the_command_plays_through_a_pipe_and_the_history_lists_it(tmp_path: Path) -> None:
    out = cli(
        "--text", "--mode", "human-vs-human", stdin="5\n1\n3\n2\n7\nquit\n", data_dir=tmp_path
    )
    assert out.returncode == 0 and out.stderr == ""
    assert "Game over: X wins." in out.stdout
    listed = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", "history", "--json", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert [game["result"] for game in json.loads(listed.stdout)] == ["X"]


def test_the_text_mode_never_loads_textual(tmp_path: Path) -> None:
    code = (
        "import sys, io; sys.stdin = io.StringIO('5\\nquit\\n');"
        "from tictactoe_tui.cli.main import main; status = main(['--text', '--data-dir', "
        f"{str(tmp_path)!r}]);"
        "assert status == 0; assert 'textual' not in sys.modules, 'textual loaded'"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


def test_without_game_flags_it_plays_the_last_settings(tmp_path: Path) -> None:
    cli(
        "--text", "--size", "5", "--k", "4", "--mode", "human-vs-human", stdin="", data_dir=tmp_path
    )
    out = cli("--text", stdin="", data_dir=tmp_path)
    assert "on a 5 by 5 board, 4 in a row" in out.stdout.splitlines()[0]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--size", "21"], "tictactoe-tui: --size must be between 3 and 20, not 21\n"),
        (["--colour", "red"], "tictactoe-tui: unrecognized arguments: --colour red\n"),
    ],
)
def test_a_bad_flag_is_one_line_and_status_2(
    tmp_path: Path, flags: list[str], message: str
) -> None:
    out = cli("--text", *flags, stdin="", data_dir=tmp_path)
    assert out.returncode == 2 and out.stderr == message


def test_a_theme_is_said_to_have_no_effect(tmp_path: Path) -> None:
    out = cli("--text", "--theme", "nord", stdin="quit\n", data_dir=tmp_path)
    assert out.returncode == 0
    assert out.stderr == (
        "tictactoe-tui: warning: --theme has no effect in the text mode: it writes plain lines\n"
    )


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_prints_the_program_and_its_version(flag: str) -> None:
    from tictactoe_tui import __version__

    out = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", flag], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and out.stdout == f"tictactoe-tui {__version__}\n"


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("inherited", ["default", "ignored"])
def test_ctrl_c_mid_search_ends_at_once_and_keeps_the_game(tmp_path: Path, inherited: str) -> None:
    # "ignored": started as a shell's background job is, with SIGINT ignored, which Python
    # would keep (no KeyboardInterrupt ever); the text mode takes Ctrl+C back.
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tictactoe_tui",
            "--text",
            "--mode",
            "human-vs-human",
            "--size",
            "15",
            "--time-limit",
            "60",
            "--data-dir",
            str(tmp_path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ignore_sigint if inherited == "ignored" else None,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("H8\nhint\n")
    process.stdin.flush()
    for line in process.stdout:
        if line.startswith("Analysing, up to 60 seconds."):
            break
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and "Traceback" not in err
    assert out.splitlines()[-1] == "Interrupted. The unfinished game is kept in the history."
    assert outcomes(tmp_path) == ["abandoned"]


def test_clever_switches_the_computer_to_random_moves_and_back(data_dir: Path) -> None:
    said = play("clever\n5\nc\n", data_dir, seed=4)
    assert "The computer now plays random." in said
    assert any(line.startswith("Computer (O) played") and "A random move." in line for line in said)
    assert "The computer now plays alpha-beta." in said


def test_the_effects_left_unsaid_are_the_ones_the_docs_name() -> None:
    # Every effect is handled (mypy checks the match's assert_never); the ones the text mode
    # carries out by doing nothing are `UNSAID`, and nothing else is.
    import inspect

    from tictactoe_tui.cli import text_mode

    lines = inspect.getsource(TextGame._run).splitlines()
    silent = lines[next(n for n, line in enumerate(lines) if "pass  # `UNSAID`" in line) - 1]
    assert set(re.findall(r"(\w+)\(\)", silent)) == {e.__name__ for e in text_mode.UNSAID}


def test_undo_after_the_end_counts_the_game_once(data_dir: Path) -> None:
    said = play("5\n1\n3\n2\n7\nundo\n9\n4\n6\n", data_dir, mode="human-vs-human")
    assert "Took back A3." in said
    assert sum(line.startswith("Game over: X wins.") for line in said) == 2
    assert said[-3] == "This session: X 1, O 0, Draws 0."
    assert outcomes(data_dir) == ["X"]  # kept once: the reopened win left the history


def unfinished_game_line(said: list[str]) -> str:
    """The one line that says where the unfinished game went."""
    lines = [line for line in said if line.startswith(("The unfinished game", "End of input."))]
    assert len(lines) == 1, said
    return lines[0]


def test_a_read_only_history_never_claims_the_unfinished_game_was_kept(tmp_path: Path) -> None:
    with read_only_history(tmp_path) as folder:
        before = sorted(path.name for path in folder.iterdir())
        said = play("5\nquit\n", folder, mode="human-vs-human")
        line = unfinished_game_line(said)
        assert line.startswith(
            f"The unfinished game was not kept: nothing can be written in {folder}"
        )
        assert "kept in the history" not in "\n".join(said)
        assert sorted(path.name for path in folder.iterdir()) == before  # no record anywhere
        assert len(outcomes(folder)) == 12  # the history's own games, and not this one


def test_a_data_dir_that_refuses_writes_says_the_game_was_not_kept_and_why(
    tmp_path: Path,
) -> None:
    folder = read_only_dir(tmp_path)
    # The command as the issue typed it, its notice on stderr and the game's fate on stdout.
    done = cli("--text", "--size", "3", stdin="5\nq\n", data_dir=folder)
    assert done.returncode == 0 and done.stderr.startswith("History is off")
    said = done.stdout.splitlines()
    assert unfinished_game_line(said).startswith(
        f"The unfinished game was not kept: the history in {folder} cannot take games ("
    )
    assert not list(folder.glob("unsaved-*"))


def test_a_full_disk_says_the_unfinished_game_is_held_then_lost_never_kept(
    tmp_path: Path,
) -> None:
    with tiny_disk(tmp_path) as disk:
        HistoryStore.open(disk).close()
        filler = fill(disk)
        said = play("5\nnew\n5\nquit\n", disk, mode="human-vs-human")
        held, lost = [line for line in said if line.startswith("The unfinished game")]
        assert held == (
            f"The unfinished game could not be written in {disk} (no space left on device): "
            "it is held in memory and tried again with every save, until the program ends."
        )
        assert lost == (
            f"The unfinished game was not kept: nothing can be written in {disk} "
            "(no space left on device)."
        )
        assert not list(disk.glob("unsaved-*"))
        filler.unlink()
        assert outcomes(disk) == []


def test_an_unfinished_game_the_history_cannot_take_is_said_to_wait_where_it_waits(
    data_dir: Path,
) -> None:
    store = HistoryStore.open(data_dir)
    store.close()
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")  # a newer program's file
    said = play("5\nquit\n", data_dir, mode="human-vs-human")
    line = unfinished_game_line(said)
    (record,) = data_dir.glob("unsaved-*.txt")
    assert line == (
        "The unfinished game could not go into the history (read-only): it is kept as "
        f"{record}, saved when the history can take it."
    )
    assert "abandoned" in record.read_text(encoding="utf-8")


def test_each_outside_engine_keeps_a_score_of_its_own_under_its_own_name(
    data_dir: Path, tmp_path: Path
) -> None:
    named = write_brain(tmp_path / "one", "named")
    crash = write_brain(tmp_path / "two", "crash")
    board = {"size": 9, "k": 5, "opponent": "engine", "time_limit": 2.0}
    play("E5\nquit\n", data_dir, engine=str(named), **board)
    said = play("E5\nscore\n", data_dir, engine=str(crash), **board)
    assert "All time, games like this one: You 1, Computer 0, Draws 0." in said
    store = HistoryStore.open(data_dir)
    try:
        games = store.games()
        assert [(game.o, game.outcome) for game in games] == [
            ("engine:pbrain-crash", "X"),
            ("engine:Named Brain", "abandoned"),
        ]
        lines = sorted(score_line_words(line) for line in store.scores())
        assert lines == [
            "Named Brain on 9×9, 5 in a row: You 0 · Computer 0 · Draws 0 (1 abandoned)",
            "pbrain-crash on 9×9, 5 in a row: You 1 · Computer 0 · Draws 0",
        ]
        lost = games[0]
        assert lost.forfeit == (
            "Computer (O) (pbrain-crash) lost by a fault: pbrain-crash exited with status 3 "
            "in the middle of the game."
        )
        assert result_words(lost) == "You won (forfeit)"
        assert opponent_words(lost.mode, lost.x, lost.o, lost.difficulty) == "pbrain-crash"
    finally:
        store.close()


def test_an_outside_engines_move_keeps_its_last_message_and_engine_tells_the_rest(
    data_dir: Path, tmp_path: Path
) -> None:
    brain = write_brain(tmp_path, "good")  # two MESSAGE lines a move
    said = play("E5\nengine\nquit\n", data_dir, size=9, k=5, opponent="engine", engine=str(brain))
    moved = said.index("You (X) played E5.") + 1
    assert said[moved] == (
        "Computer (O) (pbrain-good, an outside engine) played D5. Its last word: "
        "depth 2 | eval 5 | pv 3,4 (engine: all 2 lines)"
    )
    assert not any(line.strip() == "depth 1 | eval 3" for line in said[: moved + 2])
    asked = said.index("Its MESSAGE lines on its last move (its own words, not our analysis):")
    assert said[asked + 1 : asked + 3] == ["  depth 1 | eval 3", "  depth 2 | eval 5 | pv 3,4"]


def test_the_engine_word_without_an_outside_engine_says_so(data_dir: Path) -> None:
    assert "No outside engine plays in this game." in play("engine\n", data_dir)
