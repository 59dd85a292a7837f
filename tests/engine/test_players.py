"""Computer players: the clever ones never lose on 3x3, the heuristic one wins and blocks, the rng
makes every decision reproducible and breaks ties, and difficulty mixes in random moves."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.positions import reachable_3x3
from tictactoe_tui.engine import (
    NO_LIMITS,
    OPPONENTS,
    AlphaBetaPlayer,
    Board,
    Decision,
    DifficultyPlayer,
    HeuristicPlayer,
    IllegalMove,
    Limits,
    Mark,
    MinimaxPlayer,
    Player,
    ProgressCallback,
    RandomPlayer,
    analyse_position,
    explain_h1,
    explain_h2,
    h1,
    h2,
    make_player,
)

CleverFactory = Callable[[random.Random], Player]
CLEVER: dict[str, CleverFactory] = {
    "alphabeta": lambda rng: AlphaBetaPlayer(rng),
    "minimax": lambda rng: MinimaxPlayer(rng),
}


# -- helpers --------------------------------------------------------------------------------------


@cache
def game_value(board: Board) -> int:
    """+1 if the side to move wins with best play, 0 for a draw, -1 for a loss (plain negamax)."""
    if board.winner is not None:
        return -1  # the side that just moved made the line
    if board.is_full:
        return 0
    return max(-game_value(board.play(m)) for m in board.legal_moves())


def threats(board: Board, mark: Mark) -> set[int]:
    """Empty cells where `mark` would complete a line."""
    out = set()
    for cells in board.geometry.line_cells:
        marks = [board[c] for c in cells]
        if marks.count(mark) == board.k - 1 and marks.count(None) == 1:
            out.add(cells[marks.index(None)])
    return out


def best_moves(decision: Decision) -> set[int]:
    """The moves sharing the best score in the decision's analysis."""
    assert decision.analysis is not None
    best = max(s.score for s in decision.analysis.scores)
    return {s.move for s in decision.analysis.scores if s.score == best}


class Spy:
    """A player that records the should_stop it was given and plays the first legal move."""

    name = "Spy"

    def __init__(self) -> None:
        self.stops: list[Callable[[], bool] | None] = []
        self.listeners: list[ProgressCallback | None] = []

    def choose(self, board: Board, limits: Limits = NO_LIMITS) -> Decision:
        self.stops.append(limits.should_stop)
        self.listeners.append(limits.on_progress)
        analysis = analyse_position(board, "h1")
        return Decision(board.legal_moves()[0], True, "h1", analysis, None, "spy")


# -- the clever computer never loses on 3x3 --------------------------------------------------------


@pytest.mark.parametrize("algorithm", sorted(CLEVER))
@pytest.mark.parametrize("first", list(Mark))
@pytest.mark.parametrize("mark", list(Mark))
def test_the_clever_computer_never_loses_against_any_line_of_play(
    algorithm: str, first: Mark, mark: Mark
) -> None:
    """Walk every opponent reply; at the computer's turns follow every move it might pick."""
    player = CLEVER[algorithm](random.Random(7))
    visited: set[Board] = set()
    stack = [Board.empty(first=first)]
    while stack:
        board = stack.pop()
        if board in visited:
            continue
        visited.add(board)
        if board.is_over:
            assert board.winner is not mark.opponent, f"{algorithm} as {mark} lost: {board}"
            continue
        if board.to_move is mark:
            decision = player.choose(board)
            tied = best_moves(decision)
            # The rng picks among the tied-best moves, so every one of them must hold up.
            assert decision.move in tied
            assert decision.clever and decision.algorithm == algorithm
            for move in tied:
                # Never throw away a win or a draw the position still holds.
                assert -game_value(board.play(move)) == game_value(board), (board, move)
            stack.extend(board.play(m) for m in tied)
        else:
            stack.extend(board.play(m) for m in board.legal_moves())
    assert len(visited) > 100


def test_alphabeta_and_minimax_agree_on_every_3x3_position() -> None:
    for board in reachable_3x3():
        if board.is_over or board.move_count < 2:
            continue
        ab = AlphaBetaPlayer(random.Random(0)).choose(board)
        mm = MinimaxPlayer(random.Random(0)).choose(board)
        assert best_moves(ab) == best_moves(mm), board
        assert ab.analysis is not None and ab.analysis.complete


def test_the_clever_computer_takes_a_win_and_blocks_a_loss() -> None:
    for factory in CLEVER.values():
        assert factory(random.Random(1)).choose(Board.from_string("XX./OO./...")).move == 2
        # O must block at 2; X then forks through the centre, but any other move loses sooner.
        blocked = factory(random.Random(1)).choose(Board.from_string("XX./O../..."))
        assert blocked.move == 2
        assert blocked.reason.endswith(": loss in 4")


# -- the heuristic player ----------------------------------------------------------------------


@pytest.mark.parametrize("heuristic", ["h1", "h2"])
def test_heuristic_player_wins_else_blocks_else_plays_the_best_score_everywhere(
    heuristic: str,
) -> None:
    player = HeuristicPlayer(heuristic, random.Random(3))
    value = h1 if heuristic == "h1" else h2
    explain = explain_h1 if heuristic == "h1" else explain_h2
    for board in reachable_3x3():
        if board.is_over:
            continue
        me = board.to_move
        decision = player.choose(board)
        wins = threats(board, me)
        blocks = threats(board, me.opponent)
        if wins:
            assert decision.move in wins
            assert decision.reason == "wins at once"
        elif blocks:
            assert decision.move in blocks
            assert decision.reason == (f"blocks {me.opponent} at {board.cell_name(decision.move)}")
        else:
            scores = {m: value(board.play(m), me) for m in board.legal_moves()}
            assert scores[decision.move] == max(scores.values())
            assert decision.reason.startswith(f"best {heuristic.upper()} score ")
        assert decision.terms == explain(board.play(decision.move), me)
        assert decision.clever and decision.algorithm == heuristic


def test_heuristic_player_prefers_its_own_win_to_a_block() -> None:
    board = Board.from_string("XX./OO./X..")  # O to move: O wins at 5, X threatens 2
    for heuristic in ("h1", "h2"):
        decision = HeuristicPlayer(heuristic, random.Random(0)).choose(board)
        assert (decision.move, decision.reason) == (5, "wins at once")


def test_heuristic_player_blocks_and_says_where() -> None:
    decision = HeuristicPlayer("h1", random.Random(0)).choose(Board.from_string("XX./O../..."))
    assert decision.move == 2
    assert decision.reason == "blocks X at row 1, column 3"


def test_heuristic_player_explains_its_best_score() -> None:
    board = Board.from_string("X../.../...")  # O to move, no threats anywhere
    decision = HeuristicPlayer("h1", random.Random(0)).choose(board)
    assert decision.move == 4
    # O in the centre: O1 = 3 (row 2, column 2, anti-diagonal), X1 = 2 (row 1, column 1).
    assert decision.reason == "best H1 score 1 (3·0 + 3 \N{MINUS SIGN} (3·0 + 2))"
    assert decision.terms == explain_h1(board.play(4), Mark.O)


def test_heuristic_player_shows_the_heuristic_analysis_of_every_move() -> None:
    board = Board.from_string("OO./.X./...")  # H1's worked example: X to move
    decision = HeuristicPlayer("h1", random.Random(0)).choose(board)
    assert decision.move == 2
    assert decision.analysis is not None and decision.analysis.algorithm == "h1"
    assert decision.analysis.scores == analyse_position(board, "h1").scores
    scores = {s.move: s.score for s in decision.analysis.scores}
    assert scores == {2: 4, 3: 1, 5: 1, 6: 2, 7: -1, 8: 0}


def test_heuristic_player_needs_a_known_heuristic_and_an_rng() -> None:
    with pytest.raises(ValueError, match="unknown heuristic 'h3': use 'h1' or 'h2'"):
        HeuristicPlayer("h3", random.Random(0))
    with pytest.raises(TypeError, match="needs an rng"):
        HeuristicPlayer("h1")


# -- bigger boards ---------------------------------------------------------------------------------


def big_players() -> list[Player]:
    rng = random.Random(5)
    return [
        AlphaBetaPlayer(rng, time_limit=0.2),
        MinimaxPlayer(rng),
        HeuristicPlayer("h1", rng),
        HeuristicPlayer("h2", rng),
    ]


def test_on_5x5_k4_every_clever_player_takes_the_win_over_the_block() -> None:
    # O to move: O completes row 2 at cell 8; X would complete row 1 at cell 3.
    board = Board.from_string("XXX../OOO../X..../...../.....", k=4)
    for player in big_players():
        assert player.choose(board).move == 8, player.name


def test_on_5x5_k4_every_clever_player_blocks_an_open_three() -> None:
    board = Board.from_string("XXX../OO.../...../...../.....", k=4)  # O to move
    for player in big_players():
        assert player.choose(board).move == 3, player.name


def test_alphabeta_on_a_big_board_returns_a_legal_move_within_its_budget() -> None:
    board = Board.empty(7).play(24)
    decision = AlphaBetaPlayer(random.Random(2), time_limit=0.2).choose(board)
    assert decision.move in board.legal_moves()
    assert decision.analysis is not None and decision.analysis.scores


# -- the rng: reproducible decisions, ties broken at random ----------------------------------------


def self_play(opponent: str, seed: int, difficulty: int = 100) -> list[tuple[object, ...]]:
    """A computer-vs-computer game; each decision without its timing."""
    rng = random.Random(seed)
    players = {m: make_player(opponent, rng, difficulty=difficulty) for m in Mark}
    board = Board.empty()
    out: list[tuple[object, ...]] = []
    while not board.is_over:
        d = players[board.to_move].choose(board)
        scores = d.analysis.scores if d.analysis else None
        out.append((d.move, d.clever, d.algorithm, d.reason, d.terms, scores))
        board = board.play(d.move)
    return out


@pytest.mark.parametrize("opponent", OPPONENTS)
@pytest.mark.slow
def test_the_same_seed_gives_the_same_decisions(opponent: str) -> None:
    assert self_play(opponent, 11, difficulty=60) == self_play(opponent, 11, difficulty=60)


# Minimax is left out: it walks the whole tree from the empty board (over half a second a game);
# its tie-breaking is covered by the opening-move test below.
@pytest.mark.parametrize("opponent", ["random", "h1", "h2", "alphabeta"])
def test_different_seeds_play_different_games(opponent: str) -> None:
    games = {tuple(step[0] for step in self_play(opponent, seed)) for seed in range(12)}
    assert len(games) > 1


# Full minimax from the empty board visits every node of the game tree, so it gets fewer seeds.
@pytest.mark.parametrize(
    ("algorithm", "seeds", "at_least"), [("alphabeta", 40, 6), ("minimax", 6, 3)]
)
@pytest.mark.slow
def test_the_rng_breaks_ties_among_equally_good_opening_moves(
    algorithm: str, seeds: int, at_least: int
) -> None:
    board = Board.empty()
    decisions = [CLEVER[algorithm](random.Random(seed)).choose(board) for seed in range(seeds)]
    tied = best_moves(decisions[0])
    assert tied == set(range(9))  # every opening move draws with best play
    picked = {d.move for d in decisions}
    assert len(picked) >= at_least and picked <= tied


def test_the_heuristic_player_breaks_ties_by_the_rng() -> None:
    board = Board.empty().play(4)  # O to move: the four corners score the same
    picked = {HeuristicPlayer("h1", random.Random(s)).choose(board).move for s in range(40)}
    assert picked == {0, 2, 6, 8}


# -- random play and difficulty -------------------------------------------------------------------


def test_random_player_only_plays_legal_moves_on_every_3x3_position() -> None:
    player = RandomPlayer(random.Random(9))
    for board in reachable_3x3() + reachable_3x3(Mark.O):
        if board.is_over:
            continue
        decision = player.choose(board)
        assert decision.move in board.legal_moves()
        assert (decision.clever, decision.algorithm, decision.reason) == (
            False,
            "random",
            "random move",
        )
        assert decision.analysis is None and decision.terms is None


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 8), st.lists(st.integers(0, 1000), max_size=40), st.integers(0, 2**32))
def test_random_player_only_plays_legal_moves_on_big_boards(
    size: int, picks: list[int], seed: int
) -> None:
    board = Board.empty(size)
    for pick in picks:
        if board.is_over:
            return
        board = board.play(board.legal_moves()[pick % len(board.legal_moves())])
    if not board.is_over:
        assert RandomPlayer(random.Random(seed)).choose(board).move in board.legal_moves()


def test_random_player_is_uniform() -> None:
    player = RandomPlayer(random.Random(4))
    counts = [0] * 9
    for _ in range(9000):
        counts[player.choose(Board.empty()).move] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_random_player_carries_its_advisors_analysis() -> None:
    board = Board.from_string("OO./.X./...")
    rng = random.Random(8)
    decision = RandomPlayer(rng, advisor=HeuristicPlayer("h2", rng)).choose(board)
    assert not decision.clever and decision.reason == "random move"
    assert decision.analysis is not None and decision.analysis.algorithm == "h2"
    # The terms are the random move's, under the advisor's heuristic, so the panel can compare.
    assert decision.terms == explain_h2(board.play(decision.move), Mark.X)
    searched = RandomPlayer(rng, advisor=AlphaBetaPlayer(rng)).choose(board)
    assert searched.analysis is not None and searched.analysis.algorithm == "alphabeta"
    assert searched.terms is None


def clever_share(difficulty: int, trials: int = 1000) -> float:
    board = Board.from_string("X../.../...")
    clever = 0
    for seed in range(trials):
        rng = random.Random(seed)
        decision = DifficultyPlayer(HeuristicPlayer("h1", rng), difficulty, rng).choose(board)
        assert decision.move in board.legal_moves()
        assert decision.analysis is not None and decision.analysis.algorithm == "h1"
        clever += decision.clever
    return clever / trials


def test_difficulty_100_always_plays_the_clever_move() -> None:
    assert clever_share(100) == 1.0


def test_difficulty_50_plays_the_clever_move_about_half_the_time() -> None:
    assert 0.43 < clever_share(50) < 0.57


def test_difficulty_1_almost_never_plays_the_clever_move() -> None:
    assert clever_share(1) < 0.03


def test_a_random_move_at_low_difficulty_still_shows_the_clever_analysis() -> None:
    board = Board.from_string("XX./O../...")
    rng = random.Random(0)
    player = DifficultyPlayer(AlphaBetaPlayer(rng), 1, rng)
    decisions = [player.choose(board) for _ in range(20)]
    randoms = [d for d in decisions if not d.clever]
    assert randoms
    for d in randoms:
        assert d.algorithm == "random" and d.reason == "random move (difficulty 1)"
        assert d.analysis is not None and d.analysis.algorithm == "alphabeta"
        assert best_moves(d) == {2}  # what the clever move would have been


@pytest.mark.parametrize("difficulty", [0, 101, -5, 1000])
def test_difficulty_out_of_range_is_refused_clearly(difficulty: int) -> None:
    message = rf"difficulty must be a whole number from 1 \(easiest\) to 100 .*not {difficulty}"
    with pytest.raises(ValueError, match=message):
        DifficultyPlayer(HeuristicPlayer("h1", random.Random(0)), difficulty, random.Random(0))
    with pytest.raises(ValueError, match=message):
        make_player("alphabeta", random.Random(0), difficulty=difficulty)


# -- make_player, should_stop and finished boards -------------------------------------------------


def test_make_player_builds_what_the_settings_say() -> None:
    rng = random.Random(0)
    assert isinstance(make_player("random", rng), RandomPlayer)
    assert isinstance(make_player("h1", rng), HeuristicPlayer)
    assert isinstance(make_player("h2", rng), HeuristicPlayer)
    assert isinstance(make_player("minimax", rng), MinimaxPlayer)
    ab = make_player("alphabeta", rng, time_limit=0.5)
    assert isinstance(ab, AlphaBetaPlayer) and ab.time_limit == 0.5
    assert ab.name == "Clever (alpha-beta)"
    easy = make_player("alphabeta", rng, difficulty=40)
    assert isinstance(easy, DifficultyPlayer) and easy.difficulty == 40
    assert isinstance(easy.clever, AlphaBetaPlayer)
    advised = make_player("h2", rng, clever=False)
    assert isinstance(advised, RandomPlayer) and isinstance(advised.advisor, HeuristicPlayer)
    assert make_player("random", rng).name == "Random"


def test_make_player_lists_the_valid_opponents() -> None:
    with pytest.raises(
        ValueError,
        match="unknown opponent 'perfect': choose one of random, h1, h2, minimax, alphabeta",
    ):
        make_player("perfect", random.Random(0))


def test_should_stop_is_passed_to_the_search_and_to_advisors() -> None:
    calls = 0

    def should_stop() -> bool:
        nonlocal calls
        calls += 1
        return False

    AlphaBetaPlayer(random.Random(0), time_limit=0.2).choose(
        Board.empty(5, 4), Limits(should_stop=should_stop)
    )
    assert calls > 0
    spy = Spy()
    watched = Limits(should_stop=should_stop, on_progress=print)
    RandomPlayer(random.Random(0), advisor=spy).choose(Board.empty(), watched)
    DifficultyPlayer(spy, 50, random.Random(0)).choose(Board.empty(), watched)
    assert spy.stops == [should_stop, should_stop]
    assert spy.listeners == [print, print]


@pytest.mark.parametrize("size", [3, 5])
def test_a_cancelled_search_still_returns_a_legal_move(size: int) -> None:
    # Four in a row on 5x5: five in a row is a draw the solver proves within its first poll.
    board = Board.empty(size, min(size, 4)).play(size * size // 2)
    players: list[Player] = [
        AlphaBetaPlayer(random.Random(0), time_limit=5.0),
        MinimaxPlayer(random.Random(0), depth=3 if size > 3 else None),
        make_player("alphabeta", random.Random(0), difficulty=50),
    ]
    for player in players:
        decision = player.choose(board, Limits(should_stop=lambda: True))
        assert decision.move in board.legal_moves()
        assert decision.analysis is not None
        # A 3x3 alpha-beta search can finish before its first poll; bigger ones cannot.
        assert decision.analysis.cancelled or (size == 3 and decision.analysis.complete)


def test_a_search_stopped_before_any_score_says_its_move_was_random() -> None:
    decision = MinimaxPlayer(random.Random(0)).choose(
        Board.empty(), Limits(should_stop=lambda: True)
    )
    assert decision.move in range(9)
    assert (decision.clever, decision.algorithm) == (False, "random")
    assert decision.reason == "minimax stopped before scoring a move: random move"


def test_a_search_stopped_midway_plays_from_what_it_scored() -> None:
    polls = 0

    def stop_soon() -> bool:
        nonlocal polls
        polls += 1
        return polls > 30

    # 6x6 with four in a row is a first-player win that threat search now proves within a few
    # polls; a 10x10 opening keeps the search busy long enough to be stopped midway.
    board = Board.empty(10, 5).play(44).play(45)
    decision = AlphaBetaPlayer(random.Random(0), time_limit=30.0).choose(
        board, Limits(should_stop=stop_soon)
    )
    assert decision.move in board.legal_moves()
    assert decision.analysis is not None and decision.analysis.cancelled


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_asking_for_a_move_on_a_finished_board_is_an_illegal_move(opponent: str) -> None:
    player = make_player(opponent, random.Random(0), difficulty=50)
    with pytest.raises(IllegalMove, match="the game is over: there is no move to choose"):
        player.choose(Board.from_string("XXX/OO./..."))
