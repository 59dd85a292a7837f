"""The lab's one negamax searcher: the switches of a `Method`, counting everything the lab shows.

It counts positions, cut-offs (and those the first move made), table hits and pruned moves, and
tells a `TraceRecorder` (if given) each step. On boards bigger than 6×6 the alpha-betas keep to
the cells `NEAR_STONES`, and say which moves they left out.
"""

from __future__ import annotations

from collections.abc import Callable

from tictactoe_tui.engine.lab.methods import NEAR_STONES, YOURS, LeafValue, Method
from tictactoe_tui.engine.lab.recording import TraceRecorder
from tictactoe_tui.engine.proofs.symmetry import ShapeKeys
from tictactoe_tui.engine.rules.board import Board, Mark
from tictactoe_tui.engine.search import kernel as fs
from tictactoe_tui.engine.search.kernel import completes_line, h1_bits, heuristic_cap
from tictactoe_tui.engine.search.types import (
    Band,
    Kind,
    MoveScore,
    Rule,
    Source,
    band_of,
    win_score,
)


def h2_bits(sh: fs.Shape, me: int, opp: int) -> int:
    """H2 seen from the owner of `me`, from the bitboards: Open(me) - Open(opp) (= `h2`)."""
    value = 0
    for line in sh.lines:
        if not opp & line:
            value += 1
        if not me & line:
            value -= 1
    return value


class LabSearcher:
    """Negamax with the switches of a `Method`, counting everything the lab shows."""

    def __init__(
        self,
        board: Board,
        method: Method,
        depth: int | None,
        poller: fs.Poller,
        recorder: TraceRecorder | None,
        leaf_value: LeafValue | None = None,
    ) -> None:
        sh = fs.shape(board.size, board.k)
        self.sh = sh
        self.method = method
        self.poller = poller
        self.recorder = recorder
        self.win = win_score(board)
        empties = sh.cells - board.move_count
        # A limit the game cannot reach is no limit: such a search is a full one.
        self.limit = depth if depth is not None and depth < empties else None
        self.cap = heuristic_cap(sh, self.limit)
        if method.heuristic == YOURS:
            if leaf_value is None:
                raise ValueError("the search with your evaluation needs the evaluation")
            self.evaluate = _bits_evaluation(board, leaf_value)
        else:
            self.evaluate = h1_bits if method.heuristic == "h1" else h2_bits
        self.table: dict[int, tuple[int, int, int]] | None = {} if method.table else None
        # The engine's solver knows the board's symmetries; the lab borrows its keys.
        self.keys = ShapeKeys(sh)
        self.full_window = self.win + 1
        self.cutoffs = 0
        self.first_cutoffs = 0
        self.hits = 0
        self.pruned = 0
        # Minimax is the reference: full width everywhere. The others keep to the cells near
        # the stones on big boards, as the engine's search orders its moves.
        self.narrow = method.prune and not sh.all_cells
        self.root_done = 0
        self.empties = empties
        self.root_log: list[tuple[int, int, int, str, int]] = []
        """Per root move searched: the move, its value, the root's alpha before it, how it was
        valued ("win" at once, "table", "search") and the positions it took."""
        self.left_out_any = False
        """True once some node left legal moves out (`NEAR_STONES`)."""
        self.root_values: dict[int, int] = {}
        self.best_move: int | None = None
        self.best_score = 0

    # -- moves --------------------------------------------------------------------------------

    def allowed(self, me: int, opp: int) -> int:
        """The empty cells the method searches here: all of them, or by `NEAR_STONES`."""
        sh = self.sh
        occupied = me | opp
        empty = sh.full & ~occupied
        if not self.narrow:
            return empty
        near = 0
        for cell in fs.iter_cells(occupied):
            near |= sh.near[cell]
        # As the engine does: the cells next to a mark, else the centre, else any cell.
        close = near & empty
        centre = 1 << sh.order[0]
        allowed = close if close else centre if empty & centre else empty
        if allowed != empty:
            self.left_out_any = True
        return allowed

    def root_scores(self) -> tuple[MoveScore, ...]:
        """The root moves searched, in the order tried, each with what its value is.

        Alpha-beta knows the exact value (or the estimate, at a depth cut-off) of a move
        searched with a window that held it, and only an upper bound for a move that failed low:
        it is no better than a move found before. A search that left moves out anywhere
        (`NEAR_STONES`) proves nothing beyond a win at once: its wins and losses may hide a
        faster win or a defence on a cell it never tried, so its numbers read as heuristics.
        """
        deep = self.empties if self.limit is None else self.limit
        scores = []
        for cell, score, alpha, how, spent in self.root_log:
            bound = self.method.prune and score <= alpha
            if how == "win":
                scores.append(
                    MoveScore(
                        cell,
                        score,
                        spent,
                        True,
                        (cell,),
                        source=Source.RULE,
                        rule=Rule.WINS_AT_ONCE,
                    )
                )
                continue
            game = not self.left_out_any and (
                self.limit is None or abs(score) >= self.win - self.limit
            )
            band = band_of(score) if game else Band.HEURISTIC
            kind = Kind.AT_MOST if bound else Kind.EXACT if game else Kind.ESTIMATE
            source = Source.TABLE if how == "table" else Source.SEARCH
            scores.append(
                MoveScore(
                    cell,
                    score,
                    spent,
                    None,
                    (cell,),
                    kind,
                    0 if how == "table" else deep - 1,
                    source,
                    band,
                )
            )
        return tuple(scores)

    def moves(self, me: int, opp: int, first: int) -> list[int]:
        """The moves to try here, in the method's order (`first`: the table's best move)."""
        sh = self.sh
        empty = self.allowed(me, opp)
        cells = fs.iter_cells(empty)
        if not self.method.order:
            return cells
        weights = sh.line_value
        keyed = []
        for rank, cell in enumerate(sh.order):
            if not empty >> cell & 1:
                continue
            bit = 1 << cell
            gain = 0
            for line in sh.cell_lines[cell]:
                theirs = opp & line
                mine = me & line
                if theirs and not mine:
                    gain += weights[theirs.bit_count()]
                elif not theirs:
                    count = mine.bit_count()
                    gain += weights[count + 1] - weights[count] if count else 1
            keyed.append(
                (
                    cell != first,
                    not completes_line(sh, me | bit, cell),
                    not completes_line(sh, opp | bit, cell),
                    -gain,
                    rank,
                    cell,
                )
            )
        keyed.sort()
        return [item[-1] for item in keyed]

    # -- the search ---------------------------------------------------------------------------

    def leaf(self, value: int, how: str) -> int:
        """Record a leaf (if recording) and return its value."""
        rec = self.recorder
        if rec is not None:
            rec.leaf(value, how, self.poller.nodes, self.pruned)
            rec.leave(value, self.poller.nodes, self.pruned)
        return value

    def value(self, me: int, opp: int, ply: int, alpha: int, beta: int, move: int | None) -> int:
        """The negamax value (fail-soft) from the side to move; `move` led here."""
        poller = self.poller
        poller.nodes += 1
        if poller.nodes & poller.poll_mask == 0:
            poller.poll()
        rec = self.recorder
        if rec is not None:
            rec.enter(move, ply, alpha, beta, poller.nodes, self.pruned)
        sh = self.sh
        if not sh.full & ~(me | opp):
            return self.leaf(0, "draw")
        if self.limit is not None and ply >= self.limit:
            raw = self.evaluate(sh, me, opp)
            return self.leaf(max(-self.cap, min(self.cap, raw)), "heuristic")
        first = -1
        key = sym = 0
        if self.table is not None:
            stored, key, sym, first = self.probe(me, opp, alpha, beta)
            if stored is not None:
                return self.leaf(stored, "table")
        prune = self.method.prune
        window = self.full_window
        alpha0 = alpha
        best = -self.win - 1
        moves = self.moves(me, opp, first)
        best_move = moves[0]
        win_here = self.win - ply - 1
        for index, cell in enumerate(moves):
            mine = me | 1 << cell
            before = (alpha, poller.nodes, self.hits)
            if completes_line(sh, mine, cell):
                # The winning child is a terminal node of the tree: count it like any other.
                poller.nodes += 1
                score = win_here
                if rec is not None:
                    self.record_win(cell, ply, alpha, beta)
            elif prune:
                score = -self.value(opp, mine, ply + 1, -beta, -alpha, cell)
            else:
                # Minimax searches every child with the full window: nothing is ever cut.
                score = -self.value(opp, mine, ply + 1, -window, window, cell)
            if ply == 0:
                self.root_move(cell, score, *before)
            if score > best:
                best = score
                best_move = cell
                if score > alpha:
                    alpha = score
                    if rec is not None:
                        rec.raise_alpha(alpha, beta, poller.nodes, self.pruned)
                    if prune and alpha >= beta:
                        self.cut(moves, index, alpha, beta)
                        break
        self.done(me, opp, best, best_move, alpha0, beta, key, sym)
        return best

    def probe(self, me: int, opp: int, alpha: int, beta: int) -> tuple[int | None, int, int, int]:
        """The table's answer here: (its value when it settles the node, else None; the key,
        its symmetry; the stored best move in this orientation, or -1)."""
        assert self.table is not None
        sh = self.sh
        key, sym = self.keys.key(me, opp, sh.cells - (me | opp).bit_count())
        entry = self.table.get(key)
        if entry is None:
            return None, key, sym, -1
        flag, stored, stored_move = entry
        # The ply is fixed by the marks on the board, so a stored value needs no shift.
        if (
            flag == fs.EXACT
            or (flag == fs.LOWER and stored >= beta)
            or (flag == fs.UPPER and stored <= alpha)
        ):
            self.hits += 1
            return stored, key, sym, -1
        return None, key, sym, sh.sym_inverse[sym][stored_move]

    def record_win(self, cell: int, ply: int, alpha: int, beta: int) -> None:
        """Record the child `cell` that completes a line: entered with its window, a win."""
        rec = self.recorder
        assert rec is not None
        nodes = self.poller.nodes
        if self.method.prune:
            rec.enter(cell, ply + 1, -beta, -alpha, nodes, self.pruned)
        else:
            rec.enter(cell, ply + 1, -self.full_window, self.full_window, nodes, self.pruned)
        self.leaf(-(self.win - ply - 1), "win")

    def cut(self, moves: list[int], index: int, alpha: int, beta: int) -> None:
        """The move `moves[index]` reached beta: count the cut-off and the moves it prunes."""
        self.cutoffs += 1
        if index == 0:
            self.first_cutoffs += 1
        skipped = moves[index + 1 :]
        self.pruned += len(skipped)
        if self.recorder is not None:
            self.recorder.cut(
                skipped, alpha, beta, self.poller.nodes, self.pruned, moves[index], index
            )

    def done(
        self,
        me: int,
        opp: int,
        best: int,
        best_move: int,
        alpha0: int,
        beta: int,
        key: int,
        sym: int,
    ) -> None:
        """A node searched its moves: store its value (`alpha0`: its alpha on entry) and record
        the moves it left out and its return."""
        sh = self.sh
        if self.table is not None:
            flag = fs.UPPER if best <= alpha0 else fs.LOWER if best >= beta else fs.EXACT
            self.table[key] = (flag, best, sh.sym_perms[sym][best_move])
        rec = self.recorder
        if rec is not None:
            if self.narrow:
                rec.left_out(
                    fs.iter_cells(sh.full & ~(me | opp) & ~self.allowed(me, opp)), NEAR_STONES
                )
            rec.leave(best, self.poller.nodes, self.pruned)

    def root_move(self, cell: int, score: int, alpha: int, nodes: int, hits: int) -> None:
        """A root move is done: remember its value and the best move so far.

        `alpha`, `nodes` and `hits` are the root's alpha, the positions and the table hits
        before the move was searched.
        """
        self.root_done += 1
        spent = self.poller.nodes - nodes
        how = (
            "table"
            if spent == 1 and self.hits > hits
            else "win"
            if spent == 1 and score == self.win - 1
            else "search"
        )
        self.root_log.append((cell, score, alpha, how, spent))
        if not self.method.prune:
            self.root_values[cell] = score
        if self.best_move is None or score > self.best_score:
            self.best_move, self.best_score = cell, score


def _bits_evaluation(root: Board, leaf_value: LeafValue) -> Callable[[fs.Shape, int, int], int]:
    """`leaf_value` as the searcher calls an evaluation: from the bitboards of the side to move
    (`me`) and of the other, below `root`; the board it is given is the engine's `Board`."""
    geo = root.geometry
    first = root.to_move
    base = root.move_count

    def evaluate(sh: fs.Shape, me: int, opp: int) -> int:
        # Who is to move follows from the plies played since the root.
        mover = first if ((me | opp).bit_count() - base) % 2 == 0 else first.opponent
        x, o = (me, opp) if mover is Mark.X else (opp, me)
        return leaf_value(Board(geo, x, o, mover), mover)

    return evaluate
