"""What each entry point loads before it is used: the engine's names come from their rooms on
first use, `--version` needs no Textual, the app's screens load when first shown.

Each check of `sys.modules` runs in a fresh interpreter (this one has loaded everything)."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import tictactoe_tui.engine as engine
from tictactoe_tui import __version__

ROOTS = ("tictactoe_tui", "textual", "rich")
"""The packages whose modules `loaded_after` reports unless told others."""


def loaded_after(code: str, roots: tuple[str, ...] = ROOTS) -> set[str]:
    """The modules of the packages `roots` (the app's, Textual's and Rich's unless told) that a
    fresh interpreter holds after `code`."""
    program = (
        f"{code}\nimport sys\n"
        "print('\\n'.join(m for m in sys.modules\n"
        f"                 if m.split('.')[0] in {roots!r}))\n"
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
        "from tictactoe_tui.cli.play import app_from_args\napp_from_args(['--size', '10'])"
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


NOT_FOR_THE_FIRST_PAINT = (
    "tictactoe_tui.engine.search.api",  # the searches: the worker runs them, not the first paint
    "tictactoe_tui.engine.search.pvs",
    "tictactoe_tui.engine.proofs",  # the solver, the threat reader and its compiled kernel
    "tictactoe_tui.engine.puzzles",
    "tictactoe_tui.engine.lab",
    "tictactoe_tui.worker.client",  # the worker's client, and with it multiprocessing
    "multiprocessing",
    "tictactoe_tui.play.predict",  # predict mode, only when it is switched on
    "tictactoe_tui.history.predictions",
    "tictactoe_tui.history.puzzles",
    "tictactoe_tui.ui.screens.help",  # help's Markdown loads in the background after the paint
    "markdown_it",
    "textual_plotext",  # the charts, with the screens that draw them
    "plotext",
)
"""What the first screens (Settings, then a game) never wait for: each loads when first used.
A name stands for the module and everything inside it."""

FIRST_SCREENS = (
    "from tictactoe_tui.cli.play import app_from_args\n"
    "app = app_from_args(['--size', '10', '--k', '5', '--data-dir', {data!r}])\n"
    "from tictactoe_tui.ui.screens.settings import SettingsScreen\n"
    "from tictactoe_tui.ui.screens.game import GameScreen\n"
    "SettingsScreen(app.settings)\n"
    "GameScreen(app.settings)  # its controller and its alpha-beta player\n"
)
"""What the app does before its first paint: read the flags, open the history, import the
first screens and build them (a 10×10 game against alpha-beta, as `scripts/latency.py` starts)."""


def deferred_among(loaded: set[str]) -> set[str]:
    """The modules of `loaded` that are one of `NOT_FOR_THE_FIRST_PAINT` or inside one."""
    return {
        m
        for m in loaded
        if any(m == name or m.startswith(f"{name}.") for name in NOT_FOR_THE_FIRST_PAINT)
    }


def test_the_first_screens_wait_for_no_search_proof_puzzle_chart_or_worker(
    tmp_path: Path,
) -> None:
    roots = (*ROOTS, *{name.split(".")[0] for name in NOT_FOR_THE_FIRST_PAINT})
    loaded = loaded_after(FIRST_SCREENS.format(data=str(tmp_path)), roots)
    assert {"tictactoe_tui.ui.screens.game", "tictactoe_tui.play.controller"} <= loaded
    assert deferred_among(loaded) == set()


def test_each_deferred_module_still_loads_where_it_is_used(tmp_path: Path) -> None:
    # The guard above is only worth something if the names in it are real modules that the
    # app does load once they are used.
    code = (
        FIRST_SCREENS.format(data=str(tmp_path))
        + "import tictactoe_tui.engine.search.pvs, tictactoe_tui.engine.proofs.threats\n"
        "import tictactoe_tui.engine.puzzles.proven, tictactoe_tui.engine.lab.trace\n"
        "import tictactoe_tui.worker.client, tictactoe_tui.play.predict\n"
        "import tictactoe_tui.history.predictions, tictactoe_tui.history.puzzles\n"
        "import tictactoe_tui.ui.screens.help, tictactoe_tui.ui.screens.match\n"
    )
    roots = (*ROOTS, *{name.split(".")[0] for name in NOT_FOR_THE_FIRST_PAINT})
    loaded = loaded_after(code, roots)
    found = {name for name in NOT_FOR_THE_FIRST_PAINT if name in loaded}
    assert found == set(NOT_FOR_THE_FIRST_PAINT)


def test_the_history_list_loads_the_review_and_its_charts_only_when_a_game_opens() -> None:
    loaded = loaded_after("import tictactoe_tui.ui.screens.history", (*ROOTS, "textual_plotext"))
    assert "tictactoe_tui.ui.screens.history" in loaded
    assert "tictactoe_tui.ui.screens.review" not in loaded
    assert "textual_plotext" not in loaded
