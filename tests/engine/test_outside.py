"""The host side of the Gomocup protocol: an outside brain as a player, against fake brains that
play well, hang, crash, play a taken cell, or print garbage; and no brain outlives its game."""

from __future__ import annotations

import pickle
import threading
import time
from pathlib import Path

import pytest

from tests.fake_brains import processes_running, write_brain
from tictactoe_tui.engine import Board, EngineFault, EngineReport, Limits, OutsidePlayer
from tictactoe_tui.engine.players import outside
from tictactoe_tui.engine.players.match import MatchHooks, MatchPlan, PlayerSpec, run_match
from tictactoe_tui.engine.players.outside import EngineStopped, check_engine_path, grace


def heard(path: Path) -> list[str]:
    return (path.parent / "heard.txt").read_text().splitlines()


def brain_then(player: OutsidePlayer, replies: list[int]) -> Board:
    """From the empty 15×15 board, the brain's move and then ours on each of `replies` in turn
    (a move of the brain's on a taken cell fails here)."""
    board = Board.empty(15, 5)
    for cell in replies:
        board = board.play(player.choose(board).move).play(cell)
    return board


def test_a_good_brain_plays_and_its_words_reach_the_progress_callback(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "good")
    player = OutsidePlayer(brain, time_limit=2)
    reports: list[EngineReport] = []
    try:
        board = Board.empty(15, 5)
        decision = player.choose(board, Limits(on_progress=reports.append))
        assert decision.move == 7 * 15 + 7
        assert decision.said == ("depth 1 | eval 3", "depth 2 | eval 5 | pv 7,7")
        assert decision.analysis is None and decision.algorithm == "engine"
        # Each line as it came (a silent spell adds reports of the words so far).
        heard_said = [r.said for r in reports]
        assert heard_said[-1] == decision.said and decision.said[:1] in heard_said
        assert all(isinstance(r, EngineReport) and r.engine == "pbrain-good" for r in reports)
    finally:
        player.close()
    commands = heard(brain)
    # Started in its own folder, told the game, asked to begin on the empty board.
    assert commands[0] == f"cwd {tmp_path}"
    assert commands[1:7] == [
        "START 15",
        "INFO timeout_match 0",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO rule 0",
        f"INFO folder {tmp_path}",
    ]
    assert "INFO timeout_turn 2000" in commands and "BEGIN" in commands
    assert commands[-1] == "END"


def test_the_next_move_is_a_turn_and_an_unexpected_position_a_board(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "good")
    player = OutsidePlayer(brain)
    try:
        board = Board.empty(15, 5)
        board = board.play(player.choose(board).move)  # the brain's X at 7,7
        board = board.play(0)  # our O at 0,0
        reply = player.choose(board)
        assert reply.move == 7 * 15 + 6  # 6,7: nearest the centre still free
        board = board.play(reply.move).play(1)
        # Not the board the brain left plus one stone: an undo, say. It gets the whole board.
        other = Board.empty(15, 5).play(112).play(14)
        player.choose(other)
    finally:
        player.close()
    commands = heard(brain)
    assert "TURN 0,0" in commands
    at = commands.index("BOARD", commands.index("TURN 0,0"))
    # The stones alternate from the first mover's; 1 marks the brain's own, 2 the opponent's.
    assert commands[at : at + 4] == ["BOARD", "7,7,1", "14,0,2", "DONE"]


def gaps(path: Path) -> list[tuple[float, str]]:
    """What a "touchy" brain wrote of the first command after each of its moves: the seconds
    since the move, and the command."""
    found = []
    for line in heard(path):
        if line.startswith("gap "):
            _, seconds, command = line.split(" ", 2)
            found.append((float(seconds), command))
    return found


def test_a_brain_that_just_moved_hears_nothing_for_a_moment(tmp_path: Path) -> None:
    # Like Rapfi, the brain loses a command that comes within 5 ms of its move line. Our side
    # answers at once, twice in a row; then a new time (INFO first) and the END of the game.
    brain = write_brain(tmp_path, "touchy")
    player = OutsidePlayer(brain)
    try:
        player.choose(brain_then(player, [0, 1, 2]), Limits(time=0.5))
    finally:
        player.close()
    commands = heard(brain)
    assert [line for line in commands if line.startswith(("early", "ERROR"))] == []
    assert [command for _, command in gaps(brain)] == [
        "TURN 0,0",
        "TURN 1,0",
        "INFO timeout_turn 500",
        "END",
    ]
    assert all(seconds >= 0.005 for seconds, _ in gaps(brain))
    assert commands[-1] == "END"


def test_no_wait_when_our_side_thought_longer_than_the_settling_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[float] = []
    sleep = time.sleep
    monkeypatch.setattr(outside.time, "sleep", lambda s: (waits.append(s), sleep(s))[1])
    brain = write_brain(tmp_path, "touchy")
    player = OutsidePlayer(brain)
    try:
        board = Board.empty(15, 5)
        board = board.play(player.choose(board).move).play(0)
        assert waits == []  # nothing to wait for before BEGIN
        board = board.play(player.choose(board).move).play(1)
        assert len(waits) == 1 and 0 < waits[0] <= outside.SETTLE  # only the rest of it
        waits.clear()
        sleep(2 * outside.SETTLE)  # our side thinks
        player.choose(board)
        assert waits == []
    finally:
        player.close()
    assert not [line for line in heard(brain) if line.startswith("early")]


@pytest.mark.parametrize(
    ("behaviour", "words"),
    [
        ("hung", "timed out: no move within 0.3 s + 1.5 s grace"),
        ("crash", "exited with status 3 in the middle of the game"),
        ("taken", "played 0,0 (A1), a cell X already holds"),
        ("malformed", "answered '7,x', which is not a move (x,y)"),
        ("offboard", "played 99,99, off the 15×15 board"),
        ("refuses", "cannot play a 15×15 board: ERROR unsupported size"),
    ],
)
@pytest.mark.slow
def test_a_brain_that_fails_is_a_fault_in_one_sentence(
    tmp_path: Path, behaviour: str, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first move's allowance for allocating tables, shortened to keep the test quick.
    monkeypatch.setattr(outside, "FIRST_MOVE_SECONDS", 0.5)
    brain = write_brain(tmp_path, behaviour)
    player = OutsidePlayer(brain, time_limit=0.3)
    board = Board.empty(15, 5).play(0) if behaviour == "taken" else Board.empty(15, 5)
    began = time.monotonic()
    with pytest.raises(EngineFault) as fault:
        player.choose(board)
    assert fault.value.reason == f"pbrain-{behaviour} {words}"
    if behaviour == "hung":
        assert time.monotonic() - began < 0.3 + grace(0.3) + 0.5 + 2
    assert processes_running(brain) == []
    player.close()


@pytest.mark.slow
def test_the_first_move_after_start_may_take_longer(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "hung")
    player = OutsidePlayer(brain, time_limit=0.2)
    began = time.monotonic()
    with pytest.raises(EngineFault, match=r"no move within 0\.2 s \+ 6 s grace"):
        player.choose(Board.empty(15, 5))
    assert time.monotonic() - began >= 0.2 + grace(0.2) + outside.FIRST_MOVE_SECONDS


def test_a_crash_keeps_the_last_lines_of_stderr(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "crash")
    player = OutsidePlayer(brain)
    with pytest.raises(EngineFault) as fault:
        player.choose(Board.empty(15, 5))
    assert "Segmentation fault (pretend)" in fault.value.log


def test_garbage_is_ignored_and_logged_and_the_move_still_counts(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "garbage")
    player = OutsidePlayer(brain)
    try:
        decision = player.choose(Board.empty(15, 5))
        assert decision.move == 112
        deadline = time.monotonic() + 5
        while "warning: odd" not in player.log and time.monotonic() < deadline:
            time.sleep(0.02)
        assert {"(ignored) hello there", "(ignored) %%%", "warning: odd"} <= set(player.log)
    finally:
        player.close()


def test_a_stop_request_ends_the_brain_at_once(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "hung")
    player = OutsidePlayer(brain, time_limit=30)
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    began = time.monotonic()
    with pytest.raises(EngineStopped):
        player.choose(Board.empty(15, 5), Limits(should_stop=stop.is_set))
    assert time.monotonic() - began < 5
    assert processes_running(brain) == []


@pytest.mark.slow
def test_a_brain_that_ignores_end_is_killed_on_close(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "slowexit")
    player = OutsidePlayer(brain)
    player.choose(Board.empty(15, 5))
    assert player.pid in processes_running(brain)
    player.close()
    assert processes_running(brain) == [] and player.pid is None


def test_a_copy_is_the_same_player_not_a_second_engine(tmp_path: Path) -> None:
    player = OutsidePlayer(write_brain(tmp_path, "good"))
    try:
        assert pickle.loads(pickle.dumps(player)) is player
    finally:
        player.close()


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda d: d / "missing", "does not exist"),
        (lambda d: d, "is not a file"),
        (lambda d: (d / "plain.txt", (d / "plain.txt").write_text("x"))[0], "is not executable"),
    ],
)
def test_a_path_that_cannot_run_is_refused_in_one_sentence(
    tmp_path: Path, make: object, words: str
) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(ValueError, match=words):
        check_engine_path(str(path))
    with pytest.raises(ValueError, match=words):
        PlayerSpec.parse(f"engine:path={path}")


# -- in a match -----------------------------------------------------------------------------------


def test_a_match_against_a_good_brain_ends_every_engine_with_its_game(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "good")
    running: list[list[int]] = []
    result = run_match(
        PlayerSpec.parse(f"engine:path={brain}:time=1"),
        PlayerSpec("h1"),
        MatchPlan(2, size=7, k=5, seed=1),
        MatchHooks(on_game=lambda i, g: running.append(processes_running(brain))),
    )
    assert result.games == 2 and not result.forfeits
    assert running == [[], []]
    assert all(game.final.is_over for game in result.outcomes)


@pytest.mark.parametrize("behaviour", ["hung", "crash", "taken", "malformed"])
@pytest.mark.slow
def test_a_failing_brain_loses_the_game_by_forfeit_with_the_reason(
    tmp_path: Path, behaviour: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outside, "FIRST_MOVE_SECONDS", 0.5)
    if behaviour == "hung":
        # Not a test of the timing (test_a_brain_that_fails_is_a_fault_in_one_sentence is): the
        # hung brain's allowances, shortened so its two forfeits cost a fraction of a second
        # each (the others answer at once, and keep the time to do so on a loaded machine).
        monkeypatch.setattr(outside, "FIRST_MOVE_SECONDS", 0.1)
        monkeypatch.setattr(outside, "grace", lambda seconds: 0.1)
    brain = write_brain(tmp_path, behaviour)
    spec = PlayerSpec.parse(f"engine:path={brain}:time=0.2")
    result = run_match(PlayerSpec("random"), spec, MatchPlan(2, size=9, k=5, seed=3))
    assert result.games == 2 and len(result.forfeits) == 2
    assert result.x_wins == 2 and result.o_wins == 0
    for game in result.outcomes:
        assert game.forfeit is not None and game.forfeit.side == "o"
        assert game.forfeit.reason.startswith(f"pbrain-{behaviour} ")
        assert not game.final.is_over
    assert processes_running(brain) == []


def test_an_engine_cannot_play_other_than_five_in_a_row(tmp_path: Path) -> None:
    spec = PlayerSpec.parse(f"engine:path={write_brain(tmp_path, 'good')}")
    with pytest.raises(ValueError, match="five in a row"):
        run_match(spec, PlayerSpec("random"), MatchPlan(1, size=6, k=4))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("engine", "needs its program: engine:path=PATH"),
        ("engine:path={brain}:depth=3", "takes no depth"),
        ("engine:path={brain}:difficulty=50", "plays its own moves"),
        (
            "alphabeta:path={brain}",
            r"only an outside engine \(engine:path=PATH\) or a learner's file \(python:path=FILE\)"
            " takes a path, not alphabeta",
        ),
    ],
)
def test_bad_engine_specs_say_what_is_wrong(tmp_path: Path, text: str, words: str) -> None:
    brain = write_brain(tmp_path, "good")
    with pytest.raises(ValueError, match=words):
        PlayerSpec.parse(text.format(brain=brain))


def test_an_engine_spec_reads_back_as_written(tmp_path: Path) -> None:
    brain = write_brain(tmp_path / "with:colon", "good")
    spec = PlayerSpec.parse(f"engine:path={brain}:time=0.5")
    assert spec.path == str(brain) and spec.time_limit == 0.5
    assert PlayerSpec.parse(str(spec)) == spec


def test_a_turn_whose_word_the_brain_dropped_is_sent_once_more(tmp_path: Path) -> None:
    # Rapfi on a loaded machine: the word TURN lost however long we waited, the rest read as
    # a command of its own. The position is unchanged, so the TURN goes again and the game
    # goes on.
    brain = write_brain(tmp_path, "dropper")
    player = OutsidePlayer(brain)
    try:
        board = brain_then(player, [0, 1])
        assert board[player.choose(board).move] is None
        assert any(
            line.startswith("(sent again after) ERROR Unknown command: 0,0") for line in player.log
        )
    finally:
        player.close()
    commands = heard(brain)
    assert commands.count("TURN 0,0") == 2 and commands.count("TURN 1,0") == 1


def test_a_brain_that_errs_on_the_turn_sent_again_is_a_fault(tmp_path: Path) -> None:
    brain = write_brain(tmp_path, "grumpy")
    player = OutsidePlayer(brain)
    try:
        board = brain_then(player, [0])
        with pytest.raises(
            EngineFault,
            match=r"answered 'ERROR Unknown command: 0,0' "
            r"instead of a move",
        ):
            player.choose(board)
    finally:
        player.close()
    assert heard(brain).count("TURN 0,0") == 2
    assert not processes_running(brain)


@pytest.mark.parametrize(
    ("behaviour", "name"),
    [("named", "Named Brain"), ("nameless", "pbrain-nameless"), ("good", "pbrain-good")],
)
def test_an_engine_is_named_by_its_about_else_by_its_file_name(
    tmp_path: Path, behaviour: str, name: str
) -> None:
    brain = write_brain(tmp_path, behaviour)
    player = OutsidePlayer(brain, time_limit=2)
    try:
        assert player.name == brain.name  # before it started
        reports: list[EngineReport] = []
        player.choose(Board.empty(15, 5), Limits(on_progress=reports.append))
        assert player.name == name and {report.engine for report in reports} == {name}
    finally:
        player.close()
    assert "ABOUT" in heard(brain)


def test_an_about_answer_gives_a_printable_name_of_bounded_length() -> None:
    assert outside.about_name('name="Rapfi", version="2024", author="x"') == "Rapfi"
    assert outside.about_name('author="x", name="Embryo 21"') == "Embryo 21"
    assert outside.about_name('version="1"') == ""
    assert outside.about_name("UNKNOWN") == ""
    assert outside.about_name('name="\x1b[31mred\x07"') == "[31mred"
    assert outside.about_name(f'name="{"x" * 100}"') == "x" * outside.NAME_LENGTH
