"""The worker-process client: results, progress, errors, cancelling, a dying worker, closing."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import thinking_jobs as jobs
from tictactoe_tui.worker.client import JobFailed, Thinker


class Answers:
    """Collects a job's callbacks, with an event set when it finished either way."""

    def __init__(self) -> None:
        self.progress: list[Any] = []
        self.done: list[Any] = []
        self.errors: list[str] = []
        self.finished = threading.Event()

    def callbacks(self) -> dict[str, Any]:
        return {
            "on_progress": self.progress.append,
            "on_done": lambda result: (self.done.append(result), self.finished.set()),
            "on_error": lambda error: (self.errors.append(error), self.finished.set()),
        }

    def wait(self, timeout: float = 10) -> None:
        assert self.finished.wait(timeout), "no answer"


@pytest.fixture
def thinker() -> Iterator[Thinker]:
    t = Thinker(progress_interval=0)
    yield t
    t.close()


def submit(thinker: Thinker, fn: Any, *args: Any, **kwargs: Any) -> Answers:
    answers = Answers()
    thinker.submit(fn, *args, **answers.callbacks(), **kwargs)
    return answers


def test_a_job_runs_in_another_process_and_reports_its_progress(thinker: Thinker) -> None:
    answers = submit(thinker, jobs.count_to, 4)
    answers.wait()
    ((n, worker),) = answers.done
    assert n == 4 and worker != os.getpid()
    assert answers.progress == [1, 2, 3, 4]
    assert answers.errors == []


def test_the_worker_is_reused_and_jobs_run_in_order(thinker: Thinker) -> None:
    first, second = submit(thinker, jobs.count_to, 2), submit(thinker, jobs.pid)
    second.wait()
    assert first.finished.is_set(), "the first job answered before the second"
    assert first.done[0][1] == second.done[0]
    assert thinker.restarts == 0


def test_progress_is_throttled() -> None:
    thinker = Thinker(progress_interval=0.5)
    try:
        answers = submit(thinker, jobs.count_to, 10)  # ~0.3 s of reports
        answers.wait()
        assert answers.progress == [1]
    finally:
        thinker.close()


def test_an_error_comes_back_in_one_line_and_the_worker_carries_on(thinker: Thinker) -> None:
    failed = submit(thinker, jobs.fail)
    failed.wait()
    assert failed.errors == ["ValueError: no such move"]
    before = thinker.worker_pid
    after = submit(thinker, jobs.pid)
    after.wait()
    assert after.done == [before]


def test_cancel_stops_a_job_at_once_and_calls_nothing_back() -> None:
    # A generous kill delay: this is about the job stopping by itself, however busy the machine.
    thinker = Thinker(kill_after=5)
    try:
        ready = submit(thinker, jobs.pid)
        ready.wait()
        answers = submit(thinker, jobs.spin)
        time.sleep(0.1)
        start = time.perf_counter()
        thinker.cancel()
        follow = submit(thinker, jobs.pid)
        follow.wait()
        assert time.perf_counter() - start < 1.0
        assert follow.done == ready.done, "the same worker, asked to stop, stopped"
        assert not answers.finished.is_set() and answers.done == []
        assert thinker.restarts == 0
    finally:
        thinker.close()


def test_a_worker_that_ignores_cancel_is_replaced_within_a_moment(thinker: Thinker) -> None:
    ready = submit(thinker, jobs.pid)
    ready.wait()
    stuck = submit(thinker, jobs.ignore_stop, 30)
    time.sleep(0.1)
    start = time.perf_counter()
    thinker.cancel()
    follow = submit(thinker, jobs.pid)
    follow.wait()
    assert time.perf_counter() - start < 2
    assert follow.done != ready.done, "a fresh worker answered"
    assert thinker.restarts == 1
    assert stuck.done == [] and stuck.errors == []
    assert ended(ready.done[0]), "the stuck worker lives on"


def ended(pid: int, within: float = 5.0) -> bool:
    """Whether process `pid` is gone (killed and reaped) within `within` seconds: the listener
    thread reaps a killed worker on its own time, later on a busy machine."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def test_a_worker_that_dies_fails_its_job_in_one_line_and_a_fresh_one_follows(
    thinker: Thinker,
) -> None:
    crashed = submit(thinker, jobs.die)
    crashed.wait()
    assert crashed.errors == ["the search process stopped unexpectedly (exit status 3)"]
    follow = submit(thinker, jobs.count_to, 1)
    follow.wait()
    assert follow.done[0][0] == 1


def test_an_argument_that_cannot_be_sent_is_an_error(thinker: Thinker) -> None:
    answers = submit(thinker, jobs.count_to, threading.Lock())
    answers.wait()
    assert answers.errors[0].startswith("cannot send the job: TypeError")


def test_in_process_jobs_take_the_same_callbacks_and_cancel(thinker: Thinker) -> None:
    answers = submit(thinker, jobs.count_to, 3, in_process=True)
    answers.wait()
    assert answers.done == [(3, os.getpid())]
    assert answers.progress == [1, 2, 3]
    assert thinker.worker_pid is None, "no process was needed"
    spinning = Answers()
    job = thinker.submit(jobs.spin, **spinning.callbacks(), in_process=True)
    job.cancel()
    time.sleep(0.1)
    assert spinning.done == [], "a cancelled job calls nothing back"


def test_close_and_cancel_stop_the_jobs_running_here_too() -> None:
    # Ctrl+C in text mode may land before the caller holds its in-process job: closing the
    # Thinker (or cancelling all) must stop that search as well, or it runs on to its clock.
    for stop in (Thinker.close, Thinker.cancel):
        thinker = Thinker()
        try:
            job = thinker.submit(jobs.spin, in_process=True)
            stop(thinker)
            deadline = time.monotonic() + 5
            while not job.stopped() and time.monotonic() < deadline:
                time.sleep(0.01)
            assert job.stopped()
        finally:
            thinker.close()


def test_cancelling_one_waiting_job_keeps_the_others(thinker: Thinker) -> None:
    first = submit(thinker, jobs.count_to, 3)
    skipped = Answers()
    job = thinker.submit(jobs.pid, **skipped.callbacks())
    last = submit(thinker, jobs.pid)
    job.cancel()
    last.wait()
    assert first.done and last.done and not skipped.finished.is_set()


def test_close_ends_the_worker_process() -> None:
    thinker = Thinker()
    answers = submit(thinker, jobs.pid)
    answers.wait()
    submit(thinker, jobs.spin)
    thinker.close()
    with pytest.raises(ProcessLookupError):
        os.kill(answers.done[0], 0)
    with pytest.raises(RuntimeError):
        thinker.submit(jobs.pid)


def test_a_seeded_computer_plays_the_same_game_in_the_worker_as_here(thinker: Thinker) -> None:
    from tictactoe_tui.engine import Board, make_player
    from tictactoe_tui.worker.jobs import choose_move

    def play(in_worker: bool) -> list[int]:
        rng = random.Random(5)
        player = make_player("alphabeta", rng, difficulty=60)
        board = Board.empty(4, 3)
        moves = []
        while not board.is_over:
            if in_worker:
                answers = submit(thinker, choose_move, player, rng, board)
                answers.wait()
                decision, state = answers.done[0]
                rng.setstate(state)
            else:
                decision = player.choose(board)
            moves.append(decision.move)
            board = board.play(decision.move)
        return moves

    assert play(in_worker=True) == play(in_worker=False)


def test_the_worker_never_loads_textual(thinker: Thinker) -> None:
    import textual.app  # noqa: F401  (the app's process has it; the worker must not)

    answers = submit(thinker, jobs.textual_loaded)
    answers.wait()
    assert answers.done == [False]


def test_a_job_cancelled_while_the_worker_starts_costs_no_restart(thinker: Thinker) -> None:
    skipped = Answers()
    job = thinker.submit(jobs.spin, **skipped.callbacks())
    job.cancel()
    follow = submit(thinker, jobs.pid)
    follow.wait()
    assert thinker.restarts == 0 and not skipped.finished.is_set()


def test_the_worker_runs_the_apps_own_code_from_any_directory(tmp_path: Path) -> None:
    # A folder named like the package in the current directory must not be what the worker
    # imports (Python 3.11's forkserver would import its preloads from there).
    decoy = tmp_path / "cwd" / "tictactoe_tui"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text('"""A decoy: it has none of the modules."""\n')
    script = tmp_path / "run.py"
    script.write_text(
        textwrap.dedent("""
        import threading
        from tictactoe_tui.engine import Board, analyse_position
        from tictactoe_tui.worker.client import Thinker

        if __name__ == "__main__":
            thinker, done, box = Thinker(), threading.Event(), []
            thinker.submit(analyse_position, Board.empty(3, 3), "h1",
                           on_done=lambda r: (box.append(len(r.scores)), done.set()),
                           on_error=lambda e: (box.append(e), done.set()))
            done.wait(30)
            thinker.close()
            print(box[0])
    """)
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    run = subprocess.run(
        [sys.executable, str(script)],
        cwd=decoy.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.stdout.strip() == "9", run.stdout + run.stderr


def test_a_worker_that_cannot_start_leaves_the_jobs_to_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tictactoe_tui.worker import client as thinking

    monkeypatch.setattr(thinking, "serve_jobs", jobs.exit_at_once)
    thinker = Thinker()
    try:
        answers = submit(thinker, jobs.pid)
        answers.wait()
        assert answers.done == [os.getpid()]
        assert thinker.fallback_reason == "the worker process could not start (exit status 4)"
        assert thinker.restarts == 2
    finally:
        thinker.close()


def test_the_worker_yields_the_cores_to_the_app(thinker: Thinker) -> None:
    answers = submit(thinker, jobs.niceness)
    answers.wait()
    assert answers.done == [min(os.nice(0) + 10, 19)]


async def test_run_returns_the_result_with_progress_on_the_callers_loop(thinker: Thinker) -> None:
    loop_thread = threading.get_ident()
    heard: list[tuple[Any, int]] = []
    n, worker = await thinker.run(
        jobs.count_to, 3, on_progress=lambda i: heard.append((i, threading.get_ident()))
    )
    assert n == 3 and worker != os.getpid()
    assert [i for i, _ in heard] == [1, 2, 3]
    assert {thread for _, thread in heard} == {loop_thread}


async def test_run_raises_job_failed_with_the_one_line(thinker: Thinker) -> None:
    with pytest.raises(JobFailed, match="ValueError: no such move"):
        await thinker.run(jobs.fail)
    assert await thinker.run(jobs.pid) != os.getpid()  # the worker carries on


async def test_cancelling_run_cancels_the_job_and_nothing_of_it_arrives(thinker: Thinker) -> None:
    heard: list[Any] = []
    task = asyncio.ensure_future(thinker.run(jobs.count_to, 200, on_progress=heard.append))
    while not heard:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    count = len(heard)
    await asyncio.sleep(0.3)
    assert len(heard) == count  # no progress after the cancel
    assert not thinker.busy  # the job was stopped in the worker
    assert await thinker.run(jobs.pid) != os.getpid()  # and the next one runs
