"""What each entry point loads before it is used: the engine's names come from their rooms on
first use, `--version` needs no Textual, the app's screens load when first shown.

Each check of `sys.modules` runs in a fresh interpreter (this one has loaded everything)."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from types import ModuleType

import tictactoe_tui.engine as engine
from tictactoe_tui import __version__


def loaded_after(code: str) -> set[str]:
    """The `tictactoe_tui`, `textual` and `rich` modules a fresh interpreter holds after `code`."""
    program = (
        f"{code}\nimport sys\n"
        "print('\\n'.join(m for m in sys.modules\n"
        "                 if m.split('.')[0] in ('tictactoe_tui', 'textual', 'rich')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=60
    )
    return set(out.stdout.split())


def engine_rooms() -> list[ModuleType]:
    """Every module inside the engine package (its rooms and their modules)."""
    return [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(engine.__path__, f"{engine.__name__}.")
    ]


def test_every_public_engine_name_is_the_object_its_room_defines() -> None:
    rooms = engine_rooms()
    for name in engine.__all__:
        value = getattr(engine, name)
        holders = [room for room in rooms if vars(room).get(name, None) is value]
        assert holders, f"{name} is in no room of the engine"
        home = getattr(value, "__module__", None)
        if isinstance(home, str) and home.startswith(f"{engine.__name__}."):
            assert sys.modules[home] in holders, f"{name} is not the one {home} defines"


def test_the_engine_offers_every_public_name_and_no_other() -> None:
    namespace: dict[str, object] = {}
    exec("from tictactoe_tui.engine import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(engine.__all__)
    assert set(engine.__all__) <= set(dir(engine))
    assert not hasattr(engine, "NoSuchName")


def test_importing_the_engine_loads_none_of_its_rooms() -> None:
    loaded = loaded_after("import tictactoe_tui.engine")
    assert not {m for m in loaded if m.startswith("tictactoe_tui.engine.")}


def test_the_rules_load_without_the_searches() -> None:
    loaded = loaded_after("from tictactoe_tui.engine import Board, Game, Mark")
    rooms = {m.split(".")[2] for m in loaded if m.startswith("tictactoe_tui.engine.")}
    assert rooms == {"rules"}


def test_asking_for_a_search_loads_it() -> None:
    loaded = loaded_after(
        "from tictactoe_tui.engine import analyse, Board\nanalyse(Board.empty(3, 3))"
    )
    assert "tictactoe_tui.engine.search.api" in loaded


def test_the_version_loads_no_textual() -> None:
    code = (
        "import contextlib, io\n"
        "from tictactoe_tui.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(out):\n"
        "    main(['--version'])\n"
        f"assert out.getvalue() == 'tictactoe-tui {__version__}\\n', out.getvalue()\n"
    )
    loaded = loaded_after(code)
    assert not {m for m in loaded if m.split(".")[0] in ("textual", "rich")}


def test_the_app_loads_no_screen_and_no_worker_until_it_runs() -> None:
    loaded = loaded_after(
        "from tictactoe_tui.app import TicTacToeApp\nTicTacToeApp.from_args(['--size', '10'])"
    )
    assert "tictactoe_tui.ui.app" in loaded
    assert not {m for m in loaded if m.startswith("tictactoe_tui.ui.screens.")}
    assert not {m for m in loaded if m.startswith("tictactoe_tui.worker")}
    assert "tictactoe_tui.engine.lab.trace" not in loaded


def test_the_settings_screen_loads_none_of_the_games_widgets() -> None:
    loaded = loaded_after("import tictactoe_tui.ui.app, tictactoe_tui.ui.screens.settings")
    widgets = {m for m in loaded if m.startswith("tictactoe_tui.ui.widgets.")}
    assert widgets == {"tictactoe_tui.ui.widgets.too_small"}
    assert not {m for m in loaded if m.startswith("tictactoe_tui.worker")}
    assert "tictactoe_tui.engine.search.api" not in loaded  # the form names players, plays none
