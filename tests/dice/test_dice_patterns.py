"""The pip layout fitter (vision.dice.patterns): one ordering of each set a layout's turns
and mirrors make alike fits as well as the best of every ordering, and a batch of groups is
fitted as each group alone, a fit that misses the limits asked for left out."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.dice.patterns import LAYOUTS, FitLimits, fit_pattern, fit_patterns

PLACES = {2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)), **LAYOUTS}
"""Each count's pip places, layout units."""


def _best_of_every_ordering(points: np.ndarray) -> float:
    """The smallest RMS residual (pixels) of an affine fit of ``points`` to their layout over
    every ordering."""
    n = len(points)
    places = np.array(LAYOUTS[n], dtype=np.float64)
    design = np.hstack([places, np.ones((n, 1))])
    best = np.inf
    for order in itertools.permutations(range(n)):
        q = points[list(order)]
        coef, *_ = np.linalg.lstsq(design, q, rcond=None)
        best = min(best, float(np.sqrt(((design @ coef - q) ** 2).sum(axis=1).mean())))
    return best


@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_orderings_kept_fit_as_well_as_every_ordering(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(6):
        points = rng.uniform(0.0, 40.0, (n, 2))
        fit = fit_pattern(points)
        assert fit is not None
        got = fit.residual * float(np.linalg.svd(fit.axes, compute_uv=False)[0])
        assert got == pytest.approx(_best_of_every_ordering(points), rel=1e-9, abs=1e-9)


def _groups(n: int, rng: np.random.Generator) -> np.ndarray:
    """30 groups of ``n`` pips: half a face of that many pips turned, scaled and a little off
    its places, half scattered at random."""
    places = np.array(PLACES[n], dtype=np.float64)
    out = []
    for k in range(30):
        if k % 2:
            out.append(rng.uniform(0.0, 40.0, (n, 2)))
            continue
        a = rng.uniform(0.0, 2.0 * np.pi)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * rng.uniform(4.0, 12.0)
        out.append(20.0 + places @ rot.T + rng.normal(0.0, 0.3, (n, 2)))
    return np.array(out)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_a_batch_is_fitted_as_each_group_alone(n: int) -> None:
    groups = _groups(n, np.random.default_rng(10 + n))
    limits = FitLimits(max_residual=0.2, min_squash=0.4, max_skew_deg=25.0, side_px=(10.0, 60.0))
    batch = fit_patterns(groups, limits)
    met = 0
    for points, got in zip(groups, batch, strict=True):
        alone = fit_pattern(points)
        if alone is not None and (
            alone.residual <= limits.max_residual
            and alone.squash >= limits.min_squash
            and alone.skew_deg <= limits.max_skew_deg
            and limits.side_px[0] <= alone.side_px <= limits.side_px[1]
        ):
            met += 1
            assert got is not None
            assert got.value == alone.value and got.residual == alone.residual
            assert np.allclose(got.centre, alone.centre) and np.allclose(got.axes, alone.axes)
        else:
            assert got is None
    assert 0 < met < len(groups)
