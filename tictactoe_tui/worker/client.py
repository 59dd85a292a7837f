"""The client of the worker process that runs long computations (searches) off the UI process.

A pure-Python search in a thread holds the GIL and slows every key the UI handles, so the app
runs its searches in a separate process, kept alive and reused. The flow, like a chess GUI
driving a UCI engine:

1. `Thinker.submit(fn, *args, on_progress=..., on_done=..., on_error=...)` queues a job. `fn` is
   a module-level function (it is pickled by reference) called in the worker as
   `fn(*args, should_stop=..., on_progress=...)`; its arguments and result are pickled. The
   job is a `Job[T]`: `fn` returns a T, its `on_done` hears that T, and the type checker checks
   `args` against `fn`'s positional parameters.
2. The worker runs one job at a time. Its progress reports come back a few times a second
   (throttled in the worker), then its result or its error in one line. The callbacks run on the
   Thinker's listener thread: a Textual caller posts a message (`post_message` is thread-safe)
   or uses `app.call_from_thread`, so the result reaches the UI thread.
3. `cancel()` (or `Job.cancel()`) stops a job at once: the worker polls a shared value through
   `should_stop`; if it has not answered within `KILL_AFTER` seconds, the worker is killed and a
   fresh one started. A cancelled job's callbacks are not called (one already running may
   finish, so callers still tag their requests and drop stale answers).
4. A worker that dies gives the running job an `on_error` call with one line, and a fresh worker
   takes the next job. If no process can be started at all, jobs run in threads instead.

5. In a Textual app, `await thinker.run(fn, *args, on_progress=...)` from a worker
   (`@work(exclusive=True, group=...)`) does all of this: progress arrives on the app's loop,
   the result is returned (typed as `fn` returns it), and cancelling the Textual worker cancels
   the job, so a stale answer can never arrive and starting a screen's next job (or leaving
   the screen) is the only cancel.

A job too small to be worth a process (a 3×3 alpha-beta search takes milliseconds) can be run
in this process with `in_process=True`: same callbacks, in a thread.

The worker imports only what its jobs need (the engine), never Textual: this module imports
nothing from the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar, TypeVarTuple

from tictactoe_tui.worker.server import Throttle, serve_jobs

START_METHOD = "forkserver"
"""How the worker process is started. Measured with `python scripts/worker_start.py`: a fresh
worker from a running forkserver answers its first job sooner than a spawned one (a restart
after a kill: 42 ms against 205 ms on a quiet machine, 214 against 306 ms on a busy one), and the
very first start costs about the same (within 50 ms). `fork` is not used: the UI process runs
threads, and forking them is unsafe.

The forkserver preloads nothing: Python 3.11's forkserver imports its preloads with the current
directory first on its path (it ignores the `sys_path` it is given), so a `tictactoe_tui` folder
there would be the one imported. Each worker imports what it needs with the app's own path."""

PROGRESS_INTERVAL = 0.2
"""Seconds between two progress reports sent back from a job (those between are dropped):
five a second is lively to watch and costs the UI next to nothing."""

KILL_AFTER = 0.1
"""Seconds a cancelled job may take to stop before its worker is killed and replaced."""

MAX_FAILED_STARTS = 2
"""Workers in a row that may die before they are ready; then jobs run in threads instead."""

CLOSE_WAIT = 0.5
"""Seconds `close()` waits for the worker to exit by itself before killing it."""

T = TypeVar("T")
"""What a job returns."""

Ts = TypeVarTuple("Ts")
"""A job's positional arguments (its `should_stop` and `on_progress` keywords come from the
Thinker)."""

V = TypeVar("V")
"""Whatever one callback hears."""

ProgressHandler = Callable[[Any], object]
"""Hears a job's progress reports: whatever the job passes to its `on_progress` (a `Progress`, a
`MatchProgress`, ...; the job's own signature says which)."""
ErrorHandler = Callable[[str], object]
"""Hears the one line of a job that failed."""


class JobFailed(Exception):
    """A job raised, or its worker process died: the message is one line for the user."""


@dataclass(eq=False)
class Job(Generic[T]):
    """One computation submitted to a `Thinker`, which returns a T: its function, arguments and
    callbacks."""

    thinker: Thinker
    id: int
    """Increasing from 1, unique within its Thinker."""
    fn: Callable[..., T]
    """Called as `fn(*args, should_stop=..., on_progress=...)`."""
    args: tuple[Any, ...]
    on_progress: ProgressHandler | None
    on_done: Callable[[T], object] | None
    on_error: ErrorHandler | None
    in_process: bool
    """True when the job runs in a thread of this process rather than in the worker."""
    cancelled: bool = False
    """True once `cancel()` was called: none of its callbacks will start after that."""
    finished: bool = False
    """True once its result or error arrived."""

    def cancel(self) -> None:
        """Stop this job at once (see `Thinker.cancel`)."""
        self.thinker.cancel_job(self)

    def stopped(self) -> bool:
        """The in-process job's `should_stop`."""
        return self.cancelled


class _Worker:
    """One worker process and the thread that listens to it."""

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self.process: multiprocessing.process.BaseProcess | None = None
        self.conn: Connection | None = None
        self.stop: Any = None
        """Shared int: the id of a job the worker must stop (job ids only grow)."""
        self.ready = False
        self.killed = False


class Thinker:
    """A long-lived worker process that runs submitted jobs one at a time, with progress.

    Safe to use from any thread. Create one per independent activity (a cancel stops every job
    of its Thinker), and `close()` it when done.
    """

    def __init__(
        self,
        *,
        start_method: str = START_METHOD,
        progress_interval: float = PROGRESS_INTERVAL,
        kill_after: float = KILL_AFTER,
    ) -> None:
        """Prepare the client; the worker process starts on `start()` or the first submit."""
        self.start_method = start_method
        """"forkserver" or "spawn"."""
        self.progress_interval = progress_interval
        self.kill_after = kill_after
        self.fallback_reason: str | None = None
        """Why jobs run in threads instead of a process (None while the worker works)."""
        self.restarts = 0
        """How many times a worker was replaced (killed after a cancel, or died)."""
        self._lock = threading.RLock()
        self._queue: deque[Job[Any]] = deque()
        self._running: Job[Any] | None = None
        self._here: set[Job[Any]] = set()
        """The jobs running in this process (`in_process`), each in a thread of its own."""
        self._worker: _Worker | None = None
        self._generation = 0
        self._next_id = 0
        self._closed = False
        self._failed_starts = 0

    # -- the public API ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker process now (in the background), so the first job needs no wait."""
        with self._lock:
            if not self._closed and self._worker is None and self.fallback_reason is None:
                self._spawn_worker()

    def submit(
        self,
        fn: Callable[[*Ts], T],
        *args: *Ts,
        on_progress: ProgressHandler | None = None,
        on_done: Callable[[T], object] | None = None,
        on_error: ErrorHandler | None = None,
        in_process: bool = False,
    ) -> Job[T]:
        """Run `fn(*args, should_stop=..., on_progress=...)` and report back through callbacks.

        `on_progress(report)` hears whatever `fn` passes to its `on_progress`, at most every
        `progress_interval` seconds; `on_done(result)` gets the return value; `on_error(text)`
        gets one line if `fn` raised or the worker died. All run on a background thread.
        """
        with self._lock:
            if self._closed:
                raise RuntimeError("this Thinker is closed")
            self._next_id += 1
            job = Job(
                self,
                self._next_id,
                fn,
                args,
                on_progress,
                on_done,
                on_error,
                in_process or self.fallback_reason is not None,
            )
            if job.in_process:
                self._here.add(job)
                threading.Thread(
                    target=self._run_here, args=(job,), daemon=True, name=f"thinker-job-{job.id}"
                ).start()
                return job
            self._queue.append(job)
            if self._worker is None:
                self._spawn_worker()
            else:
                self._pump()
        return job

    async def run(
        self,
        fn: Callable[[*Ts], T],
        *args: *Ts,
        on_progress: ProgressHandler | None = None,
        in_process: bool = False,
    ) -> T:
        """Run `fn(*args, should_stop=..., on_progress=...)` and return its result.

        The asyncio face of `submit`, for a Textual worker (`@work(exclusive=True, group=...)`):
        `on_progress` runs on the caller's event loop; a failure raises `JobFailed` with its
        one line; cancelling the awaiting task (a newer job of the group, the screen leaving)
        cancels the job, and nothing of it (result or progress) arrives after that.
        """
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T] = loop.create_future()

        def done(result: T) -> None:
            if not answer.done():
                answer.set_result(result)

        def failed(error: str) -> None:
            if not answer.done():
                answer.set_exception(JobFailed(error))

        def heard(report: Any) -> None:
            if not answer.done() and on_progress is not None:
                on_progress(report)

        job = self.submit(
            fn,
            *args,
            on_progress=None if on_progress is None else partial(_on_loop, loop, heard),
            on_done=partial(_on_loop, loop, done),
            on_error=partial(_on_loop, loop, failed),
            in_process=in_process,
        )
        try:
            return await answer
        finally:
            if not answer.done():
                answer.cancel()
            job.cancel()

    def cancel(self) -> None:
        """Stop every job of this Thinker at once: the running ones and those waiting."""
        with self._lock:
            for job in list(self._here):
                job.cancelled = True
            for job in list(self._queue):
                job.cancelled = True
            self._queue.clear()
            if self._running is not None:
                self.cancel_job(self._running)

    def cancel_job(self, job: Job[Any]) -> None:
        """Stop one job; its callbacks are not called after this returns."""
        with self._lock:
            if job.cancelled or job.finished:
                return
            job.cancelled = True
            if job.in_process:
                return
            if job in self._queue:
                self._queue.remove(job)
                return
            worker = self._worker
            if job is self._running and worker is not None and worker.stop is not None:
                worker.stop.value = job.id
                timer = threading.Timer(self.kill_after, self._kill_if_running, (worker, job))
                timer.daemon = True
                timer.start()

    def restart(self) -> None:
        """End the worker process now (its job, if any, is cancelled) and start a fresh one."""
        with self._lock:
            if self._running is not None:
                self._running.cancelled = True
            self._replace_worker()

    @property
    def busy(self) -> bool:
        """True while a job runs in the worker or waits for it."""
        with self._lock:
            return self._running is not None or bool(self._queue)

    @property
    def worker_pid(self) -> int | None:
        """The worker process's id, once it runs (for tests and diagnostics)."""
        with self._lock:
            worker = self._worker
            if worker is None or worker.process is None:
                return None
            return worker.process.pid

    def close(self) -> None:
        """Cancel everything and end the worker process (killed if it does not exit quickly)."""
        with self._lock:
            if self._closed:
                return
            self.cancel()
            self._closed = True
            worker, self._worker = self._worker, None
        if worker is None:
            return
        worker.killed = True
        if worker.conn is not None:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        process = worker.process
        if process is not None:
            process.join(CLOSE_WAIT)
            if process.is_alive():
                process.kill()
                process.join(CLOSE_WAIT)

    # -- the worker's life ------------------------------------------------------------------------

    def _context(self) -> Any:
        return multiprocessing.get_context(self.start_method)

    def _spawn_worker(self) -> None:
        """Start a new worker generation; its listener thread starts the process (it blocks)."""
        self._generation += 1
        worker = _Worker(self._generation)
        self._worker = worker
        threading.Thread(
            target=self._listen,
            args=(worker,),
            daemon=True,
            name=f"thinker-worker-{worker.generation}",
        ).start()

    def _listen(self, worker: _Worker) -> None:
        """Start the worker's process, then hand each of its answers to the job's callbacks."""
        try:
            context = self._context()
            ours, theirs = context.Pipe()
            stop = context.Value("q", 0, lock=False)
            process = context.Process(
                target=serve_jobs, args=(theirs, stop), name="tictactoe-tui worker", daemon=True
            )
            with _real_stderr():
                process.start()
            theirs.close()
        except Exception as error:  # no process at all: carry on in threads
            self._fall_back(worker, f"{type(error).__name__}: {error}")
            return
        with self._lock:
            worker.process, worker.conn, worker.stop = process, ours, stop
            if worker.killed:
                self._end_process(worker)
                ours.close()
                return
        while True:
            try:
                message = ours.recv()
            except (EOFError, OSError):
                break
            self._handle(worker, message)
        ours.close()
        self._worker_gone(worker)

    def _fall_back(self, worker: _Worker, reason: str) -> None:
        with self._lock:
            if self._worker is worker:
                self._worker = None
            self.fallback_reason = reason
            waiting = list(self._queue)
            self._queue.clear()
        for job in waiting:
            job.in_process = True
            self._run_here(job)

    def _pump(self) -> None:
        """Send the next waiting job if the worker is idle (called with the lock held)."""
        worker = self._worker
        if worker is None or not worker.ready or self._running is not None:
            return
        while self._queue:
            job = self._queue.popleft()
            try:
                payload = pickle.dumps((job.fn, job.args))
            except Exception as error:  # an argument that cannot cross to the worker
                self._finish(job, error=f"cannot send the job: {type(error).__name__}: {error}")
                continue
            assert worker.conn is not None
            try:
                worker.conn.send((job.id, self.progress_interval, payload))
            except OSError:
                self._queue.appendleft(job)  # the listener sees the worker gone and restarts
                return
            self._running = job
            return

    def _handle(self, worker: _Worker, message: tuple[str, int, Any]) -> None:
        """One answer from the worker: a progress report, or the end of the running job."""
        kind, job_id, value = message
        with self._lock:
            if kind == "ready":
                # Jobs wait for this: a job cancelled while the worker still starts is simply
                # dropped, never the reason to kill a worker that was only slow to start.
                worker.ready = True
                self._pump()
                return
            job = self._running
            if job is None or job.id != job_id or self._worker is not worker:
                return
            if kind != "progress":
                self._running = None
                self._pump()
        if kind == "progress":
            if not job.cancelled and job.on_progress is not None:
                job.on_progress(value)
        elif kind == "done":
            self._finish(job, result=value)
        else:
            self._finish(job, error=value)

    def _finish(self, job: Job[Any], *, result: Any = None, error: str | None = None) -> None:
        """Mark `job` finished and call its done or error callback, unless it was cancelled."""
        if job.finished:
            return
        job.finished = True
        self._here.discard(job)
        if job.cancelled:
            return
        if error is not None:
            if job.on_error is not None:
                job.on_error(error)
        elif job.on_done is not None:
            job.on_done(result)

    def _worker_gone(self, worker: _Worker) -> None:
        """The worker's pipe closed: report a running job as failed and start a fresh worker."""
        with self._lock:
            if self._worker is not worker:
                return  # replaced on purpose (killed after a cancel, or closed)
            self._worker = None
            job, self._running = self._running, None
            process = worker.process
            if process is not None:
                process.join(CLOSE_WAIT)
            code = process.exitcode if process is not None else None
            self.restarts += 1
            self._failed_starts = 0 if worker.ready else self._failed_starts + 1
            if self._failed_starts >= MAX_FAILED_STARTS:
                # A worker that cannot even start will not start next time either.
                reason = f"the worker process could not start ({_exit_words(code)})"
            elif not self._closed:
                self._spawn_worker()
        if self._failed_starts >= MAX_FAILED_STARTS:
            self._fall_back(worker, reason)
        if job is not None:
            self._finish(
                job, error=f"the search process stopped unexpectedly ({_exit_words(code)})"
            )

    def _kill_if_running(self, worker: _Worker, job: Job[Any]) -> None:
        """A cancelled job did not stop in time: kill its worker and start a fresh one."""
        with self._lock:
            if self._running is job and self._worker is worker:
                self._replace_worker()

    def _replace_worker(self) -> None:
        """Kill the current worker (dropping its job) and start a fresh one (lock held)."""
        worker = self._worker
        if self._running is not None:
            self._running.finished = True
            self._running = None
        self._worker = None
        if worker is not None:
            self.restarts += 1
            self._end_process(worker)
        if not self._closed:
            self._spawn_worker()

    def _end_process(self, worker: _Worker) -> None:
        # The listener closes the pipe when it sees the end: closing it here, under a blocked
        # read, could let the descriptor's number be reused while that read still holds it.
        worker.killed = True
        if worker.process is not None:
            worker.process.kill()

    # -- jobs that stay in this process -----------------------------------------------------------

    def _run_here(self, job: Job[Any]) -> None:
        """Run `job` in the calling thread, with the same callbacks as in the worker.

        Its arguments are copied as they would be on their way to the worker, so a job runs
        the same wherever it runs: it never changes the caller's objects (a player's random
        number generator, say) behind its back.
        """
        throttle = Throttle(self.progress_interval)

        def report(value: Any) -> None:
            if not job.cancelled and job.on_progress is not None and throttle.due():
                job.on_progress(value)

        try:
            args = pickle.loads(pickle.dumps(job.args))
            result = job.fn(*args, should_stop=job.stopped, on_progress=report)
        except Exception as error:  # reported to the caller in one line
            self._finish(job, error=f"{type(error).__name__}: {error}")
            return
        self._finish(job, result=result)


def _on_loop(loop: asyncio.AbstractEventLoop, call: Callable[[V], object], value: V) -> None:
    """Run `call(value)` on `loop` from the listener thread; nothing if the loop has closed
    (the app ended while the job ran)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(call, value)


@contextlib.contextmanager
def _real_stderr() -> Iterator[None]:
    """Give multiprocessing a real stderr while it starts its helper processes.

    It hands `sys.stderr.fileno()` to the resource tracker it starts; a Textual app replaces
    `sys.stderr` with an object whose `fileno()` is -1, which makes the start fail ("bad
    value(s) in fds_to_keep"). The helpers get /dev/null instead: nothing they might say may
    reach the app's screen.
    """
    saved = sys.stderr
    try:
        usable = saved is not None and saved.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable:
        yield
        return
    with open(os.devnull, "w") as devnull:
        sys.stderr = devnull
        try:
            yield
        finally:
            if sys.stderr is devnull:
                sys.stderr = saved


def _exit_words(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
