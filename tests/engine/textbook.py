"""Alpha-beta as the textbooks write it, for checking the drill: shares no code with the engine.

Two functions, MAX and MIN, each updating its own bound; a cut at α ≥ β (or only α > β), and a
node returning its best value (fail-soft) or that value held inside its window (fail-hard). It
records what the drill asks a learner for: the nodes entered, their values and windows, and
counts the leaves it visits.

`all_outcomes` tries every order of every node's children, by brute force, counting leaves on
its own: what a subtree returns and how many leaves it costs depend only on the orders chosen
inside it and the window it is entered with, so the subtrees entered with the same window share
their answers (every order of a whole tree of depth 3 and width 3 is 6^13 runs; this is the
same set of outcomes, found in milliseconds).
"""

from __future__ import annotations

from itertools import permutations

from tictactoe_tui.engine.lab.hand_search import INFINITY, Convention, Cut, DrillNode, Returns


class Textbook:
    """Alpha-beta as the textbooks write it, recording what the drill asks for."""

    def __init__(self, at_equal: bool, soft: bool, order: dict[int, tuple[int, ...]] | None = None):
        self.at_equal, self.soft, self.order = at_equal, soft, order or {}
        self.visited: list[int] = []
        self.returns: dict[int, int] = {}
        self.windows: dict[int, tuple[int, int]] = {}
        self.leaves = 0

    def stop(self, a: int, b: int) -> bool:
        return a >= b if self.at_equal else a > b

    def kids(self, node: DrillNode) -> list[DrillNode]:
        if node.id not in self.order:
            return list(node.children)
        return [next(c for c in node.children if c.id == i) for i in self.order[node.id]]

    def enter(self, node: DrillNode, a: int, b: int) -> int:
        self.visited.append(node.id)
        self.windows[node.id] = (a, b)
        if not node.children:
            self.leaves += 1
            v = node.value
            assert v is not None
        elif node.is_max:
            v = self.max_value(node, a, b)
        else:
            v = self.min_value(node, a, b)
        self.returns[node.id] = v
        return v

    def max_value(self, node: DrillNode, a: int, b: int) -> int:
        a0 = a
        v = -(10**9)
        for child in self.kids(node):
            v = max(v, self.enter(child, a, b))
            a = max(a, v)
            if self.stop(a, b):
                break
        return v if self.soft else min(max(v, a0), b)

    def min_value(self, node: DrillNode, a: int, b: int) -> int:
        b0 = b
        v = 10**9
        for child in self.kids(node):
            v = min(v, self.enter(child, a, b))
            b = min(b, v)
            if self.stop(a, b):
                break
        return v if self.soft else min(max(v, a), b0)


def textbook(root: DrillNode, c: Convention, order=None) -> Textbook:
    run = Textbook(c.cut is Cut.AT_EQUAL, c.returns is Returns.FAIL_SOFT, order)
    run.enter(root, -INFINITY, INFINITY)
    return run


def all_outcomes(convention: Convention):
    """For (node, window): every (returned value, leaves) some order of the subtree gives."""
    memo: dict[tuple[int, int, int], set[tuple[int, int]]] = {}
    book = Textbook(convention.cut is Cut.AT_EQUAL, convention.returns is Returns.FAIL_SOFT)

    def outcomes(node: DrillNode, a: int, b: int) -> set[tuple[int, int]]:
        key = (node.id, a, b)
        if key in memo:
            return memo[key]
        if not node.children:
            found = {(node.value, 1)}
        else:
            found = set()
            for ordered in permutations(node.children):
                # (best so far, a, b, leaves, stopped)
                states = {(None, a, b, 0, False)}
                for child in ordered:
                    nxt = set()
                    for best, lo, hi, leaves, stopped in states:
                        if stopped:
                            nxt.add((best, lo, hi, leaves, True))
                            continue
                        for value, cost in outcomes(child, lo, hi):
                            if node.is_max:
                                nb = value if best is None else max(best, value)
                                nlo, nhi = max(lo, nb), hi
                            else:
                                nb = value if best is None else min(best, value)
                                nlo, nhi = lo, min(hi, nb)
                            nxt.add((nb, nlo, nhi, leaves + cost, book.stop(nlo, nhi)))
                    states = nxt
                for best, _lo, _hi, leaves, _stopped in states:
                    assert best is not None
                    value = best if book.soft else min(max(best, a), b)
                    found.add((value, leaves))
        memo[key] = found
        return found

    return outcomes


def fewest_leaves(root: DrillNode, c: Convention) -> int:
    """The fewest leaves alpha-beta visits from the full window under any order of children."""
    return min(cost for _value, cost in all_outcomes(c)(root, -INFINITY, INFINITY))
