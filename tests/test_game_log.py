"""The Game screen's running record (`GameLog`): whatever is played, switched and taken back,
the game it hands the history survives export and import unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_controller import play_out
from tictactoe_tui.engine import Decision, Game
from tictactoe_tui.history.record import PlayedGame
from tictactoe_tui.history.store import HistoryStore
from tictactoe_tui.play.controller import GameController
from tictactoe_tui.play.log import GameLog
from tictactoe_tui.play.settings import GameSettings

MODES = ("human-vs-computer", "human-vs-human", "computer-vs-computer")


def computer(cell: int, clever: bool) -> Decision:
    """A computer's decision without an analysis (its cost is the seconds the log is given)."""
    return Decision(
        move=cell,
        clever=clever,
        algorithm="alphabeta" if clever else "random",
        analysis=None,
        terms=None,
        reason="",
    )


@st.composite
def played(draw: st.DrawFn) -> PlayedGame:
    """A game as the Game screen logs it: moves, `c` presses and undos in any order, from an
    empty board or a set-up position, ended or abandoned."""
    size = draw(st.sampled_from((3, 3, 4)))
    game_settings = GameSettings(
        mode=draw(st.sampled_from(MODES)),
        size=size,
        first=draw(st.sampled_from(("human", "computer"))),
        mark=draw(st.sampled_from(("X", "O"))),
        opponent=draw(st.sampled_from(("alphabeta", "random", "h1"))),
    )
    game = Game(size, None, game_settings.first_mark)
    setup_length = draw(st.integers(0, 3))
    setup: list[int] = []
    for _ in range(setup_length):
        if game.is_over:
            break
        cell = draw(st.sampled_from(game.board.legal_moves()))
        game.play(cell)
        setup.append(cell)
    log = GameLog(game_settings, setup)
    clever = game_settings.opponent != "random"
    for step in draw(st.lists(st.sampled_from(("move", "move", "switch", "undo")), max_size=30)):
        if step == "move" and not game.is_over:
            mark = game.board.to_move
            cell = draw(st.sampled_from(game.board.legal_moves()))
            game.play(cell)
            if game_settings.is_computer(mark):
                log.computer_move(computer(cell, clever), mark, draw(st.floats(0, 5)))
            else:
                log.human_move(cell, mark)
        elif step == "switch":
            clever = not clever
            log.switched(clever)
        elif step == "undo" and len(game.moves) > len(setup):
            count = draw(st.integers(1, len(game.moves) - len(setup)))
            for _ in range(count):
                game.undo()
            log.undone(count)
    result = game.result
    outcome = (
        "abandoned" if result is None else "draw" if result.winner is None else str(result.winner)
    )
    return log.played_game(outcome)  # type: ignore[arg-type]


@given(played())
@settings(max_examples=300, deadline=None)
@pytest.mark.slow
def test_any_logged_game_survives_export_and_import(game: PlayedGame) -> None:
    assert all(
        number <= len(game.moves) for number in (*game.switched_to_random, *game.switched_to_clever)
    )
    assert PlayedGame.from_record(game.to_record(1)) == game


@given(st.lists(played(), min_size=1, max_size=4))
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_logged_games_come_back_from_the_history_and_import_again(
    tmp_path: Path, games: list[PlayedGame]
) -> None:
    store = HistoryStore.open(tmp_path / str(len(list(tmp_path.iterdir()))))
    for game in games:
        game_id = store.save(game)
        assert game_id is not None
        kept = store.game(game_id)
        assert kept == game
        again = store.save(PlayedGame.from_record(kept.to_record(game_id)))
        assert again is not None and store.game(again) == game
    store.close()


def test_undo_back_to_the_start_after_a_switch_leaves_a_record_that_imports() -> None:
    # The issue's steps: six plies, c, u back to the start, then a shorter game to the end.
    settings_ = GameSettings(opponent="h1")
    log = GameLog(settings_)
    for number, cell in enumerate((0, 4, 1, 2, 6, 3)):
        mark = settings_.first_mark if number % 2 == 0 else settings_.first_mark.opponent
        if settings_.is_computer(mark):
            log.computer_move(computer(cell, True), mark, 0.01)
        else:
            log.human_move(cell, mark)
    log.switched(False)
    log.undone(6)
    assert (log.to_random, log.to_clever) == ([0], [])  # random from the first move on
    for number, cell in enumerate((4, 0, 8, 2, 1)):
        mark = settings_.first_mark if number % 2 == 0 else settings_.first_mark.opponent
        if settings_.is_computer(mark):
            log.computer_move(computer(cell, False), mark, 0.01)
        else:
            log.human_move(cell, mark)
    game = log.played_game("abandoned")
    assert PlayedGame.from_record(game.to_record(1)) == game


def test_switches_taken_back_in_pairs_leave_no_trace() -> None:
    first = GameSettings(mode="human-vs-human").first_mark
    log = GameLog(GameSettings(mode="human-vs-human"))
    log.human_move(4, first)
    log.switched(False)
    log.human_move(0, first.opponent)
    log.switched(True)
    log.undone(1)
    assert (log.to_random, log.to_clever) == ([], [])


def test_an_undone_switch_still_says_how_the_computer_plays_now() -> None:
    first = GameSettings().first_mark
    log = GameLog(GameSettings())
    log.human_move(4, first)
    log.computer_move(computer(0, True), first.opponent, 0.01)
    log.switched(False)
    log.undone(2)
    assert (log.to_random, log.to_clever) == ([0], [])
    log.switched(True)
    assert (log.to_random, log.to_clever) == ([0], [0])


def test_the_issues_steps_through_the_game_controller_give_a_record_that_imports() -> None:
    # Six plies against H1, c (random now), u until nothing is left, one more move, abandon.
    controller = GameController(GameSettings(opponent="h1", seed=2))
    play_out(controller, controller.next_turn())
    for cell in (4, 2, 3):  # B2, C1, A2: H1 blocks each threat
        play_out(controller, controller.choose(cell))
    assert len(controller.game.moves) == 6 and not controller.game.is_over
    controller.toggle_clever()
    while len(controller.game.moves) > 0:
        play_out(controller, controller.undo())
    play_out(controller, controller.choose(0))
    game = controller.abandon()
    assert game is not None and len(game.moves) == 2
    assert (game.switched_to_random, game.switched_to_clever) == ((0,), ())
    assert PlayedGame.from_record(game.to_record(1)) == game
