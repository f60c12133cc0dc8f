"""A further battle replayed from the footage alone (crossroads-ambush, seed 5, the camera
bumped after the sixth move); see further_battle.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.replay.further_battle import (
    check_every_lift_is_found_and_the_disturbance_is_told,
    check_no_model_that_stays_on_the_table_is_reported_removed,
    check_the_game_read_back_is_the_battle_played,
    render_and_replay,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return render_and_replay("nudge", tmp_path_factory)


def test_the_game_read_back_is_the_battle_played(battle: dict[str, Any]) -> None:
    check_the_game_read_back_is_the_battle_played(battle)


def test_no_model_that_stays_on_the_table_is_reported_removed(battle: dict[str, Any]) -> None:
    check_no_model_that_stays_on_the_table_is_reported_removed(battle)


def test_every_lift_is_found_and_the_disturbance_is_told(battle: dict[str, Any]) -> None:
    check_every_lift_is_found_and_the_disturbance_is_told(battle)
