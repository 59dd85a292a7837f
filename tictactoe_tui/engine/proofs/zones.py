"""The exact solver's relevance zones and pairings (see `exact`): the zones its answers carry,
kept beside its table entries, and the pairing searches it remembers failing.
"""

from __future__ import annotations

from tictactoe_tui.engine.proofs.pairing import PairingSearch
from tictactoe_tui.engine.proofs.symmetry import image
from tictactoe_tui.engine.search.kernel import Shape

ALL = -1
"""A zone that holds every cell: the answer has no relevance zone (nothing may be pruned)."""


NO_ROLE, AND_NODE, OR_NODE = 0, 1, 2
"""A node's part in a proof that one side cannot win (see `exact`'s module docstring)."""

EXHAUSTED = 1 << 40
"""The budget remembered for a position whose pairing search tried every branch."""


class ZoneBook:
    """The zones of the solver's answers and its pairing searches, by position."""

    sh: Shape
    table_limit: int
    pairing: PairingSearch | None
    zones: tuple[dict[int, int], ...]
    unpaired: dict[int, int]
    zone: int

    def paired(self, attacker: int, defender: int, empty: int, budget: int) -> int:
        """The cells of a pairing for `defender` against `attacker`, or `ALL` if none is found
        within `budget` branch points.

        Failures are remembered with the budget they had (none when the search was exhaustive),
        so no search is repeated with a budget that is not bigger.
        """
        raw = attacker << self.sh.cells | defender
        tried = self.unpaired.get(raw, 0)
        if tried >= budget or self.pairing is None:
            return ALL
        pairs = self.pairing.find(attacker, defender, empty, budget)
        if pairs is None:
            if len(self.unpaired) > self.table_limit:
                self.unpaired.clear()
            self.unpaired[raw] = budget if not self.pairing.exhausted else EXHAUSTED
            return ALL
        zone = 0
        for pair in pairs:
            zone |= pair
        return zone

    @staticmethod
    def outside(zones: list[int], cell: int) -> bool:
        """True when `cell` lies outside one of `zones`: the move is refuted like that zone's."""
        return any(not zone >> cell & 1 for zone in zones)

    def remember_zone(self, key: int, sym: int, zone: int, role: int) -> None:
        """Keep the zone of a node's answer beside its table entry (in the key's orientation)."""
        zones = self.zones[role]
        if len(zones) > self.table_limit:
            zones.clear()
        zones[key] = image(self.sh.sym_perms[sym], zone) if sym else zone

    def stored_zone(self, key: int, sym: int, role: int) -> int:
        """The zone kept for the table entry `key` in that role, in the position's orientation."""
        zone = self.zones[role].get(key, ALL)
        if zone != ALL and sym:
            zone = image(self.sh.sym_inverse[sym], zone)
        return zone

    def guard_zone(self, opp: int, empty: int, zone: int, guard: int) -> int:
        """`zone` grown until every line the mover could still complete has `guard` of its empty
        cells in it (or all of them, if fewer): then marks of the mover outside the zone leave
        each such line at least that many empty cells (see the module docstring)."""
        for line in self.sh.lines:
            if not line & opp:
                free = line & empty
                inside = (free & zone).bit_count()
                if inside < guard and inside != free.bit_count():
                    zone |= free
        return zone

    def open_cells(self, blocker: int, empty: int) -> int:
        """The empty cells of the lines that hold no mark of `blocker`."""
        cells = 0
        for line in self.sh.lines:
            if not line & blocker:
                cells |= line
        return cells & empty

    def threes_cells(self, owner: int, other: int, empty: int) -> int:
        """The empty cells of the lines holding k-2 marks of `owner` and none of `other`."""
        cells = 0
        need = self.sh.k - 2
        for line in self.sh.lines:
            if not line & other and (line & owner).bit_count() == need:
                cells |= line
        return cells & empty

    def keep_zone(
        self,
        role: int,
        best: int,
        union: int,
        found: int,
        me: int,
        opp: int,
        opp_thr: int,
        empty: int,
        restricted: bool,
        key: int,
        sym: int,
    ) -> None:
        """The zone of a pairing node's answer (`zone`), kept beside its entry: an AND node's
        union of its moves' zones, grown for the rules it relied on; an OR node's zone of the
        move that held (`found`); else none. (A node with no role has none: `ALL`.)"""
        if role == AND_NODE and best <= 0 and union != ALL:
            if opp_thr:
                union = self.guard_zone(opp, empty, union | opp_thr, 2)
            elif restricted:
                union = self.guard_zone(opp, empty, union | self.threes_cells(opp, me, empty), 3)
            self.remember_zone(key, sym, union, role)
            self.zone = union
        else:
            if found != ALL:
                self.remember_zone(key, sym, found, role)
            self.zone = found
