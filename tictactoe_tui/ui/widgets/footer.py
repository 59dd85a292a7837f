"""The key footer: Textual's, without its leak, recomposed only when its keys change, and never
showing a key cut in pieces."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual import events
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey


class Footer(TextualFooter):
    """Textual's `Footer`, recomposed only when what it shows changes, with no dead keys kept.

    Textual 8.2.8's `Footer` rebuilds all its key widgets whenever the bindings may have changed:
    every screen switch, dialog and focus change, even under another screen. Each new key
    restyles itself twice (its `compact` watcher): a fifth of the cost of opening or closing the
    help. Here the rebuild happens only when the keys shown differ from the last ones, and only
    while the footer's screen is the one showing.

    It also prunes a leak: `Footer.compose` binds each `FooterKey` to the footer's `compact`
    reactive (`data_bind`), which adds a watcher to the footer's watcher list; a recompose
    removes the keys but not their watchers, which are pruned only when `compact` changes
    (never, here). Each results dialog thus leaked a footer's worth of widgets (~0.4 MiB per
    game). See `textual/widgets/_footer.py` (compose, `data_bind(compact=Footer.compact)`) and
    `textual/reactive.py` (`_watch`, and the pruning in `_check_watchers`).
    """

    _shown: Hashable = None

    async def recompose(self) -> None:
        """Recompose if the keys to show changed, then drop the watchers of the keys gone.

        A footer whose screen is covered (by help, a dialog) waits: it is asked again when its
        screen shows, and the keys are usually the same by then.
        """
        if self.is_attached and self.app.screen is not self.screen:
            return
        shown = self._keys_to_show()
        if shown == self._shown:
            return
        self._shown = shown
        await super().recompose()
        self.call_after_refresh(self._drop_cut_keys)
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        for name, entries in watchers.items():
            watchers[name] = [
                (node, callback)
                for node, callback in entries
                if not (node._closing or node._closed)
            ]

    def _keys_to_show(self) -> Hashable:
        """Everything `compose` draws from: the active bindings, enabled or not, and the style."""
        if not self._bindings_ready or not self.is_attached:
            return None
        bindings = tuple(
            (
                key,
                binding.action,
                binding.description,
                binding.key_display,
                binding.show,
                binding.group,
                enabled,
                tooltip,
            )
            for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items()
        )
        return bindings, self.compact, self.show_command_palette, self.combine_groups

    def on_resize(self, event: events.Resize) -> None:
        """Every key back, then those that no longer fit dropped, once laid out again."""
        for key in self.query(FooterKey):
            key.display = True
        self.call_after_refresh(self._drop_cut_keys)

    def _drop_cut_keys(self, tries: int = 10) -> None:
        """Hide the keys that run past the palette's key (or the edge): a narrow terminal cut
        the last one in pieces ("y Hi▏^p palette"). The help lists every key."""
        keys = list(self.query(FooterKey))
        if any(not key.region for key in keys if key.display):
            if tries > 0 and self.is_attached:  # not laid out yet: look again soon
                self.set_timer(0.05, lambda: self._drop_cut_keys(tries - 1))
            return
        palette = [key for key in keys if key.has_class("-command-palette")]
        limit = palette[0].region.x if palette else self.region.right
        cut = False
        for key in keys:
            if key in palette:
                continue
            cut = cut or key.region.right > limit
            if cut:
                key.display = False
