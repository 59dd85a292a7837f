"""The Gomocup brain's protocol, line by line, through the pure session (`play.pbrain`): every
command, each malformed variant, the clock, the rules it refuses; the engine searches only where
a test plays a move."""

from __future__ import annotations

import pytest

from tictactoe_tui.engine import Mark, alphabeta
from tictactoe_tui.play.pbrain import (
    FAST_TURN_MS,
    HARD_SHARE,
    MIN_THINK,
    OVERHEAD,
    SOFT_SHARE,
    PbrainSession,
    Quit,
    Think,
)


def started(size: int = 15) -> PbrainSession:
    """A session after `START size`."""
    session = PbrainSession("1.2.3")
    assert session.handle(f"START {size}") == ["OK"]
    return session


def feed(session: PbrainSession, *lines: str) -> list[object]:
    """Every effect of these lines, in order."""
    return [effect for line in lines for effect in session.handle(line)]


def think(effects: list[object]) -> Think:
    """The one `Think` among `effects` (nothing printed beside it)."""
    assert len(effects) == 1 and isinstance(effects[0], Think), effects
    return effects[0]


def error(effects: list[object]) -> str:
    """The one `ERROR` line among `effects`."""
    assert len(effects) == 1 and isinstance(effects[0], str), effects
    assert effects[0].startswith("ERROR "), effects
    return effects[0]


def stones(session: PbrainSession) -> tuple[set[str], set[str]]:
    """Our stones and the opponent's, as x,y."""
    return (
        {session.coordinates(c) for c in session.ours},
        {session.coordinates(c) for c in session.theirs},
    )


def play(session: PbrainSession, effects: list[object], time_limit: float = 0.05) -> list[str]:
    """Run the search a `Think` asks for (briefly) and answer it."""
    request = think(effects)
    return session.played(alphabeta(request.board, time_limit=time_limit))


# -- START, RECTSTART, RESTART ---------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 15, 19, 20])
def test_start_opens_a_square_board(size: int) -> None:
    session = started(size)
    assert session.size == size
    board = session.position()
    assert (board.size, board.k) == (size, 5)
    assert board.legal_moves() != []


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("START 4", "unsupported size 4: this brain plays boards 5×5 to 20×20"),
        ("START 21", "unsupported size 21"),
        ("START 99", "unsupported size 99"),
        ("START", "START needs the board size, a whole number: not ''"),
        ("START fifteen", "not 'fifteen'"),
        ("START 15,15", "not '15,15'"),
        ("RECTSTART 15,20", "only square boards: 15×20 is not square"),
        ("RECTSTART 15", "RECTSTART needs width,height, two whole numbers: not '15'"),
        ("RECTSTART a,b", "not 'a,b'"),
        ("RECTSTART 30,30", "unsupported size 30"),
    ],
)
def test_a_board_the_engine_cannot_play_is_refused(line: str, words: str) -> None:
    session = PbrainSession()
    assert words in error(session.handle(line))
    assert session.size == 0


def test_rectstart_with_equal_sides_is_a_start() -> None:
    session = PbrainSession()
    assert session.handle("RECTSTART 20,20") == ["OK"]
    assert session.size == 20


def test_restart_empties_the_board_and_keeps_its_size() -> None:
    session = started(20)
    feed(session, "BOARD", "1,1,1", "2,2,2", "DONE")
    assert session.handle("RESTART") == ["OK"]
    assert session.size == 20 and stones(session) == (set(), set())


@pytest.mark.parametrize("line", ["RESTART", "BEGIN", "TURN 1,1", "TAKEBACK 1,1"])
def test_commands_before_start_say_so(line: str) -> None:
    assert "send START first" in error(PbrainSession().handle(line))


def test_a_board_block_before_start_says_so() -> None:
    session = PbrainSession()
    assert feed(session, "BOARD", "1,1,1") == []
    assert "send START first" in error(session.handle("DONE"))


# -- BEGIN, TURN, the answer ------------------------------------------------------------------


def test_begin_asks_for_a_search_of_the_empty_board_and_the_answer_is_x_comma_y() -> None:
    session = started()
    effects = session.handle("BEGIN")
    request = think(effects)
    assert request.board.size == 15 and request.board.legal_moves() != []
    assert request.board.to_move is Mark.X
    message, move = play(session, effects)
    assert message.startswith("MESSAGE depth ")
    x, y = (int(v) for v in move.split(","))
    assert 0 <= x < 15 and 0 <= y < 15
    assert stones(session) == ({f"{x},{y}"}, set())


def test_turn_puts_the_opponents_stone_at_column_x_row_y() -> None:
    session = started()
    request = think(session.handle("TURN 3,1"))
    assert request.board[1 * 15 + 3] is Mark.X  # the opponent started: X, we are O
    assert request.board.to_move is Mark.O
    assert stones(session) == (set(), {"3,1"})


def test_a_won_line_is_completed_and_the_answer_says_its_value_exactly() -> None:
    session = started()
    effects = feed(
        session,
        "BOARD",
        "3,7,1",
        "4,7,1",
        "5,7,1",
        "6,7,1",
        "3,3,2",
        "5,3,2",
        "7,3,2",
        "9,3,2",
        "DONE",
    )
    message, move = play(session, effects)
    assert move in ("2,7", "7,7")
    assert message.startswith("MESSAGE depth ")
    assert "win in 1, exact" in message
    assert f"line {move}" in message


def test_a_search_still_running_is_reported_as_a_message() -> None:
    from tictactoe_tui.engine import Progress
    from tictactoe_tui.play.pbrain import search_message

    session = started()
    board = think(session.handle("TURN 7,7")).board
    report = Progress(
        depth=4,
        nodes=12345,
        elapsed=0.25,
        best_move=8 * 15 + 8,
        best_score=-12,
        pv=(8 * 15 + 8, 6 * 15 + 6),
        kind="at_most",
    )
    assert search_message(report, board) == (
        "MESSAGE depth 4: at most -12 (heuristic), upper bound; 12,345 positions in 0.25 s; "
        "line 8,8 6,6"
    )


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("TURN", "TURN needs x,y (two whole numbers): not ''"),
        ("TURN 3", "not '3'"),
        ("TURN 3,", "not '3,'"),
        ("TURN a,b", "not 'a,b'"),
        ("TURN 1,2,3", "not '1,2,3'"),
        ("TURN 15,0", "TURN 15,0 is off the 15×15 board (x and y count from 0 to 14)"),
        ("TURN -1,0", "TURN -1,0 is off the 15×15 board"),
        ("TURN 7,7", "TURN 7,7: that cell is taken"),
    ],
)
def test_a_malformed_turn_is_refused_and_changes_nothing(line: str, words: str) -> None:
    session = started()
    feed(session, "BOARD", "7,7,2", "DONE")
    before = stones(session)
    assert words in error(session.handle(line))
    assert stones(session) == before


# -- BOARD ... DONE -------------------------------------------------------------------------------


def test_board_gives_the_whole_position_ours_and_theirs() -> None:
    session = started()
    request = think(feed(session, "BOARD", "7,7,1", "8,7,2", "7,8,1", "DONE"))
    assert stones(session) == ({"7,7", "7,8"}, {"8,7"})
    # A manager's board may hold any counts (an opening): we are X unless they have more.
    assert request.board.to_move is Mark.X
    assert request.board[7 * 15 + 7] is Mark.X and request.board[7 * 15 + 8] is Mark.O


def test_an_empty_board_block_is_the_first_move() -> None:
    session = started()
    assert think(feed(session, "BOARD", "DONE")).board.legal_moves() == list(range(225))


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("9,9,3", "continuous-game stones (field 3) are not supported"),
        ("9,9,4", "a BOARD line is x,y,f with f 1 (mine), 2 (the opponent's) or 3"),
        ("9,9", "a BOARD line is x,y,f"),
        ("9", "a BOARD line is x,y,f"),
        ("a,b,1", "BOARD needs x,y (two whole numbers): not 'a,b'"),
        ("15,1,1", "BOARD 15,1 is off the 15×15 board"),
        ("7,7,2", "7,7 is given twice"),
    ],
)
def test_a_bad_board_line_refuses_the_whole_board_and_keeps_the_old_one(
    bad: str, words: str
) -> None:
    session = started()
    feed(session, "TURN 0,0")
    before = stones(session)
    answer = error(feed(session, "BOARD", "7,7,1", bad, "8,8,2", "DONE"))
    assert words in answer and "(the BOARD is ignored)" in answer
    assert stones(session) == before
    assert session.handle("ABOUT")[0].startswith("name=")  # out of the block again


def test_a_finished_game_or_a_full_board_gets_no_move() -> None:
    session = started()
    answer = error(
        feed(
            session,
            "BOARD",
            *(f"{x},0,1" for x in range(5)),
            *(f"{x},5,2" for x in range(5)),
            "DONE",
        )
    )
    assert answer == "ERROR the game is over: I have five in a row"
    session = started(5)
    # Every line of a 5×5 board filled this way reads XXOO or XOXO: no five, no empty cell.
    full = [f"{x},{y},{1 + ((x + 2 * y) % 4 >= 2)}" for y in range(5) for x in range(5)]
    assert error(feed(session, "BOARD", *full, "DONE")) == "ERROR the board is full"


# -- TAKEBACK ------------------------------------------------------------------------------------


def test_takeback_removes_either_sides_stone_then_board_replaces_everything() -> None:
    session = started()
    play(session, feed(session, "BOARD", "7,7,1", "8,8,2", "DONE"))
    ((last,),) = [stones(session)[0] - {"7,7"}]
    assert session.handle(f"TAKEBACK {last}") == ["OK"]
    assert session.handle("TAKEBACK 8,8") == ["OK"]
    assert stones(session) == ({"7,7"}, set())
    request = think(feed(session, "BOARD", "1,1,1", "2,2,2", "3,3,2", "DONE"))
    assert stones(session) == ({"1,1"}, {"2,2", "3,3"})
    assert request.board.to_move is Mark.O and str(request.board).count("O") == 1


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("TAKEBACK 0,0", "TAKEBACK 0,0: there is no stone there"),
        ("TAKEBACK", "TAKEBACK needs x,y"),
        ("TAKEBACK 7", "not '7'"),
        ("TAKEBACK 40,40", "off the 15×15 board"),
    ],
)
def test_a_takeback_that_removes_nothing_is_refused(line: str, words: str) -> None:
    session = started()
    feed(session, "TURN 7,7")
    assert words in error(session.handle(line))
    assert stones(session) == (set(), {"7,7"})


# -- INFO: the clock -----------------------------------------------------------------------------


def seconds(ms: float, share: float) -> float:
    """The session's arithmetic for a move of `ms` milliseconds."""
    return max(MIN_THINK, ms / 1000 * share - OVERHEAD)


def test_the_move_keeps_to_timeout_turn_with_a_margin() -> None:
    session = started()
    assert session.handle("INFO timeout_turn 500") == []
    soft, hard = think(session.handle("BEGIN")).time_limit, session.budget()[1]
    assert soft == pytest.approx(seconds(500, SOFT_SHARE))
    assert hard == pytest.approx(seconds(500, HARD_SHARE))
    assert soft < hard < 0.5 - OVERHEAD


def test_timeout_turn_zero_plays_fast() -> None:
    session = started()
    session.handle("INFO timeout_turn 0")
    assert session.budget()[1] == pytest.approx(seconds(FAST_TURN_MS, HARD_SHARE))


def test_the_match_clock_shares_out_the_time_left_and_a_low_time_left_moves_at_once() -> None:
    session = started()
    feed(session, "INFO timeout_turn 30000", "INFO timeout_match 180000", "INFO time_left 180000")
    plenty = session.budget()
    assert plenty[1] < 180 / 20  # a share of the match, well under the turn's 30 s
    session.handle("INFO time_left 2000")
    low = session.budget()
    assert low[1] < plenty[1] and low[1] <= 2.0 / 20
    session.handle("INFO time_left 150")
    assert session.budget() == (MIN_THINK, MIN_THINK)
    request = think(session.handle("BEGIN"))
    assert request.deadline == MIN_THINK
    # Even then the engine answers a legal move (one ply at worst).
    assert play(session, [request], request.time_limit)[1].count(",") == 1


def test_without_a_match_clock_time_left_is_ignored_and_below_zero_it_is_zero() -> None:
    session = started()
    feed(session, "INFO timeout_turn 1000", "INFO timeout_match 0", "INFO time_left -250")
    assert session.budget()[1] == pytest.approx(seconds(1000, HARD_SHARE))
    session.handle("INFO timeout_match 60000")
    assert session.budget() == (MIN_THINK, MIN_THINK)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("INFO", "INFO needs a key and a value: not ''"),
        ("INFO timeout_turn", "INFO needs a key and a value: not 'timeout_turn'"),
        ("INFO timeout_turn soon", "INFO timeout_turn needs a whole number: not 'soon'"),
        ("INFO timeout_turn -5", "INFO timeout_turn cannot be negative: -5"),
        ("INFO rule freestyle", "INFO rule needs a whole number"),
        ("INFO max_memory lots", "INFO max_memory needs a whole number"),
    ],
)
def test_a_malformed_info_is_refused_and_the_clock_stays(line: str, words: str) -> None:
    session = started()
    session.handle("INFO timeout_turn 700")
    before = session.budget()
    assert words in error(session.handle(line))
    assert session.budget() == before and session.rule == 0


def test_the_other_info_keys_are_kept_and_unknown_ones_ignored() -> None:
    session = started()
    assert (
        feed(
            session,
            "INFO max_memory 83886080",
            "INFO game_type 1",
            "INFO evaluate 7,7",
            "INFO folder /tmp/brain folder",
            "INFO colour purple",
        )
        == []
    )
    assert session.info == {
        "max_memory": "83886080",
        "game_type": "1",
        "evaluate": "7,7",
        "folder": "/tmp/brain folder",
        "colour": "purple",
    }


# -- INFO: the rules -------------------------------------------------------------------------------


def test_freestyle_is_played() -> None:
    session = started()
    assert session.handle("INFO rule 0") == []
    think(session.handle("BEGIN"))


@pytest.mark.parametrize(
    ("rule", "name"),
    [
        (1, "exactly five in a row"),
        (2, "continuous game"),
        (4, "renju"),
        (8, "caro"),
        (5, "exactly five in a row, renju"),
        (16, "unknown rule bits 16"),
    ],
)
def test_every_other_rule_is_refused_at_info_and_at_each_move_request(rule: int, name: str) -> None:
    session = started()
    refusal = error(session.handle(f"INFO rule {rule}"))
    assert refusal == (
        f"ERROR rule {rule} ({name}) is not supported: this brain plays "
        "freestyle gomoku only (INFO rule 0: five or more in a row wins)"
    )
    assert error(session.handle("BEGIN")) == refusal
    assert error(session.handle("TURN 1,1")) == refusal
    assert error(feed(session, "BOARD", "2,2,2", "DONE")) == refusal
    assert session.handle("INFO rule 0") == []
    think(session.handle("TURN 3,3"))


# -- ABOUT, END, the unknown -----------------------------------------------------------------------


def test_about_names_the_brain() -> None:
    assert PbrainSession("1.2.3").handle("ABOUT") == [
        'name="tictactoe-tui", version="1.2.3", author="the tictactoe-tui authors", country="n/a"'
    ]


def test_end_quits_with_status_0_and_is_what_interrupts_a_search() -> None:
    assert started().handle("END") == [Quit(0)]
    assert PbrainSession.interrupts("END\n") and PbrainSession.interrupts("end")
    assert not PbrainSession.interrupts("TURN 1,1")


@pytest.mark.parametrize("line", ["PLAY 7,7", "SWAP2BOARD", "HELLO there", "42"])
def test_an_unknown_command_gets_unknown_and_the_brain_carries_on(line: str) -> None:
    session = started()
    (answer,) = session.handle(line)
    assert isinstance(answer, str) and answer.startswith(f"UNKNOWN command {line.split()[0]}")
    assert session.handle("RESTART") == ["OK"]


def test_commands_are_read_in_any_case_and_blank_lines_ignored() -> None:
    session = PbrainSession()
    assert session.handle("start 15") == ["OK"]
    assert session.handle("   ") == []
    think(session.handle("turn 7,7"))


def test_played_without_a_request_is_a_programming_error() -> None:
    session = started()
    board = session.position()
    with pytest.raises(ValueError, match="no search was asked for"):
        session.played(alphabeta(board, time_limit=0.01))
