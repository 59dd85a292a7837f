"""Defence from the attacker's proof: which moves cannot stop a threat win, without trying them.

When the opponent (the *attacker*) has a threat win as if the side to move passed, the threat
search has a proof of it: a tree in which every defender node lists every reply the rules of
`threats` leave (the block of a four; the stops of every double and the defender's own fours,
after a three) and every attacker node one threat that wins against them all. That proof still
holds after a defender move that changes nothing it reads, and what it reads is local:

- the cells it plays (both sides' moves in the whole tree);
- the attacker's lines that hold k-2 or more of its stones at some node (their empty cells are
  its winning cells, its fours and its doubles, which decide the defender's replies): counted
  with every attacker move of the tree, over-counting is safe;
- the defender's lines that hold k-3 or more of its stones at some node (one more stone there
  would give the defender a new four or winning cell, and so new replies): counted likewise.

A defender move outside those cells (the proof's *relevance zone*, `relevance_zone`) leaves
every node of the proof as it was, so it loses to the same attack, within the same number of
plies: a proven loss found without a search. Only the moves inside the zone can defend, and
each is tried with a threat search of its own (the defence of CodeCup 2020's winner, who
intersected the cells of successive proofs; here the zone of the first proof is the part that
is proven, and the later ones only order the tries). `tests/engine/test_defence_zone.py` checks
the claim against an independent prover.
"""

from __future__ import annotations

from tictactoe_tui.engine.proofs.lines import LineState, iter_bits
from tictactoe_tui.engine.proofs.threats import ThreatSearch, first_double, lowest, vct_replies

WALK_NODES = 5_000
"""Proof-tree nodes `proof_cells` may visit by default before it gives up (a zone must cover
the whole proof, so a tree too big to walk gives no zone)."""

WALK_SEARCH_NODES = 2_000
"""Nodes the threat search may visit to find an attacker node's winning threat during the walk
(the search's table of proven positions answers most at once)."""


class _Walk:
    """One walk of a proof tree, collecting the cells each side plays in it."""

    def __init__(
        self, search: ThreatSearch, state: LineState, attacker: int, attacks: int, cap: int
    ) -> None:
        self.search = search
        self.state = state
        self.attacker = attacker
        self.attacks = attacks
        self.cap = cap
        self.attack_cells = 0
        self.defence_cells = 0
        self.nodes = 0

    def _count(self) -> bool:
        """Count a node; False past the cap. The search's `poll` (the caller's clock and
        cancel) is called every 64 nodes, as the threat search calls it."""
        self.nodes += 1
        if self.search.poll is not None and not self.nodes & 63:
            self.search.poll()
        return self.nodes <= self.cap

    def attack(self) -> int | None:
        """The plies within which the attacker, to move, wins by the rules (the walked proof's
        depth), or None; collects the proof's cells."""
        if not self._count():
            return None
        state, side = self.state, self.attacker
        wins = state.win_cells(side)
        if wins:
            self.attack_cells |= 1 << lowest(wins)
            return 1
        threat = state.win_cells(1 - side)
        if threat & (threat - 1):
            return None
        if threat:
            return self._play_attack(lowest(threat))
        partners = state.partners(side)
        double = first_double(partners)
        if double is not None:
            self.attack_cells |= 1 << double | partners[double]
            return 3
        line = self.search.vct(state, side, self.attacks, WALK_SEARCH_NODES)
        return None if line is None else self._play_attack(line[0])

    def _play_attack(self, move: int) -> int | None:
        self.attack_cells |= 1 << move
        self.state.play(move, self.attacker)
        try:
            rest = self.defend()
        finally:
            self.state.undo(move, self.attacker)
        return None if rest is None else rest + 1

    def defend(self) -> int | None:
        """The plies within which every reply of the defender, to move, loses by the rules (as
        `threats`'s VCT reads them), or None; collects the proof's cells."""
        if not self._count():
            return None
        state, side = self.state, self.attacker
        other = 1 - side
        if state.win_cells(other):
            return None
        wins = state.win_cells(side)
        if wins & (wins - 1):
            self.attack_cells |= wins
            return 2
        found = vct_replies(state, side, wins)
        if found is None:
            return None
        replies, lost_in_four = found
        # Every other reply leaves a double: lost within 4 plies.
        longest = 4 if lost_in_four else 0
        self.defence_cells |= replies
        for reply in iter_bits(replies):
            state.play(reply, other)
            try:
                rest = self.attack()
            finally:
                state.undo(reply, other)
            if rest is None:
                return None
            longest = max(longest, rest + 1)
        return longest


def proof_cells(
    search: ThreatSearch,
    state: LineState,
    attacker: int,
    line: list[int],
    fours_only: bool,
    attacks: int,
    cap: int = WALK_NODES,
) -> tuple[int, int, int] | None:
    """(the attacker's cells, the defender's cells, the plies within which the proof wins) of
    a proof that `attacker` (to move) wins by threats, `line` being the win `search` just
    found; None when no proof could be walked.

    A win by fours is its own proof (each reply is forced): its line's cells and length. A
    VCT's proof is walked again node by node with the same rules, the attacker's threat at each
    node read from `search` (whose table of proven positions has it), every defender reply
    followed; its depth is the walked tree's (a node searched again may find a longer win than
    the line's). A tree of more than `cap` nodes gives None.
    """
    if fours_only:
        attack = defence = 0
        for index, cell in enumerate(line):
            if index % 2:
                defence |= 1 << cell
            else:
                attack |= 1 << cell
        return attack, defence, len(line)
    played = len(state.history)
    walk = _Walk(search, state, attacker, attacks, cap)
    try:
        plies = walk.attack()
    finally:
        state.rewind(played)
    if plies is None:
        return None
    return walk.attack_cells, walk.defence_cells, plies


def relevance_zone(state: LineState, attacker: int, attack_cells: int, defence_cells: int) -> int:
    """The empty cells where a defender move may change the proof whose cells are given (see
    the module text); a defender move anywhere else loses to the same proof."""
    shape = state.shape
    k = shape.k
    mine = state.bits[attacker]
    theirs = state.bits[1 - attacker]
    attack_all = mine | attack_cells
    defence_all = theirs | defence_cells
    zone = attack_cells | defence_cells
    for mask in shape.line_mask:
        if not mask & theirs and (mask & attack_all).bit_count() >= k - 2:
            zone |= mask
        if not mask & mine and (mask & defence_all).bit_count() >= k - 3:
            zone |= mask
    return zone & state.empty
