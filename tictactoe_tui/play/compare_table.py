"""The compare screen's table: its columns, and each algorithm's row of cells as its search
answers (`CompareTable`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tictactoe_tui.engine import Board
from tictactoe_tui.engine.lab.compare import best_so_far, verdict
from tictactoe_tui.engine.lab.trace import YOURS, TraceResult
from tictactoe_tui.engine.players.guest import guest_name
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.lab import (
    ALGORITHM_TITLES,
    agreement_words,
    depth_cell,
    result_name,
    value_cell,
)
from tictactoe_tui.text.scores import first_cut_text, searched_words

__all__ = ["COLUMNS", "HEADERS", "LEGEND", "RIGHT", "Cell", "CompareTable"]


COLUMNS = (
    "algorithm",
    "move",
    "value",
    "depth",
    "positions",
    "cut-offs",
    "1st cuts",
    "table hits",
    "time",
    "moves",
    "agrees",
)
"""The table's columns, by key."""

HEADERS = {"cut-offs": "cut-\noffs", "1st cuts": "1st\ncuts", "table hits": "table\nhits"}
"""Headers written on two lines, so that the table fits 100 columns."""

RIGHT = ("depth", "positions", "cut-offs", "1st cuts", "table hits", "time", "moves")
"""The columns of numbers, aligned right."""

LEGEND = (
    "depth: plies searched (end: the whole game) · 1st cuts: the share of cut-offs "
    "made by the first move tried (100% is ideal ordering)"
)
"""The line under the table that says what its newer columns are."""


@dataclass(frozen=True)
class Cell:
    """One cell of the table: its words, fainter when it is only a bound or a stop (`faint`),
    or with a fainter `tail` ("0" and " draw")."""

    text: str
    faint: bool = False
    tail: str = ""

    @property
    def plain(self) -> str:
        """The cell's words, as one string."""
        return self.text + self.tail


class CompareTable:
    """Every algorithm's row, by key, each a cell by column ("…" until its search answers)."""

    def __init__(self, names: tuple[str, ...], eval_file: Path | None) -> None:
        self._eval_file = eval_file
        self._cells: dict[str, dict[str, Cell]] = {
            name: {column: Cell("…") for column in COLUMNS} | {"algorithm": self._title(name)}
            for name in names
        }

    def _title(self, name: str) -> Cell:
        """A row's name before its search answers: the lab's title, or "yours: FILE"."""
        if name == YOURS and self._eval_file is not None:
            return Cell(guest_name(self._eval_file))
        return Cell(ALGORITHM_TITLES[name])

    def cell(self, name: str, column: str) -> Cell:
        """One cell of algorithm `name`'s row."""
        return self._cells[name][column]

    def blank(self, name: str) -> None:
        """Row `name` has no numbers (its search failed): "—" in every cell but its name."""
        self._cells[name] |= {column: Cell("—") for column in COLUMNS if column != "algorithm"}

    def no_values(self) -> None:
        """Every row's value is "—" (the game is over: nothing to search)."""
        for cells in self._cells.values():
            cells["value"] = Cell("—")

    def fill(
        self,
        result: TraceResult,
        position: Board,
        reference: TraceResult | None,
        time_text: Callable[[float], str],
    ) -> None:
        """One algorithm's numbers in its row, judged against minimax's `reference` (if any),
        its time written by `time_text`."""
        size = position.size
        value = value_cell(result, position)
        move = Cell(
            "—" if not result.finished or result.move is None else cell_notation(result.move, size)
        )
        if result.finished:
            number, _, meaning = value.partition(" ")
            value_text = Cell(number, tail=f" {meaning}")
        else:
            # A bound, or why it stopped: fainter than a value.
            value_text = Cell(value, faint=True)
            bound = best_so_far(result)
            if bound is not None:
                move = Cell(cell_notation(bound.move, size), faint=True)
        self._cells[result.algorithm] = {
            "algorithm": Cell(result_name(result, titles=True)),
            "move": move,
            "value": value_text,
            "depth": Cell(depth_cell(result)),
            "positions": Cell(f"{result.positions:,}"),
            "cut-offs": Cell(f"{result.cutoffs:,}"),
            "1st cuts": Cell(first_cut_text(result)),
            "table hits": Cell(f"{result.table_hits:,}"),
            "time": Cell(time_text(result.seconds)),
            "moves": Cell(searched_words(result), faint=not result.finished),
            "agrees": Cell(agreement_words(verdict(result, reference), result)),
        }

    @staticmethod
    def columns(shown: Sequence[TraceResult]) -> list[str]:
        """The table's columns for the searches `shown`: "moves" only when some search left root
        moves out or stopped part way (elsewhere every search looks at every move, and the
        column would only repeat it)."""
        matter = any(
            result.rule or (not result.finished and result.root_moves_done) for result in shown
        )
        return [column for column in COLUMNS if column != "moves" or matter]
