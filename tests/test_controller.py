"""The Game screen's rules, without a terminal: the controller's effects for every event."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tictactoe_tui.engine import Board, Decision, Mark, Progress, analyse_position
from tictactoe_tui.play.controller import (
    CVC_PAUSE,
    WAITING_TWO_PEOPLE,
    Bell,
    ClearPanel,
    Effect,
    Finished,
    GameController,
    Quit,
    Record,
    Reopened,
    Say,
    ScoreChanged,
    Search,
    ShowReport,
    ShowThinking,
    StopSearch,
    Wait,
)
from tictactoe_tui.play.settings import GameSettings


def said(effects: Sequence[Effect]) -> list[str]:
    """The notices among `effects`."""
    return [e.text for e in effects if isinstance(e, Say)]


def searches(effects: Sequence[Effect]) -> list[Search]:
    """The searches `effects` start."""
    return [e for e in effects if isinstance(e, Search)]


def answer(controller: GameController, search: Search) -> list[Effect]:
    """Run `search` here, as the worker would, and hand its answer to the controller."""
    return controller.search_done(search.job(*search.args))


def play_out(
    controller: GameController, effects: Sequence[Effect], limit: int = 40
) -> list[Effect]:
    """Answer every search the effects start (the computer's moves, the quiet scoring), as the
    screen and its worker would, until none is left; return every effect seen."""
    seen = list(effects)
    pending = searches(effects)
    while pending and limit:
        limit -= 1
        new = answer(controller, pending[-1])
        seen += new
        pending = searches(new)
    return seen


def hvc(**changes: Any) -> GameController:
    return GameController(GameSettings(seed=1, **changes))


def test_the_first_turn_scores_the_persons_moves_quietly() -> None:
    controller = hvc()
    effects = controller.next_turn()
    [search] = searches(effects)
    assert search.kind == "scores" and search.in_process
    assert controller.thinking == "scores"
    assert not any(isinstance(e, ShowThinking) for e in effects)  # quiet: no live panel
    assert controller.score_overlay().caption == "scoring X's moves…"
    answer(controller, search)
    overlay = controller.score_overlay()
    assert overlay.caption == "X's scores" and len(overlay.scores) == 9


def test_a_move_hands_the_turn_to_the_computer_which_answers() -> None:
    controller = hvc()
    effects = controller.choose(4)
    assert any(isinstance(e, StopSearch) for e in effects)
    [search] = searches(effects)
    assert search.kind == "computer" and controller.thinking == "computer"
    assert controller.status().turn == "Computer (O) is thinking…"
    assert any(isinstance(e, ShowThinking) for e in effects)
    reply = answer(controller, search)
    assert len(controller.game.moves) == 2
    assert any(isinstance(e, ShowReport) for e in reply)
    assert controller.status().last.startswith("Computer (O) played ")
    assert controller.status().turn == "Your turn (X)"


def test_a_taken_cell_is_refused_and_changes_nothing() -> None:
    controller = hvc(mode="human-vs-human")
    controller.choose(4)
    effects = controller.choose(4)
    assert said(effects) == ["B2 (row 2, column 2) is taken by X."]
    assert controller.game.moves == (4,)
    assert controller.status().notice == "B2 (row 2, column 2) is taken by X."


def test_a_move_while_the_computer_thinks_is_refused() -> None:
    controller = hvc()
    controller.choose(0)
    assert controller.thinking == "computer"
    effects = controller.choose(8)
    assert said(effects) == ["Wait: the computer is still thinking. Your move was not played."]
    assert controller.game.moves == (0,)


def test_a_hidden_board_rings_the_bell_for_moves_digits_and_undo() -> None:
    controller = hvc()
    controller.hidden = True
    assert controller.choose(0) == [Bell()]
    assert controller.digit_allowed() == Bell()
    assert controller.undo() == [Bell()]
    assert controller.game.moves == ()


def test_digits_only_place_marks_on_3x3() -> None:
    refused = hvc(size=5, k=4).digit_allowed()
    assert isinstance(refused, Say) and "3×3 only" in refused.text
    assert hvc().digit_allowed() is None


def test_undo_takes_back_your_move_and_the_computers_reply() -> None:
    controller = hvc()
    play_out(controller, controller.choose(0))
    assert len(controller.game.moves) == 2
    effects = controller.undo()
    assert controller.game.moves == ()
    assert said(effects)[-1].startswith("Took back A1")
    assert any(isinstance(e, ClearPanel) for e in effects)


def test_undo_says_why_when_there_is_nothing_to_take_back() -> None:
    assert said(hvc().undo()) == ["Nothing to undo: you have not moved yet."]
    assert said(hvc(mode="human-vs-human").undo()) == ["Nothing to undo: no move has been played."]
    assert said(hvc(mode="computer-vs-computer").undo()) == [
        "Undo takes back a person's move: there is none in this game."
    ]


def test_two_people_undo_one_move_at_a_time() -> None:
    controller = hvc(mode="human-vs-human")
    controller.choose(0)
    controller.choose(4)
    controller.undo()
    assert controller.game.moves == (0,)


def test_a_finished_game_is_recorded_once_and_undo_reopens_it() -> None:
    controller = hvc(mode="human-vs-human")
    effects: list[Effect] = []
    for cell in (0, 3, 1, 4, 2):  # X takes the top row
        effects += controller.choose(cell)
    records = [e for e in effects if isinstance(e, Record)]
    assert [r.game.outcome for r in records] == ["X"]
    assert Finished("X wins", "X made 3 in a row, A1 to C1, in 5 moves.") in effects
    assert any(isinstance(e, ScoreChanged) for e in effects)
    assert controller.session.tally("human-vs-human")[0] == ("X", 1)
    assert not controller.interactive
    assert controller.abandon() is None  # a finished game is not abandoned too
    controller.undo()
    assert controller.session.tally("human-vs-human")[0] == ("X", 0)
    assert controller.interactive
    again = controller.choose(2)
    assert [e.game.outcome for e in again if isinstance(e, Record)] == ["X"]


def test_undo_after_a_loss_hands_back_its_record_so_the_game_is_counted_once() -> None:
    controller = hvc(opponent="alphabeta", difficulty=100)
    effects: list[Effect] = []
    for cell in (1, 6, 3):  # B1, A3, A2: O takes column C
        effects += play_out(controller, controller.choose(cell))
    [lost] = [e.game for e in effects if isinstance(e, Record)]
    assert lost.outcome == "O"
    undone = controller.undo()
    assert Reopened(lost) in undone  # the history forgets the lost game...
    assert controller.session.tally("human-vs-computer") == (
        ("You", 0),
        ("Computer", 0),
        ("Draws", 0),
    )
    effects = []
    for cell in (5, 0, 7):  # ...and it ends again, a draw
        effects += play_out(controller, controller.choose(cell))
    assert [e.game.outcome for e in effects if isinstance(e, Record)] == ["draw"]
    assert not any(isinstance(e, Reopened) for e in effects)
    assert controller.session.tally("human-vs-computer") == (
        ("You", 0),
        ("Computer", 0),
        ("Draws", 1),
    )
    assert controller.abandon() is None  # one record, not an abandoned one as well


def test_an_unfinished_game_is_kept_as_abandoned_once() -> None:
    controller = hvc(mode="human-vs-human")
    assert controller.abandon() is None  # no move: nothing to keep
    controller.choose(4)
    kept = controller.abandon()
    assert kept is not None and kept.outcome == "abandoned" and len(kept.moves) == 1
    assert controller.abandon() is None


def test_a_game_from_a_position_keeps_its_setup_and_asks_nothing_of_it() -> None:
    controller = GameController(GameSettings(mode="human-vs-human"), setup=(0, 4))
    assert controller.abandon() is None  # only the setup is on the board
    assert said(controller.undo()) == ["Nothing to undo: no move has been played."]
    controller.choose(8)
    controller.undo()
    assert controller.game.moves == (0, 4)


def test_new_game_starts_from_the_setup_or_for_good_from_an_empty_board() -> None:
    controller = GameController(GameSettings(mode="human-vs-human"), setup=(0, 4))
    controller.choose(8)
    effects = controller.new_game()
    assert [e.game.outcome for e in effects if isinstance(e, Record)] == ["abandoned"]
    assert controller.game.moves == (0, 4)
    assert controller.status().notice == "New game from the position after move 2."
    assert ClearPanel(WAITING_TWO_PEOPLE) in effects
    controller.new_game(from_setup=False)
    assert controller.game.moves == () and controller.setup == ()
    assert controller.status().notice == "New game."
    controller.new_game()
    assert controller.game.moves == ()


def test_q_asks_in_the_middle_of_a_game_and_q_or_y_quits_keeping_it() -> None:
    for confirm in ("q", "y"):
        controller = hvc(mode="human-vs-human")
        controller.choose(4)
        effects = controller.request_quit()
        assert said(effects) == [
            "Quit in the middle of the game? q again or y quits; any other key goes on."
        ]
        assert controller.quit_pending
        assert not controller.key_pressed(confirm)
        effects = controller.request_quit() if confirm == "q" else controller.confirm_quit()
        assert [e.game.outcome for e in effects if isinstance(e, Record)] == ["abandoned"]
        assert effects[-1] == Quit()


def test_another_key_withdraws_the_quit_question() -> None:
    controller = hvc(mode="human-vs-human")
    controller.choose(4)
    controller.request_quit()
    assert controller.key_pressed("u")
    assert not controller.quit_pending and controller.status().notice == ""
    assert controller.confirm_quit() == []


def test_q_before_any_move_quits_at_once() -> None:
    assert hvc().request_quit()[-1] == Quit()


def test_c_switches_the_computer_and_is_recorded() -> None:
    controller = hvc()
    effects = controller.toggle_clever()
    assert said(effects) == ["The computer now plays random."]
    assert controller.status().players.endswith("(random for now; c brings back alpha-beta)")
    play_out(controller, controller.choose(0))
    assert controller.log.to_random == [0]
    assert said(hvc(mode="human-vs-human").toggle_clever()) == [
        "No computer plays in a game between two people."
    ]


def test_a_random_opponent_switches_to_alpha_beta_and_back() -> None:
    controller = hvc(opponent="random")
    assert controller.playing() == "random"
    controller.toggle_clever()
    assert controller.playing() == "alphabeta"
    assert "alpha-beta for now" in controller.status().players


def test_a_hint_uses_the_analysis_already_there_or_turns_the_scoring_into_one() -> None:
    controller = hvc()
    [scores] = searches(controller.next_turn())
    effects = controller.hint()
    assert controller.thinking == "hint"  # the same search, shown live now
    assert any(isinstance(e, ShowThinking) for e in effects) and not searches(effects)
    shown = answer(controller, scores)
    assert any(isinstance(e, ShowReport) for e in shown)
    assert controller.hint_shown and controller.status().notice.startswith("Hint: ")
    again = controller.hint()
    assert any(isinstance(e, ShowReport) for e in again) and not searches(again)


def test_no_hint_for_the_computer_or_after_the_end() -> None:
    controller = hvc()
    controller.choose(0)
    assert said(controller.hint()) == [
        "The computer's own analysis will show in the panel when it moves."
    ]


def test_v_hides_the_scores_and_stops_their_search() -> None:
    controller = hvc()
    controller.next_turn()
    effects = controller.toggle_scores()
    assert StopSearch() in effects and controller.thinking is None
    assert controller.score_overlay().scores == {}
    effects = controller.toggle_scores()
    assert searches(effects)[0].kind == "scores"


def test_the_quiet_scoring_reports_how_far_it_got() -> None:
    controller = hvc(size=10)
    controller.next_turn()
    assert controller.thinking == "scores"
    controller.progress(
        Progress(depth=3, nodes=900, elapsed=2.5, best_move=44, best_score=2, pv=(44,))
    )
    assert controller.score_overlay().caption == "scoring X's moves… depth 3, 2.5 of 1 s"


def test_two_computers_wait_between_moves_and_space_pauses() -> None:
    controller = hvc(mode="computer-vs-computer")
    assert controller.next_turn() == [Wait(CVC_PAUSE)]
    assert controller.next_turn() == []  # already waiting: no second timer
    [search] = searches(controller.cvc_tick())
    assert search.kind == "computer"
    effects = controller.toggle_pause()
    assert StopSearch() in effects and controller.paused
    assert controller.status().turn == "Paused: space resumes (h: the analysis of this position)"
    assert said(controller.choose(0)) == [
        "Two computers are playing: space pauses, n starts a new game."
    ]
    effects = controller.toggle_pause()
    assert controller.status().notice == "Resumed." and Wait(CVC_PAUSE) in effects


def test_two_computers_play_a_whole_game() -> None:
    controller = hvc(mode="computer-vs-computer")
    for _ in range(10):
        controller.next_turn()
        effects = play_out(controller, controller.cvc_tick())
        if controller.game.is_over:
            break
    assert controller.game.is_over
    assert any(isinstance(e, Finished) for e in effects)


def test_a_failed_computer_search_plays_a_random_move_and_says_so() -> None:
    controller = hvc()
    controller.choose(0)
    effects = controller.search_failed("worker died")
    assert len(controller.game.moves) == 2
    assert said(effects)[-1] == (
        "The search failed (worker died): the computer played a random move instead."
    )


def random_reply(cell: int) -> str:
    """On 3×3 at difficulty 30, X takes the centre and the computer answers `cell` at random:
    the panel's verdict."""
    controller = hvc(difficulty=30)
    assert [s.kind for s in searches(controller.choose(4))] == ["computer"]
    before = controller.game.board
    analysis = analyse_position(before, "alphabeta")
    decision = Decision(cell, False, "alphabeta", analysis, None, "random move (difficulty 30)")
    [report] = [
        e.report for e in controller.search_done((decision, None)) if isinstance(e, ShowReport)
    ]
    return report.verdict


def test_a_random_move_as_good_as_the_clever_one_says_so() -> None:
    # Every corner draws against the centre: A1 is ranked first, C3 (its mirror) is as good.
    verdict = random_reply(8)
    assert verdict == (
        "A random move (difficulty 30). The clever move was A1 (draw, score 0); "
        "C3 is proven just as good (draw, score 0)."
    )
    verdict = random_reply(0)
    assert verdict == (
        "A random move (difficulty 30). By chance it is the clever move: A1 (draw, score 0)."
    )
    verdict = random_reply(1)  # an edge loses
    assert verdict == (
        "A random move (difficulty 30). The clever move was A1 (draw, score 0), "
        "not B1 (loss in 6, score -4)."
    )


def test_a_failed_hint_says_so_in_the_panel() -> None:
    controller = hvc()
    controller.next_turn()
    controller.hint()
    effects = controller.search_failed("boom")
    assert ClearPanel("The analysis failed: boom") in effects


def test_the_board_view_labels_digits_on_3x3_and_lights_the_winning_line() -> None:
    controller = hvc(mode="human-vs-human")
    assert controller.board_view().labels[0] == "1"
    for cell in (0, 3, 1, 4, 2):
        controller.choose(cell)
    view = controller.board_view()
    assert view.winning == (0, 1, 2) and view.last == 2 and view.labels == {}
    assert view.marks[:3] == ("X", "X", "X")
    assert controller.move_list()[:2] == [("X", "A1"), ("O", "A2")]
    assert controller.status().turn == "Game over: X wins — n: new game · s: settings"


@pytest.mark.parametrize(
    ("mode", "players"),
    [
        ("human-vs-computer", "You: X   Computer: O (alpha-beta, clever)"),
        ("human-vs-human", "X vs O, two players at one keyboard (h: hint)"),
        ("computer-vs-computer", "Computer X vs computer O (alpha-beta, clever)"),
    ],
)
def test_the_status_names_the_players(mode: str, players: str) -> None:
    assert hvc(mode=mode).status().players == players


def test_the_computer_opens_when_it_moves_first() -> None:
    controller = hvc(first="computer")
    [search] = searches(controller.next_turn())
    assert search.kind == "computer"
    answer(controller, search)
    assert len(controller.game.moves) == 1
    assert controller.mark_of(0) is Mark.O
    assert controller.game.board.to_move is Mark.X


def test_a_seed_reproduces_the_computers_moves() -> None:
    def game_with(seed: int) -> tuple[int, ...]:
        controller = GameController(GameSettings(seed=seed, opponent="random"))
        for cell in range(9):
            if controller.game.is_over:
                break
            if controller.game.board[cell] is None:
                play_out(controller, controller.choose(cell))
        return controller.game.moves

    assert game_with(3) == game_with(3)


def test_the_engines_board_is_what_the_view_draws() -> None:
    controller = GameController(GameSettings(mode="human-vs-human"), setup=(4,))
    assert controller.board_view().marks == Board.empty(3).play(4).marks()


def test_a_paused_game_of_two_computers_shows_its_position_analysed_and_h_works() -> None:
    controller = hvc(mode="computer-vs-computer")
    controller.next_turn()
    play_out(controller, controller.cvc_tick())  # X has moved
    effects = controller.toggle_pause()
    [search] = searches(effects)
    assert search.kind == "hint" and search.args[0] is controller.game.board
    shown = answer(controller, search)
    assert any(isinstance(e, ShowReport) and e.report.title.startswith("Hint for O") for e in shown)
    assert any(isinstance(e, ShowReport) for e in controller.hint())  # h shows it again
    assert controller.status().turn.startswith("Paused")


def test_stepping_back_shows_earlier_positions_read_only_while_the_game_waits() -> None:
    controller = hvc(mode="human-vs-human")
    for cell in (4, 0, 8):
        controller.choose(cell)
    effects = controller.step(-1)
    assert StopSearch() in effects and controller.viewing == 2
    [search] = searches(effects)
    assert search.kind == "view"
    assert search.args[0] == Board.from_string("O../.X./...")
    assert controller.board_view().marks == Board.from_string("O../.X./...").marks()
    assert controller.board_view().last == 0
    report = answer(controller, search)
    assert isinstance(report[0], ShowReport)
    assert report[0].report.title.startswith("After move 2: X to move, best ")
    assert controller.status().turn.startswith("Looking back at move 2 of 3 (the game waits)")
    assert controller.next_turn() == []  # the game waits
    controller.step(-1)
    controller.step(-1)
    assert controller.viewing == 0
    assert said(controller.step(-1)) == [
        "This is the start of the game: there is no move before it."
    ]
    controller.step(1)
    controller.step(1)
    controller.step(1)  # past the last move: live
    assert controller.viewing is None and controller.notice == "Back to the game."
    assert said(controller.step(1)) == ["This is the game as it stands: , steps back through it."]
    assert controller.game.moves == (4, 0, 8)


def test_a_move_while_looking_back_returns_to_the_game_and_plays_there() -> None:
    controller = hvc(mode="human-vs-human")
    for cell in (4, 0):
        controller.choose(cell)
    controller.step(-2)
    assert controller.shown_position() == Board.empty()
    controller.choose(8)
    assert controller.viewing is None and controller.game.moves == (4, 0, 8)
    controller.step(-1)
    assert said(controller.choose(4))[-1].startswith("B2 (row 2, column 2) is taken by X")
    assert controller.viewing is None and controller.game.moves == (4, 0, 8)
    controller.step(-1)
    controller.undo()
    assert controller.viewing is None and controller.game.moves == (4, 0)
