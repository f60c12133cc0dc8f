"""The page's view of the live game (a ``BoardView`` for the hub), in inches and degrees."""

from __future__ import annotations

from assistant.live_hub import (
    AnnouncementView,
    BoardView,
    DeclareOption,
    OrderView,
    PoseView,
    PromptView,
    SideView,
    SightLineView,
    StatusView,
    TerrainView,
    UnitView,
)
from assistant.session.announce import cover_areas, order_instruction
from assistant.session.game import LiveGame, Stage
from engine.geometry import cover_between
from engine.model import GameState, Role, Unit
from engine.rulesets.narrative_board import card_of, gap_between, sight_between

#: How many announcements the page keeps.
LOG_LENGTH = 60


def _status(state: GameState, unit: Unit) -> str:
    if unit.status.value == "fallen":
        return "fallen"
    if not unit.on_table:
        return "off"
    return "routing" if state.is_routing(unit) else "active"


def unit_view(state: GameState, unit: Unit) -> UnitView:
    """One character card on the page."""
    card = card_of(unit)
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
        status=_status(state, unit),  # type: ignore[arg-type]
        activated=unit.activated,
        carrying=unit.carrying,
        ranges_in=(card.shoot_range_in,) if card.shoot_range_in else (),
        front_arc_deg=180.0,
    )


def sight_lines(state: GameState, unit: Unit) -> tuple[SightLineView, ...]:
    """Lines of sight from one character to every enemy, with range and cover."""
    areas = cover_areas(state)
    out = []
    for enemy in state.enemies_of(unit):
        sight = sight_between(state, unit, enemy)
        cover, giver = cover_between(unit.position, enemy.position, enemy.radius_in, areas)
        note = "blocked by " + ", ".join(sight.blocked_by) if sight.blocked_by else ""
        if giver:
            note = (note + "; " if note else "") + f"cover from {giver}"
        out.append(
            SightLineView(
                from_id=unit.id,
                to_id=enemy.id,
                clear=sight.centre_clear,
                cover=cover.value,
                range_in=round(gap_between(unit, enemy), 2),
                note=note,
            )
        )
    return tuple(out)


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
    order = None
    focus: Unit | None = None
    if game.order is not None and game.expected is not None:
        exp = game.expected
        focus = state.unit(exp.unit_id)
        order = OrderView(
            unit_id=exp.unit_id,
            text=order_instruction(state, game.order),
            ghost=None if exp.off_table else PoseView(exp.x_in, exp.y_in, exp.heading_deg),
            path_in=tuple(game.order.action.path),
            target_id=game.order.action.target_id,
            reason=game.order.reason,
        )
    prompt = None
    pending = game.ruleset.pending(state)
    if game.stage is Stage.DICE:
        prompt = PromptView(
            kind="dice", text=game.announcements[-1].text if game.announcements else "Roll a die"
        )
    elif game.stage is Stage.HUMAN:
        candidates = [state.unit(u) for u in pending.candidates]
        enemies = tuple(e.id for e in state.units if e.on_table and e.side != pending.side)
        options = [DeclareOption("done"), DeclareOption("melee", enemies), DeclareOption("pass")]
        if any(card_of(u).shoot_range_in for u in candidates):
            options.insert(0, DeclareOption("shoot", enemies))
        moved = game.human_move_unit
        prompt = PromptView(
            kind="declare",
            text="Move one character, then declare its action.",
            options=tuple(options),
            unit_id=moved,
        )
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
        turn=pending.side,
        title=scenario.scenario.title or scenario.scenario.name,
        sides=tuple(
            SideView(s.name, s.name, "ai" if s.role is Role.AI else "player") for s in state.sides
        ),
        terrain=tuple(
            TerrainView(t.name, t.kind, t.cover, tuple(t.polygon)) for t in state.terrain
        ),
        units=tuple(unit_view(state, u) for u in state.units),
        order=order,
        sight_lines=sight_lines(state, focus) if focus is not None and focus.on_table else (),
        announcements=tuple(
            AnnouncementView(round(a.t, 2), a.text) for a in game.announcements[-LOG_LENGTH:]
        ),
        prompt=prompt,
        statuses=tuple(StatusView(s) for s in statuses),
        outcome=outcome_text(state),
    )
