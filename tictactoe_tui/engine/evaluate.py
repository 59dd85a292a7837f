"""The two classic heuristics, H1 and H2, generalised to any k, with their terms for the panel.

For the player P and the opponent Q, over every line (run of k cells) of the board:

- **H1** = Σ over lines holding n marks of P and none of Q of 3^(n-1), minus the same for Q.
  On 3×3 this is exactly `3·X2 + X1 − (3·O2 + O1)` with X = P. A full line is a win, not a term.
- **H2** = Open(P) − Open(Q), where Open(P) counts the lines that hold no mark of Q.
"""

from __future__ import annotations

from dataclasses import dataclass

from tictactoe_tui.engine.board import Board, Mark


@dataclass(frozen=True)
class H1Terms:
    """The terms of H1 seen from `player`: `own[n-1]` lines hold n of its marks and none of Q's."""

    player: Mark
    own: tuple[int, ...]
    """For n = 1 .. k-1: lines with n of P's marks and no mark of Q (on 3×3: X1, X2)."""
    opp: tuple[int, ...]
    """For n = 1 .. k-1: lines with n of Q's marks and no mark of P (on 3×3: O1, O2)."""

    @property
    def value(self) -> int:
        """Σ 3^(n-1)·own[n] − Σ 3^(n-1)·opp[n]."""
        return sum(3**n * (mine - theirs) for n, (mine, theirs) in
                   enumerate(zip(self.own, self.opp, strict=True)))

    def formula(self) -> str:
        """The sum written out with its numbers, e.g. `3·1 + 2 − (3·0 + 1) = 4`."""
        def side(counts: tuple[int, ...]) -> str:
            parts = [f"{3**n}·{c}" if n else f"{c}" for n, c in enumerate(counts)]
            return " + ".join(reversed(parts))
        return f"{side(self.own)} − ({side(self.opp)}) = {self.value}"


@dataclass(frozen=True)
class H2Terms:
    """The terms of H2 seen from `player`: lines still open to it and to its opponent."""

    player: Mark
    open_own: int
    """Open(P): lines holding no mark of the opponent."""
    open_opp: int
    """Open(Q): lines holding no mark of P."""

    @property
    def value(self) -> int:
        """Open(P) − Open(Q)."""
        return self.open_own - self.open_opp

    def formula(self) -> str:
        """The difference written out, e.g. `5 − 2 = 3`."""
        return f"{self.open_own} − {self.open_opp} = {self.value}"


def explain_h1(board: Board, player: Mark) -> H1Terms:
    """H1's line counts for `player` on `board`."""
    mine, theirs = board.bits(player), board.bits(player.opponent)
    k = board.k
    own = [0] * (k - 1)
    opp = [0] * (k - 1)
    for mask in board.geometry.lines:
        a = (mine & mask).bit_count()
        b = (theirs & mask).bit_count()
        if a and not b and a < k:
            own[a - 1] += 1
        elif b and not a and b < k:
            opp[b - 1] += 1
    return H1Terms(player, tuple(own), tuple(opp))


def explain_h2(board: Board, player: Mark) -> H2Terms:
    """H2's open-line counts for `player` on `board`."""
    mine, theirs = board.bits(player), board.bits(player.opponent)
    open_own = open_opp = 0
    for mask in board.geometry.lines:
        if not theirs & mask:
            open_own += 1
        if not mine & mask:
            open_opp += 1
    return H2Terms(player, open_own, open_opp)


def h1(board: Board, player: Mark) -> int:
    """H1 seen from `player`: 3·X2 + X1 − (3·O2 + O1) on 3×3, the same shape for any k."""
    return explain_h1(board, player).value


def h2(board: Board, player: Mark) -> int:
    """H2 seen from `player`: Open(player) − Open(opponent)."""
    return explain_h2(board, player).value
