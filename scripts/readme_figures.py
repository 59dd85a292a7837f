"""The documents' figures, regenerated from the commands they document, so they cannot drift.

    python scripts/readme_figures.py                 rewrite every figure in README.md and docs/
    python scripts/readme_figures.py match-json      only the figures named
    python scripts/readme_figures.py --check         write nothing; exit 1 if a figure is stale
    python scripts/readme_figures.py --timings       rewrite the timings too (a quiet machine)

A figure is a block of README.md or of a page in docs/ between `<!-- figures:NAME -->` and
`<!-- /figures -->`. The script runs the figure's command (`python -m tictactoe_tui ...` from this
checkout), formats what it prints the way the page shows it, and puts the result between the
markers. Every figure here
is deterministic (seeded matches, exact searches, the program's own limits) except for its
timings: `--check`, which the tests run, compares the blocks with the timings masked, so a
changed count, move, limit or field fails the tests until the script is run again.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def documents() -> list[Path]:
    """The README and the pages of docs/: where figures may stand."""
    return [README, *sorted(DOCS.glob("*.md"))]


def all_text() -> str:
    """Every document's text, one after the other (each figure stands in one of them)."""
    return "\n".join(path.read_text(encoding="utf-8") for path in documents())


BLOCK = re.compile(
    r"(<!-- figures:(?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /figures -->)", re.DOTALL
)
"""A figure's block: its opening marker, what is between, and the closing marker."""

TIMING = re.compile(r"\d[\d,.]*(?:e-?\d+)?(?: ?(?:ms|µs|s)\b| a second)")
"""A measured time or speed ("44 ms", "0.92 ms", "165,594 a second"): masked by `--check`."""

JSON_TIMING = re.compile(
    r'"(?:mean_seconds|seconds|positions_per_second)": '
    r"(?:\{[^}]*\}|[\d.e-]+)"
)
"""A measured time or speed in a JSON figure ("seconds": 0.00092): masked by `--check`."""


@dataclass(frozen=True)
class Figure:
    """One figure block: the command that makes it and how its output is shown."""

    command: tuple[str, ...]
    """The arguments after `python -m tictactoe_tui` (empty: nothing to run)."""
    render: Callable[[str], str]
    """The block's text from the command's output."""
    volatile: tuple[re.Pattern[str], ...] = field(default=(TIMING,))
    """What differs from run to run (timings), masked when checking."""
    stdin: str = ""
    """What the command reads (typed lines, for a `--text` session)."""
    status: int = 0
    """The exit status the command must end with (`grade` of a file that breaks its contract:
    1)."""


def run(command: Iterable[str], stdin: str = "", status: int = 0) -> str:
    """What `python -m tictactoe_tui COMMAND` prints, reading `stdin` (it must end with exit
    `status`)."""
    done = subprocess.run(
        [sys.executable, "-m", "tictactoe_tui", *command],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != status:
        raise RuntimeError(f"tictactoe-tui {' '.join(command)} failed: {done.stderr.strip()}")
    return done.stdout


def fenced(text: str, language: str = "") -> str:
    """`text` in a Markdown code block."""
    return f"```{language}\n{text.rstrip()}\n```\n"


def two_figures(value: float) -> str:
    """A time in seconds to two significant figures, without an exponent (0.00060)."""
    if value == 0:
        return "0"
    places = max(0, 1 - math.floor(math.log10(abs(value))))
    return f"{value:.{places}f}"


def commented(lines: list[tuple[str, str]], column: int) -> str:
    """Code lines with their comments lined up at `column` (further right for a long line)."""
    out = []
    for code, comment in lines:
        if not comment:
            out.append(code)
            continue
        at = column if len(code) < column - 1 else column + 13
        out.append(f"{code.ljust(at)}{comment}".rstrip())
    return "\n".join(out)


# -- the figures ----------------------------------------------------------------------------------

MATCH = (
    "match",
    "--x",
    "alphabeta",
    "--o",
    "h1:difficulty=80",
    "--games",
    "20",
    "--seed",
    "3",
    "--json",
)


def match_json(output: str) -> str:
    """`match --json`, the first seven keys and a sample of the details, annotated."""
    match = json.loads(output)
    x = match["players"]["x"]
    first = match["results"][0]

    def record(side: dict[str, int]) -> str:
        return json.dumps({key: side[key] for key in ("wins", "draws", "losses")})

    def per_side(key: str, show: Callable[[float], str]) -> str:
        return f'{{"x": {show(match[key]["x"])}, "o": {show(match[key]["o"])}}}'

    lines = [
        ("{", ""),
        (f'  "x": {json.dumps(match["x"])},', "the players' specs (normalised)"),
        (f'  "o": {json.dumps(match["o"])},', ""),
        (f'  "games": {match["games"]},', "games played to the end"),
        (
            f'  "x_wins": {match["x_wins"]}, "o_wins": {match["o_wins"]}, '
            f'"draws": {match["draws"]},',
            "a win counts for the player, whichever mark it had",
        ),
        (
            f'  "mean_seconds": {per_side("mean_seconds", two_figures)},',
            "per move, the random opening excluded",
        ),
        (
            f'  "mean_positions": {per_side("mean_positions", lambda v: f"{v:.1f}")},',
            "positions searched per move",
        ),
        (f'  "size": {match["size"]}, "k": {match["k"]}, "seed": {match["seed"]},', ""),
        (
            f'  "requested": {match["requested"]}, "cancelled": {json.dumps(match["cancelled"])},',
            "fewer games than requested after Ctrl+C",
        ),
        (
            f'  "players": {{"x": {{"wins": {x["wins"]}, "draws": {x["draws"]}, '
            f'"losses": {x["losses"]}, "points": {x["points"]},',
            "",
        ),
        (f'                    "as_x": {record(x["as_x"])},', ""),
        (f'                    "as_o": {record(x["as_o"])},', ""),
        (
            f'                    "moves": {x["moves"]}, "mean_seconds": '
            f'{two_figures(x["mean_seconds"])}, "mean_positions": {x["mean_positions"]:.1f}}},',
            "",
        ),
        ('              "o": {...}},', ""),
        (
            f'  "results": [{{"game": {first["game"]}, "x_mark": {json.dumps(first["x_mark"])}, '
            f'"winner": {json.dumps(first["winner"])}, "opening": {first["opening"]},',
            "",
        ),
        (f'               "moves": {json.dumps(first["moves"])}}}, ...]', ""),
        ("}", ""),
    ]
    return fenced(commented(lines, 43))


COMPARED = "X../.O./..."
"""The position the compare examples use."""


def compare_text(output: str) -> str:
    """`compare POSITION` as typed and printed."""
    return fenced(f'$ tictactoe-tui compare "{COMPARED}"\n{output}')


COMPARE_COMMENTS = {
    "algorithm": "alphabeta-tt, h1, h2",
    "move": "null if the search stopped before it finished",
    "value": "from the side to move; null if it did not finish",
    "positions": "positions visited, the root counted",
    "complete": "the value is the game's value (proven)",
    "finished": "false when cancelled or out of time",
    "depth": "plies searched; null = to the end of the game",
    "agrees_with_minimax": "move_agrees and value_agrees; null = no reference",
    "move_agrees": "its move is one minimax rates best",
    "value_agrees": "its value is minimax's",
    "kind": 'what value is: "exact" or "estimate"',
    "first_move_cutoffs": "cut-offs made by the first move tried,",
    "first_cut_share": "their share (1st cuts); null: no cut-off",
    "rule": '"near stones only" when it left moves out',
    "root_moves": "the root moves it searched,",
    "legal_moves": "of the legal ones,",
    "root_moves_done": "and finished (where a stopped one stopped)",
    "moves": "each move searched, tried in this order",
}
"""The comments beside one result's fields (a field without one is shown bare)."""

MOVE_FIELDS = ("move", "score", "kind", "source", "positions")
"""The fields shown of each of a result's moves (docs/panel.md lists them all)."""

MINIMAX_COMMENTS = {
    "depth": "what minimax searched to",
    "tree_positions": "the size of that tree",
    "tree_exact": "counted (true) or estimated (false)",
    "too_big": "the tree asked for did not fit --time-limit",
    "too_big_tree_positions": "then: its size,",
    "too_big_tree_exact": "      counted or estimated,",
    "suggested_depth": "      and the depth minimax ran to instead",
}
"""The comments beside the minimax object's fields."""


def _fields(
    values: dict[str, object], comments: dict[str, str], indent: str, first_comment: str = ""
) -> list[tuple[str, str]]:
    """One line per field, the last without a comma; `first_comment` on the first line."""
    lines = []
    for number, (key, value) in enumerate(values.items()):
        shown = (
            two_figures(value)
            if key == "seconds" and isinstance(value, float)
            else (json.dumps(value))
        )
        if key == "moves" and isinstance(value, list) and len(value) > 2:
            # Moves as `analyse --json` gives them: the first two, in a few of their fields.
            lines.append((f"{indent}{json.dumps(key)}: [", f"// {comments.get(key, '')}"))
            lines += [
                (f"{indent}  {json.dumps({k: move[k] for k in MOVE_FIELDS})[:-1]}, ...}},", "")
                for move in value[:2]
            ]
            lines.append((f"{indent}  ...", ""))
            lines.append((f"{indent}]{',' if number < len(values) - 1 else ''}", ""))
            continue
        comma = "," if number < len(values) - 1 else ""
        comment = comments.get(key, "")
        if number == 0 and first_comment:
            comment = first_comment
        lines.append(
            (f"{indent}{json.dumps(key)}: {shown}{comma}", f"// {comment}" if comment else "")
        )
    return lines


def compare_json(output: str) -> str:
    """`compare POSITION --json`: one result (alpha-beta with its table) and minimax's object."""
    compared = json.loads(output)
    order = [result["algorithm"] for result in compared["results"]]
    result = next(r for r in compared["results"] if r["algorithm"] == "alphabeta-tt")
    lines = [
        ("{", ""),
        (f'  "position": {json.dumps(compared["position"])},', "// the board, normalised"),
        (
            f'  "size": {compared["size"]}, "k": {compared["k"]}, '
            f'"to_move": {json.dumps(compared["to_move"])},',
            "",
        ),
        ('  "results": [', "// one per algorithm, in this order:"),
        ("    {", f"// {', '.join(order[:3])},"),
        *_fields(result, COMPARE_COMMENTS, "      ", ", ".join(order[3:])),
        ("    }", ""),
        ("  ],", ""),
        ('  "minimax": {', ""),
        *_fields(compared["minimax"], MINIMAX_COMMENTS, "    "),
        ("  }", ""),
        ("}", ""),
    ]
    return fenced(commented(lines, 38), "jsonc")


def game_flags(_: str) -> str:
    """The game flags' table, its limits and defaults read from the program itself."""
    from tictactoe_tui.engine import OPPONENTS
    from tictactoe_tui.play.settings import (
        FIRST_CHOICES,
        MARKS,
        MAX_DEPTH,
        MAX_DIFFICULTY,
        MAX_SIZE,
        MAX_TIME_LIMIT,
        MIN_DEPTH,
        MIN_DIFFICULTY,
        MIN_K,
        MIN_SIZE,
        MODES,
        GameSettings,
    )

    default = GameSettings()

    def choices(values: Iterable[str]) -> str:
        return ", ".join(f"`{value}`" for value in values)

    rows = [
        ("--mode", choices(MODES), f"`{default.mode}`"),
        ("--first", choices(FIRST_CHOICES), f"`{default.first}`"),
        (
            "--mark",
            f"{choices(MARKS)} (your mark; whoever moves first makes the first mark)",
            f"`{default.mark}`",
        ),
        (
            "--opponent",
            f"{choices(OPPONENTS)}, or a SPEC as `match` reads it "
            "(`alphabeta:time=0.5`; `engine:path=PATH[:time=S]`: an outside Gomocup brain, "
            "five in a row)",
            f"`{default.opponent}`",
        ),
        ("--engine", "the outside engine's program when `--opponent` is `engine`", "none"),
        (
            "--x, --o",
            "computer-vs-computer (implied when given alone): each side's own SPEC",
            "the `--opponent` setting",
        ),
        (
            "--difficulty",
            f"{MIN_DIFFICULTY}–{MAX_DIFFICULTY}: the chance, in percent, that the "
            "computer plays its clever move",
            str(default.difficulty),
        ),
        ("--size", f"{MIN_SIZE}–{MAX_SIZE}", str(default.size)),
        ("--k", f"marks in a row to win, {MIN_K}–size", "min(size, 5)"),
        (
            "--time-limit",
            f"seconds per computer move on boards bigger than 3×3: more than 0, "
            f"at most {MAX_TIME_LIMIT:g}",
            f"{default.time_limit:.1f}",
        ),
        ("--seed", "any integer: makes the computer's choices reproducible", "random"),
        (
            "--depth",
            f"{MIN_DEPTH}–{MAX_DEPTH} plies: minimax and alpha-beta look this far ahead "
            "and score the rest with H1 (a depth cut-off)",
            "automatic",
        ),
        (
            "--theme",
            "a Textual theme name (`textual-dark`, `nord`, `gruvbox`, …) or `high-contrast`",
            f"`{default.theme}`",
        ),
        (
            "--data-dir",
            "the directory the history is kept in (made when first needed; a file "
            "or an empty path is refused)",
            "`$TICTACTOE_TUI_DATA_DIR`, else the user data directory",
        ),
        (
            "--predict",
            "predict mode: say which move the computer will play and what the position is "
            "worth for it before it is shown ([predict.md](predict.md))",
            "off",
        ),
        (
            "--text",
            "play as plain lines on stdin and stdout (see the text mode below)",
            "off: full screen",
        ),
    ]
    table = ["| flag | values | default |", "| --- | --- | --- |"]
    table += [f"| `{flag}` | {values} | {default_value} |" for flag, values, default_value in rows]
    return "\n".join(table) + "\n"


DRILL = ("drill", "--seed", "21", "--depth", "3", "--width", "2")
"""The drill of docs/lab.md's worked example: small, and each convention changes its answer."""

DRILL_TYPED = (
    "A = 2",
    "B1 = 2",
    "C1 = 2",
    "C2 = 2",
    "prune D4",
    "B2 = 2",
    "C3 = 1",
    "prune C4",
    "check",
)
"""The answer typed in the worked example: right but for B2 (fail-soft returns 1 there)."""


def drill_text(output: str) -> str:
    """`drill --text` as it starts: the drill, its convention, the tree."""
    return fenced(f"$ tictactoe-tui {' '.join(DRILL)} --text\n{output}")


def drill_check(output: str) -> str:
    """A `drill --text` session: the lines typed, and what the drill says after the tree."""
    lines = output.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("Type:")) + 1
    typed = "\\n".join(DRILL_TYPED)
    shown = [
        f"$ printf '{typed}\\n' | tictactoe-tui {' '.join(DRILL)} --text",
        "...",
        *lines[start:],
    ]
    return fenced("\n".join(shown))


def drill_conventions(_: str) -> str:
    """The worked example under the four conventions: what each visits and the values that
    differ, from `drill --json`."""
    from tictactoe_tui.engine.lab.hand_search import Cut, Returns

    rows = []
    for cut in Cut:
        for returns in Returns:
            found = json.loads(
                run((*DRILL, "--cut", cut.value, "--returns", returns.value, "--json"))
            )
            labels: dict[int, str] = {}
            leaves: set[int] = set()
            stack = [found["tree"]]
            while stack:
                node = stack.pop()
                labels[node["id"]] = node["label"]
                if "children" in node:
                    stack.extend(reversed(node["children"]))
                else:
                    leaves.add(node["id"])
            rows.append((cut, returns, found["answer"], labels, leaves))
    answers = [row[2] for row in rows]
    order = sorted(rows[0][3])
    differ = [
        ident
        for ident in order
        if len({answer["returns"].get(str(ident)) for answer in answers}) > 1
    ]
    labels = rows[0][3]
    cut_words = {Cut.AT_EQUAL: "α ≥ β", Cut.PAST_EQUAL: "α > β"}
    head = ["cut at", "returns", "visited, in order", "never visited", *(labels[i] for i in differ)]
    table = [
        "| " + " | ".join(head) + " | leaves |",
        "| " + " | ".join("---" for _ in head) + " | --- |",
    ]
    for cut, returns, answer, labels, leaves in rows:
        visited = " ".join(labels[i] for i in answer["visited"])
        pruned = ", ".join(labels[i] for i in answer["pruned"])
        values = [str(answer["returns"].get(str(i), "—")) for i in differ]
        count = sum(1 for i in answer["visited"] if i in leaves)
        cells = [cut_words[cut], returns.value, visited, pruned, *values, str(count)]
        table.append("| " + " | ".join(cells) + " |")
    return "\n".join(table) + "\n"


def typed(command: tuple[str, ...]) -> Callable[[str], str]:
    """A figure showing `tictactoe-tui COMMAND` as typed (a position in quotes) and its output."""
    words = " ".join(f'"{w}"' if re.fullmatch(r"[XO./]+", w) else w for w in command)

    def render(output: str) -> str:
        return fenced(f"$ tictactoe-tui {words}\n{output}")

    return render


YOURS_ANALYSE = ("analyse", "XX./OO./X..", "--eval", "examples/h1_by_hand.py")
YOURS_COMPARE = ("compare", COMPARED, "--eval", "examples/my_eval.py")
YOURS_GRADE = ("grade", "examples/h1_by_hand.py")
YOURS_BUGGY = ("grade", "examples/buggy_player.py")
"""The commands docs/your-code.md shows (every example file is in examples/)."""


FIGURES: dict[str, Figure] = {
    "game-flags": Figure((), game_flags, volatile=()),
    "compare-text": Figure(("compare", COMPARED), compare_text),
    "compare-json": Figure(("compare", COMPARED, "--json"), compare_json, volatile=(JSON_TIMING,)),
    "match-json": Figure(MATCH, match_json, volatile=(JSON_TIMING,)),
    "drill-text": Figure((*DRILL, "--text"), drill_text, volatile=()),
    "drill-conventions": Figure((), drill_conventions, volatile=()),
    "drill-check": Figure(
        (*DRILL, "--text"), drill_check, volatile=(), stdin="\n".join(DRILL_TYPED) + "\n"
    ),
    "yours-analyse": Figure(YOURS_ANALYSE, typed(YOURS_ANALYSE)),
    "yours-compare": Figure(YOURS_COMPARE, typed(YOURS_COMPARE)),
    "yours-grade": Figure(YOURS_GRADE, typed(YOURS_GRADE), volatile=()),
    "yours-buggy": Figure(YOURS_BUGGY, typed(YOURS_BUGGY), volatile=(), status=1),
}
"""Every figure of the documents, by the name its markers carry."""


# -- the documents --------------------------------------------------------------------------------


def blocks(text: str) -> dict[str, str]:
    """A text's figure blocks, by name."""
    return {found["name"]: found["body"] for found in BLOCK.finditer(text)}


def make(name: str) -> str:
    """Figure `name`'s block as the program makes it now."""
    figure = FIGURES[name]
    return figure.render(run(figure.command, figure.stdin, figure.status) if figure.command else "")


def masked(name: str, text: str) -> str:
    """A block with what differs from run to run masked, and runs of spaces made one (a
    timing's width moves the columns)."""
    for pattern in FIGURES[name].volatile:
        text = pattern.sub("~", text)
    return re.sub(r"[ ]{2,}|-{2,}", " ", text)


def rewrite(text: str, made: dict[str, str]) -> str:
    """The README with the blocks in `made` replaced."""

    def replace(found: re.Match[str]) -> str:
        body = made.get(found["name"], found["body"])
        return f"{found[1]}{body}{found[4]}"

    return BLOCK.sub(replace, text)


def stale(text: str, names: Iterable[str]) -> dict[str, tuple[str, str]]:
    """The figures among `names` whose block differs from what the program makes now (timings
    aside): name -> (the block, the figure made now)."""
    found = blocks(text)
    out = {}
    for name in names:
        made = make(name)
        if masked(name, found.get(name, "")) != masked(name, made):
            out[name] = (found.get(name, ""), made)
    return out


def main(argv: list[str] | None = None) -> int:
    """Rewrite (or, with --check, check) the documents' figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "names",
        nargs="*",
        metavar="FIGURE",
        help=f"the figures to make (default all: {', '.join(FIGURES)})",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 and show the difference if a figure is stale",
    )
    parser.add_argument(
        "--timings", action="store_true", help="rewrite figures whose timings alone changed too"
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in FIGURES]
    if unknown:
        parser.error(f"no such figure: {', '.join(unknown)}")
    names = args.names or list(FIGURES)
    text = all_text()
    missing = [name for name in names if name not in blocks(text)]
    if missing:
        parser.error(f"no document has a block for {', '.join(missing)}")
    if args.check:
        old = stale(text, names)
        for name, (block, now) in old.items():
            sys.stdout.writelines(
                difflib.unified_diff(
                    block.splitlines(keepends=True),
                    now.splitlines(keepends=True),
                    f"documents ({name})",
                    f"made now ({name})",
                )
            )
        if old:
            print(f"stale: {', '.join(old)} (run python scripts/readme_figures.py)")
        return 1 if old else 0
    # A block whose only change is its timings is left alone (unless asked): a rerun on a busy
    # machine should not churn the README.
    made = {name: make(name) for name in names}
    if not args.timings:
        current = blocks(text)
        made = {
            name: block
            for name, block in made.items()
            if masked(name, block) != masked(name, current[name])
        }
    for path in documents():
        page = path.read_text(encoding="utf-8")
        new = rewrite(page, made)
        if new != page:
            path.write_text(new, encoding="utf-8")
    print(f"rewrote {', '.join(made) or 'nothing: every figure is current'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
