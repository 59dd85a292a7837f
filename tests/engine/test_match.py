"""The match runner: counts add up, colours alternate, a seed replays the match, a cancel stops it
at once, and perfect play never loses on 3x3."""

from __future__ import annotations

import random
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tictactoe_tui.engine import (
    NO_LIMITS,
    OPPONENTS,
    AlphaBetaPlayer,
    Board,
    Decision,
    DifficultyPlayer,
    HeuristicPlayer,
    Limits,
    Mark,
    MinimaxPlayer,
    Player,
    RandomPlayer,
)
from tictactoe_tui.engine.players.match import (
    DEFAULT_OPENING_MOVES,
    GameOutcome,
    MatchHooks,
    MatchPlan,
    MatchResult,
    PlayerSpec,
    run_match,
)

ALPHABETA = PlayerSpec("alphabeta")
RANDOM = PlayerSpec("random")


class MarkRecorder:
    """A random player that writes down the mark it was asked to move for, in `seen`."""

    def __init__(self, rng: random.Random, seen: list[Mark]) -> None:
        self.name = "recorder"
        self.inner = RandomPlayer(rng)
        self.seen = seen

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        self.seen.append(board.to_move)
        return self.inner.choose(board)


def replay(outcome: GameOutcome, size: int, k: int) -> Board:
    board = Board.empty(size, k)
    for move in outcome.moves:
        board = board.play(move)
    return board


# -- what a match adds up to ----------------------------------------------------------------------


def check_totals(result: MatchResult) -> None:
    x, o = result.x_stats, result.o_stats
    assert result.games == result.x_wins + result.o_wins + result.draws
    assert x.overall.wins == o.overall.losses and x.overall.losses == o.overall.wins
    assert x.overall.draws == o.overall.draws == result.draws
    for stats in (x, o):
        assert stats.overall.games == result.games
        assert stats.as_x.games + stats.as_o.games == result.games
        assert stats.as_x.wins + stats.as_o.wins == stats.overall.wins
        assert stats.as_x.draws + stats.as_o.draws == stats.overall.draws
    for outcome in result.outcomes:
        assert replay(outcome, result.size, result.k) == outcome.final
        assert outcome.final.is_over
        made = outcome.opening + outcome.x_cost.moves + outcome.o_cost.moves
        assert made == len(outcome.moves)
    assert x.moves == sum(g.x_cost.moves for g in result.outcomes)
    assert o.positions == sum(g.o_cost.positions for g in result.outcomes)


def test_every_game_is_counted_once_for_each_player() -> None:
    result = run_match(PlayerSpec("h1", difficulty=60), PlayerSpec("h2"), MatchPlan(12, seed=3))
    assert result.games == result.requested == 12 and not result.cancelled
    check_totals(result)
    assert 0 < result.x_stats.overall.games == 12


def test_a_big_board_match_adds_up_too() -> None:
    result = run_match(PlayerSpec("h1"), PlayerSpec("random"), MatchPlan(4, size=6, k=4, seed=2))
    check_totals(result)
    assert result.k == 4 and all(g.final.size == 6 for g in result.outcomes)


def test_means_are_per_move_and_a_random_player_searches_nothing() -> None:
    result = run_match(ALPHABETA, RANDOM, MatchPlan(4, seed=5))
    x, o = result.x_stats, result.o_stats
    assert o.positions == 0 and o.mean_positions == 0
    assert x.positions > 0 and x.mean_positions == x.positions / x.moves
    assert x.mean_seconds == pytest.approx(x.seconds / x.moves)
    assert x.seconds > 0


def test_win_draw_loss_points() -> None:
    result = run_match(ALPHABETA, RANDOM, MatchPlan(10, seed=0))
    stats = result.x_stats.overall
    assert stats.points == stats.wins + stats.draws / 2


# -- colours --------------------------------------------------------------------------------------


def test_the_x_player_plays_x_in_odd_numbered_games_and_o_in_even_ones() -> None:
    seen: dict[int, list[Mark]] = {}

    def recorder(rng: random.Random) -> Player:
        marks: list[Mark] = []
        seen[len(seen)] = marks
        return MarkRecorder(rng, marks)

    result = run_match(recorder, RANDOM, MatchPlan(6, seed=1))
    for game, outcome in enumerate(result.outcomes):
        expected = Mark.X if game % 2 == 0 else Mark.O
        assert outcome.x_mark is expected
        assert set(seen[game]) == {expected}
        assert outcome.mark_of("o") is expected.opponent
    assert result.x == "recorder" and result.o == "random"


def test_without_swapping_the_x_player_is_always_x() -> None:
    result = run_match(RANDOM, RANDOM, MatchPlan(5, seed=4, swap_colours=False))
    assert all(g.x_mark is Mark.X for g in result.outcomes)
    assert result.x_stats.as_o.games == 0


def test_a_win_counts_for_the_player_not_the_mark() -> None:
    result = run_match(ALPHABETA, PlayerSpec("random"), MatchPlan(20, seed=9))
    for outcome in result.outcomes:
        if outcome.winner is not None:
            assert outcome.winning_side == "x"
            assert outcome.winner is outcome.x_mark
    assert result.x_stats.as_o.wins > 0, "alpha-beta should win some games as O too"


# -- seeds and openings --------------------------------------------------------------------------


def test_a_seed_replays_the_match_exactly() -> None:
    first = run_match(PlayerSpec("h1"), RANDOM, MatchPlan(6, size=5, k=4, seed=11))
    again = run_match(PlayerSpec("h1"), RANDOM, MatchPlan(6, size=5, k=4, seed=11))
    assert [g.moves for g in first.outcomes] == [g.moves for g in again.outcomes]
    other = run_match(PlayerSpec("h1"), RANDOM, MatchPlan(6, size=5, k=4, seed=12))
    assert [g.moves for g in first.outcomes] != [g.moves for g in other.outcomes]


def test_a_game_does_not_depend_on_how_many_games_follow() -> None:
    short = run_match(RANDOM, PlayerSpec("h2"), MatchPlan(3, seed=7))
    long = run_match(RANDOM, PlayerSpec("h2"), MatchPlan(8, seed=7))
    assert [g.moves for g in short.outcomes] == [g.moves for g in long.outcomes[:3]]


def test_3x3_games_have_no_random_opening_by_default() -> None:
    result = run_match(ALPHABETA, ALPHABETA, MatchPlan(4, seed=1))
    assert all(g.opening == 0 for g in result.outcomes)


def test_bigger_boards_open_randomly_near_the_centre_and_pairs_share_the_opening() -> None:
    result = run_match(PlayerSpec("h1"), PlayerSpec("h2"), MatchPlan(6, size=8, k=5, seed=3))
    openings = [g.moves[: g.opening] for g in result.outcomes]
    assert all(g.opening == DEFAULT_OPENING_MOVES for g in result.outcomes)
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert len({openings[0], openings[2], openings[4]}) == 3
    for opening in openings:
        for cell in opening:
            row, col = divmod(cell, 8)
            assert 2 <= row <= 5 and 2 <= col <= 5


def test_the_opening_length_can_be_chosen() -> None:
    result = run_match(RANDOM, RANDOM, MatchPlan(2, seed=1, opening_moves=4))
    assert all(g.opening == 4 for g in result.outcomes)
    none = run_match(PlayerSpec("h1"), PlayerSpec("h1"), MatchPlan(2, size=5, k=4, opening_moves=0))
    assert all(g.opening == 0 for g in none.outcomes)


def test_each_game_gets_fresh_players() -> None:
    built: list[Player] = []

    def counting(rng: random.Random) -> Player:
        player = RandomPlayer(rng)
        built.append(player)
        return player

    run_match(counting, counting, MatchPlan(5, seed=2))
    assert len(built) == 10 and len({id(p) for p in built}) == 10


# -- progress and cancelling ---------------------------------------------------------------------


def test_on_game_hears_every_game_in_order() -> None:
    heard: list[tuple[int, GameOutcome]] = []
    result = run_match(
        RANDOM, RANDOM, MatchPlan(5, seed=1), MatchHooks(on_game=lambda i, g: heard.append((i, g)))
    )
    assert [i for i, _ in heard] == [0, 1, 2, 3, 4]
    assert tuple(g for _, g in heard) == result.outcomes


def test_on_move_hears_every_move() -> None:
    boards: list[tuple[int, Board]] = []
    result = run_match(
        RANDOM, RANDOM, MatchPlan(2, seed=1), MatchHooks(on_move=lambda i, b: boards.append((i, b)))
    )
    assert len(boards) == sum(len(g.moves) for g in result.outcomes)
    assert boards[-1] == (1, result.outcomes[1].final)


def test_should_stop_between_moves_ends_the_match_without_the_unfinished_game() -> None:
    moves = 0

    def count(index: int, board: Board) -> None:
        nonlocal moves
        moves += 1

    result = run_match(
        RANDOM,
        RANDOM,
        MatchPlan(10, seed=1),
        MatchHooks(on_move=count, should_stop=lambda: moves >= 12),
    )
    assert result.cancelled
    assert result.games < 10 and result.requested == 10
    check_totals(result)


def test_a_cancel_during_a_long_search_returns_quickly() -> None:
    stop = threading.Event()
    spec = PlayerSpec("alphabeta", time_limit=30)
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    began = time.perf_counter()
    result = run_match(spec, spec, MatchPlan(2, size=12, k=5), MatchHooks(should_stop=stop.is_set))
    elapsed = time.perf_counter() - began
    timer.cancel()
    assert result.cancelled and result.games == 0
    assert elapsed < 5, f"the match took {elapsed:.1f} s to stop"


# -- perfect play --------------------------------------------------------------------------------


def test_alphabeta_never_loses_on_3x3_with_either_mark() -> None:
    for opponent in ("random", "h1", "h2"):
        result = run_match(ALPHABETA, PlayerSpec(opponent), MatchPlan(30, seed=21))
        assert result.x_stats.overall.losses == 0, opponent
        assert result.x_stats.as_x.games == result.x_stats.as_o.games == 15


def test_perfect_players_always_draw_on_3x3() -> None:
    result = run_match(ALPHABETA, ALPHABETA, MatchPlan(10, seed=4))
    assert result.draws == 10


def test_minimax_never_loses_to_random() -> None:
    result = run_match(PlayerSpec("minimax"), RANDOM, MatchPlan(2, seed=8))
    assert result.x_stats.overall.losses == 0


# -- bad arguments -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"games": 0}, "at least 1 game"),
        ({"games": 2, "size": 4, "k": 5}, "k (marks in a row to win)"),
        ({"games": 2, "size": 21}, "20×20"),
        ({"games": 2, "opening_moves": 9}, "opening moves"),
    ],
)
def test_bad_match_arguments_are_refused_clearly(kwargs: dict[str, int], words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        run_match(RANDOM, RANDOM, MatchPlan(**kwargs))


# -- player specs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("alphabeta", PlayerSpec("alphabeta")),
        ("alphabeta:time=0.5:depth=3", PlayerSpec("alphabeta", depth=3, time_limit=0.5)),
        ("minimax:depth=2:difficulty=70", PlayerSpec("minimax", depth=2, difficulty=70)),
        (" H1 : difficulty = 40 ", PlayerSpec("h1", difficulty=40)),
        ("random", PlayerSpec("random")),
    ],
)
def test_specs_parse(text: str, spec: PlayerSpec) -> None:
    assert PlayerSpec.parse(text) == spec


def test_a_spec_prints_as_the_command_line_writes_it() -> None:
    assert str(PlayerSpec("alphabeta", depth=3, time_limit=0.5)) == "alphabeta:depth=3:time=0.5"
    assert str(PlayerSpec("h2", difficulty=80)) == "h2:difficulty=80"
    assert str(PlayerSpec("alphabeta", time_limit=1.0)) == "alphabeta:time=1"


@given(st.sampled_from(OPPONENTS), st.data())
def test_every_valid_spec_round_trips(opponent: str, data: st.DataObject) -> None:
    depth = (
        data.draw(st.none() | st.integers(1, 30)) if opponent in ("minimax", "alphabeta") else None
    )
    time_limit = data.draw(st.none() | st.floats(0.001, 100)) if opponent == "alphabeta" else None
    difficulty = 100 if opponent == "random" else data.draw(st.integers(1, 100))
    spec = PlayerSpec(opponent, depth, time_limit, difficulty)
    assert PlayerSpec.parse(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "must start with a player"),
        ("chess", "unknown player 'chess'"),
        ("alphabeta:depth", "'depth' is not an option"),
        ("alphabeta:speed=3", "unknown option 'speed'"),
        ("alphabeta:depth=2:depth=3", "depth is given twice"),
        ("alphabeta:depth=two", "depth must be a whole number of plies"),
        ("h1:difficulty=high", "difficulty must be a whole number of percent"),
        ("alphabeta:depth=0", "at least 1"),
        ("alphabeta:time=soon", "number of seconds"),
        ("alphabeta:time=0", "above 0"),
        ("alphabeta:time=inf", "above 0"),
        ("alphabeta:difficulty=101", "from 1"),
        ("random:depth=2", "random does not search"),
        ("h1:time=1", "h1 has no time limit"),
        ("minimax:time=1", "give it a depth"),
        ("random:difficulty=50", "random plays at random already"),
        # Issue 39 item 5: an option after a path is an option, not more of the path.
        ("engine:path=/bin/sh:foo=1", "unknown option 'foo'"),
        ("engine:path=", "path= names nothing"),
        ("python:path=", "path= names nothing"),
    ],
)
def test_bad_specs_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words) as caught:
        PlayerSpec.parse(text)
    assert "\n" not in str(caught.value)


def test_a_spec_builds_the_player_it_describes() -> None:
    rng = random.Random(1)
    player = PlayerSpec("alphabeta", depth=3, time_limit=0.5).build(rng)
    assert isinstance(player, AlphaBetaPlayer)
    assert (player.depth, player.time_limit, player.rng) == (3, 0.5, rng)
    minimax = PlayerSpec("minimax", depth=2).build(rng)
    assert isinstance(minimax, MinimaxPlayer) and minimax.depth == 2
    assert isinstance(PlayerSpec("h2").build(rng), HeuristicPlayer)
    assert isinstance(PlayerSpec("random").build(rng), RandomPlayer)
    wrapped = PlayerSpec("h1", difficulty=30).build(rng)
    assert isinstance(wrapped, DifficultyPlayer) and wrapped.difficulty == 30


def test_a_depth_limit_is_what_the_player_searches() -> None:
    # A quiet opening: on 6x6 with four in a row the first player's win is found by threat
    # search before any depth is searched.
    board = Board.empty(10, 5).play(44).play(45)
    decision = PlayerSpec("alphabeta", depth=2).build(random.Random(0)).choose(board)
    assert decision.analysis is not None and decision.analysis.depth == 2
