"""The alpha-beta drill's words: node labels, the conventions, and the verdict on each node.

Nodes are labelled by level and place, as on paper: the root is `A`, the nodes one ply below it
`B1`, `B2`, … from left to right, then `C1`, `C2`, … and so on, so a label names one node even
where the same cell is played in several branches. Each sentence is built from the step of the
search that decides the node: its window when the search reaches it, the values its children
returned, the cut that skipped it.
"""

from __future__ import annotations

from collections.abc import Sequence
from string import ascii_uppercase

from tictactoe_tui.engine.lab.hand_search import (
    INFINITY,
    Convention,
    Cut,
    DrillAnswer,
    DrillNode,
    Returns,
)

__all__ = [
    "bound_words",
    "convention_lines",
    "convention_summary",
    "cut_words",
    "labels",
    "missed_prune_words",
    "pruned_wrongly_words",
    "value_words",
    "window_words",
]


def labels(root: DrillNode) -> dict[int, str]:
    """Every node's label: `A` for the root, then a letter per level and a place in it."""
    found = {root.id: "A"}
    level = list(root.children)
    depth = 1
    while level:
        letter = ascii_uppercase[depth]
        for place, node in enumerate(level, start=1):
            found[node.id] = f"{letter}{place}"
        level = [child for node in level for child in node.children]
        depth += 1
    return found


def bound_words(value: int) -> str:
    """A window's end: the number, or ∞ / -∞ for the open ends."""
    if value >= INFINITY:
        return "∞"
    if value <= -INFINITY:
        return "-∞"
    return str(value)


def convention_lines(convention: Convention) -> list[str]:
    """The convention in force, said in full (the screen and `--text` show it)."""
    cut = (
        "A node stops looking at its children as soon as α ≥ β."
        if convention.cut is Cut.AT_EQUAL
        else "A node stops looking at its children only once α > β (equal is not enough)."
    )
    returns = (
        "A node returns the best value among the children it looked at (fail-soft)."
        if convention.returns is Returns.FAIL_SOFT
        else "A node returns its best value held inside the window it was entered with: "
        "never below α, never above β (fail-hard)."
    )
    return [cut, returns, "Leaves return their value. The root starts with α = -∞, β = ∞."]


def convention_summary(convention: Convention) -> str:
    """The convention in force in a few words: "cut at α ≥ β, fail-soft (a node returns the
    best value it saw)"."""
    cut = "cut at α ≥ β" if convention.cut is Cut.AT_EQUAL else "cut only at α > β"
    returns = (
        "fail-soft (a node returns the best value it saw)"
        if convention.returns is Returns.FAIL_SOFT
        else "fail-hard (a node returns its best value held inside its window)"
    )
    return f"{cut}, {returns}"


def _join(values: Sequence[int]) -> str:
    words = [str(v) for v in values]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def cut_words(answer: DrillAnswer, parent: int, names: dict[int, str], is_max: bool) -> str:
    """Why `parent` stopped: "after C2 returns 2, α = 3 ≥ β = 2, so B2 stops"."""
    step = answer.cuts[parent]
    sign = "≥" if step.alpha >= step.beta else ">"
    return (
        f"after {names[step.by]} returns {answer.returns[step.by]}, "
        f"α = {bound_words(step.alpha)} {sign} β = {bound_words(step.beta)}, "
        f"so {'MAX' if is_max else 'MIN'} at {names[parent]} stops"
    )


def value_words(node: DrillNode, answer: DrillAnswer, names: dict[int, str], given: int) -> str:
    """Why an inner node returns what it does, when the learner said `given`."""
    right = answer.returns[node.id]
    seen = answer.seen[node.id]
    values = [answer.returns[child] for child in seen]
    best = max(values) if node.is_max else min(values)
    side, pick = ("MAX", "larger") if node.is_max else ("MIN", "smaller")
    if len(values) == 1:
        reason = f"{side} has looked at one child only, worth {values[0]}"
    else:
        reason = f"{side} takes the {pick} of {_join(values)}"
    words = f"{names[node.id]} returns {right}, not {given}: {reason}"
    if node.id in answer.cuts:
        words += f" ({cut_words(answer, node.id, names, node.is_max)})"
    if right != best:  # only fail-hard returns anything but the best value
        alpha = answer.windows[node.id][0]
        end = "α" if right == alpha else "β"
        words += f"; fail-hard holds {best} inside its window, at {end} = {bound_words(right)}"
    return words + "."


def pruned_wrongly_words(
    node: DrillNode, answer: DrillAnswer, convention: Convention, names: dict[int, str]
) -> str:
    """Why a node the learner marked as never visited must be looked at."""
    alpha, beta = answer.windows[node.id]
    if alpha == beta and convention.cut is Cut.PAST_EQUAL:
        reason = (
            f"α = {bound_words(alpha)} and β = {bound_words(beta)}, and the search cuts only "
            "once α > β"
        )
    else:
        reason = f"α = {bound_words(alpha)} and β = {bound_words(beta)}"
    name = names[node.id]
    return f"{name}: you pruned it, but when the search reaches it {reason}, so it must look."


def missed_prune_words(
    node: DrillNode, parent: DrillNode, answer: DrillAnswer, names: dict[int, str], typed: bool
) -> str:
    """Why a node the learner left open (or gave a value) is never visited."""
    cause = cut_words(answer, parent.id, names, parent.is_max)
    lead = f"{names[node.id]} is never visited"
    if typed:
        lead += ", so it has no value"
    return f"{lead}: {cause} before reaching it."


def window_words(
    node: DrillNode,
    answer: DrillAnswer,
    names: dict[int, str],
    given: tuple[int | None, int | None],
) -> str:
    """What window the search enters a node with, when the learner said otherwise."""
    alpha, beta = answer.windows[node.id]
    said = ", ".join(
        f"{name} = {bound_words(value)}"
        for name, value in zip(("α", "β"), given, strict=True)
        if value is not None
    )
    return (
        f"{names[node.id]} is entered with α = {bound_words(alpha)} and β = {bound_words(beta)}, "
        f"not {said}: a node starts with its parent's window as it stands when the parent "
        "turns to it."
    )
