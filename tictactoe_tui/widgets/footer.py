"""The key footer, without the leak Textual 8.2.8's `Footer` has."""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    """Textual's `Footer`, pruning the dead key widgets it would otherwise keep forever.

    In Textual 8.2.8 `Footer.compose` binds each `FooterKey` to the footer's `compact` reactive
    (`data_bind`), which adds a watcher to the footer's watcher list; a recompose (every time
    the bindings change: each dialog opened or closed over the screen) removes the keys but
    not their watchers, which are pruned only when `compact` changes — never, here. Each
    results dialog thus leaked a footer's worth of widgets (~0.43 MiB per game). See
    `textual/widgets/_footer.py` (compose, `data_bind(compact=Footer.compact)`) and
    `textual/reactive.py` (`_watch`, and the pruning in `_check_watchers`).
    """

    async def recompose(self) -> None:
        """Recompose, then drop the watchers of the keys that are gone."""
        await super().recompose()
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        for name, entries in watchers.items():
            watchers[name] = [(node, callback) for node, callback in entries
                              if not (node._closing or node._closed)]
