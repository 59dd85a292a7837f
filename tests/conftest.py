"""Fixtures for every test: no test ever reads or writes the user's real history."""

from __future__ import annotations

from pathlib import Path

import pytest

from tictactoe_tui.history.locations import DATA_DIR_ENV


@pytest.fixture(autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty data directory for each test, named by $TICTACTOE_TUI_DATA_DIR (so the
    app, the store and any subprocess the test starts use it instead of the user's)."""
    directory = tmp_path_factory.mktemp("data")
    monkeypatch.setenv(DATA_DIR_ENV, str(directory))
    return directory
