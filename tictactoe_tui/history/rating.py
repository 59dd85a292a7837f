"""The puzzle rating: Glicko-2, as lichess rates its puzzle solvers.

Each try at a puzzle is a game between the player and the puzzle: the player scores 1 for a
solve, 0 for a miss (less than 1 when hints were taken, see `history.puzzles`), against the
puzzle's difficulty as a rating whose deviation is `PUZZLE_DEVIATION`. Glicko-2 keeps, beside
the rating, how sure it is (the deviation: a new player's 350 shrinks with every try, so the
first tries move the rating a lot and later ones a little) and how erratic the player is (the
volatility). The steps are those of Glickman's "Example of the Glicko-2 system" (2013), one
rating period per try; `update` checks against the paper's worked example in the tests.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's ratio between the rating scale and its internal one."""

TAU = 0.5
"""How fast the volatility may change (Glickman suggests 0.3 to 1.2)."""

PUZZLE_DEVIATION = 80.0
"""How sure a puzzle's difficulty is: it comes from its proof, not from play, so not very."""

MIN_DEVIATION = 45.0
"""The deviation never falls below this, so a rating keeps moving with the player's form."""

_EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating: the value, its deviation (±, about a 68% range) and volatility."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    @property
    def provisional(self) -> bool:
        """True while the deviation is large: the rating is still a guess."""
        return self.deviation > 110


def update(player: Rating, games: Sequence[tuple[float, float, float]], tau: float = TAU) -> Rating:
    """The player's rating after one period of `games`: (opponent rating, its deviation, the
    player's score 0..1) each."""
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        return player
    inverse_v = 0.0
    gained = 0.0
    for rating, deviation, score in games:
        phi_j = deviation / SCALE
        g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
        expected = 1 / (1 + math.exp(-g * (mu - (rating - 1500) / SCALE)))
        inverse_v += g**2 * expected * (1 - expected)
        gained += g * (score - expected)
    v = 1 / inverse_v
    delta = v * gained
    sigma = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * gained
    deviation = min(max(SCALE * new_phi, MIN_DEVIATION), Rating().deviation)
    return Rating(1500 + SCALE * new_mu, deviation, sigma)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        step = 1
        while f(a - step * tau) < 0:
            step += 1
        high = a - step * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)


def after_puzzle(player: Rating, puzzle_rating: int, score: float) -> Rating:
    """The player's rating after one try at a puzzle of `puzzle_rating` (score 1 solved)."""
    return update(player, [(float(puzzle_rating), PUZZLE_DEVIATION, score)])
