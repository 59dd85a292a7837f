"""Words for scores that say what they are: exact values, estimates, bounds, and their origin.

Pure and shared: `tictactoe-tui analyse` and `compare` print with these, and the screens can too
(no Textual here). A score alone cannot say whether it is proven (a heuristic's value can equal a
win's score), so every function takes the whole `MoveScore`, or its `kind` and `band`:

- `score_text`: the number, a bound with its sign: "-36", "≤ -14", "≥ +3";
- `score_meaning`: what it means: "loss in 14", "loses, in at most 14", "+6 (heuristic)";
- `origin_words`: where it came from when that is not a search of its own, which is what
  explains a move scored with no positions: "mirror of B1", "from the table", "rule: wins at
  once", "threats: wins by continuous fours";
- `depth_words`: how deep the move was searched when it differs from the rest: "depth 1",
  "to the end". Depths here count the move itself, as a search's depth does (a move's
  `MoveScore.depth` counts the plies below it, one less).

For narrow places (the evaluation panel, the board's cells, the live display), short forms of
the same: `marked_score` ("~-13", "≤ -14", "≥ +3", "-8"), `cell_score` (the board's faint
"≤-21", "~8", "+14", fitted to a cell by `fit_cell_score`, its marks told by
`overlay_caption`), `short_meaning` ("win in ≤ 9", "upper bound"), `row_note` ("mirror of
B1", "leaves a four", "VCT", "depth 1"), `proof_words` (a proof in a sentence: "Won by a chain
of threats (VCT): F8 F9 G8 …") and `legend_lines` (one line per mark a panel shows).

And for the lab's searches (`engine.trace`): `result_meaning` (a result's value by its kind),
`left_out_words` ("near stones only: 8 of 99 moves"), `searched_words` (the table's cell: "all
99", "8 of 99"), `stand_in_words` and `stand_in_label` (the tree's node standing
for the moves a node left out), `first_cut_words` (how well a search ordered its moves: "95% of 21
cut-offs by the first move") and `first_cut_text` (the table's cell: "95%").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from tictactoe_tui.engine import Board, MoveScore, describe_score
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.search.types import (
    Band,
    IterationInfo,
    Kind,
    Rule,
    plies_of,
)

if TYPE_CHECKING:
    # The lab's results are only read here: the game and the board's scores never load the lab.
    from tictactoe_tui.engine.lab.trace import TraceNode, TraceResult

RULE_WORDS = {
    Rule.WINS_AT_ONCE: "wins at once",
    Rule.TWO_FOURS: "the opponent has two winning cells",
    Rule.LEAVES_A_FOUR: "leaves the opponent's four open",
    Rule.DOUBLE_THREAT: "makes two winning cells",
    Rule.LEAVES_A_DOUBLE: "leaves the opponent's double open",
    Rule.FILLS_THE_BOARD: "fills the board",
    Rule.VCF: "wins by continuous fours",
    Rule.VCT: "wins by continuous threats",
    Rule.ALLOWS_VCF: "the opponent then wins by continuous fours",
    Rule.ALLOWS_VCT: "the opponent then wins by continuous threats",
    Rule.FOUR_THEN_LOST: "a four whose block leaves every move lost to threats",
    Rule.CENTRE_OPENING: "opens in the centre, where the most lines meet",
}
"""Each `MoveScore.rule` (see `engine.types.RULES`) in words."""

KIND_WORDS = {
    "exact": "exact",
    "estimate": "estimate",
    "at_most": "upper bound",
    "at_least": "lower bound",
}
"""Each `MoveScore.kind` in a word or two."""

LEGEND = (
    "≤ s: at most s (the search only proved the move is no better); ≥ s: at least s; "
    "heuristic: an estimate at the search's depth; win/loss in N: exact."
)
"""One line explaining the marks `score_text` and `score_meaning` use."""


def score_text(score: int, kind: str, minus: str = "-") -> str:
    """A score as a table shows it: "-36", "0", "≤ -14", "≥ +3" (`minus` replaces "-")."""
    if kind == "at_most":
        text = f"≤ {score:+d}" if score else "≤ 0"
    elif kind == "at_least":
        text = f"≥ {score:+d}" if score else "≥ 0"
    else:
        text = str(score)
    return text.replace("-", minus)


def score_meaning(scored: MoveScore, board: Board) -> str:
    """What a move's score means: "win in 3", "wins, in at most 15", "at most -4 (heuristic)"."""
    return describe_score(scored.score, board, kind=scored.kind, band=scored.band)


def origin_words(scored: MoveScore, board: Board) -> str:
    """Where a score came from when not from a search of the move itself, else "".

    "mirror of B1" (settled by its symmetric twin's search), "from the table", "rule: wins at
    once", "threats: wins by continuous fours".
    """
    if scored.source == "symmetry" and scored.twin is not None:
        return f"mirror of {cell_notation(scored.twin, board.size)}"
    if scored.source == "table":
        return "from the table"
    if scored.source in ("rule", "threats"):
        words = RULE_WORDS.get(scored.rule, scored.rule) if scored.rule else scored.source
        if scored.source == "threats" and len(scored.pv) > 1:
            words += f" ({len(scored.pv)} plies)"
        return f"{scored.source}: {words}"
    return ""


def depth_words(scored: MoveScore, board: Board, root_depth: int) -> str:
    """The move's depth when a search made it and it differs from `root_depth` (the search's,
    which counts the move itself), else "": "depth 1", "to the end"."""
    if scored.source not in ("search", "symmetry"):
        return ""
    plies = scored.depth + 1
    if plies == root_depth:
        return ""
    empties = board.size * board.size - board.move_count
    return "to the end" if plies >= empties else f"depth {plies}"


def note_words(scored: MoveScore, board: Board, root_depth: int) -> str:
    """`origin_words` and `depth_words` together, for a table's note column."""
    return ", ".join(
        part
        for part in (origin_words(scored, board), depth_words(scored, board, root_depth))
        if part
    )


def equally_good_words(best_moves: Sequence[int], board: Board) -> str:
    """The moves known to be equally good, or "" when there is one: "3 moves equally good:
    B1, C1, A2"."""
    if len(best_moves) < 2:
        return ""
    cells = ", ".join(cell_notation(move, board.size) for move in best_moves)
    return f"{len(best_moves)} moves equally good: {cells}"


def iteration_words(row: IterationInfo, board: Board) -> str:
    """One step of a search, like an engine's info line: "depth 7  E6  -10 (heuristic)
    101,077 positions  115 ms  E6 D7 G7"."""
    size = board.size
    line = " ".join(cell_notation(cell, size) for cell in row.pv)
    meaning = describe_score(row.score, board, kind=row.kind, band=row.band)
    return (
        f"depth {row.depth}  {cell_notation(row.move, size)}  {meaning}  "
        f"{row.nodes:,} positions  {row.elapsed * 1000:.0f} ms  {line}"
    )


def result_meaning(result: TraceResult, board: Board) -> str:
    """What a lab search's value means, by its kind: "draw", "win in 3", "+1 (heuristic)"
    (a depth-limited or narrowed search's value is an estimate unless it found a win or a loss
    it proves)."""
    band = (
        (Band.WIN if result.value > 0 else Band.LOSS if result.value < 0 else Band.DRAW)
        if result.kind == "exact"
        else Band.HEURISTIC
    )
    return describe_score(result.value, board, kind=result.kind, band=band)


def searched_words(result: TraceResult) -> str:
    """The root moves a lab search searched, for a table's cell: "all 99" (every legal move),
    "8 of 99" (it left moves out: `left_out_words` says by which rule; or it stopped after
    finishing 8 of the moves it meant to search, and its value is then a bound so far); "—"
    without a search."""
    if not result.legal_moves:
        return "—"
    if not result.finished:
        return f"{result.root_moves_done} of {result.root_moves}"
    if result.rule:
        return f"{result.root_moves} of {result.legal_moves}"
    return f"all {result.legal_moves}"


def left_out_words(result: TraceResult) -> str:
    """What a lab search left out at the root, and by which rule: "near stones only: 8 of 99
    moves"; "" when it searched every legal move."""
    if not result.rule:
        return ""
    return f"{result.rule}: {result.root_moves} of {result.legal_moves} moves"


def stand_in_words(node: TraceNode, board: Board) -> str:
    """The tree's node that stands for the moves its parent left out: "91 moves left out (near
    stones only): A1, B1, ..." (`board` is any position of the game, for the cell names)."""
    cells = ", ".join(cell_notation(cell, board.size) for cell in node.left_out)
    count = len(node.left_out)
    return f"{count} move{'s' if count != 1 else ''} left out ({node.rule}): {cells}"


def stand_in_label(node: TraceNode) -> str:
    """The tree's line for the node standing for the moves its parent left out: "near stones
    only: 82 moves not searched"."""
    count = len(node.left_out)
    return f"{node.rule}: {count} move{'s' if count != 1 else ''} not searched"


def first_cut_words(result: TraceResult) -> str:
    """How often the first move tried made the cut-off: "95% of 21 cut-offs by the first move",
    or "" without cut-offs (minimax never cuts)."""
    share = result.first_cut_share
    if share is None:
        return ""
    return f"{percent(share)} of {result.cutoffs:,} cut-offs by the first move"


def first_cut_text(result: TraceResult) -> str:
    """The share of cut-offs made by the first move tried, for a table's cell: "92%", or "—"
    without cut-offs."""
    share = result.first_cut_share
    return "—" if share is None else percent(share)


def percent(share: float) -> str:
    """A share in whole percent, rounded down: "100%" only when it is all (99.6% is "99%")."""
    return f"{math.floor(share * 100 + 1e-9)}%"


KIND_MARKS = {"exact": "", "estimate": "~", "at_most": "≤", "at_least": "≥"}
"""The mark written before a number of each kind where a column shows numbers alone: none for
an exact value, "~" for an estimate, "≤" / "≥" for a bound (at most / at least)."""


def marked_score(score: int, kind: str) -> str:
    """A score with the mark of its kind, for a column of numbers: "-8" (exact), "~-13" (an
    estimate), "≤ -14" (at most), "≥ +3" (at least)."""
    return f"{KIND_MARKS[kind]}{score}" if kind == "estimate" else score_text(score, kind)


def cell_score(score: int, kind: str) -> str:
    """A score as the board writes it in an empty cell, with the panel's marks and no spaces:
    a value "+14", "0", "-21"; an estimate "~14", "~-13"; a bound "≤8", "≤-21", "≥92"."""
    if kind == "exact":
        return f"{score:+d}" if score else "0"
    return f"{KIND_MARKS[kind]}{score}"


CUT = "…"
"""Written where a cell's number was too wide for it (`fit_cell_score`)."""


def fit_cell_score(text: str, room: int) -> str:
    """A cell's score (`cell_score`) in at most `room` characters: whole when it fits, else
    without its plus sign, else its mark and sign with `CUT` for the digits ("~-13" in 3
    columns is "~-…"): a number cut short would be a wrong number."""
    if len(text) <= room:
        return text
    text = text.replace("+", "")
    if len(text) <= room:
        return text
    digits = next((i for i, char in enumerate(text) if char.isdigit()), len(text))
    return text[: max(min(digits, room - 1), 0)] + CUT


OVERLAY_MARK_WORDS = {
    "~": "~ estimate",
    "≤": "≤ at most",
    "≥": "≥ at least",
    CUT: f"{CUT} see panel",
}
"""What the board's caption says each mark of its cells means."""
OVERLAY_MARK_SHORT = {"~": "~est", "≤": "≤max", "≥": "≥min", CUT: f"{CUT}cut"}
"""The same, for a caption that must fit a narrow board."""


def overlay_marks(texts: Iterable[str]) -> tuple[str, ...]:
    """The marks the board's cells `texts` show ("~", "≤", "≥", `CUT`), in that order."""
    shown = {mark for text in texts for mark in OVERLAY_MARK_WORDS if mark in text}
    return tuple(mark for mark in OVERLAY_MARK_WORDS if mark in shown)


STEP_SIGN = "#"
"""What an expected line's step number starts with on the board ("#2"), so a step never reads
as a score (a score is a bare number, or one after ≤ ≥ ~ or the frame > <)."""


def step_text(number: int) -> str:
    """The cell text for step `number` of an expected line: "#1", "#2"…"""
    return f"{STEP_SIGN}{number}"


def overlay_caption(
    whose: str, texts: Iterable[str], key: str = "", *, line: bool = False, width: int | None = None
) -> str:
    """The board's caption: whose scores its cells show (`whose`, e.g. "X's scores"), what
    every mark among them means, the key that hides them, and "line #1 #2… (p)" when an expected
    line's steps show. The longest wording that fits `width` characters (None: any);
    the marks' meanings are dropped last."""
    if not whose:
        return "line #1 #2 #3… (p hides)" if line else ""
    marks = overlay_marks(texts)
    tail = " · line #1 #2… (p)" if line else ""
    hides = f" ({key} hides)" if key and not line else f" ({key})" if key else ""
    short_key = f" ({key})" if key else ""
    full = ", ".join(OVERLAY_MARK_WORDS[mark] for mark in marks)
    short = " ".join(OVERLAY_MARK_SHORT[mark] for mark in marks)
    glue = ", " if marks else ""
    wordings = [
        f"{whose}{glue}{full}{hides}{tail}",
        f"{whose}{glue}{full}{short_key}{tail}",
        f"{whose}{glue}{short}{short_key}{tail}",
        f"{whose}: {short}{short_key}" if marks else f"{whose}{short_key}",
        short or whose,
    ]
    if width is None:
        return wordings[0]
    return next((wording for wording in wordings if len(wording) <= width), wordings[-1])


def short_meaning(score: int, board: Board, kind: Kind, band: Band) -> str:
    """What a score means, short enough for a column: "win in 3", "loss in ≤ 14", "draw or
    better", "at best win in 15", "estimate", "upper bound" (the long form is `describe_score`).
    """
    plies = plies_of(score, board)
    if band == "heuristic":
        return KIND_WORDS[kind]
    if kind == "exact":
        return describe_score(score, board, kind=kind, band=band)
    if band == "draw":
        return "draw or better" if kind == "at_least" else "draw at best"
    if kind == "estimate":
        return KIND_WORDS[kind]
    if (kind, band) == ("at_least", "win"):
        return f"win in ≤ {plies}"
    if (kind, band) == ("at_most", "loss"):
        return f"loss in ≤ {plies}"
    if band == "win":  # at most a win's score: no win before that ply
        return f"at best win in {plies}"
    return f"at worst loss in {plies}"


RULE_NOTES = {
    Rule.WINS_AT_ONCE: "wins at once",
    Rule.TWO_FOURS: "two fours against",
    Rule.LEAVES_A_FOUR: "leaves a four",
    Rule.DOUBLE_THREAT: "double threat",
    Rule.LEAVES_A_DOUBLE: "leaves a double",
    Rule.FILLS_THE_BOARD: "fills the board",
    Rule.VCF: "VCF",
    Rule.VCT: "VCT",
    Rule.ALLOWS_VCF: "allows VCF",
    Rule.ALLOWS_VCT: "allows VCT",
    Rule.FOUR_THEN_LOST: "four, then lost",
    Rule.CENTRE_OPENING: "centre rule",
}
"""Each `MoveScore.rule` in a word or two, for the panel's note (`RULE_WORDS` says it whole)."""


def row_note(scored: MoveScore, board: Board, root_depth: int) -> str:
    """A panel row's note: where its score came from when not from a search of its own (which
    is what a count of 0 positions needs said), and its depth when it differs from the
    search's: "mirror of B1", "from the table", "leaves a four", "VCT", "depth 1"."""
    if scored.source in ("rule", "threats"):
        origin = RULE_NOTES.get(scored.rule, scored.rule) if scored.rule else scored.source
    else:
        origin = origin_words(scored, board)
    return ", ".join(part for part in (origin, depth_words(scored, board, root_depth)) if part)


_PROOFS = {
    Rule.WINS_AT_ONCE: "Wins at once: it completes a line.",
    Rule.TWO_FOURS: "Lost: the opponent has two winning cells and one move blocks only one.",
    Rule.LEAVES_A_FOUR: "Lost: it leaves the opponent's four open",
    Rule.DOUBLE_THREAT: "Won: it makes two winning cells and one move blocks only one",
    Rule.LEAVES_A_DOUBLE: "Lost: it leaves the opponent's double threat open",
    Rule.FILLS_THE_BOARD: "A draw: it fills the last cell without a line.",
    Rule.VCF: "Won by a chain of fours (VCF), each forcing its block",
    Rule.VCT: "Won by a chain of threats (VCT), fours and threes that force their blocks",
    Rule.ALLOWS_VCF: "Lost: the opponent then wins by a chain of fours (VCF)",
    Rule.ALLOWS_VCT: "Lost: the opponent then wins by a chain of threats (VCT)",
    Rule.FOUR_THEN_LOST: (
        "Lost: the four is blocked, and then every move allows a chain of threats"
    ),
}
"""Each rule's proof in a sentence (the line follows those not ending in a full stop)."""


def proof_words(scored: MoveScore, board: Board, *, with_line: bool = True) -> str:
    """The proof behind a verdict from a rule or a threat search, with its forcing line in
    cell names (unless `with_line` is False), or "" for any other score: "Won by a chain of
    fours (VCF), each forcing its block: E5 E6 F5 …"."""
    if scored.source not in ("rule", "threats"):
        return ""
    sentence = _PROOFS.get(scored.rule, "") if scored.rule else ""
    if not sentence:
        return origin_words(scored, board)
    if sentence.endswith("."):
        return sentence
    line = " ".join(cell_notation(cell, board.size) for cell in scored.pv)
    return f"{sentence}: {line}." if line and with_line else f"{sentence}."


LEGEND_LINES = {
    "estimate": "~s      an estimate, not proven",
    "at_most": "≤ s     at most s: proven no better",
    "at_least": "≥ s     at least s: proven no worse",
    "within": "in ≤ N  proven within N plies",
    "zero": "0       no search of its own (see note)",
    "depth": "depth N its own depth, unlike the rest",
    "threats": "VCF/VCT won by fours / fours and threes",
}
"""One line for each mark a panel can show, keyed by what it explains (at most 41
columns: the panel is 43 wide at its narrowest)."""


def legend_keys(scores: Sequence[MoveScore], board: Board, root_depth: int) -> tuple[str, ...]:
    """The keys of `LEGEND_LINES` that `scores` (the rows a panel shows) need, in the
    legend's order."""
    needed: set[str] = set()
    for scored in scores:
        if scored.kind in ("estimate", "at_most", "at_least"):
            needed.add(scored.kind)
        if "≤" in short_meaning(scored.score, board, scored.kind, scored.band):
            needed.add("within")
        if scored.nodes == 0:
            needed.add("zero")
        if depth_words(scored, board, root_depth):
            needed.add("depth")
        if scored.source == "threats":
            needed.add("threats")
    return tuple(key for key in LEGEND_LINES if key in needed)


def legend_lines(scores: Sequence[MoveScore], board: Board, root_depth: int) -> tuple[str, ...]:
    """The legend under a panel's rows: one line per mark they show (`LEGEND_LINES`)."""
    return tuple(LEGEND_LINES[key] for key in legend_keys(scores, board, root_depth))
