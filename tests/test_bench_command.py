"""`tictactoe-tui bench` from an installed copy (`pip install .`): inside a checkout it runs that
checkout's benchmarks; anywhere else it, and its --help, say how."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import tictactoe_tui

CHECKOUT = Path(tictactoe_tui.__file__).resolve().parents[1]


def installed_bench(site: Path, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`tictactoe-tui bench ARGS` run in `folder` by a copy of the package installed in `site`
    (isolated: the folder is not on the path, as for the installed console script)."""
    code = (
        f"import sys; sys.path.insert(0, {str(site)!r}); "
        "from tictactoe_tui.cli.main import main; "
        f"raise SystemExit(main(['bench', *{list(args)!r}]))"
    )
    return subprocess.run(
        [sys.executable, "-I", "-c", code], cwd=folder, capture_output=True, text=True, timeout=120
    )


def install_copy(tmp_path: Path) -> Path:
    site = tmp_path / "site-packages"
    shutil.copytree(
        CHECKOUT / "tictactoe_tui",
        site / "tictactoe_tui",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return site


def test_an_installed_copy_runs_the_benchmarks_of_the_checkout_it_is_run_in(tmp_path: Path) -> None:
    site = install_copy(tmp_path)
    out = installed_bench(site, CHECKOUT / "docs", "--help")
    assert out.returncode == 0, out.stderr
    assert "Engine benchmark" in out.stdout and "--against" in out.stdout
    assert out.stderr == (
        f"tictactoe-tui bench: the benchmarks of the checkout in {CHECKOUT}, with its own engine\n"
    )


def test_outside_a_checkout_the_command_and_its_help_say_how(tmp_path: Path) -> None:
    site = install_copy(tmp_path)
    out = installed_bench(site, tmp_path, "--quick")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1
    assert "run tictactoe-tui bench inside a checkout" in out.stderr
    helped = installed_bench(site, tmp_path, "--help")
    assert helped.returncode == 0
    assert "run tictactoe-tui bench inside a checkout" in " ".join(helped.stdout.split())
