"""Rendered rolls for the dice tests, cached per session (rendering is the slow part)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from vision.dice import DiceRead, DiceView, read_dice, tray_view
from vision.render.dice_sets import DiceSet, Rendered, calibrated_profile, render_set

FLOORS = json.loads((Path(__file__).with_name("accuracy_floors.json")).read_text())
"""The accuracy the dice tests hold (measured figures beside each floor)."""


@lru_cache(maxsize=32)
def rendered(spec: DiceSet, seed: int) -> Rendered:
    """A rendered roll (cached)."""
    return render_set(spec, seed)


@lru_cache(maxsize=32)
def view_of(spec: DiceSet, seed: int) -> DiceView:
    """The tray view a calibrated profile gives for that roll's camera."""
    shot = rendered(spec, seed)
    profile = calibrated_profile(shot.image)
    assert profile.tray is not None
    return tray_view(profile.mapping(), profile.tray, (shot.image.shape[1], shot.image.shape[0]))


def read(spec: DiceSet, seed: int) -> tuple[Rendered, DiceRead]:
    """A roll and what the reader makes of it through the calibrated tray view."""
    return rendered(spec, seed), read_dice(rendered(spec, seed).image, view_of(spec, seed))
