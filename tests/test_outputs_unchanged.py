"""`analyse --json` and `compare --json` print what they printed before the house was rebuilt.

tests/golden/outputs.json was written by scripts/golden_outputs.py from the code as it stood
before the engine moved into rooms; every command is run again here, in-process, and must print
the same object (clock readings aside).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.scripts import load_script

golden = load_script("golden_outputs")
COMMANDS = golden.COMMANDS
EXPECTED: dict[str, Any] = json.loads(golden.GOLDEN.read_text())


def test_the_golden_file_holds_every_command():
    assert set(EXPECTED) == {" ".join(command) for command in COMMANDS}


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_the_command_prints_what_it_printed_before(command: tuple[str, ...]):
    assert golden.run(command) == EXPECTED[" ".join(command)]
