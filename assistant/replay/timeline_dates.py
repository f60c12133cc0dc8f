"""When a tag seen at a new place was lifted and set down: from its sightings between two
settled boards and, when there is a picture, from where the hand stopped over the piece."""

from __future__ import annotations

import math
from dataclasses import dataclass

from assistant.replay.presence import move_times, ordered
from assistant.replay.records import SettledState, TagRest, TimelineSettings
from assistant.replay.span_view import SpanView


@dataclass(frozen=True)
class Sighting:
    """One frame's reading of a tag: seen (or only held), where and facing which way."""

    t: float
    seen: bool
    x_in: float
    y_in: float
    heading_deg: float


def angle_diff_deg(a_deg: float, b_deg: float) -> float:
    """Absolute difference of two headings in degrees, in [0, 180]."""
    d = (a_deg - b_deg) % 360.0
    return min(d, 360.0 - d)


def dated_move(
    sightings: list[Sighting],
    settings: TimelineSettings,
    before: TagRest,
    after: TagRest,
    prev: SettledState,
    state: SettledState,
    span: SpanView | None,
    radius_mm: float,
    centre_from: tuple[float, float],
    centre_to: tuple[float, float],
) -> tuple[float, float]:
    """Lift and set-down times (seconds) of a tag seen at its new place (``after``; it stood
    at ``before``): from the hand's path over the piece's centres when there is a picture
    (``span``), else from the tag's ``sightings``. ``radius_mm``: the piece's base."""
    s = settings
    # 'Near' a rest: when neither the shift nor the turn tells the old and the new pose
    # apart at the usual tolerances, the one that differs most is narrowed to half of it.
    moved = math.dist((before.x_in, before.y_in), (after.x_in, after.y_in))
    turned = angle_diff_deg(before.heading_deg, after.heading_deg)
    near_in, near_deg = s.near_in, s.near_deg
    if moved < 2 * near_in and turned < 2 * near_deg:
        if moved / near_in >= turned / near_deg:
            near_in = max(moved / 2, 0.02)
        else:
            near_deg = max(turned / 2, 0.5)

    def near(o: Sighting, rest: TagRest) -> bool:
        return (
            o.seen
            and math.dist((o.x_in, o.y_in), (rest.x_in, rest.y_in)) <= near_in
            and angle_diff_deg(o.heading_deg, rest.heading_deg) <= near_deg
        )

    obs = [o for o in sightings if o.t <= state.t_until]
    # Set down: the first sighting at the new place after which it is seen nowhere else.
    i_end = len(obs) - 1
    for i in range(len(obs) - 1, -1, -1):
        if not obs[i].seen:
            continue
        if near(obs[i], after):
            i_end = i
        else:
            break
    t_back = obs[i_end].t if obs else state.t
    if obs and i_end > 0 and not obs[i_end - 1].seen:
        t_back -= s.confirm_lag_s
    # Lifted: the first moment after the last sighting at the old place.
    t_gone = prev.t_until
    for i in range(i_end - 1, -1, -1):
        if near(obs[i], before):
            t_gone = obs[i + 1].t if i + 1 < len(obs) else obs[i].t
            break
    t_gone = min(t_gone, t_back)
    reach = min(s.reach_cap_s, s.reach_share * (t_back - t_gone))
    t_start, t_end = t_gone + reach, t_back - reach
    if span is not None:
        t_start, t_end = move_times(
            span,
            centre_from,
            centre_to,
            radius_mm,
            s,
            (t_start, t_end),
            t_gone - 0.25,
        )
        t_start, t_end = max(t_start, t_gone), min(t_end, t_back)
    return ordered(t_start, t_end)
