"""How fast the search's worker process starts and answers, per start method (and in process).

    python scripts/worker_start.py [--repeat 7]

For each start method it measures, as medians over fresh Python processes (so the forkserver's
own first start is counted each time):

    first answer   from Thinker() to the result of a trivial job (the app's first search waits
                   at most this long, less since the app starts the worker at once)
    restart        from killing the worker (a cancel it ignored) to the next job's result
    3×3 search     one alpha-beta analysis of a 3×3 position, worker round trip included

and the same 3×3 analysis run in process (a thread), the path the app takes for 3×3.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import json, sys, threading, time
    from tictactoe_tui.worker.client import Thinker
    from tictactoe_tui.engine import Board, analyse_position

    def run(thinker, fn, *args, in_process=False):
        done = threading.Event()
        box = []
        thinker.submit(fn, *args, on_done=lambda r: (box.append(r), done.set()),
                       on_error=lambda e: (box.append(e), done.set()), in_process=in_process)
        done.wait(30)
        return box[0]

    method = sys.argv[1]
    board = Board.from_string("X.O/.X./...")
    t0 = time.perf_counter()
    thinker = Thinker(start_method=method)
    run(thinker, analyse_position, Board.empty(3, 3), "h1")
    first = time.perf_counter() - t0
    pid = thinker.worker_pid
    t0 = time.perf_counter()
    thinker._kill_if_running(thinker._worker, thinker._running)  # no job: just a fresh worker
    with thinker._lock:
        worker = thinker._worker
        thinker._worker = None
        thinker._end_process(worker)
        thinker._spawn_worker()
    run(thinker, analyse_position, Board.empty(3, 3), "h1")
    restart = time.perf_counter() - t0
    assert thinker.worker_pid != pid
    rounds = []
    for _ in range(20):
        t0 = time.perf_counter()
        run(thinker, analyse_position, board, "alphabeta")
        rounds.append(time.perf_counter() - t0)
    here = []
    for _ in range(20):
        t0 = time.perf_counter()
        run(thinker, analyse_position, board, "alphabeta", in_process=True)
        here.append(time.perf_counter() - t0)
    thinker.close()
    import statistics
    print(json.dumps({"first": first, "restart": restart,
                      "search": statistics.median(rounds), "here": statistics.median(here)}))
""")


def measure(method: str, repeat: int) -> dict[str, float]:
    """Medians (seconds) over `repeat` fresh processes for one start method."""
    runs = []
    for _ in range(repeat):
        child = subprocess.run(
            [sys.executable, "-c", CHILD, method], capture_output=True, text=True
        )
        if child.returncode:
            raise SystemExit(f"worker_start: the {method} run failed:\n{child.stderr}")
        runs.append(json.loads(child.stdout))
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main() -> None:
    """Print one line per start method."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(
        f"{'start method':<12} {'first answer':>13} {'restart':>9} {'3×3 search':>11} "
        f"{'in process':>11}"
    )
    for method in ("forkserver", "spawn"):
        m = measure(method, args.repeat)
        print(
            f"{method:<12} {m['first'] * 1000:>10.0f} ms {m['restart'] * 1000:>6.0f} ms "
            f"{m['search'] * 1000:>8.1f} ms {m['here'] * 1000:>8.1f} ms"
        )


if __name__ == "__main__":
    main()
