"""The compare screen's three charts, drawn with textual-plotext: the positions each search
visited, the best score by depth, and the positions per move over the game. Every bar and point
carries its exact number."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from textual_plotext import PlotextPlot

from tictactoe_tui.engine import Board as Position
from tictactoe_tui.engine import IterationInfo
from tictactoe_tui.engine.lab.compare import GameCost
from tictactoe_tui.engine.lab.trace import LAB_ALGORITHMS, TraceResult, TreeSize
from tictactoe_tui.text.lab import count_label, step_label
from tictactoe_tui.ui.charts import Colours

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


def draw_bars(
    plot: PlotextPlot,
    results: dict[str, TraceResult],
    minimax_tree: TreeSize | None,
    colours: Colours,
) -> None:
    """Positions visited per algorithm, on a log scale, each bar with its exact count."""
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
    plt = plot.plt
    plt.clear_data()
    plt.clear_figure()
    plt.title("Positions visited (log)")
    if counts:
        heights, ticks, labels = log_axis(counts)
        # Bars lie down so that every name fits beside its bar, in the table's order.
        plt.bar(names[::-1], heights[::-1], orientation="horizontal", width=0.6)
        plt.xticks([float(tick) for tick in ticks], labels)
        # Room after the longest bar for its count.
        plt.xlim(0, ticks[-1] * 1.6)
        ink, paper = colours
        for number, (height, count) in enumerate(
            zip(heights[::-1], counts[::-1], strict=True), start=1
        ):
            plt.text(f" {count:,}", height, number, alignment="left", color=ink, background=paper)
    plot.refresh()


def draw_depths(
    plot: PlotextPlot,
    position: Position,
    by_depth: dict[str, tuple[IterationInfo, ...]],
    reference: TraceResult | None,
    colours: Colours,
) -> None:
    """The best score at each depth of each search that deepens, each point with its number
    (and its meaning once proven), and minimax's value (`reference`) as one point at its
    depth."""
    plt = plot.plt
    plt.clear_data()
    plt.clear_figure()
    plt.title("Best score by depth")
    points: list[tuple[int, int, str]] = []
    for name, steps in curves(by_depth):
        depths = [step.depth for step in steps]
        scores = [step.score for step in steps]
        plt.plot(depths, scores, label=name, marker="braille")
        plt.scatter(depths, scores, marker="dot")
        points += [(step.depth, step.score, step_label(step, position)) for step in steps]
    if reference is not None and reference.finished:
        empties = position.size**2 - position.move_count
        deepest = empties if reference.depth is None else reference.depth
        plt.scatter([deepest], [reference.value], label="minimax", marker="x")
        points.append((deepest, reference.value, ""))
    if points:
        depths = sorted({depth for depth, _, _ in points})
        low = min(score for _, score, _ in points)
        high = max(score for _, score, _ in points)
        step = max(1, math.ceil((high - low) / 4))
        bottom = low - step
        top = high + max(step, round((high - bottom) * (DEPTH_CHART_HEADROOM - 1)))
        plt.ylim(bottom, top)
        plt.yticks([float(tick) for tick in range(low - low % step, high + 1, step)])
        plt.xlim(depths[0] - 0.6, depths[-1] + 0.6)
        plt.xticks([float(depth) for depth in depths], [str(depth) for depth in depths])
        plt.xlabel("depth (plies)")
        ink, paper = colours
        for depth in depths:
            # At each depth the highest point's number goes above it and the lowest's below, so
            # that two curves meeting there never write over each other.
            here = sorted((p for p in points if p[0] == depth and p[2]), key=lambda p: -p[1])
            for rank, (_, score, label) in enumerate(here):
                side = 1 if rank == 0 else -1
                # The last depth's label ends at its point, so that it stays in the chart.
                align: Literal["right", "center"] = (
                    "right" if depth == depths[-1] and depth != depths[0] else "center"
                )
                plt.text(
                    label,
                    depth,
                    score + side * step / 2,
                    alignment=align,
                    color=ink,
                    background=paper,
                )
    plot.refresh()


def draw_game(
    plot: PlotextPlot, numbers: list[int], costs: list[GameCost], colours: Colours
) -> None:
    """Positions per computer move over the game (`numbers`: the moves charted), minimax
    against alpha-beta, log scale; the last move's points with their exact counts."""
    plt = plot.plt
    plt.clear_data()
    plt.clear_figure()
    plt.title("Positions per move (log)")
    numbers = numbers[: len(costs)]
    if costs:
        series = (
            ("minimax", [c.minimax.positions for c in costs]),
            ("α-β plain", [c.plain for c in costs]),
            ("α-β + table", [c.table for c in costs]),
        )
        _, ticks, labels = log_axis([v for _, values in series for v in values])
        ink, paper = colours
        for label, values in series:
            heights = log_axis(values)[0]
            plt.plot(numbers, heights, label=label, marker="braille")
            plt.text(
                f"{values[-1]:,}",
                numbers[-1],
                heights[-1],
                alignment="right",
                color=ink,
                background=paper,
            )
        plt.yticks([float(tick) for tick in ticks], labels)
        # Room above the lines for the legend, so that it never covers a count.
        plt.ylim(0, ticks[-1] + 2)
        plt.xticks([float(n) for n in numbers], [str(n) for n in numbers])
        plt.xlabel("move")
    plot.refresh()
