"""What the history tells the user when it is not working as usual: one line each.

`opening` and the store decide what happened; these functions say it. Every line says what
became of the games (kept, listed, moved aside, saved later), so a user never wonders whether
a game was lost. The store clears the notices that begin with `STORE_NOTICES` by itself once
nothing waits.
"""

from __future__ import annotations

from pathlib import Path

from tictactoe_tui.history.waiting import UNSAVED_GLOB

STORE_NOTICES = ("The history is busy", "The history is locked", "Could not save to the history")
"""How the notices the store clears by itself (once nothing waits) begin."""


def not_a_file(path: Path) -> str:
    """The history's path is a folder, a pipe or a device."""
    return f"History is off: {path} is not a file."


def damaged_stuck_reading(path: Path, why: str) -> str:
    """A reading command met a damaged file it could not move aside."""
    return (
        f"The history at {path} is damaged and cannot be moved aside ({why}): nothing was "
        "read or changed."
    )


def damaged_moved_reading(path: Path, moved: Path) -> str:
    """A reading command met a damaged file and moved it aside, starting nothing."""
    return (
        f"The history at {path} was damaged: nothing was read; it was moved to {moved} "
        "(kept), and the next game played (or an import) starts a new one."
    )


def damaged_stuck(path: Path, why: str) -> str:
    """A damaged file that cannot be moved aside: no history this time."""
    return f"History is off: {path} is damaged and cannot be moved aside ({why})."


def damaged_moved(moved: Path) -> str:
    """A damaged file moved aside, and a new history started in its place."""
    return f"The history was damaged: it was moved to {moved} and a new one started."


def damaged_moved_then_off(moved: Path, why: str) -> str:
    """A damaged file moved aside, but no new history could be started."""
    return f"{damaged_moved(moved)} History is off: {why}."


def newer_schema(version: int, known: int) -> str:
    """A file a newer program wrote: it is read, not written."""
    return (
        f"The history was written by a newer tictactoe-tui (schema {version}; this one knows "
        f"{known}): it is read-only, so new games wait beside it as {UNSAVED_GLOB} records, "
        "for that version to save."
    )


def read_only(folder: Path, why: str) -> str:
    """A history that cannot be written: its games are listed."""
    return (
        f"The history in {folder} cannot be written ({why}): its games are listed, but new "
        "games are not saved."
    )


def cannot_write(folder: Path, why: str) -> str:
    """A data directory that can be neither written nor read."""
    return f"History is off: cannot write to {folder} ({why})."


def locked(path: Path, what: str) -> str:
    """Another program held the file when the store opened it: `what` waits (`kept`'s words)."""
    return f"The history is locked by another program ({path}): {what} saved as soon as it is free."


def cannot_read(why: str) -> str:
    """A read the file refused."""
    return f"Could not read the history ({why})."


def study_not_kept() -> str:
    """A study the history cannot take (it is read-only, off or waiting)."""
    return "The history cannot be written: the study was not kept."


def study_failed(why: str) -> str:
    """A study the database refused."""
    return f"Could not save the study to the history ({why})."


def game_kept(
    what: str,
    folder: Path,
    *,
    saved: bool,
    record: Path | None,
    in_memory: bool,
    why: str,
    ending: bool,
) -> str:
    """Where a game (`what`: "The unfinished game") went, true to what the store did: into the
    history in `folder`, a waiting `record` beside it, memory (`in_memory`: nothing could be
    written; when the program is `ending`, that is nowhere), or nowhere; `why` it is not in
    the history."""
    if saved:
        return f"{what} is kept in the history."
    if record is not None:
        return (
            f"{what} could not go into the history ({why}): it is kept as {record}, "
            "saved when the history can take it."
        )
    if in_memory and not ending:
        return (
            f"{what} could not be written in {folder} ({why}): it is held in memory and tried "
            "again with every save, until the program ends."
        )
    if in_memory:
        return f"{what} was not kept: nothing can be written in {folder} ({why})."
    return f"{what} was not kept: the history in {folder} cannot take games ({why})."


def kept(waiting: int, in_memory: int, settings: bool) -> str:
    """What waits, as the start of a sentence ending "saved as soon as it is free": `waiting`
    games outside the database (`in_memory` of them in memory, the rest as records beside it),
    else the last `settings` not written yet."""
    if waiting:
        where = "in memory" if in_memory == waiting else f"beside it as {UNSAVED_GLOB} records"
        return f"{_games(waiting)} kept {where} and"
    if settings:
        return "your settings are"
    return "games are kept beside it and"


def while_ready(
    current: str,
    what: str,
    *,
    waiting: bool,
    locked_out: bool,
    trouble: str | None,
) -> str:
    """The notice of a store that writes, from the `current` one: `what` waits (`kept`'s words;
    `waiting` when something does) after a lock met or another `trouble`. The store's own
    notice goes once nothing waits; other notices stay."""
    if trouble is not None:
        return f"Could not save to the history ({trouble})" + (
            f": {what} tried again with every save." if waiting else "."
        )
    if locked_out and waiting:
        return (
            f"The history is busy (another program holds it): {what} saved as soon as it is free."
        )
    if current.startswith(STORE_NOTICES):
        return ""
    return current


def _games(count: int) -> str:
    return "1 game is" if count == 1 else f"{count} games are"
