"""How screens reach the app's one worker process.

The app holds one `Thinker` (one worker process); every screen runs its searches there with
`await app_thinker(self).run(job, *args)` inside a Textual worker (`@work(exclusive=True,
group=...)`). Starting the group's next job cancels the one before, and a screen's workers are
cancelled when it goes, which cancels their jobs: no answer ever arrives for a question nobody
asks any more, so no screen tags its requests. `submit_job` is that pattern in one call, for a
screen that hands each answer to a function of its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar, TypeVarTuple

from textual.dom import DOMNode
from textual.message_pump import MessagePump

if TYPE_CHECKING:
    from tictactoe_tui.worker.client import Thinker  # made by the app when first asked for

T = TypeVar("T")
"""What a job returns (its answer's argument)."""

Ts = TypeVarTuple("Ts")
"""A job's arguments."""


def app_thinker(node: MessagePump) -> Thinker:
    """The worker process of the app `node` runs in (`TicTacToeApp.thinker`)."""
    app: Any = node.app
    thinker: Thinker = app.thinker
    return thinker


def submit_job(
    node: DOMNode,
    group: str,
    job: Callable[[*Ts], T],
    args: tuple[*Ts],
    answer: Callable[[T], Awaitable[None] | None],
    failed: Callable[[str], None],
    *,
    in_process: bool = False,
    on_progress: Callable[[Any], None] | None = None,
) -> None:
    """Run `job(*args)` in the app's worker inside a Textual worker of `node`'s `group` (the
    group's next job, or `node` going, cancels it); `answer` gets its result (awaited when it
    is a coroutine), `failed` the error's words, `on_progress` its reports."""

    async def run() -> None:
        from tictactoe_tui.worker.client import JobFailed  # with the worker, when first used

        try:
            result = await app_thinker(node).run(
                job, *args, in_process=in_process, on_progress=on_progress
            )
        except JobFailed as error:
            failed(str(error))
            return
        handled = answer(result)
        if handled is not None:
            await handled

    node.run_worker(run(), group=group, exclusive=True, exit_on_error=False)
