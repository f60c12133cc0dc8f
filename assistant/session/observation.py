"""What the session needs from the camera, in table inches: one value per processed frame."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PieceSeen:
    """A scenario piece (a unit's model) found on the table."""

    x_in: float
    """Base centre, inches from the left front corner."""
    y_in: float
    heading_deg: float
    visible: bool = True
    """False when its tags are briefly hidden and the tracker holds its last pose."""
    by_hand: bool = False
    """True when the camera cannot see it and it stands where the player placed it on the
    page (``assistant.session.by_hand``)."""


@dataclass(frozen=True)
class Observation:
    """The table after one frame, reconciled with the scenario's pieces."""

    t: float
    """Seconds from the start of the source."""
    settled: bool
    """Nothing moving and no hand over the table."""
    pieces: Mapping[str, PieceSeen] = field(default_factory=dict)
    """Pieces on the table by unit id; a piece with no tag in view (lifted) is absent."""
    unknown_tags: tuple[int, ...] = ()
    """Tags in view that belong to nothing in the scenario."""
    duplicate_tags: tuple[int, ...] = ()
    """Tags seen twice: neither copy is trusted."""
    missing_terrain: tuple[str, ...] = ()
    """Names of scenario terrain pieces whose tags are not in view."""
    terrain: Mapping[str, PieceSeen] = field(default_factory=dict)
    """Tagged terrain pieces on the table by terrain id: the pose of the piece's reference
    point (its polygon's centroid in the scenario) and its heading."""
    buttons: tuple[str, ...] = ()
    """Button presses seen in this frame ("done", "undo", "repeat", "confirm")."""
    warnings: tuple[str, ...] = ()
    """Camera problems to pass on (corner tags lost, camera moved)."""
