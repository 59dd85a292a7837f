"""What the compare screen's three charts show, without Textual: the positions each search
visited, the best score by depth, and the positions per move over the game, each bar and point
with its exact number. `ui.screens.compare_charts` draws these series with textual-plotext."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tictactoe_tui.engine import Board, IterationInfo
from tictactoe_tui.engine.lab.compare import GameCost
from tictactoe_tui.engine.lab.trace import LAB_ALGORITHMS, TraceResult, TreeSize
from tictactoe_tui.text.lab import count_label, step_label

CHART_NAMES = {
    "minimax": "minimax",
    "alphabeta-plain": "α-β",
    "alphabeta-ordered": "α-β ord",
    "alphabeta-tt": "α-β TT",
    "h1": "H1",
    "h2": "H2",
}
"""The short names beside the bars."""

DEPTH_CHART_HEADROOM = 1.8
"""The score axis of the chart by depth runs this far past the data, so the legend sits above
the points."""

BAR_ROOM = 1.6
"""The count axis of the bars runs this far past the last tick, leaving room for the counts."""

Align = Literal["left", "right", "center"]
"""Where a number written on a chart stands against its point."""


@dataclass(frozen=True)
class ChartNote:
    """A number written on a chart, at (`x`, `y`)."""

    text: str
    x: float
    y: float
    align: Align


@dataclass(frozen=True)
class Axis:
    """Where an axis is marked, how each mark reads (empty: as plotext writes the numbers), and
    the range it shows (None: plotext's own)."""

    ticks: tuple[float, ...]
    labels: tuple[str, ...] = ()
    limits: tuple[float, float] | None = None


@dataclass(frozen=True)
class BarsChart:
    """Positions visited per algorithm, on a log scale drawn by hand: the bars lie down, listed
    bottom up (the table's order read from the top), each with its exact count."""

    names: tuple[str, ...]
    heights: tuple[float, ...]
    """log10 of each count."""
    axis: Axis
    notes: tuple[ChartNote, ...]


@dataclass(frozen=True)
class Curve:
    """One line of a chart: its name in the legend and its points."""

    name: str
    xs: tuple[int, ...]
    ys: tuple[float, ...]


@dataclass(frozen=True)
class DepthsChart:
    """The best score at each depth of each search that deepens, and minimax's value."""

    curves: tuple[Curve, ...]
    reference: tuple[int, int] | None
    """Minimax's (depth, value), drawn as one point."""
    x_axis: Axis
    y_axis: Axis
    notes: tuple[ChartNote, ...]


@dataclass(frozen=True)
class GameChart:
    """Positions per computer move over the game, minimax against alpha-beta, log scale."""

    curves: tuple[Curve, ...]
    x_axis: Axis
    y_axis: Axis
    notes: tuple[ChartNote, ...]


def log_axis(values: Sequence[int]) -> tuple[list[float], list[int], list[str]]:
    """Counts as log10 heights, with the axis's ticks (0, 1, 2, …) and their labels (1, 10, …).

    The log scale is drawn by hand on a linear axis: plotext applies its own log scale to the
    ticks again at every redraw (log10 of a tick already at 0 raises), and a bar on its log
    scale starts from 0, whose log is undefined.
    """
    heights = [math.log10(max(value, 1)) for value in values]
    top = max(1, math.ceil(max(heights, default=0)))
    ticks = list(range(top + 1))
    return heights, ticks, [count_label(10**tick) for tick in ticks]


def curves(rows: dict[str, tuple[IterationInfo, ...]]) -> list[tuple[str, list[IterationInfo]]]:
    """The score-by-depth curves to draw, one per distinct sequence of scores, each named by the
    algorithms that share it (a shorter one lying on a longer one joins it): "α-β ×3, H1, H2"
    from the empty 3×3 board, since pruning, ordering and the table never change a value."""
    shared: dict[tuple[tuple[int, int], ...], list[str]] = {}
    for name, steps in sorted(rows.items(), key=lambda item: -len(item[1])):
        if not steps:
            continue
        points = tuple((step.depth, step.score) for step in steps)
        longer = next((key for key in shared if key[: len(points)] == points), points)
        shared.setdefault(longer, []).append(name)
    named = []
    for names in sorted(shared.values(), key=lambda names: min(map(LAB_ALGORITHMS.index, names))):
        names.sort(key=LAB_ALGORITHMS.index)
        alphabetas = [n for n in names if n.startswith("alphabeta")]
        words = ["α-β ×3"] if len(alphabetas) == 3 else [CHART_NAMES[n] for n in alphabetas]
        words += [CHART_NAMES[n] for n in names if not n.startswith("alphabeta")]
        longest = max(names, key=lambda n: len(rows[n]))
        named.append((", ".join(words), list(rows[longest])))
    return named


def bars_chart(results: dict[str, TraceResult], minimax_tree: TreeSize | None) -> BarsChart | None:
    """The bars of the positions each search visited (None: nothing to show yet)."""
    names, counts = [], []
    for name in LAB_ALGORITHMS:
        result = results.get(name)
        if result is not None:
            names.append(CHART_NAMES[name])
            counts.append(result.positions)
        elif name == "minimax" and minimax_tree is not None:
            # Not searched (yet): the size of its tree, which is what it would visit.
            names.append("minimax (tree)")
            counts.append(minimax_tree.positions)
    if not counts:
        return None
    heights, ticks, labels = log_axis(counts)
    # Room after the longest bar for its count.
    axis = Axis(tuple(float(tick) for tick in ticks), tuple(labels), (0, ticks[-1] * BAR_ROOM))
    notes = tuple(
        ChartNote(f" {count:,}", height, number, "left")
        for number, (height, count) in enumerate(
            zip(heights[::-1], counts[::-1], strict=True), start=1
        )
    )
    return BarsChart(tuple(names[::-1]), tuple(heights[::-1]), axis, notes)


def depths_chart(
    position: Board,
    by_depth: dict[str, tuple[IterationInfo, ...]],
    reference: TraceResult | None,
) -> DepthsChart | None:
    """The best score at each depth of each search that deepens, each point with its number
    (and its meaning once proven), and minimax's value (`reference`) as one point at its depth
    (None: nothing to show yet)."""
    drawn: list[Curve] = []
    points: list[tuple[int, int, str]] = []
    for name, steps in curves(by_depth):
        drawn.append(Curve(name, tuple(s.depth for s in steps), tuple(s.score for s in steps)))
        points += [(step.depth, step.score, step_label(step, position)) for step in steps]
    shown: tuple[int, int] | None = None
    if reference is not None and reference.finished:
        empties = position.size**2 - position.move_count
        deepest = empties if reference.depth is None else reference.depth
        shown = (deepest, reference.value)
        points.append((deepest, reference.value, ""))
    if not points:
        return None
    depths = sorted({depth for depth, _, _ in points})
    low = min(score for _, score, _ in points)
    high = max(score for _, score, _ in points)
    step = max(1, math.ceil((high - low) / 4))
    bottom = low - step
    top = high + max(step, round((high - bottom) * (DEPTH_CHART_HEADROOM - 1)))
    y_ticks = tuple(float(tick) for tick in range(low - low % step, high + 1, step))
    y_axis = Axis(y_ticks, limits=(bottom, top))
    x_axis = Axis(
        tuple(float(d) for d in depths),
        tuple(str(d) for d in depths),
        (depths[0] - 0.6, depths[-1] + 0.6),
    )
    notes = []
    for depth in depths:
        # At each depth the highest point's number goes above it and the lowest's below, so
        # that two curves meeting there never write over each other.
        here = sorted((p for p in points if p[0] == depth and p[2]), key=lambda p: -p[1])
        for rank, (_, score, label) in enumerate(here):
            side = 1 if rank == 0 else -1
            # The last depth's label ends at its point, so that it stays in the chart.
            align: Align = "right" if depth == depths[-1] and depth != depths[0] else "center"
            notes.append(ChartNote(label, depth, score + side * step / 2, align))
    return DepthsChart(tuple(drawn), shown, x_axis, y_axis, tuple(notes))


def game_chart(numbers: Sequence[int], costs: Sequence[GameCost]) -> GameChart | None:
    """Positions per computer move over the game (`numbers`: the moves charted), minimax
    against alpha-beta, log scale; the last move's points with their exact counts (None:
    nothing to show yet)."""
    numbers = list(numbers[: len(costs)])
    if not costs:
        return None
    series = (
        ("minimax", [c.minimax.positions for c in costs]),
        ("α-β plain", [c.plain for c in costs]),
        ("α-β + table", [c.table for c in costs]),
    )
    _, ticks, labels = log_axis([v for _, values in series for v in values])
    drawn, notes = [], []
    for label, values in series:
        heights = log_axis(values)[0]
        drawn.append(Curve(label, tuple(numbers), tuple(heights)))
        notes.append(ChartNote(f"{values[-1]:,}", numbers[-1], heights[-1], "right"))
    # Room above the lines for the legend, so that it never covers a count.
    y_axis = Axis(tuple(float(tick) for tick in ticks), tuple(labels), (0, ticks[-1] + 2))
    x_axis = Axis(tuple(float(n) for n in numbers), tuple(str(n) for n in numbers))
    return GameChart(tuple(drawn), x_axis, y_axis, tuple(notes))
