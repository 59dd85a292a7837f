"""The compare screen's three charts, drawn with textual-plotext from the series
`play.compare_charts` computes: the positions each search visited, the best score by depth, and
the positions per move over the game. Every bar and point carries its exact number."""

from __future__ import annotations

from textual_plotext import PlotextPlot
from textual_plotext.plot import Plot

from tictactoe_tui.play.compare_charts import Axis, BarsChart, ChartNote, DepthsChart, GameChart
from tictactoe_tui.ui.charts import Colours


def _start(plot: PlotextPlot, title: str) -> Plot:
    """The plot's figure, emptied, with its title."""
    plt = plot.plt
    plt.clear_data()
    plt.clear_figure()
    plt.title(title)
    return plt


def _note(plt: Plot, note: ChartNote, colours: Colours) -> None:
    ink, paper = colours
    plt.text(note.text, note.x, note.y, alignment=note.align, color=ink, background=paper)


def _x_axis(plt: Plot, axis: Axis) -> None:
    plt.xticks(list(axis.ticks), list(axis.labels))
    if axis.limits is not None:
        plt.xlim(*axis.limits)


def _y_axis(plt: Plot, axis: Axis) -> None:
    plt.yticks(list(axis.ticks), list(axis.labels))
    if axis.limits is not None:
        plt.ylim(*axis.limits)


def draw_bars(plot: PlotextPlot, chart: BarsChart | None, colours: Colours) -> None:
    """Positions visited per algorithm, on a log scale, each bar with its exact count."""
    plt = _start(plot, "Positions visited (log)")
    if chart is not None:
        # Bars lie down so that every name fits beside its bar, in the table's order.
        plt.bar(list(chart.names), list(chart.heights), orientation="horizontal", width=0.6)
        _x_axis(plt, chart.axis)
        for note in chart.notes:
            _note(plt, note, colours)
    plot.refresh()


def draw_depths(plot: PlotextPlot, chart: DepthsChart | None, colours: Colours) -> None:
    """The best score at each depth of each search that deepens, and minimax's value."""
    plt = _start(plot, "Best score by depth")
    if chart is not None:
        for curve in chart.curves:
            plt.plot(list(curve.xs), list(curve.ys), label=curve.name, marker="braille")
            plt.scatter(list(curve.xs), list(curve.ys), marker="dot")
        if chart.reference is not None:
            depth, value = chart.reference
            plt.scatter([depth], [value], label="minimax", marker="x")
        assert chart.y_axis.limits is not None and chart.x_axis.limits is not None
        plt.ylim(*chart.y_axis.limits)
        plt.yticks(list(chart.y_axis.ticks))
        plt.xlim(*chart.x_axis.limits)
        plt.xticks(list(chart.x_axis.ticks), list(chart.x_axis.labels))
        plt.xlabel("depth (plies)")
        for note in chart.notes:
            _note(plt, note, colours)
    plot.refresh()


def draw_game(plot: PlotextPlot, chart: GameChart | None, colours: Colours) -> None:
    """Positions per computer move over the game, minimax against alpha-beta, log scale; the
    last move's points with their exact counts."""
    plt = _start(plot, "Positions per move (log)")
    if chart is not None:
        for curve, note in zip(chart.curves, chart.notes, strict=True):
            plt.plot(list(curve.xs), list(curve.ys), label=curve.name, marker="braille")
            _note(plt, note, colours)
        _y_axis(plt, chart.y_axis)
        _x_axis(plt, chart.x_axis)
        plt.xlabel("move")
    plot.refresh()
