"""The figures in the README and docs/ are what the program prints now (scripts/readme_figures.py
makes them)."""

from __future__ import annotations

import pytest

from tests.scripts import load_script

figures = load_script("readme_figures")


@pytest.mark.slow
def test_every_figure_in_the_readme_is_what_the_program_makes_now() -> None:
    text = figures.all_text()
    assert set(figures.blocks(text)) == set(figures.FIGURES)
    stale = figures.stale(text, figures.FIGURES)
    assert not stale, (
        f"stale README figures: {', '.join(stale)}; run python scripts/readme_figures.py"
    )


def test_a_changed_count_is_stale_and_a_changed_timing_is_not() -> None:
    text = figures.all_text()
    block = figures.blocks(text)["match-json"]
    assert '"mean_positions": {"x": 23.9' in block
    # The drift the issue found: another run's mean quoted as this command's.
    drifted = text.replace(block, block.replace('"x": 23.9', '"x": 54.9'))
    assert set(figures.stale(drifted, ["match-json"])) == {"match-json"}
    seconds = block.split('"mean_seconds": {"x": ')[1].split(",")[0]
    slower = text.replace(block, block.replace(seconds, "0.00088"))
    assert figures.stale(slower, ["match-json"]) == {}


def test_the_flag_table_states_every_limit_the_program_checks() -> None:
    table = figures.blocks(figures.all_text())["game-flags"]
    assert "at most 60" in table and "| `--data-dir` |" in table
    assert "| `--size` | 3–20 |" in table and "1–20 plies" in table
