"""The engine is a pure package: importing it never loads Textual or the app."""

import subprocess
import sys


def test_importing_the_engine_loads_no_textual_and_no_app_module() -> None:
    code = (
        "import sys, tictactoe_tui.engine\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')\n"
        "             or m.startswith(('tictactoe_tui.ui.app', 'tictactoe_tui.ui.screens',\n"
        "                              'tictactoe_tui.ui.widgets', 'tictactoe_tui.ui.messages')))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
