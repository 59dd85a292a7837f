"""How screens reach the app's one worker process.

The app holds one `Thinker` (one worker process); every screen runs its searches there with
`await app_thinker(self).run(job, *args)` inside a Textual worker (`@work(exclusive=True,
group=...)`). Starting the group's next job cancels the one before, and a screen's workers are
cancelled when it goes, which cancels their jobs: no answer ever arrives for a question nobody
asks any more, so no screen tags its requests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message_pump import MessagePump

if TYPE_CHECKING:
    from tictactoe_tui.worker.client import Thinker  # made by the app when first asked for


def app_thinker(node: MessagePump) -> Thinker:
    """The worker process of the app `node` runs in (`TicTacToeApp.thinker`)."""
    app: Any = node.app
    thinker: Thinker = app.thinker
    return thinker
