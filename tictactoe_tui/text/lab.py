"""Words for the learning lab: table cells, minimax's budget, tree-node labels, search steps.

Pure formatting shared by `tictactoe-tui compare` and the compare and tree screens (no Textual
here, so the command stays headless). Values are written with a real minus sign and an explicit
plus, and the window's sentinels (beyond any game value) as ±∞.
"""

from __future__ import annotations

from tictactoe_tui.engine import Board, Mark, describe_score, win_score
from tictactoe_tui.engine.board import cell_notation
from tictactoe_tui.engine.compare import Comparison, MinimaxRun, Verdict
from tictactoe_tui.engine.trace import (
    EventKind,
    Outcome,
    TraceEvent,
    TraceNode,
    TraceResult,
    TreeSize,
)

ALGORITHM_TITLES = {
    "minimax": "minimax",
    "alphabeta-plain": "α-β, board order",
    "alphabeta-ordered": "α-β, ordered",
    "alphabeta-tt": "α-β, ordered + table",
    "h1": "H1 search",
    "h2": "H2 search",
}
"""How the screens name the lab's algorithms (the command line uses the names themselves)."""

OUTCOME_WORDS = {Outcome.EXACT: "exact", Outcome.CUTOFF: "β cut-off",
                 Outcome.FAIL_LOW: "α fail-low"}
"""How a move ended against its window."""

SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def signed(value: int, board: Board | None = None) -> str:
    """A value with its sign, e.g. "+9", "−8", "0"; beyond the game's values, "±∞"."""
    if board is not None and abs(value) > win_score(board):
        return "+∞" if value > 0 else "−∞"
    return f"{value:+d}".replace("-", "−") if value else "0"


def algorithm_label(result: TraceResult, titles: bool = False,
                    usual_depth: int | None = None) -> str:
    """The algorithm's name, with its depth when it is not `usual_depth` (None: the end)."""
    name = ALGORITHM_TITLES[result.algorithm] if titles else result.algorithm
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


def value_words(result: TraceResult, board: Board) -> str:
    """What a result's value means: "draw", "win in 3", "estimate", or why it stopped."""
    if not result.finished:
        return {"cancelled": "cancelled", "time limit": "out of time",
                "too big": "tree too big"}.get(result.stopped or "", "stopped")
    words = describe_score(result.value, board, exact=result.complete)
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


def minimax_budget_words(run: MinimaxRun, time_limit: float) -> str:
    """Why minimax did not search the whole tree, and how long it would take."""
    return (f"The {'full ' if run.tree.exact or run.result.depth is None else ''}tree has "
            f"{tree_words(run.tree)}: about {duration(run.estimated_seconds)} at "
            f"{run.positions_per_second:,.0f} positions a second, more than the "
            f"{time_limit:g} s budget.")


def minimax_note(comparison: Comparison) -> str:
    """A sentence or two about minimax's run under a comparison's table."""
    run = comparison.minimax
    result = run.result
    if comparison.too_big_tree is not None:
        full = comparison.too_big_tree
        seconds = full.positions / max(run.positions_per_second, 1.0)
        return (f"The full tree has {tree_words(full)}: about {duration(seconds)} at "
                f"{run.positions_per_second:,.0f} positions a second, more than the "
                f"{comparison.time_limit:g} s budget. Minimax ran to depth {result.depth} "
                f"instead ({result.positions:,} positions); only searches to that depth with "
                "H1 are judged against it.")
    if run.too_big:
        tail = ("Even minimax to depth 1 would not fit." if run.suggested_depth is None
                else f"Minimax to depth {run.suggested_depth} would fit.")
        return f"{minimax_budget_words(run, comparison.time_limit)} {tail}"
    if not result.finished:
        return f"Minimax stopped ({result.stopped}) after {result.positions:,} positions."
    where = ("the whole tree" if result.depth is None
             else f"to depth {result.depth} (H1 at the cut-off)")
    return (f"Minimax searched {where}: {result.positions:,} positions in "
            f"{duration(result.seconds)}, {run.positions_per_second:,.0f} a second.")


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


def bounded_value(node: TraceNode, board: Board, step: int | None = None) -> str:
    """A node's value with what it is: "= 0", "≥ +5" (a lower bound), "≤ −2" (an upper bound)."""
    if node.value is None or not returned_by(node, step):
        return "…"
    sign = {Outcome.CUTOFF: "≥", Outcome.FAIL_LOW: "≤"}.get(node.outcome or Outcome.EXACT, "=")
    return f"{sign} {signed(node.value, board)}"


LEAF_WORDS = {"win": "wins", "draw": "draw (full)", "heuristic": "heuristic",
              "table": "from the table"}
"""How a leaf was scored."""


def node_label(node: TraceNode, root: Board, heuristic: str = "H1",
               step: int | None = None) -> str:
    """One line of the tree: the move, who made it, its value, its window and how it ended.

    With `step`, as the search stood at that event: a node not yet returned shows no value.
    """
    window = window_words(node.alpha, node.beta, root)
    value = bounded_value(node, root, step)
    if node.move is None:
        return f"{root.to_move} to move  {value}  (α, β) = {window}"
    name = cell_notation(node.move, root.size)
    mover = mover_at(root, node.ply)
    if not returned_by(node, step):
        ending = "searching…" if node.returned >= 0 or step is not None else "not recorded"
    else:
        outcome = OUTCOME_WORDS[node.outcome or Outcome.EXACT]
        if node.leaf is None:
            ending = outcome
        else:
            how = heuristic if node.leaf == "heuristic" else LEAF_WORDS[node.leaf]
            ending = f"{how}, {outcome}"
    return f"{name} {mover}  {value}  {window}  {ending}"


def pruned_label(parent: TraceNode, move: int, root: Board) -> str:
    """A move skipped after a cut-off at `parent`."""
    chooser = chooser_at(root, parent.ply)
    return f"{cell_notation(move, root.size)} {chooser}  pruned (never searched)"


def event_words(events: list[TraceEvent], index: int, nodes: list[TraceNode], root: Board,
                heuristic: str = "H1") -> str:
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
        return (f"Depth limit after {name}: {heuristic} scores it {value} for "
                f"{mover_at(root, node.ply)}.")
    if event.kind is EventKind.RAISE:
        source = nodes[events[index - 1].node] if index else node
        via = f" with {cell_notation(source.move, root.size)}" if source.move is not None else ""
        return f"{chooser}'s best so far is {value}{via}: α rises to {value}."
    if event.kind is EventKind.CUT:
        skipped = ", ".join(cell_notation(m, root.size) for m in node.pruned) or "none"
        return (f"{value} ≥ β = {signed(event.beta, root)}: {chooser.opponent} would never "
                f"allow this position, so {chooser}'s other moves ({skipped}) are pruned.")
    if node.move is None:
        return f"Done: {chooser} to move, value {value}."
    outcome = OUTCOME_WORDS[node.outcome or Outcome.EXACT]
    return f"{name} returns {value} ({outcome} against {window})."


def move_name(node: TraceNode, root: Board) -> str:
    """"X B2": who made a node's move, and where."""
    assert node.move is not None
    return f"{mover_at(root, node.ply)} {cell_notation(node.move, root.size)}"


OUTCOME_MEANING = {
    Outcome.EXACT: "exact: strictly inside the window",
    Outcome.CUTOFF: "β cut-off: at least β, so the moves after it were not needed "
                    "(a lower bound)",
    Outcome.FAIL_LOW: "α fail-low: no better than α, a move found earlier (an upper bound)",
}
"""What each outcome tells about a move's value."""


def node_words(node: TraceNode, root: Board, heuristic: str = "H1",
               step: int | None = None) -> str:
    """A few lines about one node of the tree, for the panel beside it."""
    window = window_words(node.alpha, node.beta, root)
    if node.move is None:
        head = f"The position, {root.to_move} to move. Window {window}."
    else:
        head = (f"{move_name(node, root)}, ply {node.ply}: tried with window {window} "
                f"(seen by {mover_at(root, node.ply)}).")
    if not returned_by(node, step):
        body = "Not returned yet." if step is not None else "Not recorded: the event cap."
    else:
        body = f"Value {bounded_value(node, root)}"
        if node.leaf is not None:
            how = f"{heuristic} at the depth limit" if node.leaf == "heuristic" else (
                LEAF_WORDS[node.leaf])
            body += f" ({how})"
        if node.move is not None:
            body += f": {OUTCOME_MEANING[node.outcome or Outcome.EXACT]}."
        else:
            body += "."
    lines = [head, body]
    if node.pruned and (step is None or 0 <= node.cut_at <= step):
        chooser = chooser_at(root, node.ply)
        skipped = ", ".join(cell_notation(m, root.size) for m in node.pruned)
        lines.append(f"{chooser} reached β here, so {chooser}'s moves {skipped} were pruned.")
    return "\n".join(lines)


def pruned_words(parent: TraceNode, move: int, root: Board) -> str:
    """About a pruned move: why it was never searched."""
    chooser = chooser_at(root, parent.ply)
    return (f"{chooser} {cell_notation(move, root.size)} was never searched: an earlier move "
            f"of {chooser}'s already reached β, so {chooser.opponent} would never let the game "
            "come here.")


def value_cell(result: TraceResult, board: Board) -> str:
    """A value with its meaning, for the compare screen: "+9 win in 1", "0 draw", "+1 estimate"."""
    words = value_words(result, board)
    return f"{signed(result.value)} {words}" if result.finished else words


def count_label(count: int) -> str:
    """A count for a chart's axis: "1", "10", "100", "1k", "10k", "1M", "1G", "1e12"."""
    for suffix, size in (("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if count >= size:
            if count >= size * 1000 and suffix == "G":
                return f"{count:.0e}".replace("+", "")
            return f"{count // size}{suffix}"
    return str(count)
