"""Exact odds of the strike system's only randomness, the Oracle pool (RULES §3.1.c, T001A-01),
as fractions: every outcome of n d6 is counted (grouped by how many dice show the face asked
about, which counts every one of the 6^n outcomes exactly once).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

MAX_POOL = 200
"""The largest pool the odds take (100 soldiers of Initiative 2)."""


def face_count_ways(n: int, k: int) -> int:
    """How many of the 6^n outcomes of n d6 show a given face exactly k times."""
    return int(comb(n, k) * 5 ** (n - k))


def p_at_least(n: int, k: int = 1) -> Fraction:
    """P(at least ``k`` of ``n`` d6 show a given face) (T001A-01: k = 1 gives 1 - (5/6)^n)."""
    if n < 0 or k < 0:
        raise ValueError("dice and faces are counted from 0")
    ways = sum(face_count_ways(n, j) for j in range(k, n + 1))
    return Fraction(ways, 6**n)


def p_at_least_enumerated(n: int, k: int = 1, face: int = 1) -> Fraction:
    """The same by listing every outcome one by one (small pools only: a check of the above)."""
    if n > 7:
        raise ValueError("listing every outcome is for pools of at most 7 dice")
    hits = sum(1 for roll in itertools.product(range(1, 7), repeat=n) if roll.count(face) >= k)
    return Fraction(hits, 6**n)


def expected_count(n: int) -> Fraction:
    """The expected number of dice showing a given face among n d6 (n/6)."""
    return Fraction(n, 6)
