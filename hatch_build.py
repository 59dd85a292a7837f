"""Hatch build hook: compile the threat search's C kernel (`engine/proofs/_threatc.c`) into the wheel.

The engine runs without it (engine/proofs/threats.py falls back to its pure Python search, which stays
the reference), so a missing or failing compiler costs one warning line and a pure wheel, never
a failed install. The compiler and its flags are the interpreter's own (sysconfig; the CC
environment variable overrides the compiler), called directly: setuptools is not needed.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("tictactoe_tui", "engine", "proofs", "_threatc.c")


def compile_kernel(source: Path, target: Path) -> str | None:
    """Compile `source` into the extension module `target`; None on success, else why not."""
    config = sysconfig.get_config_vars()
    compiler = shlex.split(os.environ.get("CC") or config.get("CC") or "cc")
    linker = shlex.split(config.get("LDSHARED") or "cc -shared")
    command = [
        *compiler,
        *shlex.split(config.get("CFLAGS") or ""),
        *shlex.split(config.get("CCSHARED") or ""),
        "-O2",
        "-I",
        sysconfig.get_paths()["include"],
        str(source),
        *linker[1:],  # the linker's flags (-shared, or a bundle on macOS), with our compiler
        "-o",
        str(target),
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if done.returncode != 0 or not target.exists():
        lines = (done.stderr or done.stdout or f"exit status {done.returncode}").strip()
        return lines.splitlines()[-1] if lines else f"exit status {done.returncode}"
    return None


class KernelBuildHook(BuildHookInterface):
    """Adds the compiled kernel to wheels (and next to the sources for an editable install)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile the kernel; mark the wheel platform-specific only if that worked."""
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        name = "_threatc" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")
        in_tree = root / SOURCE.parent / name
        if version == "editable":
            # The editable install imports the sources in place: the module goes beside them.
            in_tree.unlink(missing_ok=True)
            problem = compile_kernel(root / SOURCE, in_tree)
            target = in_tree
        else:
            self._scratch = tempfile.TemporaryDirectory()
            target = Path(self._scratch.name, name)
            problem = compile_kernel(root / SOURCE, target)
            if problem is None:
                build_data["force_include"][str(target)] = str(SOURCE.parent / name)
        if problem is not None:
            print(
                f"tictactoe-tui: the threat search's C kernel was not built ({problem}); "
                "the pure Python engine will run.",
                file=sys.stderr,
            )
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the scratch folder of a standard wheel's compiled module."""
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            scratch.cleanup()
