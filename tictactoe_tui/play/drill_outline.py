"""The drill screen's words about its tree: the outline's rows, the title, the selected node's
facts and the position it stands for (what `DrillController` hands the screen to draw)."""

from __future__ import annotations

from dataclasses import dataclass

from tictactoe_tui.engine.lab.drill_tree import DrillTree, LeafValues
from tictactoe_tui.engine.lab.hand_search import DrillNode
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.play.drill_exercise import DrillExercise, NodeEntry, ReorderExercise
from tictactoe_tui.text.drill import bound_words

__all__ = [
    "OutlineRow",
    "board_view",
    "node_head",
    "node_words",
    "outline_row",
    "title_words",
]


@dataclass(frozen=True)
class OutlineRow:
    """One node of the outline, as the screen lists it."""

    node: int
    text: str
    """The whole line: the check's mark, the indent, label, move, MAX/MIN or the leaf's value,
    what the learner wrote."""
    wrong: bool = False
    """The last check judged it wrong (the text says so too, with ✗)."""
    skipped: bool = False
    """Shown as never visited: marked pruned (values), or skipped by the order (reorder)."""


def _window(entry: NodeEntry) -> tuple[str, str] | None:
    """The window the learner wrote on `entry`, as (α, β) words ("?" where not said), if any."""
    if entry.alpha is None and entry.beta is None:
        return None
    alpha = "?" if entry.alpha is None else bound_words(entry.alpha)
    beta = "?" if entry.beta is None else bound_words(entry.beta)
    return alpha, beta


def node_head(drill: DrillExercise, node: DrillNode) -> str:
    """`node`'s label, the move that led to it, and MAX/MIN or the leaf's value."""
    tree = drill.tree
    name = drill.names[node.id]
    if node.move is None:
        head = f"{name}  {tree.root_mark} to move"
    else:
        mover = tree.boards[drill.parents[node.id]].to_move
        head = f"{name}  {mover} plays {cell_notation(node.move, tree.position.size)}"
    if node.is_leaf:
        return f"{head} · leaf {node.value}"
    return f"{head} · {'MAX' if node.is_max else 'MIN'}"


def outline_row(
    drill: DrillExercise, reorder: ReorderExercise | None, node: DrillNode, depth: int
) -> OutlineRow:
    """`node`'s row in the outline, `depth` levels in, for the exercise on (`reorder`, if on)."""
    head = "  " * depth + node_head(drill, node)
    if reorder is not None:
        skipped = not reorder.answer.was_visited(node.id)
        return OutlineRow(
            node.id, "  " + head + ("  · skipped" if skipped else ""), skipped=skipped
        )
    entry = drill.entry(node.id)
    notes = []
    if entry.value is not None:
        notes.append(f"= {entry.value}")
    window = _window(entry)
    if window is not None:
        notes.append(f"α {window[0]} β {window[1]}")
    shown_pruned = drill.shown_pruned(node.id)
    if entry.pruned:
        notes.append("✂ pruned")
    elif shown_pruned:
        notes.append("(under ✂)")
    mark = "  "
    wrong = False
    verdict = drill.verdict
    if verdict is not None and node.id in verdict.nodes:
        wrong = not verdict.nodes[node.id].right
        mark = "✗ " if wrong else "✓ "
    text = mark + head + ("   " + "  ".join(notes) if notes else "")
    if wrong:
        text += "  ← not quite"
    return OutlineRow(node.id, text, wrong=wrong, skipped=shown_pruned)


def title_words(tree: DrillTree, reordering: bool) -> str:
    """What the drill is: the board, MAX, the tree's shape, the worth of a win."""
    board, shape = tree.position, tree.shape
    exercise = "reorder for the most pruning" if reordering else "fill in the tree"
    return (
        f"Alpha-beta drill: {exercise} · {board.size}×{board.size}, {board.k} in a row · "
        f"{tree.root_mark} to move is MAX · depth {shape.depth}, width {shape.width} · "
        f"{shape.order} order, {shape.leaves_name} leaves · a win on ply d: {tree.win} - d"
    )


def _leaf_how(tree: DrillTree, node: DrillNode) -> str:
    """How a leaf got its value: the game's end (a win on ply d is worth W - d) or the
    leaf values' kind, from MAX's side."""
    kind = tree.leaf_kinds[node.id]
    board = tree.boards[node.id]
    if kind == "draw":
        return "the game is drawn here"
    if kind in ("win", "loss"):
        ply = board.move_count - tree.position.move_count
        return f"{board.winner} wins here, on ply {ply}: {tree.win} - {ply}"
    if kind == "exact":
        return f"the position's exact value, for {tree.root_mark}"
    if kind == str(LeafValues.YOURS):
        return f"{tree.shape.leaves_name}: its evaluate() of the position for {tree.root_mark}"
    return f"{kind.upper()} of the position, for {tree.root_mark}"


def node_words(drill: DrillExercise, reorder: ReorderExercise | None, selected: int) -> str:
    """The selected node: what it stands for and what is written on it."""
    node = drill.nodes[selected]
    lines = [node_head(drill, node).replace("  ", ": ", 1)]
    if reorder is None:
        entry = drill.entry(node.id)
        if node.is_leaf:
            how = _leaf_how(drill.tree, node)
            lines.append(f"A leaf: its value, {node.value}, is given ({how}).")
        else:
            lines.append(
                "You wrote: " + ("nothing yet" if entry.value is None else f"= {entry.value}")
            )
        window = _window(entry)
        if window is not None:
            lines.append(f"Window at entry: α {window[0]}, β {window[1]}")
        if drill.shown_pruned(node.id):
            lines.append("Marked never visited.")
        verdict = drill.verdict
        if verdict is not None and node.id in verdict.nodes:
            judged = verdict.nodes[node.id]
            lines.append("✓ right" if judged.right else f"✗ {judged.words}")
    return "\n".join(lines)


def board_view(drill: DrillExercise, selected: int) -> tuple[list[str], list[int], int | None]:
    """The selected node's position: its marks, the moves from the root, the last move."""
    path: list[int] = []
    current: int | None = selected
    while current is not None:
        move = drill.nodes[current].move
        if move is not None:
            path.append(move)
        current = drill.parents.get(current)
    path.reverse()
    board = drill.tree.boards.get(selected, drill.tree.position)
    return list(board.marks()), path, path[-1] if path else None
