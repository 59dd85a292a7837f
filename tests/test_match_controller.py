"""The match runner's rules (`play.match.MatchController`), without a terminal: the form's first
values and what it describes, a match played, reported, cancelled and listed, and the table and
charts against the engine's own `run_match` with the same seed."""

from __future__ import annotations

from dataclasses import replace

from tictactoe_tui.engine.players.match import MatchPlan, MatchResult, PlayerSpec, run_match
from tictactoe_tui.play.lab_effects import RunJob, StopJob
from tictactoe_tui.play.match import (
    Close,
    DrawProgress,
    DrawResults,
    DrawRunning,
    DrawStatus,
    MatchController,
    MatchForm,
    OpenGames,
    SideForm,
    Uses,
    first_form,
    ms_words,
    per_move_ms,
    positions_words,
    read_form,
    uses,
)
from tictactoe_tui.play.settings import GameSettings
from tictactoe_tui.worker.jobs import MatchProgress, play_match


def form(
    x: SideForm, o: SideForm, games: int = 4, seed: int = 2, size: int = 3, k: int | None = None
) -> MatchForm:
    return MatchForm(x, o, size, k, games, seed)


def played(controller: MatchController, match: MatchForm) -> list[MatchProgress]:
    """Run the match `match` describes as the screen would: the job here, every report and the
    result handed back; the reports."""
    effects = controller.run(match)
    job = next(e for e in effects if isinstance(e, RunJob))
    reports: list[MatchProgress] = []

    def report(progress: MatchProgress) -> None:
        reports.append(progress)
        controller.progressed(progress)

    controller.finished(job.job(*job.args, on_progress=report))
    return reports


def check_table(controller: MatchController, expected: MatchResult) -> None:
    """The table's rows are the engine's numbers for each player."""
    rows = {str(row[0]): row for row in controller.table_rows()}
    assert set(rows) == {"x", "o"}
    for side, name, stats in (
        ("x", expected.x, expected.x_stats),
        ("o", expected.o, expected.o_stats),
    ):
        row = rows[side]
        overall = stats.overall
        assert row[1] == name
        assert list(row[2:6]) == [
            overall.wins,
            overall.draws,
            overall.losses,
            f"{overall.points:g}",
        ]
        assert list(row[6:8]) == [str(stats.as_x), str(stats.as_o)]
        assert row[9] == f"{stats.mean_positions:,.1f}"


def test_the_form_opens_with_the_games_computer_as_x_against_random() -> None:
    first = first_form(GameSettings(seed=3, opponent="h2", difficulty=80))
    assert first.x == SideForm("h2", difficulty=80)
    assert first.o == SideForm("random", difficulty=100)
    assert (first.size, first.k, first.games, first.seed) == (3, None, 10, 3)
    # A seed or a difficulty the form does not offer opens as 0 and 100.
    other = first_form(GameSettings(seed=25, difficulty=55))
    assert (other.seed, other.x.difficulty) == (0, 100)
    assert first_form(GameSettings()).seed == 0


def test_each_algorithm_uses_only_its_own_controls() -> None:
    # Random takes no depth, no time, no difficulty; H2 no depth and no time.
    assert uses("random") == Uses(depth=False, time=False, difficulty=False)
    assert (uses("h2").depth, uses("h2").time, uses("h2").difficulty) == (False, False, True)
    assert (uses("minimax").depth, uses("minimax").time) == (True, False)
    assert (uses("alphabeta").depth, uses("alphabeta").time) == (True, True)


def test_the_form_describes_the_match_and_names_what_does_not_fit() -> None:
    request = read_form(
        form(SideForm("alphabeta", depth=3, seconds=0.5), SideForm("h1", difficulty=50))
    )
    assert request.x == PlayerSpec("alphabeta", 3, 0.5, 100)
    assert request.o == PlayerSpec("h1", difficulty=50)
    assert (request.games, request.size, request.k, request.seed) == (4, 3, None, 2)
    controller = MatchController()
    effects = controller.run(form(SideForm("h1", depth=3), SideForm("random")))
    assert effects == [DrawStatus()] and controller.request is None
    assert controller.status.startswith("player x: h1 does not search")
    assert controller.status_is_error
    controller.run(form(SideForm("h1"), SideForm("random"), k=4))
    assert controller.status_is_error and not controller.running


def test_a_match_is_played_and_its_table_is_the_engines() -> None:
    controller = MatchController(GameSettings(seed=2))
    match = form(SideForm("alphabeta"), SideForm("h1"))
    effects = controller.run(match)
    assert [type(e) for e in effects] == [
        DrawRunning,
        DrawProgress,
        DrawStatus,
        DrawResults,
        RunJob,
    ]
    assert controller.running and controller.progress_total == 4
    assert controller.status == "Playing 4 games: alphabeta (x) vs h1 (o)…"
    job = effects[-1]
    assert isinstance(job, RunJob) and job.job is play_match
    played(controller, match)
    expected = run_match(PlayerSpec("alphabeta"), PlayerSpec("h1"), MatchPlan(4, seed=2))
    result = controller.result
    assert result is not None and not result.cancelled and not controller.running
    assert [g.moves for g in result.outcomes] == [g.moves for g in expected.outcomes]
    check_table(controller, expected)
    assert len(controller.outcomes) == 4
    assert controller.status.startswith(f"Done: 4 games, x won {expected.x_wins}")
    assert not controller.status_is_error


def test_each_report_counts_the_games_finished_and_says_the_move_on() -> None:
    controller = MatchController()
    controller.run(form(SideForm("h2"), SideForm("alphabeta", difficulty=50), games=6, seed=7))
    outcomes = run_match(
        PlayerSpec("h2"), PlayerSpec("alphabeta", difficulty=50), MatchPlan(6, seed=7)
    ).outcomes
    assert controller.progressed(MatchProgress((), 0, 3)) == [DrawStatus()]
    assert controller.status == "Game 1 of 6: move 3…"
    effects = controller.progressed(MatchProgress(outcomes[:2], 2, 0))
    assert effects == [DrawProgress(), DrawResults(), DrawStatus()]
    assert controller.outcomes == list(outcomes[:2])
    assert controller.current().games == 2 and not controller.current().cancelled
    # The last report, between the last game and the result: nothing more to say.
    assert controller.progressed(MatchProgress(outcomes, 6, 0)) == [DrawProgress(), DrawResults()]


def test_cancel_stops_the_match_and_keeps_the_games_so_far() -> None:
    controller = MatchController()
    assert controller.cancel() == []  # nothing runs
    controller.run(form(SideForm("alphabeta"), SideForm("random"), games=100, seed=1))
    outcomes = run_match(PlayerSpec("alphabeta"), PlayerSpec("random"), MatchPlan(3, seed=1))
    controller.progressed(MatchProgress(outcomes.outcomes, 3, 2))
    effects = controller.cancel()
    assert effects == [StopJob(), DrawRunning(), DrawProgress(), DrawStatus(), DrawResults()]
    result = controller.result
    assert not controller.running and result is not None and result.cancelled
    assert result.games == 3
    assert controller.status == "Cancelled after 3 of 100 games."
    assert controller.back() == [Close()]


def test_back_cancels_a_running_match_first() -> None:
    controller = MatchController()
    controller.run(form(SideForm("alphabeta"), SideForm("random")))
    assert isinstance(controller.back()[0], StopJob)
    assert not controller.running and controller.back() == [Close()]


def test_a_failed_match_is_said_and_the_user_carries_on() -> None:
    controller = MatchController()
    controller.run(form(SideForm("alphabeta"), SideForm("random")))
    assert controller.failed("a player raised") == [DrawRunning(), DrawStatus()]
    assert not controller.running and controller.status_is_error
    assert controller.status == "The match failed: a player raised"


def test_g_lists_the_games_once_there_are_some() -> None:
    controller = MatchController()
    assert controller.games() == [DrawStatus()]
    assert controller.status == "No games yet: run a match (r), then g lists its games."
    played(controller, form(SideForm("alphabeta"), SideForm("h1")))
    assert controller.games() == [OpenGames(controller.current())]


def test_a_bigger_board_plays_with_its_own_k() -> None:
    controller = MatchController()
    played(controller, form(SideForm("h1"), SideForm("random"), games=2, seed=1, size=5, k=4))
    expected = run_match(PlayerSpec("h1"), PlayerSpec("random"), MatchPlan(2, size=5, k=4, seed=1))
    result = controller.result
    assert result is not None and (result.size, result.k) == (5, 4)
    check_table(controller, expected)


def test_the_charts_stack_the_results_by_mark_and_write_their_values() -> None:
    controller = MatchController()
    assert controller.mark_bars() is None and controller.time_bars() is None
    assert controller.table_rows() == []
    played(controller, form(SideForm("alphabeta"), SideForm("random"), games=10, seed=1))
    result = controller.result
    assert result is not None
    bars = controller.mark_bars()
    assert bars is not None
    # The legend names the stacked parts; each bar says its wins/draws/losses.
    assert [name for name, _ in bars.parts] == ["wins", "draws", "losses"]
    assert bars.labels == ("x X", "x O", "o X", "o O")
    records = [result.x_stats.as_x, result.x_stats.as_o, result.o_stats.as_x, result.o_stats.as_o]
    for (name, counts), attribute in zip(bars.parts, ("wins", "draws", "losses"), strict=True):
        assert counts == tuple(getattr(r, attribute) for r in records), name
    notes = [note.text for note in bars.notes]
    for stats in (result.x_stats, result.o_stats):
        assert str(stats.as_x) in notes and str(stats.as_o) in notes
    most = max(r.games for r in records)
    assert bars.ticks[0] == 0 and bars.ticks[-1] <= most and bars.top == most * 1.5 + 1
    times, positions = controller.time_bars(), controller.positions_bars()
    assert times is not None and positions is not None
    for number, stats in enumerate((result.x_stats, result.o_stats)):
        assert times.notes[number].text == ms_words(per_move_ms(stats))
        assert positions.notes[number].text == positions_words(stats.mean_positions)


def test_the_summary_says_who_leads() -> None:
    controller = MatchController()
    played(controller, form(SideForm("alphabeta"), SideForm("random"), games=2, seed=1))
    result = controller.result
    assert result is not None
    words = MatchController.summary(result)
    assert words.startswith("Done: 2 games") and "leads with" in words
    level = replace(result, outcomes=())
    assert MatchController.summary(level).endswith("(level).")


def test_the_numbers_are_written_as_the_table_writes_them() -> None:
    assert [ms_words(ms) for ms in (0.04, 12.34, 1234.5)] == ["0.04", "12.3", "1,234"]
    assert positions_words(1234.56) == "1,234.6"
