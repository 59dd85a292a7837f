"""The alpha-beta drill's trees: small game trees cut from real positions.

From a position, `cut_tree` grows a tree of `depth` plies (2–4) in which every node keeps its
first `width` (2–4) legal moves, in the order the lab's ordered alpha-beta tries them (winning
moves, blocks, then the moves H1 likes best) or in board order — the order is the lesson, so it
is a switch. The root is MAX, the side to move. A position that ends before the depth is a leaf
worth its result; the other leaves are worth H1 or H2 of their position, its exact value, or
the learner's own `evaluate(board, player)` (`LeafValues.YOURS`, the file `DrillShape.eval_file`,
run as guest code in a process of its own, every leaf in one call, each value rounded to a whole
number as the lab's searches round it), all from the root player's side.

Results are depth-aware, as everywhere in the engine: a win on ply d (counted from the root) is
worth W - d, a loss -(W - d), a draw 0. With heuristic leaves W is 100 (or a larger power of ten
when the heuristic values of the tree's leaves come close to it), so a win outranks every
heuristic value; with exact leaves W is the engine's own scale (`win_score`: 10 on 3×3, the seeds'
`10 - d`) and every leaf is a proven value, so exact leaves need a board the engine solves
(`EXACT_MAX_CELLS`). `HandNode.move` is the cell a node's move plays; `DrillTree.boards` gives
the position each node stands for, for the words and the tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from tictactoe_tui.engine.evaluation.heuristics import h1, h2
from tictactoe_tui.engine.lab.hand_search import DrillNode
from tictactoe_tui.engine.lab.trace import lab_move_order
from tictactoe_tui.engine.players.guest import DEFAULT_TIME, GuestCode, GuestFault, guest_name
from tictactoe_tui.engine.rules.board import Board, Mark
from tictactoe_tui.engine.search.api import analyse_position
from tictactoe_tui.engine.search.types import win_score

__all__ = [
    "DEPTHS",
    "EXACT_MAX_CELLS",
    "WIDTHS",
    "DrillShape",
    "DrillTree",
    "LeafValues",
    "MoveOrder",
    "cut_tree",
    "random_position",
]

DEPTHS = range(2, 5)
"""The depths a drill tree may have, in plies below the root."""

WIDTHS = range(2, 5)
"""How many children a drill node may keep."""

EXACT_MAX_CELLS = 16
"""Exact leaves are offered on boards of at most this many cells (3×3 and 4×4), which the engine
solves at once from any position a drill reaches."""

HEURISTIC_WIN = 100
"""A win's worth (less its ply) in a tree with heuristic leaves, unless they need more room."""


class MoveOrder(StrEnum):
    """The order a drill node's children come in (and so which of them it keeps)."""

    ENGINE = "engine"
    """The lab's ordered alpha-beta's: winning moves, then blocks, then the moves H1 likes best."""
    BOARD = "board"
    """Board order: A1, B1, C1, A2, …"""


class LeafValues(StrEnum):
    """What a leaf at the depth limit is worth."""

    H1 = "h1"
    H2 = "h2"
    EXACT = "exact"
    """The position's proven value, depth-aware, on the engine's own scale."""
    YOURS = "yours"
    """The learner's `evaluate(board, player)` (the file `DrillShape.eval_file`), rounded."""


@dataclass(frozen=True)
class DrillShape:
    """How big a drill tree is and how it is cut."""

    depth: int = 3
    width: int = 3
    order: MoveOrder = MoveOrder.ENGINE
    leaves: LeafValues = LeafValues.H1
    eval_file: Path | None = None
    """The learner's file whose `evaluate` values the leaves (`LeafValues.YOURS` only)."""
    eval_time: float = DEFAULT_TIME
    """Seconds the learner's `evaluate` may take on each leaf."""

    @property
    def leaves_name(self) -> str:
        """The leaf values as the drill names them: "h1", "h2", "exact" or "yours: FILE"."""
        if self.leaves is LeafValues.YOURS and self.eval_file is not None:
            return guest_name(self.eval_file)
        return str(self.leaves)

    def check(self, board: Board) -> None:
        """Raise ValueError, saying why, when this shape cannot be cut from `board`."""
        if self.leaves is LeafValues.YOURS and self.eval_file is None:
            raise ValueError("yours leaves need your evaluation file: --eval FILE")
        if self.depth not in DEPTHS:
            raise ValueError(f"the depth must be {DEPTHS.start} to {DEPTHS.stop - 1} plies")
        if self.width not in WIDTHS:
            raise ValueError(f"the width must be {WIDTHS.start} to {WIDTHS.stop - 1} moves")
        if board.is_over:
            raise ValueError("the game is over in this position: there is nothing to search")
        if self.leaves is LeafValues.EXACT and board.size * board.size > EXACT_MAX_CELLS:
            raise ValueError(
                "exact leaves need a board the engine solves at once (3×3 or 4×4): "
                "use h1 or h2 leaves here"
            )


@dataclass(frozen=True)
class DrillTree:
    """A drill: the position, how it was cut, the tree, and what each node stands for."""

    position: Board
    shape: DrillShape
    root: DrillNode
    boards: dict[int, Board]
    """The position each node stands for (after its move)."""
    leaf_kinds: dict[int, str]
    """How each leaf got its value: "win", "loss", "draw" (the game ended), or the leaf values'
    kind ("h1", "h2", "exact", "yours")."""
    win: int
    """W: a win on ply d is worth W - d in this tree."""

    @property
    def root_mark(self) -> Mark:
        """The root player (MAX): the side to move in the position."""
        return self.position.to_move


def _result_value(board: Board, root: Mark, ply: int, win: int) -> int:
    """The worth of a finished position reached on `ply`, from `root`'s side."""
    if board.winner is None:
        return 0
    return win - ply if board.winner is root else -(win - ply)


def _exact_value(board: Board, root: Mark, ply: int) -> int:
    """The proven value of an unfinished position reached on `ply`, from `root`'s side.

    The engine's score is seen from the side to move and counts plies from the position, so a
    win it finds on its ply d is a win on ply `ply + d` from the root.
    """
    analysis = analyse_position(board)
    best = analysis.scores[0]
    if best.kind != "exact":
        raise ValueError("the engine could not prove this position's value")
    win = win_score(board)
    if best.score == 0:
        return 0
    plies = win - abs(best.score)
    worth = win - (ply + plies)
    mover_wins = best.score > 0
    return worth if mover_wins == (board.to_move is root) else -worth


def _heuristic(board: Board, root: Mark, leaves: LeafValues) -> int:
    return h1(board, root) if leaves is LeafValues.H1 else h2(board, root)


def _yours(
    boards: list[Board], root: Mark, shape: DrillShape, should_stop: Callable[[], bool] | None
) -> list[int]:
    """The learner's `evaluate(board, root)` of every board, in one call of its own process
    (rounded to whole numbers); GuestFault when the file fails, its process ended either way."""
    assert shape.eval_file is not None
    code = GuestCode(shape.eval_file, shape.eval_time)
    try:
        if not code.provides().evaluate:
            raise GuestFault(
                f"{code.path.name} defines no evaluate(board, player) to value the leaves",
                kind="missing",
            )
        values = code.evaluate_many([(board, root) for board in boards], should_stop)
    finally:
        code.close()
    return [round(value) for value in values]


def _heuristic_win(values: list[int], depth: int) -> int:
    """W for a tree whose heuristic leaves take `values`: 100, or the next power of ten that
    keeps every win (W - d, d ≤ depth) above every heuristic value."""
    win = HEURISTIC_WIN
    largest = max((abs(value) for value in values), default=0)
    while win - depth <= largest:
        win *= 10
    return win


@dataclass
class _Cutter:
    """Grows one drill tree, numbering nodes in the order the tree lists them."""

    position: Board
    shape: DrillShape

    def __post_init__(self) -> None:
        self.boards: dict[int, Board] = {}
        self.leaf_kinds: dict[int, str] = {}
        self.heuristic: dict[int, int] = {}
        """The open leaves' heuristic values (h1, h2 or yours) by node, once asked for."""
        self.next_id = 0
        self.root_mark = self.position.to_move

    def moves(self, board: Board) -> list[int]:
        ordered = lab_move_order(board, self.shape.order is MoveOrder.ENGINE)
        return ordered[: self.shape.width]

    def grow(self, board: Board, move: int | None, ply: int) -> _Grown:
        ident = self.next_id
        self.next_id += 1
        self.boards[ident] = board
        is_max = board.to_move is self.root_mark
        if board.is_over or ply == self.shape.depth:
            return _Grown(ident, move, is_max, (), ply)
        children = tuple(self.grow(board.play(cell), cell, ply + 1) for cell in self.moves(board))
        return _Grown(ident, move, is_max, children, ply)

    def valued(self, node: _Grown, win: int) -> DrillNode:
        if node.children:
            kids = tuple(self.valued(child, win) for child in node.children)
            return DrillNode(node.id, node.move, node.is_max, kids)
        return DrillNode(node.id, node.move, node.is_max, value=self.leaf_value(node, win))

    def leaf_value(self, node: _Grown, win: int) -> int:
        board = self.boards[node.id]
        root = self.root_mark
        if board.is_over:
            value = _result_value(board, root, node.ply, win)
            self.leaf_kinds[node.id] = "win" if value > 0 else "loss" if value < 0 else "draw"
            return value
        self.leaf_kinds[node.id] = str(self.shape.leaves)
        if self.shape.leaves is LeafValues.EXACT:
            return _exact_value(board, root, node.ply)
        return self.heuristic[node.id]


@dataclass(frozen=True)
class _Grown:
    """A node before the leaves are valued (W depends on all of them)."""

    id: int
    move: int | None
    is_max: bool
    children: tuple[_Grown, ...]
    ply: int

    def leaves(self) -> list[_Grown]:
        if not self.children:
            return [self]
        return [leaf for child in self.children for leaf in child.leaves()]


def cut_tree(
    position: Board, shape: DrillShape, should_stop: Callable[[], bool] | None = None
) -> DrillTree:
    """The drill tree of `shape` cut from `position` (ValueError, saying why, if it cannot be).

    With `LeafValues.YOURS` the learner's file values every open leaf in one call: GuestFault
    when it fails (PlayerStopped when `should_stop()` says so while it is waited for); no
    process is left either way.
    """
    shape.check(position)
    cutter = _Cutter(position, shape)
    grown = cutter.grow(position, None, 0)
    if shape.leaves is LeafValues.EXACT:
        win = win_score(position)
    else:
        open_ids = [leaf.id for leaf in grown.leaves() if not cutter.boards[leaf.id].is_over]
        open_leaves = [cutter.boards[ident] for ident in open_ids]
        if shape.leaves is LeafValues.YOURS:
            values = _yours(open_leaves, cutter.root_mark, shape, should_stop)
        else:
            values = [_heuristic(board, cutter.root_mark, shape.leaves) for board in open_leaves]
        cutter.heuristic = dict(zip(open_ids, values, strict=True))
        win = _heuristic_win(values, shape.depth)
    root = cutter.valued(grown, win)
    return DrillTree(position, shape, root, cutter.boards, cutter.leaf_kinds, win)


def random_position(rng: random.Random, size: int, k: int, depth: int) -> Board:
    """A position reached by random play on a `size`×`size` board (k in a row) whose game is not
    over and still has at least `depth` empty cells, so a tree of that depth can grow from it."""
    cells = size * size
    most = max(0, min(cells - depth, cells // 2))
    while True:
        board = Board.empty(size=size, k=k)
        for _ in range(rng.randint(0, most)):
            board = board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            return board
