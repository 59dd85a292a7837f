"""Words for the pairing view ("why a draw"): the pair letters, the headline, the reasons.

Pure wording over `engine.pairing`'s answers (a `Pairing`, a `NoPairing`, a `PairingLine`) and
an exact value from search when one was proven. Every count said here is counted from those
answers; a value is named only when the search proved it.
"""

from __future__ import annotations

from collections.abc import Mapping

from tictactoe_tui.engine import Board, Mark
from tictactoe_tui.engine.proofs.pairing import NoPairing, Pairing, PairingLine
from tictactoe_tui.engine.rules.board import cell_notation
from tictactoe_tui.text.threats import span_words

__all__ = [
    "PAIR_SYMBOLS",
    "answer_words",
    "covered_lines",
    "legend_words",
    "line_words",
    "no_pairing_words",
    "pair_letters",
    "pairing_words",
    "result_words",
    "search_words",
    "spent_words",
]

_GREEK = "αβγδεζηθικλμνξπρστυφχψω"
"""Lowercase Greek without omicron (it reads as an o)."""
_CYRILLIC = "бгджзилпфцчшщъыьэюя"
"""Lowercase Cyrillic letters that look like no Latin one."""
_GREEK_CAPITALS = "ΓΔΘΛΞΠΣΦΨΩ"
"""Uppercase Greek letters that look like no Latin one."""
_ARMENIAN = "աբդեէըթիլխծկձղճմյնշչպջռվտրփֆԱԲԳԴԵԶԷԸԹԺԻԽԾԿՀՁՂՃՄՅՆՇՉՊՋՎՐՑՒՓՖ"
"""Armenian letters, lowercase then uppercase, that look like no Latin one."""
_GEORGIAN = "აბგდევზთიკლმნოპჟრსტუფქღყშჩცძწჭხჯჰ"
"""Georgian (Mkhedruli) letters."""

PAIR_SYMBOLS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    + _GREEK
    + _CYRILLIC
    + _GREEK_CAPITALS
    + "0123456789"
    + _ARMENIAN
    + _GEORGIAN
)
"""The one-character names of the pairs, in order: a–z (lowercase, so that no pair reads as
the board's column letters), then A–Z, Greek and Cyrillic letters, the digits, Armenian and
Georgian letters (206 in all; a 20×20 board has at most 200 pairs). Each is one terminal
column wide."""

_FIRST = 26
"""Pairs named by lowercase letters alone."""


def pair_letters(pairing: Pairing) -> dict[int, str]:
    """Each paired cell's letter: both cells of the n-th pair (in `pairing.pairs`' order, by
    their lower cell, so reading order) get `PAIR_SYMBOLS[n]`."""
    if len(pairing.pairs) > len(PAIR_SYMBOLS):
        raise ValueError(f"{len(pairing.pairs)} pairs: only {len(PAIR_SYMBOLS)} letters")
    return {
        cell: PAIR_SYMBOLS[index] for index, pair in enumerate(pairing.pairs) for cell in pair.cells
    }


def legend_words(pairs: int) -> str:
    """What the letters on the board mean, and which letters a board of `pairs` pairs uses."""
    if pairs <= _FIRST:
        names = f"a–{PAIR_SYMBOLS[pairs - 1]}" if pairs > 1 else "a"
    else:
        names = "a–z, then A–Z, Greek and Cyrillic letters, digits"
    return (
        f"Cells with the same letter form a pair ({names}). A cell without a letter is in no pair."
    )


def covered_lines(pairing: Pairing) -> int:
    """The lines the attacker could still make: each is covered by some pair, so they are the
    lines of the pairs taken together."""
    return len({line for pair in pairing.pairs for line in pair.lines})


def _plural(count: int, word: str, plural: str | None = None) -> str:
    """ "1 pair", "12 pairs"."""
    return f"{count:,} {word if count == 1 else plural or word + 's'}"


def pairing_words(pairing: Pairing) -> tuple[str, str]:
    """The headline and the explanation of a pairing: what it proves and how to follow it."""
    x, o = pairing.attacker.value, pairing.defender.value
    pairs = len(pairing.pairs)
    lines = covered_lines(pairing)
    every = "the 1 line" if lines == 1 else f"all {lines} lines"
    cover = "covers" if pairs == 1 else "cover"
    headline = (
        f"{x} cannot win: {o} has a pairing. {_plural(pairs, 'pair')} {cover} {every} "
        f"{x} could still make."
    )
    explanation = (
        f"Whenever {x} takes a lettered cell, {o} takes the other cell with the same "
        f"letter. {x} never holds both cells of a pair, and every line {x} could make "
        f"holds a whole pair, so {x} never completes one, whoever moves first. This "
        f"proves {x} cannot win; it says nothing about {o}'s own chances."
    )
    return headline, explanation


def no_pairing_words(found: NoPairing, size: int) -> tuple[str, str]:
    """The headline and the reason there is no pairing, from the counts of `found`."""
    x, o = found.attacker.value, found.defender.value
    headline = f"{o} has no pairing here."
    if found.short_line:
        reason = (
            f"The line {span_words(found.short_line, size)} could still be {x}'s and has "
            "fewer than two free cells: no pair fits in it, so no pairing covers it."
        )
        return headline, reason
    if found.counted_out:
        shared = f"{found.most_shared} of them"
        needed = found.pairs_needed
        reason = (
            f"{_plural(found.open_lines, 'line')} {x} could still make, and any two free "
            f"cells lie together in at most {shared}: {_plural(needed, 'pair')} = "
            f"{2 * needed} cells needed, {found.free_cells} are free — counting rules a "
            "pairing out."
        )
        return headline, reason
    counts = (
        f"{_plural(found.open_lines, 'line')} {x} could still make and "
        f"{_plural(found.free_cells, 'free cell')}: counting allows a pairing"
    )
    if found.exhausted:
        return headline, (
            f"{counts}, but the search tried every way "
            f"({_plural(found.visited, 'branch point')}): none exists."
        )
    return f"No pairing found for {o}.", (
        f"{counts}; the search stopped after {_plural(found.visited, 'branch point')}: "
        "one may exist."
    )


def search_words(band: str | None, to_move: Mark) -> str:
    """What a search proved about the position (`band`: "win", "loss" or "draw" for the side
    to move, or None when it proved nothing), worded for the pairing view."""
    other = to_move.opponent
    if band == "draw":
        return "The draw here is proven by search, not by a pairing."
    if band == "win":
        return (
            f"{to_move.value} wins here with best play (proven by search): no strategy of "
            f"{other.value} stops it."
        )
    if band == "loss":
        return f"{other.value} wins here with best play (proven by search)."
    return ""


def line_words(start: Board, line: PairingLine) -> str:
    """The line of play after which the defender has a pairing, said as moves from `start`."""
    o = line.pairing.defender.value
    size = start.size
    moves = []
    position = start
    for move in line.moves:
        moves.append(f"{position.to_move.value} {cell_notation(move, size)}")
        position = position.play(move)
    x = line.pairing.attacker.value
    pairs = _plural(len(line.pairing.pairs), "pair")
    return (
        f"After {', '.join(moves)}, {o} has a pairing ({pairs}): from there {x} cannot "
        f"win. That settles this line only: {x}'s other moves need proofs of their own."
    )


def answer_words(
    pairing: Pairing, letters: Mapping[int, str], move: int, reply: int | None, size: int
) -> str:
    """What happened on one turn: the attacker's `move` and the defender's `reply`."""
    x, o = pairing.attacker.value, pairing.defender.value
    took = f"{x} took {cell_notation(move, size)}"
    if reply is None:
        return f"{took}."
    if move in letters and pairing.partner(move) == reply:
        return (
            f"{took} ({letters[move]}): {o} takes the other {letters[move]}, "
            f"{cell_notation(reply, size)}."
        )
    took += f" ({letters[move]}, a pair already spent)" if move in letters else ", in no pair"
    answer = _cell_words(pairing, letters, reply, size)
    return f"{took}: {o} may answer anywhere, and takes {answer}."


def _cell_words(pairing: Pairing, letters: Mapping[int, str], cell: int, size: int) -> str:
    """A free answer named with what it does to the pairs."""
    name = cell_notation(cell, size)
    if cell not in letters:
        return f"{name}, a cell in no pair"
    return f"{name} ({letters[cell]}: that pair's lines now hold an {pairing.defender.value})"


def spent_words(pairing: Pairing, letters: Mapping[int, str], board: Board) -> str:
    """How many pairs are spent (a cell of them taken) and which letters are left."""
    left = [
        letters[pair.cells[0]]
        for pair in pairing.pairs
        if all(board[cell] is None for cell in pair.cells)
    ]
    spent = len(pairing.pairs) - len(left)
    words = f"{spent} of {_plural(len(pairing.pairs), 'pair')} spent"
    if not left:
        return f"{words}."
    shown = " ".join(left) if len(left) <= 26 else " ".join(left[:26]) + " …"
    return f"{words}; left: {shown}."


def result_words(board: Board, attacker: Mark) -> str:
    """The end of a game played against the pairing."""
    defender = attacker.opponent
    if board.winner is attacker:
        return f"{attacker.value} wins: the pairing was not followed."
    if board.winner is defender:
        return (
            f"{defender.value} wins: its answers completed a line. The pairing only "
            f"promised that {attacker.value} cannot win."
        )
    return f"A draw: every line {attacker.value} could make holds an {defender.value}."
