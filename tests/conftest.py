"""Fixtures for every test: no test ever reads or writes the user's real files (the history, the
settings, the crash log, any cache)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tictactoe_tui.history.locations import DATA_DIR_ENV

XDG_VARIABLES = ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
"""Where programs put the user's files (platformdirs reads them; the crash log goes under the
state one): each points into the session's temporary folder."""


@pytest.fixture(scope="session", autouse=True)
def private_homes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """For the whole session, every XDG directory and the data directory in a temporary folder,
    so a test that forgets to choose one (or a subprocess it starts) writes nothing real."""
    root = tmp_path_factory.mktemp("homes")
    with pytest.MonkeyPatch.context() as patch:
        for name in XDG_VARIABLES:
            folder = root / name.lower()
            folder.mkdir()
            patch.setenv(name, str(folder))
        patch.setenv(DATA_DIR_ENV, str(root / "data"))
        yield root


@pytest.fixture(autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty data directory for each test, named by $TICTACTOE_TUI_DATA_DIR (so the
    app, the store and any subprocess the test starts use it instead of the user's)."""
    directory = tmp_path_factory.mktemp("data")
    monkeypatch.setenv(DATA_DIR_ENV, str(directory))
    return directory


APP_TESTS = Path(__file__).parent / "app"
"""The app's own tests (Pilot and snapshots): each is marked `app`, a tier of its own."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test under tests/app `app` before `-m` chooses what runs, so the README's
    command (`-m 'not slow and not app'`) is the fast tier and `-m app` runs the app's tests."""
    for item in items:
        if item.path.is_relative_to(APP_TESTS):
            item.add_marker(pytest.mark.app)
