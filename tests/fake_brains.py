"""Fake Gomocup brains for the host-side tests: small Python programs written into a test's
temporary folder, each failing (or not) in its own way.

`write_brain(folder, behaviour)` writes an executable `pbrain-<behaviour>` and returns its path:

- "good": plays the free cell nearest the centre, says two MESSAGE lines per move, and writes
  its working folder and every command it heard to `heard.txt` beside itself;
- "hung": answers START, then never moves;
- "crash": answers START, writes to stderr, then exits with status 3 when asked to move;
- "taken": plays 0,0 on every move (legal once at most);
- "garbage": prints nonsense lines (and stderr) before a good move;
- "malformed": answers a move request with `7,x`;
- "offboard": plays 99,99;
- "refuses": answers START with ERROR;
- "slowexit": a good brain that ignores END (it must be killed);
- "slow": a good brain that says "thinking hard" and thinks a second before each move;
- "touchy": a good brain that, like Rapfi, is still leaving its search just after it prints a
  move: a command that arrives within 5 ms of its move line is lost (it answers ERROR). Besides
  the commands it heard, it writes `moved T` after each move (T its `time.monotonic()`),
  `gap S COMMAND` for the first command after a move (S seconds after it), and `early COMMAND`
  for one it lost.
- "dropper": a good brain that, like Rapfi on a loaded machine, drops the word of its first
  `TURN` whenever it comes and answers `ERROR Unknown command: x,y`;
- "grumpy": answers every `TURN x,y` so;
- "named": a good brain whose `ABOUT` gives the name "Named Brain" (the others give their
  file name, but "nameless", a good brain that answers `ABOUT` with `UNKNOWN`).
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

BRAIN = """\
#!{python}
import os, sys, time
BEHAVIOUR = {behaviour!r}
here = os.path.dirname(os.path.abspath(__file__))
log = open(os.path.join(here, "heard.txt"), "a")
log.write("cwd " + os.getcwd() + "\\n"); log.flush()
size, stones, board_mode = 15, {{}}, False
moved_at = None
dropped = False

def say(text):
    sys.stdout.write(text + "\\n"); sys.stdout.flush()

def move():
    if BEHAVIOUR == "hung":
        time.sleep(3600)
    if BEHAVIOUR == "crash":
        sys.stderr.write("Segmentation fault (pretend)\\n"); sys.stderr.flush()
        sys.exit(3)
    if BEHAVIOUR == "taken":
        say("0,0"); return
    if BEHAVIOUR == "malformed":
        say("7,x"); return
    if BEHAVIOUR == "offboard":
        say("99,99"); return
    if BEHAVIOUR == "slow":
        say("MESSAGE thinking hard"); time.sleep(1.0)
    if BEHAVIOUR == "garbage":
        say("hello there"); say("%%%"); sys.stderr.write("warning: odd\\n"); sys.stderr.flush()
    centre = size // 2
    free = sorted(((x, y) for x in range(size) for y in range(size) if (x, y) not in stones),
                  key=lambda c: (abs(c[0] - centre) + abs(c[1] - centre), c))
    x, y = free[0]
    say("MESSAGE depth 1 | eval 3")
    say("MESSAGE depth 2 | eval 5 | pv %d,%d" % (x, y))
    stones[(x, y)] = 1
    say("%d,%d" % (x, y))
    if BEHAVIOUR == "touchy":
        global moved_at
        moved_at = time.monotonic()
        log.write("moved %.6f\\n" % moved_at); log.flush()

for line in sys.stdin:
    command = line.strip()
    if moved_at is not None:
        gap, moved_at = time.monotonic() - moved_at, None
        log.write("gap %.6f %s\\n" % (gap, command)); log.flush()
        if gap < 0.005:
            log.write("early " + command + "\\n"); log.flush()
            say("ERROR command within 5 ms of my move: " + command)
            continue
    log.write(command + "\\n"); log.flush()
    if board_mode:
        if command == "DONE":
            board_mode = False; move()
        else:
            x, y, f = command.split(","); stones[(int(x), int(y))] = int(f)
        continue
    word = command.split(" ")[0].upper() if command else ""
    if word == "START":
        if BEHAVIOUR == "refuses":
            say("ERROR unsupported size"); continue
        size = int(command.split()[1]); stones = {{}}; say("OK")
    elif word == "BEGIN":
        move()
    elif word == "TURN":
        if BEHAVIOUR == "grumpy" or (BEHAVIOUR == "dropper" and not dropped):
            dropped = True
            say("ERROR Unknown command: " + command.split()[1]); continue
        x, y = command.split()[1].split(","); stones[(int(x), int(y))] = 2; move()
    elif word == "BOARD":
        board_mode = True; stones = {{}}
    elif word == "INFO":
        pass
    elif word == "ABOUT":
        if BEHAVIOUR == "named":
            say('name="Named Brain", version="1.0", author="tests"')
        elif BEHAVIOUR == "nameless":
            say("UNKNOWN ABOUT")
        else:
            say('name="pbrain-' + BEHAVIOUR + '", version="1"')
    elif word == "END":
        if BEHAVIOUR == "slowexit":
            time.sleep(3600)
        break
"""


def write_brain(folder: Path, behaviour: str) -> Path:
    """An executable fake brain with `behaviour` (see the module docstring) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"pbrain-{behaviour}"
    path.write_text(BRAIN.format(python=sys.executable, behaviour=behaviour))
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def processes_running(path: Path) -> list[int]:
    """The process ids whose command line names `path` (read from the process table)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and any(str(path).encode() in part for part in command):
            found.append(int(entry.name))
    return found
