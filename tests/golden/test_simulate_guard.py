"""The quick half of the golden guard (issue 25): seeds 1-2 of every bundled scenario replay
byte for byte against ``tests/golden/simulate/``; ``make golden`` checks all 240 battles."""

from __future__ import annotations

import pytest

from tests.golden.simulate_guard import (
    SEEDS,
    check,
    fingerprint,
    first_difference,
    load,
    scenario_names,
)

GOLDEN = load()
QUICK = [(name, seed) for name in scenario_names() for seed in (1, 2)]


def test_every_bundled_scenario_and_seed_is_recorded() -> None:
    assert set(GOLDEN) == {f"{name}/{seed}" for name in scenario_names() for seed in SEEDS}
    assert len(GOLDEN) == 240


@pytest.mark.parametrize(("scenario", "seed"), QUICK)
def test_simulate_is_byte_identical(scenario: str, seed: int) -> None:
    problem = check(GOLDEN[f"{scenario}/{seed}"])
    assert problem is None, problem


def test_a_changed_line_is_named_by_its_number() -> None:
    text = "".join(f'{{"line": {i}}}\n' for i in range(1, 40))
    want = fingerprint("s", 1, text)
    lines = text.splitlines(keepends=True)
    lines[22] = '{"line": "changed"}\n'
    assert first_difference(want, fingerprint("s", 1, "".join(lines))) == 23
    assert first_difference(want, fingerprint("s", 1, "".join(lines[:30]))) == 23
    assert first_difference(want, fingerprint("s", 1, text + "extra\n")) == 40
