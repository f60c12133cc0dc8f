"""The page's view of the live game (a ``BoardView`` for the hub), in inches and degrees."""

from __future__ import annotations

from assistant.live_view import (
    AnnouncementView,
    BoardView,
    CheckView,
    DeclareOption,
    PromptView,
    ResourceView,
    SideView,
    StatusView,
    TerrainView,
    UnitView,
)
from assistant.session.by_hand import HandPlacements
from assistant.session.dice import QueuedDice
from assistant.session.game import LiveGame, Stage
from assistant.tables.base import TableAdapter
from engine.model import GameState, Role, Unit
from engine.protocols import PendingKind

#: How many announcements the page keeps.
LOG_LENGTH = 60


def unit_view(
    adapter: TableAdapter,
    state: GameState,
    unit: Unit,
    placements: HandPlacements | None = None,
) -> UnitView:
    """One unit's card and piece on the page (what the card shows is the adapter's; whether
    it stands by hand, or is offered to be placed by hand, is ``placements``')."""
    card = adapter.unit_card(state, unit)
    by_hand = placements is not None and unit.id in placements.poses
    offered = placements is not None and unit.id in placements.offered
    return UnitView(
        id=unit.id,
        name=unit.name,
        side=unit.side,
        x_in=round(unit.x, 3),
        y_in=round(unit.y, 3),
        heading_deg=round(unit.heading_deg, 2),
        base_diameter_in=unit.base_diameter_in,
        wounds=unit.wounds,
        wound_slots=card.wound_slots,
        status=card.status,
        activated=unit.activated,
        ranges_in=card.ranges_in,
        front_arc_deg=card.front_arc_deg,
        statuses=card.statuses,
        resources=tuple(ResourceView(v.label, v.value) for v in card.values),
        placed_by_hand=by_hand,
        place_offered=offered and unit.on_table,
    )


def checklist(game: LiveGame) -> tuple[CheckView, ...]:
    """The set-up checklist while setting up (every piece, how it stands); empty after."""
    if game.stage is not Stage.SETUP:
        return ()
    return tuple(
        CheckView(c.name, c.state, c.text, c.unit_id, c.offered) for c in game.setup_watch.checks
    )


def outcome_text(state: GameState) -> str | None:
    """How the battle ended, for the page ("Goblins win after 7 rounds: ..."); None before."""
    if state.winner is None:
        return None
    who = "A draw" if state.winner == "draw" else f"{state.winner} win"
    rounds = f"{state.round} round{'' if state.round == 1 else 's'}"
    return f"{who} after {rounds}: {state.end_reason}."


def build_view(game: LiveGame, statuses: tuple[str, ...] = ()) -> BoardView:
    """Everything the page shows for the game as it stands."""
    state = game.state
    scenario = game.scenario
    adapter = game.adapter
    order = None
    focus: Unit | None = None
    if game.order is not None and game.expected is not None:
        focus = state.unit(game.expected.unit_id)
        order = adapter.order_view(state, game.order, game.expected)
    prompt = None
    turn = adapter.turn(state, game.ruleset)
    if game.stage is Stage.DICE and isinstance(game.dice, QueuedDice) and game.dice.wants_card:
        prompt = PromptView(
            kind="card",
            text=game.announcements[-1].text if game.announcements else "Draw a card",
            purpose=game.dice.wants_card,
        )
    elif game.stage is Stage.DICE:
        prompt = PromptView(
            kind="dice", text=game.announcements[-1].text if game.announcements else "Roll a die"
        )
    elif game.stage is Stage.HUMAN:
        moved = game.human_move_unit
        pending = game.ruleset.pending(state)
        if pending.kind is PendingKind.CHOICE:  # the player picks one of the named options
            text = f"Choose: {pending.purpose}." if pending.purpose else "Choose one."
            options = tuple(DeclareOption(o) for o in pending.options)
        else:
            text = adapter.declare_prompt(state, turn)
            found = adapter.declarations(state, turn, moved)
            options = tuple(DeclareOption(o.action, o.targets) for o in found)
        prompt = PromptView(kind="declare", text=text, options=options, unit_id=moved)
        if moved:
            focus = state.unit(moved)
    elif game.stage is Stage.AI_ORDER and game.expected is not None and game.expected.moves:
        prompt = PromptView(
            kind="confirm",
            text="Confirm when the model is in place.",
            unit_id=game.expected.unit_id,
        )
    return BoardView(
        table_width_in=state.table.width_in,
        table_depth_in=state.table.depth_in,
        round=state.round,
        turn=turn.side,
        title=scenario.scenario.title or scenario.scenario.name,
        sides=tuple(
            SideView(
                s.name,
                s.name,
                "ai" if s.role is Role.AI else "player",
                tuple(ResourceView(v.label, v.value) for v in adapter.side_values(state, s.name)),
            )
            for s in state.sides
        ),
        terrain=tuple(
            TerrainView(t.name, t.kind, t.cover, tuple(t.polygon)) for t in state.terrain
        ),
        units=tuple(unit_view(adapter, state, u, game.placements) for u in state.units),
        order=order,
        sight_lines=adapter.sight_lines(state, focus)
        if focus is not None and focus.on_table
        else (),
        announcements=tuple(
            AnnouncementView(round(a.t, 2), a.text) for a in game.announcements[-LOG_LENGTH:]
        ),
        prompt=prompt,
        statuses=tuple(StatusView(s) for s in statuses),
        outcome=outcome_text(state),
        grid=adapter.grid_view(state),
        checklist=checklist(game),
        compass=adapter.compass_facings,
    )
