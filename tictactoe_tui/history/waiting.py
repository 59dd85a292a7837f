"""The games waiting beside a database that cannot take them yet, as text records.

A game the database cannot take (a file locked by another program, a full disk, a newer
program's file) is written at once beside it as `unsaved-*.txt`, in the export format
(`PlayedGame.to_record`), under a hidden name first and then renamed, so a copy looking for
records never reads half of one. Saving a record claims it first by renaming it
(`unsaved-….txt.saving-PID`), so two copies of the app never save it twice; a claim left by a
copy that ended before it finished is put back, or dropped when its game did reach the
database. The database itself is the store's: these records only hand it their games.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from tictactoe_tui.history.record import PlayedGame

UNSAVED_GLOB = "unsaved-*.txt"
"""Games the database could not take yet, waiting beside it as text records."""

CLAIM_MARK = ".saving-"
"""What a copy adds to a waiting record's name while it saves it: `unsaved-….txt.saving-PID`."""


class WaitingRecords:
    """The waiting records in one folder, the database's."""

    def __init__(self, folder: Path) -> None:
        """The records beside a database in `folder`."""
        self.folder = folder
        """Where the database and its waiting records are."""
        self._parked = 0
        """Records this copy has written (numbers their files)."""
        self.failure: str | None = None
        """Why the last record could not be written (None when it was)."""

    def count(self) -> int:
        """How many records wait (none when the folder cannot be read)."""
        try:
            return sum(1 for _ in self.folder.glob(UNSAVED_GLOB))
        except OSError:
            return 0

    def waiting(self) -> list[Path]:
        """The records, oldest first (OSError when the folder cannot be listed)."""
        return sorted(self.folder.glob(UNSAVED_GLOB))

    def park(self, game: PlayedGame) -> Path | None:
        """Write `game` beside the database as a record; None when that cannot be done."""
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        try:
            while True:
                self._parked += 1
                target = self.folder / f"unsaved-{stamp}-{os.getpid()}-{self._parked}.txt"
                if not target.exists():
                    break
            draft = self.folder / f".{target.name}.draft"
            try:
                draft.write_text(game.to_record(), encoding="utf-8")
                draft.replace(target)
            except OSError:
                draft.unlink(missing_ok=True)  # a full disk: no empty draft left behind
                raise
        except OSError as error:
            self.failure = error.strerror.lower() if error.strerror else str(error)
            return None
        self.failure = None
        return target

    def unpark(self, game: PlayedGame) -> bool:
        """Remove the record of `game`, if one waits."""
        text = game.to_record()
        try:
            for record in self.folder.glob(UNSAVED_GLOB):
                if record.read_text(encoding="utf-8") == text:
                    record.unlink(missing_ok=True)
                    return True
        except OSError:
            pass  # the folder cannot be read: the database is tried instead
        return False

    def save(self, record: Path, insert: Callable[[PlayedGame], int]) -> int | None:
        """Hand the game of `record` to `insert` (which returns its id) and remove the record;
        None when another copy took it first or it is not a game (then it stays, plain text,
        for the user). What `insert` raises propagates, the record back in its place."""
        claimed = record.with_name(f"{record.name}{CLAIM_MARK}{os.getpid()}")
        try:
            record.rename(claimed)
        except OSError:
            return None  # another copy claimed it (or it went): it is that copy's to save
        try:
            game = PlayedGame.from_record(claimed.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _rename_back(claimed, record)
            return None
        try:
            game_id = insert(game)
        except BaseException:
            _rename_back(claimed, record)
            raise
        claimed.unlink(missing_ok=True)
        return game_id

    def recover_claims(self, saved: Callable[[PlayedGame], bool]) -> None:
        """Records claimed by a copy that ended before it saved them: put back the ones its
        crash kept out of the database, and remove the ones it had saved (`saved` says)."""
        for claimed in self.folder.glob(f"{UNSAVED_GLOB}{CLAIM_MARK}*"):
            owner = claimed.name.rsplit(CLAIM_MARK, 1)[1]
            if not owner.isdigit() or _alive(int(owner)):
                continue
            original = claimed.with_name(claimed.name.rsplit(CLAIM_MARK, 1)[0])
            try:
                game = PlayedGame.from_record(claimed.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                _rename_back(claimed, original)
                continue
            if saved(game):
                claimed.unlink(missing_ok=True)
            else:
                _rename_back(claimed, original)


def _alive(pid: int) -> bool:
    """Whether process `pid` still runs (always "yes" where that cannot be asked safely)."""
    if os.name == "nt":  # os.kill(pid, 0) would send Ctrl+C there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it runs, as another user
    return True


def _rename_back(claimed: Path, record: Path) -> None:
    """Give a claimed record its name back (best effort: under either name it is plain text)."""
    with contextlib.suppress(OSError):
        claimed.rename(record)
