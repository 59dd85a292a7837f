"""`tictactoe-tui drill`: the alpha-beta drill, as JSON for teachers and tests, or as plain lines.

    tictactoe-tui drill --json                          a 3×3 drill from a random position
    tictactoe-tui drill --position "X../.O./..." --depth 3 --width 2 --json
    tictactoe-tui drill --size 7 --k 5 --seed 4 --leaves h2 --order board --json
    tictactoe-tui drill --text                          the drill as plain lines (see drill_text)
    tictactoe-tui drill --leaves yours --eval my_eval.py --json   your evaluate values the leaves

The JSON object (`drill_json`): position (as `analyse` reads it), size, k, to_move, depth, width,
order, leaves, eval (with --leaves yours: {"file", "name"}, the learner's file and "yours: FILE";
else null), seed (null with --position), cut, returns, win (W: a win on ply d is worth W - d),
tree (nested nodes: id, label, move (a cell name, null at the root), max, and children, or a
leaf's value and how it was valued), answer (root_value, best_move, visited (ids in the order
the search enters them), returns and windows (by id, for every visited node; the open ends
written as ±1000), pruned (the nodes a cut skips)), and best_order (leaves_visited, and
children: every inner node's children in an order that reaches it).

`--leaves yours --eval FILE` values the leaves by the learner's `evaluate(board, player)`, run
as guest code in a process of its own, all the leaves in one call (docs/your-code.md); a file
that fails is one line on stderr and exit 2, as in `analyse --eval`.

Without --json or --text the drill opens in the app (`ui.screens.drill`), which alone imports
Textual: --json and --text never load it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from tictactoe_tui.cli.analyse import guest_failed, read_eval
from tictactoe_tui.engine.lab.drill_tree import (
    DEPTHS,
    WIDTHS,
    DrillShape,
    DrillTree,
    LeafValues,
    MoveOrder,
    cut_tree,
    random_position,
)
from tictactoe_tui.engine.lab.hand_search import (
    BestOrder,
    Convention,
    Cut,
    DrillAnswer,
    DrillNode,
    Returns,
    best_order,
    solve,
)
from tictactoe_tui.engine.players.guest import GuestFault, check_guest_path
from tictactoe_tui.engine.rules.board import (
    MAX_SIZE,
    MIN_SIZE,
    Board,
    IllegalMove,
    cell_notation,
    check_shape,
    default_k,
)
from tictactoe_tui.engine.rules.setup import read_position
from tictactoe_tui.history.locations import data_dir_argument
from tictactoe_tui.play.arguments import OneLineParser
from tictactoe_tui.play.drill import DrillStart
from tictactoe_tui.text.drill import labels

PROG = "tictactoe-tui drill"


def _whole_in(low: int, high: int) -> Any:
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, not {value}")
        return value

    return read


def build_parser() -> OneLineParser:
    """The drill command's flags."""
    parser = OneLineParser(
        prog=PROG,
        description="Run alpha-beta by hand on a small tree cut from a real position: the "
        "value each node returns, its window, the nodes never visited; or reorder the "
        "children so the search visits as few leaves as it can.",
        epilog='Example: tictactoe-tui drill --position "X../.O./..." --depth 3 --json',
    )
    _add_position_flags(parser)
    _add_tree_flags(parser)
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed for the random position"
    )
    _add_rule_flags(parser)
    _add_output_flags(parser)
    return parser


def _add_position_flags(parser: OneLineParser) -> None:
    """The position the tree is cut from: a random one's board, or one given."""
    parser.add_argument(
        "--size",
        type=_whole_in(MIN_SIZE, MAX_SIZE),
        default=3,
        metavar="N",
        help="board size for a random position (default 3)",
    )
    parser.add_argument("--k", type=int, default=None, metavar="K", help="marks in a row to win")
    parser.add_argument(
        "--position", metavar="BOARD", help="the position to cut the tree from (default: random)"
    )


def _add_tree_flags(parser: OneLineParser) -> None:
    """The tree cut from it: how deep, how wide, which moves, what its leaves are worth."""
    parser.add_argument(
        "--depth",
        type=_whole_in(DEPTHS.start, DEPTHS.stop - 1),
        default=3,
        metavar="D",
        help=f"plies below the root, {DEPTHS.start}..{DEPTHS.stop - 1} (default 3)",
    )
    parser.add_argument(
        "--width",
        type=_whole_in(WIDTHS.start, WIDTHS.stop - 1),
        default=3,
        metavar="W",
        help=f"children kept per node, {WIDTHS.start}..{WIDTHS.stop - 1} (default 3)",
    )
    parser.add_argument(
        "--order",
        choices=[o.value for o in MoveOrder],
        default=MoveOrder.ENGINE.value,
        help="which moves a node keeps, in what order: the engine's (default) or board order",
    )
    parser.add_argument(
        "--leaves",
        choices=[v.value for v in LeafValues],
        default=None,
        help="what a leaf at the depth limit is worth: h1 (default), h2, exact (3×3, 4×4), "
        "or yours (your evaluate, with --eval FILE)",
    )
    parser.add_argument(
        "--eval",
        default=None,
        metavar="FILE",
        help="a Python file defining evaluate(board, player): it values the leaves "
        "(--leaves yours, implied), from the root player's side, rounded to whole numbers "
        "(docs/your-code.md)",
    )


def _add_rule_flags(parser: OneLineParser) -> None:
    """The search's rules the drill follows: where it cuts, what a node returns."""
    parser.add_argument(
        "--cut",
        choices=[c.value for c in Cut],
        default=Cut.AT_EQUAL.value,
        help="cut at α ≥ β (at-equal, our search's rule, the default) or only at α > β",
    )
    parser.add_argument(
        "--returns",
        choices=[r.value for r in Returns],
        default=Returns.FAIL_SOFT.value,
        help="a node returns its best value (fail-soft, our search's rule, the default) "
        "or that value held inside its window (fail-hard)",
    )


def _add_output_flags(parser: OneLineParser) -> None:
    """Where the score is kept, and the drill as JSON or plain lines."""
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        type=data_dir_argument,
        help="where the history (the drill's score and streak) is kept (default: "
        "$TICTACTOE_TUI_DATA_DIR, else the user data directory)",
    )
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the drill and its answer")
    out.add_argument("--text", action="store_true", help="the drill as plain lines")


def _position(args: argparse.Namespace, parser: OneLineParser) -> tuple[Board, int | None]:
    """The position to cut from, and the seed that drew it (None when given)."""
    if args.position is not None:
        try:
            return read_position(args.position, k=args.k), None
        except IllegalMove as err:
            parser.error(f"--position {args.position!r}: {err}")
    k = args.k if args.k is not None else default_k(args.size)
    try:
        check_shape(args.size, k)
    except IllegalMove as err:
        parser.error(str(err))
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    return random_position(random.Random(seed), args.size, k, args.depth), seed


def _leaves(args: argparse.Namespace, parser: OneLineParser) -> tuple[LeafValues, str | None]:
    """The leaf values asked for and the learner's file (checked through serve's gate)."""
    eval_file = read_eval(parser, args.eval)
    if args.leaves is None:
        return (LeafValues.H1 if eval_file is None else LeafValues.YOURS), eval_file
    leaves = LeafValues(args.leaves)
    if leaves is LeafValues.YOURS and eval_file is None:
        parser.error("--leaves yours needs your evaluation file: --eval FILE")
    if leaves is not LeafValues.YOURS and eval_file is not None:
        parser.error(f"--eval FILE values the leaves with --leaves yours, not --leaves {leaves}")
    return leaves, eval_file


def node_json(node: DrillNode, tree: DrillTree, names: dict[int, str]) -> dict[str, Any]:
    """One node of the tree, its subtree nested in it."""
    size = tree.position.size
    found: dict[str, Any] = {
        "id": node.id,
        "label": names[node.id],
        "move": None if node.move is None else cell_notation(node.move, size),
        "max": node.is_max,
    }
    if node.is_leaf:
        found["value"] = node.value
        found["valued_by"] = tree.leaf_kinds[node.id]
    else:
        found["children"] = [node_json(child, tree, names) for child in node.children]
    return found


def answer_json(tree: DrillTree, answer: DrillAnswer) -> dict[str, Any]:
    """The search's answer: what a learner fills in."""
    best = None if answer.best_child is None else tree.boards[answer.best_child]
    move = None
    if best is not None:
        child = next(c for c in tree.root.children if c.id == answer.best_child)
        assert child.move is not None
        move = cell_notation(child.move, tree.position.size)
    return {
        "root_value": answer.root_value,
        "best_move": move,
        "visited": list(answer.visited),
        "returns": {str(node): value for node, value in answer.returns.items()},
        "windows": {str(node): list(window) for node, window in answer.windows.items()},
        "pruned": sorted(answer.pruned_by),
    }


def best_order_json(best: BestOrder) -> dict[str, Any]:
    """The best order of children and the leaves it visits."""
    return {
        "leaves_visited": best.leaves_visited,
        "children": {str(node): list(children) for node, children in best.children.items()},
    }


def drill_json(tree: DrillTree, convention: Convention, seed: int | None) -> dict[str, Any]:
    """The whole drill as one JSON object (the fields in the module's docstring)."""
    board = tree.position
    shape = tree.shape
    return {
        "position": str(board),
        "size": board.size,
        "k": board.k,
        "to_move": str(board.to_move),
        "depth": shape.depth,
        "width": shape.width,
        "order": str(shape.order),
        "leaves": str(shape.leaves),
        "eval": None
        if shape.eval_file is None
        else {"file": str(shape.eval_file), "name": shape.leaves_name},
        "seed": seed,
        "cut": str(convention.cut),
        "returns": str(convention.returns),
        "win": tree.win,
        "tree": node_json(tree.root, tree, labels(tree.root)),
        "answer": answer_json(tree, solve(tree.root, convention)),
        "best_order": best_order_json(best_order(tree.root, convention)),
    }


def main(argv: Sequence[str]) -> int:
    """Make one drill; print it as JSON, run it as plain lines, or open it in the app."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    leaves, eval_file = _leaves(args, parser)
    board, seed = _position(args, parser)
    path = None if eval_file is None else check_guest_path(eval_file)
    shape = DrillShape(args.depth, args.width, MoveOrder(args.order), leaves, path)
    convention = Convention(Cut(args.cut), Returns(args.returns))
    try:
        tree = cut_tree(board, shape)
    except GuestFault as fault:
        return guest_failed(PROG, fault)
    except ValueError as err:
        parser.error(str(err))
    if args.json:
        print(json.dumps(drill_json(tree, convention, seed), indent=2, ensure_ascii=False))
        return 0
    if args.text:
        from tictactoe_tui.cli.drill_text import DrillSession

        return DrillSession(tree, convention, seed, sys.stdout).run(sys.stdin)
    return _open_app(DrillStart(tree, convention, seed, path), args.data_dir)


def _open_app(start: DrillStart, data_dir: str | None) -> int:
    """Open the app straight on the drill (Settings underneath, where escape goes back to),
    its score kept in the history at `data_dir`."""
    from tictactoe_tui.history.store import HistoryStore
    from tictactoe_tui.ui.app import TicTacToeApp

    app = TicTacToeApp(drill=start, store=HistoryStore.open(data_dir))
    app.run()
    return app.return_code or 0
