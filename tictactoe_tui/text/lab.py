"""Words for the learning lab: table cells, minimax's budget, tree-node labels, search steps.

Pure formatting shared by `tictactoe-tui compare` and the compare and tree screens (no Textual
here, so the command stays headless). Values are written with a real minus sign and an explicit
plus, and the window's sentinels (beyond any game value) as ±∞. What a value *is* (exact, an
estimate, a bound) and where it came from is worded once, in `text.scores`; this module puts
those words in the lab's cells, lines and sentences.
"""

from __future__ import annotations

from collections.abc import Sequence

from tictactoe_tui.engine import (
    Analysis,
    Board,
    IterationInfo,
    Mark,
    MoveScore,
    describe_score,
    win_score,
)
from tictactoe_tui.engine.lab.compare import Comparison, MinimaxRun, Verdict, best_so_far
from tictactoe_tui.engine.lab.trace import (
    LEFT_OUT,
    EventKind,
    Outcome,
    TraceEvent,
    TraceNode,
    TraceResult,
    TreeSize,
)
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.engine.search.types import Rule
from tictactoe_tui.text.report import candidate_row, reach_words
from tictactoe_tui.text.scores import (
    KIND_WORDS,
    RULE_WORDS,
    left_out_words,
    result_meaning,
    score_text,
    stand_in_label,
    stand_in_words,
)

ALGORITHM_TITLES = {
    "minimax": "minimax",
    "alphabeta-plain": "α-β plain",
    "alphabeta-ordered": "α-β ordered",
    "alphabeta-tt": "α-β + table",
    "h1": "H1 search",
    "h2": "H2 search",
}
"""How the screens name the lab's algorithms (the command line uses the names themselves):
alpha-beta in board order, with move ordering, and ordered with a transposition table."""

OUTCOME_WORDS = {
    Outcome.EXACT: "exact",
    Outcome.CUTOFF: "β cut-off",
    Outcome.FAIL_LOW: "α fail-low",
}
"""How a move ended against its window."""

SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def signed(value: int, board: Board | None = None) -> str:
    """A value with its sign, e.g. "+9", "−8", "0"; beyond the game's values, "±∞"."""
    if board is not None and abs(value) > win_score(board):
        return "+∞" if value > 0 else "−∞"
    return f"{value:+d}".replace("-", "−") if value else "0"


def result_name(result: TraceResult, titles: bool = False) -> str:
    """A search's name: its own label (the learner's "yours: FILE"), else its algorithm's, as
    the screens (`titles`) or the command line name it."""
    if result.label:
        return result.label
    return ALGORITHM_TITLES[result.algorithm] if titles else result.algorithm


def algorithm_label(
    result: TraceResult, titles: bool = False, usual_depth: int | None = None
) -> str:
    """The algorithm's name, with its depth when it is not `usual_depth` (None: the end)."""
    name = result_name(result, titles)
    return name if result.depth == usual_depth else f"{name} (depth {result.depth})"


def duration(seconds: float) -> str:
    """A search time: "0.31 ms", "12 ms", "1.25 s", "3 min", "5 h", "2 days", "3×10⁸ years"."""
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.2f} s"
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("h", 3600)):
        if seconds >= size:
            return f"{big_number(round(seconds / size))} {unit}"
    return f"{seconds / 60:.0f} min"


def big_number(value: int) -> str:
    """A count that may be astronomical: "549,946", "1.2×10¹³"."""
    if value < 10**9:
        return f"{value:,}"
    exponent = len(str(value)) - 1
    return f"{value / 10**exponent:.1f}×10{str(exponent).translate(SUPERSCRIPTS)}"


def tree_words(size: TreeSize) -> str:
    """A tree's size: "549,946 positions" or "about 1.2×10¹³ positions (estimated)"."""
    if size.exact:
        return f"{size.positions:,} positions"
    rounded = int(float(f"{size.positions:.2g}"))
    return f"about {big_number(rounded)} positions (estimated)"


STOPPED_WORDS = {"cancelled": "cancelled", "time limit": "out of time", "too big": "tree too big"}
"""Why a search stopped (`TraceResult.stopped`), in a table's cell."""


def value_words(result: TraceResult, board: Board) -> str:
    """What a result's value means, by its kind: "draw", "win in 3", "estimate" (a heuristic
    value), or why it stopped."""
    if not result.finished:
        return STOPPED_WORDS.get(result.stopped or "", "stopped")
    words = result_meaning(result, board)
    return "estimate" if words.endswith("(heuristic)") else words


def agreement_words(verdict: Verdict, result: TraceResult) -> str:
    """The agreement cell: "yes", "move only", "value only", "no", "reference" or "—"."""
    if result.algorithm == "minimax":
        return "reference" if result.finished else "—"
    if verdict.move is None or verdict.value is None:
        return "—"
    if verdict.move and verdict.value:
        return "yes"
    if verdict.move:
        return "move only"
    return "value only" if verdict.value else "no"


def left_out_note(results: Sequence[TraceResult], titles: bool = False) -> str:
    """A sentence naming the searches that left legal moves out at the root, with the rule and
    how many they searched ("" when none did): "alphabeta-plain, h1: near stones only: 38 of 80
    moves at the root (and likewise below); minimax searches every move." (`titles`: the
    screens' names; all five are "Every search but minimax".)"""
    narrowed = [result for result in results if result.rule]
    if not narrowed:
        return ""
    if {r.algorithm for r in narrowed} == set(ALGORITHM_TITLES) - {"minimax"}:
        names = "Every search but minimax"
    else:
        names = ", ".join(result_name(r, titles) for r in narrowed)
    return (
        f"{names}: {left_out_words(narrowed[0])} at the root (and likewise below); "
        "minimax searches every move."
    )


def minimax_budget_words(run: MinimaxRun, time_limit: float) -> str:
    """Why minimax did not search the whole tree, and how long it would take."""
    return (
        f"The {'full ' if run.tree.exact or run.result.depth is None else ''}tree has "
        f"{tree_words(run.tree)}: about {duration(run.estimated_seconds)} at "
        f"{run.positions_per_second:,.0f} positions a second, more than the "
        f"{time_limit:g} s budget."
    )


def minimax_note(comparison: Comparison) -> str:
    """A sentence or two about minimax's run under a comparison's table."""
    run = comparison.minimax
    result = run.result
    if comparison.too_big_tree is not None:
        full = comparison.too_big_tree
        seconds = full.positions / max(run.positions_per_second, 1.0)
        return (
            f"The full tree has {tree_words(full)}: about {duration(seconds)} at "
            f"{run.positions_per_second:,.0f} positions a second, more than the "
            f"{comparison.time_limit:g} s budget. Minimax ran to depth {result.depth} "
            f"instead ({result.positions:,} positions); only searches to that depth with "
            "H1 are judged against it."
        )
    if run.too_big:
        tail = (
            "Even minimax to depth 1 would not fit."
            if run.suggested_depth is None
            else f"Minimax to depth {run.suggested_depth} would fit."
        )
        return f"{minimax_budget_words(run, comparison.time_limit)} {tail}"
    if not result.finished:
        return f"Minimax stopped ({result.stopped}) after {result.positions:,} positions."
    where = (
        "the whole tree" if result.depth is None else f"to depth {result.depth} (H1 at the cut-off)"
    )
    return (
        f"Minimax searched {where}: {result.positions:,} positions in "
        f"{duration(result.seconds)}, {run.positions_per_second:,.0f} a second."
    )


# -- the tree explorer ---------------------------------------------------------------------------


def mover_at(root: Board, ply: int) -> Mark:
    """Who made the move that leads to a node `ply` plies deep (ply 0: the side to move)."""
    return root.to_move if ply % 2 == 1 or ply == 0 else root.to_move.opponent


def chooser_at(root: Board, ply: int) -> Mark:
    """Who is to move at a node `ply` plies deep."""
    return root.to_move if ply % 2 == 0 else root.to_move.opponent


def window_words(alpha: int, beta: int, board: Board) -> str:
    """An α/β window: "(−∞, +∞)"."""
    return f"({signed(alpha, board)}, {signed(beta, board)})"


def returned_by(node: TraceNode, step: int | None) -> bool:
    """Whether the node's value is known at event number `step` (None: at the end)."""
    return node.returned >= 0 and (step is None or node.returned <= step)


OUTCOME_KINDS = {Outcome.EXACT: "exact", Outcome.CUTOFF: "at_least", Outcome.FAIL_LOW: "at_most"}
"""What a node's value is (see `engine.types.KINDS`) by how it ended against its window: exact
within it (to the search's depth), or a bound."""


EXACT_LEAVES = ("win", "draw", "heuristic")
"""Leaves whose value is exact whatever the window: a rule's (a win at once, a full board) or the
heuristic's at the depth limit. A table's answer may be a bound, like a searched node's."""


def value_kind(node: TraceNode) -> str:
    """What a returned node's value is: "exact" (to the search's depth), "at_least" or
    "at_most" (see `engine.types.KINDS`)."""
    if node.leaf in EXACT_LEAVES:
        return "exact"
    return OUTCOME_KINDS[node.outcome or Outcome.EXACT]


def bounded_value(node: TraceNode, board: Board, step: int | None = None) -> str:
    """A node's value with what it is: "= 0", "≥ +5" (a lower bound), "≤ −2" (an upper bound)."""
    if node.value is None or not returned_by(node, step):
        return "…"
    kind = value_kind(node)
    if kind == "exact":
        return f"= {signed(node.value, board)}"
    return score_text(node.value, kind, minus="−")


LEAF_WORDS = {
    "win": f"rule: {RULE_WORDS[Rule.WINS_AT_ONCE]}",
    "draw": f"rule: {RULE_WORDS[Rule.FILLS_THE_BOARD]}",
    "heuristic": "heuristic",
    "table": "from the table",
}
"""How a leaf was scored: by a rule of the game that proves its value (a move that completes a
line wins; one that fills the board draws), by the heuristic at the depth limit, or by the
transposition table."""


def cut_maker(node: TraceNode, nodes: list[TraceNode], step: int | None = None) -> bool:
    """Whether `node` is the move that made its parent's cut-off (known by event `step`)."""
    if node.parent < 0:
        return False
    parent = nodes[node.parent]
    return parent.cut_by == node.id and (step is None or 0 <= parent.cut_at <= step)


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def node_label(
    node: TraceNode,
    root: Board,
    heuristic: str = "H1",
    step: int | None = None,
    nodes: list[TraceNode] | None = None,
) -> str:
    """One line of the tree: the move, who made it, its value, its window and how it ended.

    With `step`, as the search stood at that event: a node not yet returned shows no value.
    With the recording's `nodes`, the move that made its parent's cut-off is marked: "✂" first
    (so that a deep line cut at the tree's edge still shows it), its rank among the moves tried
    last ("1st tried"). The node standing for the moves a search left out says so, and by what
    rule.
    """
    if node.leaf == LEFT_OUT:
        return f"… {stand_in_label(node)}"
    window = window_words(node.alpha, node.beta, root)
    value = bounded_value(node, root, step)
    if node.move is None:
        return f"{root.to_move} to move  {value}  (α, β) = {window}"
    name = cell_notation(node.move, root.size)
    mover = mover_at(root, node.ply)
    mark = ""
    if not returned_by(node, step):
        ending = "searching…" if node.returned >= 0 or step is not None else "not recorded"
    else:
        outcome = OUTCOME_WORDS[node.outcome or Outcome.EXACT]
        ending = outcome if node.leaf is None else f"{leaf_words(node, heuristic)}, {outcome}"
        if nodes is not None and cut_maker(node, nodes, step):
            mark = "✂ "
            ending += f", {ordinal(nodes[node.parent].cut_index + 1)} tried"
    return f"{mark}{name} {mover}  {value}  {window}  {ending}"


def leaf_words(node: TraceNode, heuristic: str = "H1") -> str:
    """How a leaf was scored: "rule: wins at once", "H1", "from the table"."""
    assert node.leaf is not None
    return heuristic if node.leaf == "heuristic" else LEAF_WORDS[node.leaf]


def pruned_label(parent: TraceNode, move: int, root: Board) -> str:
    """A move skipped after a cut-off at `parent`."""
    chooser = chooser_at(root, parent.ply)
    return f"{cell_notation(move, root.size)} {chooser}  pruned (never searched)"


def event_words(
    events: list[TraceEvent], index: int, nodes: list[TraceNode], root: Board, heuristic: str = "H1"
) -> str:
    """Event number `index` of a recording in a sentence, for the step mode."""
    event = events[index]
    node = nodes[event.node]
    window = window_words(event.alpha, event.beta, root)
    name = "the position" if node.move is None else move_name(node, root)
    chooser = chooser_at(root, node.ply)
    value = signed(event.value, root) if event.value is not None else ""
    if event.kind is EventKind.ENTER:
        if node.move is None:
            return f"Start: {chooser} to move, window {window}."
        return f"Try {name} with window {window}."
    if event.kind is EventKind.LEAF:
        if node.leaf == "win":
            return f"{name} wins at once: {value}."
        if node.leaf == "draw":
            return f"{name} fills the board: a draw, 0."
        if node.leaf == "table":
            return f"The table already knows the position after {name}: {value}."
        return (
            f"Depth limit after {name}: {heuristic} scores it {value} for "
            f"{mover_at(root, node.ply)}."
        )
    if event.kind is EventKind.RAISE:
        source = nodes[events[index - 1].node] if index else node
        via = f" with {cell_notation(source.move, root.size)}" if source.move is not None else ""
        return f"{chooser}'s best so far is {value}{via}: α rises to {value}."
    if event.kind is EventKind.CUT:
        skipped = ", ".join(cell_notation(m, root.size) for m in node.pruned) or "none"
        maker = (
            f" ✂ {move_name(nodes[node.cut_by], root)}, the "
            f"{ordinal(node.cut_index + 1)} move tried, made the cut."
            if node.cut_by >= 0
            else ""
        )
        return (
            f"{value} ≥ β = {signed(event.beta, root)}: {chooser.opponent} would never "
            f"allow this position, so {chooser}'s other moves ({skipped}) are "
            f"pruned.{maker}"
        )
    if node.move is None:
        return f"Done: {chooser} to move, value {value}."
    outcome = OUTCOME_WORDS[node.outcome or Outcome.EXACT]
    return f"{name} returns {value} ({outcome} against {window})."


def move_name(node: TraceNode, root: Board) -> str:
    """ "X B2": who made a node's move, and where."""
    assert node.move is not None
    return f"{mover_at(root, node.ply)} {cell_notation(node.move, root.size)}"


OUTCOME_MEANING = {
    Outcome.EXACT: "exact: strictly inside the window",
    Outcome.CUTOFF: "β cut-off: at least β, so the moves after it were not needed",
    Outcome.FAIL_LOW: "α fail-low: no better than α, a move found earlier",
}
"""What each outcome tells about a move's value."""


def kind_note(kind: str) -> str:
    """After `OUTCOME_MEANING`: what that makes the value, unless it is exact anyway (a leaf's):
    " (an upper bound)", " (a lower bound)" or ""."""
    if kind == "exact":
        return ""
    words = KIND_WORDS[kind]
    return f" ({'an' if words[0] in 'aeiou' else 'a'} {words})"


LISTED_CELLS = 12
"""At most this many left-out cells are named in the panel beside the tree."""


def node_words(
    node: TraceNode,
    root: Board,
    heuristic: str = "H1",
    step: int | None = None,
    nodes: list[TraceNode] | None = None,
) -> str:
    """A few lines about one node of the tree, for the panel beside it (with the recording's
    `nodes`, a cut-off's maker says so)."""
    if node.leaf == LEFT_OUT:
        return _left_out_words(node, root)
    lines = [_node_head(node, root), _node_value(node, root, heuristic, step)]
    if nodes is not None and cut_maker(node, nodes, step):
        lines.append(_cut_maker_words(node, nodes[node.parent], root))
    if node.pruned and (step is None or 0 <= node.cut_at <= step):
        chooser = chooser_at(root, node.ply)
        skipped = ", ".join(cell_notation(m, root.size) for m in node.pruned)
        lines.append(f"{chooser} reached β here, so {chooser}'s moves {skipped} were pruned.")
    return "\n".join(lines)


def _left_out_words(node: TraceNode, root: Board) -> str:
    """About a stand-in for the moves a node left out: which, and that nothing says their
    worth."""
    chooser = chooser_at(root, node.ply - 1)
    # A long list of cells would push the step panel off the screen: the board lights them.
    listed = (
        stand_in_words(node, root)
        if len(node.left_out) <= LISTED_CELLS
        else f"{len(node.left_out)} moves left out ({node.rule})"
    )
    return (
        f"{listed}, lit on the board.\n{chooser}'s moves here were searched only on "
        "the cells next to a mark; the others were never looked at, so nothing here "
        "says what they are worth."
    )


def _node_head(node: TraceNode, root: Board) -> str:
    """A node's first line: the position or the move, with the window it was tried with."""
    window = window_words(node.alpha, node.beta, root)
    if node.move is None:
        return f"The position, {root.to_move} to move. Window {window}."
    return (
        f"{move_name(node, root)}, ply {node.ply}: tried with window {window} "
        f"(seen by {mover_at(root, node.ply)})."
    )


def _node_value(node: TraceNode, root: Board, heuristic: str, step: int | None) -> str:
    """A node's second line: the value it returned (and where it came from), or why none."""
    if not returned_by(node, step):
        return "Not returned yet." if step is not None else "Not recorded: the event cap."
    body = f"Value {bounded_value(node, root)}"
    if node.leaf is not None:
        how = (
            f"{heuristic} at the depth limit"
            if node.leaf == "heuristic"
            else leaf_words(node, heuristic)
        )
        body += f" ({how})"
    if node.move is not None:
        body += f": {OUTCOME_MEANING[node.outcome or Outcome.EXACT]}{kind_note(value_kind(node))}."
    else:
        body += "."
    return body


def _cut_maker_words(node: TraceNode, parent: TraceNode, root: Board) -> str:
    """The line for the move that made its `parent`'s cut-off: how soon it was tried."""
    return (
        f"✂ This move made the cut-off: the {ordinal(parent.cut_index + 1)} "
        f"{mover_at(root, node.ply)} tried here"
        + (
            " (ideal ordering tries it first)."
            if parent.cut_index
            else ", as ideal ordering would."
        )
    )


def pruned_words(parent: TraceNode, move: int, root: Board) -> str:
    """About a pruned move: why it was never searched."""
    chooser = chooser_at(root, parent.ply)
    return (
        f"{chooser} {cell_notation(move, root.size)} was never searched: an earlier move "
        f"of {chooser}'s already reached β, so {chooser.opponent} would never let the game "
        "come here."
    )


def value_cell(result: TraceResult, board: Board) -> str:
    """A value with its meaning, for the compare screen: "+9 win in 1", "0 draw", "+1 estimate";
    for a search stopped after finishing some root moves, the bound they give: "≥ −3 so far"."""
    if result.finished:
        return f"{signed(result.value)} {value_words(result, board)}"
    bound = best_so_far(result)
    if bound is None:
        return value_words(result, board)
    return f"{score_text(bound.score, bound.kind, minus='−')} so far"


def step_label(step: IterationInfo, board: Board) -> str:
    """A point of the chart of the best score by depth: its number, with its meaning once it
    is proven ("+2", "0 draw", "+6 win in 3")."""
    if step.kind != "exact":
        return signed(step.score)
    meaning = describe_score(step.score, board, kind=step.kind, band=step.band)
    return f"{signed(step.score)} {meaning}"


def depth_cell(result: TraceResult) -> str:
    """How deep a lab search went, for a table's cell: "3", or "end" (to the end of the game)."""
    return "end" if result.depth is None else str(result.depth)


def count_label(count: int) -> str:
    """A count for a chart's axis: "1", "10", "100", "1k", "10k", "1M", "1G", "1e12"."""
    for suffix, size in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if count >= size:
            if count >= size * 1000 and suffix == "G":
                return f"{count:.0e}".replace("+", "")
            return f"{count // size}{suffix}"
    return str(count)


# -- the heuristic lab -----------------------------------------------------------------------------


def alphabeta_cell(scored: MoveScore, position: Board, root_depth: int) -> str:
    """A move's alpha-beta score in the heuristic lab, as the panel's row says it: the number
    with its mark ("~" an estimate, "≤" / "≥" a bound), what a proven one means, and for what
    is not exact the depth it was searched to (or the rule that scored it): "-40 loss in 10",
    "~41 (depth 8)", "≤ +6 (depth 4)", "≤ -38 loss in ≤ 12 (allows VCT)"."""
    row = candidate_row(scored, position, root_depth)
    words = row.marked if scored.band == "heuristic" else f"{row.marked} {row.words}"
    if scored.kind == "exact":
        return words
    if scored.source in ("search", "symmetry"):
        return f"{words} (depth {scored.depth + 1})"
    return f"{words} ({row.note})" if row.note else words


def alphabeta_source_words(
    analysis: Analysis, position: Board, *, from_panel: bool, time_limit: float | None
) -> str:
    """Where the lab's alpha-beta column comes from: the game panel's own analysis of this
    position, or a search of the lab's own (which may reach another depth than the panel's,
    and so other numbers): "Alpha-beta: the game panel's analysis, depth 8, cut off, heuristic
    at the leaves."."""
    reach = reach_words(analysis, position)
    if from_panel:
        return f"Alpha-beta: the game panel's analysis, {reach}."
    budget = "" if time_limit is None or position.size == 3 else f" {time_limit:g} s"
    return (
        f"Alpha-beta: the lab's own{budget} search, {reach} (the panel's search of this "
        "position may reach another depth)."
    )


HEURISTIC_WORDS = "H1, H2: the heuristics' values after the move, no search."
"""What the lab's H1 and H2 numbers are."""
