"""The solver's pairing proofs and relevance zones, checked against the independent brute force.

Pairings are on by default only from k = 5; here they are forced on for shorter lines too, where
the brute force reaches further and the zone rules (blocks, doubles, threats) come up far more
often. Every move's exact value must be the brute-force value, in every null window the solver
runs (win or not, draw or loss, then the distances).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from tests.engine.brute import BruteForce
from tictactoe_tui.engine import Board, alphabeta, describe_score
from tictactoe_tui.engine.proofs.solver import ALL, RootSolver, Solver
from tictactoe_tui.engine.search import kernel as fs


@cache
def brute(size: int, k: int) -> BruteForce:
    """One brute-force solver per shape, so its memo serves every position of that shape."""
    return BruteForce(size, k)


def exact_values(board: Board, pairings: bool) -> tuple[int, dict[int, int]]:
    """The solver's value of `board` and the exact value of every move."""
    sh = fs.shape(board.size, board.k)
    root = RootSolver(board, Solver(sh, fs.Poller(None, None, sh.poll_mask), pairings=pairings))
    value, _ = root.solve()
    root.settle()
    return value, {move: bounds.lo for move, bounds in root.moves.items()}


SHAPES = [
    # (size, k, seed, count, marks): a few seconds each; the slow ones reach further back.
    (4, 3, 11, 15, (4, 9)),
    (4, 4, 12, 10, (5, 10)),
    (5, 3, 13, 12, (8, 14)),
    (5, 4, 14, 10, (12, 16)),
    (5, 5, 15, 8, (13, 16)),
    pytest.param(4, 4, 16, 30, (4, 10), marks=pytest.mark.slow),
    pytest.param(5, 5, 17, 10, (11, 16), marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("size", "k", "seed", "count", "marks"), SHAPES)
@pytest.mark.slow
def test_random_positions_get_brute_force_values_with_pairings_on(
    size: int, k: int, seed: int, count: int, marks: tuple[int, int]
) -> None:
    ref = brute(size, k)
    rng = random.Random(seed)
    for _ in range(count):
        cells = ref.random_position(rng, rng.randint(*marks))
        mover = "X" if cells.count("X") == cells.count("O") else "O"
        truth = ref.move_values(cells, mover)
        value, moves = exact_values(Board.from_string(cells, k=k), pairings=True)
        assert value == max(truth.values()), cells
        assert moves == truth, cells


@pytest.mark.parametrize(
    ("size", "k", "value"),
    [
        # The published values of these games.
        (3, 3, "draw"),
        (4, 3, "win in 5"),
        (4, 4, "draw"),
        (5, 3, "win in 5"),
        (5, 5, "draw"),
        (5, 4, "draw"),
    ],
)
def test_small_games_keep_their_published_values_with_pairings_on(
    size: int, k: int, value: str
) -> None:
    board = Board.empty(size, k)
    # The solver's value is the game's: its distance is exact.
    assert describe_score(exact_values(board, pairings=True)[0], board, exact=True) == value


@pytest.mark.slow
def test_seven_by_seven_five_in_a_row_is_proven_a_draw_through_the_public_api() -> None:
    # Published: Hsu, Ko, Chen, Wei, Hsueh, Wu, Theoretical Computer Science 815 (2020).
    result = alphabeta(Board.empty(7, 5), time_limit=600)
    assert result.complete and result.score == 0


@pytest.mark.slow
def test_every_zone_rule_fires_and_every_value_stays_true(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each rule of the module docstring is counted while the solver (pairings forced on) values
    # random positions; all of them must fire, and every value must match the brute force.
    fired: Counter[str] = Counter()

    def counting(name: str, label: Callable[..., str | None]) -> None:
        original = getattr(Solver, name)

        def wrapper(*args: Any) -> Any:
            result = original(*args)
            tag = label(*args, result)
            if tag is not None:
                fired[tag] += 1
            return result

        monkeypatch.setattr(Solver, name, wrapper if name != "outside" else staticmethod(wrapper))

    counting("paired", lambda *a: "pairing" if a[-1] != ALL else None)
    counting("outside", lambda *a: "pruned by a zone" if a[-1] else None)
    counting("guard_zone", lambda *a: f"guard {a[4]}")
    counting("open_cells", lambda *a: "Erdős-Selfridge zone")
    counting("stored_zone", lambda *a: "zone from the table" if a[-1] != ALL else None)
    rng = random.Random(31)
    for size, k, marks, count in ((4, 4, (6, 10), 30), (5, 4, (12, 14), 40), (5, 5, (12, 15), 10)):
        ref = brute(size, k)
        for _ in range(count):
            cells = ref.random_position(rng, rng.randint(*marks))
            mover = "X" if cells.count("X") == cells.count("O") else "O"
            truth = ref.move_values(cells, mover)
            assert exact_values(Board.from_string(cells, k=k), pairings=True)[1] == truth, cells
    assert set(fired) == {
        "pairing",
        "pruned by a zone",
        "guard 2",
        "guard 3",
        "Erdős-Selfridge zone",
        "zone from the table",
    }, fired


def test_a_cancel_is_heard_among_an_or_nodes_pairing_probes() -> None:
    # An OR node tries a pairing after each of its moves before searching any: a long run of
    # searches within one node, so it listens to the caller between them.
    sh = fs.shape(7, 5)
    asked: list[int] = []

    def stop() -> bool:
        asked.append(solver.pairing.calls if solver.pairing is not None else 0)
        return len(asked) > 1

    solver = Solver(sh, fs.Poller(stop, None, sh.poll_mask))
    root = RootSolver(Board.empty(7, 5), solver)
    with pytest.raises(fs.Stopped):
        root.solve_pass(root.solve_moves(), 0, 1)
    assert solver.pairing is not None and solver.pairing.calls - asked[0] <= 8
