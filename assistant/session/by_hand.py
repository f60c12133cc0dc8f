"""Pieces the camera cannot see, and pieces the player placed by hand on the page.

A model on the table whose tags the camera has not seen for :data:`OFFER_AFTER_S` seconds (of
footage or camera time) is *offered*: the page offers to place it by hand, and in set-up the
assistant says once that it cannot see its tag. The player then drags it on the page's board to
where it stands (the ``place`` command), or presses confirm (on the page or with the button
tag) in set-up to take every offered piece as standing where the scenario puts it.

A piece placed by hand stands where the player put it until the camera sees its tag again, and
the game goes on with it: the session reads it as seen there (marked ``by_hand``), and after
every step it stands where the game has it (an order carried out, a move declared), since the
camera cannot say otherwise. A piece that leaves the battle is no longer placed by hand. Tagged
terrain the camera cannot find may only be taken as set out (confirm in set-up).
Inches and degrees; times in seconds from the start of the source.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from assistant.session.observation import Observation, PieceSeen
from engine.model import GameState

OFFER_AFTER_S = 4.0
"""A model unseen this long is offered to be placed by hand, seconds."""


@dataclass
class HandPlacements:
    """What the camera does not see, and what stands by hand instead (one per game)."""

    unseen_since: dict[str, float] = field(default_factory=dict)
    """When each on-table model was last lost from sight (unit id to seconds); a model the
    camera sees now has no entry."""
    poses: dict[str, PieceSeen] = field(default_factory=dict)
    """Models placed by hand, by unit id (each ``by_hand``)."""
    terrain: dict[str, PieceSeen] = field(default_factory=dict)
    """Tagged terrain taken as set out where the scenario puts it, by terrain id."""
    terrain_names: dict[str, str] = field(default_factory=dict)
    """The scenario's tagged terrain: id to name (as ``Observation.missing_terrain`` has it)."""
    terrain_unseen_since: dict[str, float] = field(default_factory=dict)
    """When each tagged terrain piece was lost from sight, by terrain id."""
    offered: frozenset[str] = frozenset()
    """Unit ids unseen for at least ``OFFER_AFTER_S`` and not placed by hand."""
    terrain_offered: frozenset[str] = frozenset()
    """Terrain ids unseen for at least ``OFFER_AFTER_S`` and not taken as set out."""
    version: int = 0
    """Grows whenever ``offered`` or the pieces placed by hand change (the page is redrawn)."""

    def watch(self, obs: Observation, state: GameState) -> list[str]:
        """Take in which models one frame shows; returns the ids seen again after standing by
        hand (their by-hand mark is dropped)."""
        back = []
        for unit in state.units:
            seen = obs.pieces.get(unit.id)
            if not unit.on_table:
                self.unseen_since.pop(unit.id, None)
                if self.poses.pop(unit.id, None) is not None:
                    self.version += 1
            elif seen is not None and seen.visible:
                self.unseen_since.pop(unit.id, None)
                if self.poses.pop(unit.id, None) is not None:
                    back.append(unit.id)
                    self.version += 1
            else:
                self.unseen_since.setdefault(unit.id, obs.t)
        for terrain_id, name in self.terrain_names.items():
            if name not in obs.missing_terrain:
                self.terrain_unseen_since.pop(terrain_id, None)
                if self.terrain.pop(terrain_id, None) is not None:
                    self.version += 1
            else:
                self.terrain_unseen_since.setdefault(terrain_id, obs.t)
        offered = _long_unseen(self.unseen_since, obs.t, self.poses)
        terrain_offered = _long_unseen(self.terrain_unseen_since, obs.t, self.terrain)
        if (offered, terrain_offered) != (self.offered, self.terrain_offered):
            self.offered, self.terrain_offered = offered, terrain_offered
            self.version += 1
        return back

    def unseen_for(self, unit_id: str, now: float) -> float:
        """How long the model has been out of sight at ``now``, seconds (0 when seen)."""
        since = self.unseen_since.get(unit_id)
        return 0.0 if since is None else max(0.0, now - since)

    def place(self, unit_id: str, x_in: float, y_in: float, heading_deg: float) -> None:
        """The player placed the model by hand at (x, y) facing ``heading_deg``."""
        self.poses[unit_id] = PieceSeen(x_in, y_in, heading_deg % 360.0, by_hand=True)
        self.offered = self.offered - {unit_id}
        self.version += 1

    def take_as_set_out(self, terrain_id: str, x_in: float, y_in: float) -> None:
        """Tagged terrain the camera cannot find stands where the scenario puts it."""
        self.terrain[terrain_id] = PieceSeen(x_in, y_in, 0.0, by_hand=True)
        self.terrain_offered = self.terrain_offered - {terrain_id}
        self.version += 1

    def overlay(self, obs: Observation) -> Observation:
        """The frame with every piece placed by hand standing where it was placed (a piece
        the camera sees is never overridden)."""
        if not self.poses and not self.terrain:
            return obs
        pieces = dict(obs.pieces)
        for uid, pose in self.poses.items():
            seen = pieces.get(uid)
            if seen is None or not seen.visible:
                pieces[uid] = pose
        terrain = dict(obs.terrain)
        found = set()
        for tid, pose in self.terrain.items():
            if tid not in terrain or not terrain[tid].visible:
                terrain[tid] = pose
                found.add(self.terrain_names.get(tid, tid))
        missing = tuple(name for name in obs.missing_terrain if name not in found)
        return replace(obs, pieces=pieces, terrain=terrain, missing_terrain=missing)

    def follow(self, state: GameState) -> None:
        """After a step: each model by hand stands where the game has it (off the table: no
        longer by hand)."""
        for uid in list(self.poses):
            unit = state.unit(uid) if state.has_unit(uid) else None
            if unit is None or not unit.on_table:
                del self.poses[uid]
                self.version += 1
                continue
            pose = PieceSeen(unit.x, unit.y, unit.heading_deg, by_hand=True)
            if pose != self.poses[uid]:
                self.poses[uid] = pose
                self.version += 1


def _long_unseen(
    since: dict[str, float], now: float, standing: dict[str, PieceSeen]
) -> frozenset[str]:
    """The ids unseen for at least ``OFFER_AFTER_S`` at ``now`` and not standing by hand."""
    return frozenset(
        key for key, t in since.items() if now - t >= OFFER_AFTER_S and key not in standing
    )
