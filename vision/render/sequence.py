"""Scripted clips: a hand enters, lifts, carries and places pieces; pieces fall; the camera is bumped.

A script is a tuple of actions run one after another. Positions are table inches, headings
degrees clockwise from +y, heights millimetres, durations seconds (None: a natural duration
from the distance moved). :func:`moves_script` turns a list of game moves and removals into a
script, which is how a whole battle becomes footage.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterable, Iterator
from collections.abc import Sequence as Listed
from dataclasses import dataclass, field, replace

from vision.render.camera import MM_PER_INCH, Camera
from vision.render.dice import PlacedDie
from vision.render.dice_footage import ClearDice, ShowDice, TrayPainter
from vision.render.effects import Effects
from vision.render.faults import NO_FAULTS, CameraFaults
from vision.render.frame import FrameTruth
from vision.render.hand import HandPose
from vision.render.pipeline import FramePipeline, Instant, Picture, PostProcess
from vision.render.scene import PlacedPiece, Scene
from vision.types import Frame

HAND_SPEED_MM_S = 450.0
"""Speed of a hand moving over the table, millimetres per second."""
CARRY_HEIGHT_MM = 150.0
"""Palm height while moving over the table."""
GRASP_CLEARANCE_MM = 28.0
"""Palm height above a figure's top when taking or leaving it."""
OFF_TABLE_Y_IN = -16.0
"""Where the hand rests between actions: out of view in front of the player's edge."""


@dataclass(frozen=True)
class Wait:
    """Nothing happens for ``seconds`` (the board stays as it is)."""

    seconds: float


@dataclass(frozen=True)
class HandTo:
    """Move the hand to above (x_in, y_in); it enters from the player's side if not in view."""

    x_in: float
    y_in: float
    seconds: float | None = None
    height_mm: float = CARRY_HEIGHT_MM


@dataclass(frozen=True)
class Hover:
    """Pass the hand along a path over the table without touching anything."""

    path_in: tuple[tuple[float, float], ...]
    seconds: float | None = None
    height_mm: float = 110.0


@dataclass(frozen=True)
class Lift:
    """Reach down over ``piece`` and take it into the hand (it leaves the table)."""

    piece: str
    seconds: float = 0.8


@dataclass(frozen=True)
class Carry:
    """Move the hand (with whatever it holds) along a path of table points."""

    path_in: tuple[tuple[float, float], ...]
    seconds: float | None = None


@dataclass(frozen=True)
class Place:
    """Put the held piece down at (x_in, y_in) facing ``heading_deg``."""

    x_in: float
    y_in: float
    heading_deg: float
    seconds: float | None = None


@dataclass(frozen=True)
class Fetch:
    """The hand takes ``piece`` from beside the table (out of view) and brings it over the
    table at (x_in, y_in), holding it (a figure brought on by an event; :class:`Place` sets it
    down)."""

    piece: PlacedPiece
    x_in: float
    y_in: float


@dataclass(frozen=True)
class HandLeave:
    """Take the hand (and anything it holds) off the table, out of view."""

    seconds: float | None = None


@dataclass(frozen=True)
class Remove:
    """Take ``piece`` off the table at once, with no hand (a fallen model, a cut)."""

    piece: str


@dataclass(frozen=True)
class NudgeCamera:
    """Bump the camera by (dx, dy) millimetres and ``dyaw_deg`` over ``seconds``."""

    dx_mm: float = 3.0
    dy_mm: float = 0.0
    dyaw_deg: float = 0.3
    seconds: float = 0.2


Action = (
    Wait
    | HandTo
    | Hover
    | Lift
    | Carry
    | Fetch
    | Place
    | HandLeave
    | Remove
    | NudgeCamera
    | ShowDice
    | ClearDice
)


@dataclass(frozen=True)
class PieceMove:
    """A game move: ``piece`` goes to (x_in, y_in) facing ``heading_deg`` (optionally by way
    of ``via_in`` points)."""

    piece: str
    x_in: float
    y_in: float
    heading_deg: float
    via_in: tuple[tuple[float, float], ...] = ()
    entering: PlacedPiece | None = None
    """The piece's model when it comes onto the table from beside it (not on it before)."""


@dataclass(frozen=True)
class PieceRemoval:
    """A casualty taken off the table by the player's hand."""

    piece: str


def moves_script(
    moves: Iterable[PieceMove | PieceRemoval],
    settle_s: float = 1.0,
    start_s: float = 1.0,
    rests: Listed[float] | None = None,
) -> tuple[Action, ...]:
    """The script for a list of moves and removals, each carried out by the hand.

    Every move: the hand enters, lifts the piece, carries it (by ``via_in``), places it, leaves,
    then the board rests ``settle_s`` seconds (``rests[i]`` after the i-th move when given). A
    removal lifts the piece and leaves with it. A piece coming onto the table is fetched from
    beside it (:class:`Fetch`).
    """
    script: list[Action] = [Wait(start_s)]
    for n, m in enumerate(moves):
        if isinstance(m, PieceMove) and m.entering is not None:
            script.append(Fetch(m.entering, m.x_in, m.y_in))
        else:
            script.append(Lift(m.piece))
        if isinstance(m, PieceMove):
            if m.via_in:
                script.append(Carry(tuple(m.via_in)))
            script.append(Place(m.x_in, m.y_in, m.heading_deg))
        script.append(HandLeave())
        script.append(Wait(settle_s if rests is None else rests[n]))
    return tuple(script)


@dataclass(frozen=True)
class SequenceState:
    """Everything needed to draw one instant of a clip."""

    scene: Scene
    camera: Camera
    hand: HandPose | None
    off_table: tuple[PlacedPiece, ...]
    moving: bool
    """The camera is being bumped."""
    dice: tuple[PlacedDie, ...] = ()
    """The dice lying in the scene's tray."""


@dataclass(frozen=True)
class _Segment:
    t0: float
    t1: float
    scene: Scene
    off_table: tuple[PlacedPiece, ...]
    hand_from: HandPose | None
    hand_to: HandPose | None
    camera_from: Camera
    camera_to: Camera
    dice: tuple[PlacedDie, ...] = ()


@dataclass
class _World:
    scene: Scene
    camera: Camera
    hand: HandPose | None = None
    held: str | None = None
    off_table: dict[str, PlacedPiece] = field(default_factory=dict)
    t: float = 0.0
    dice: tuple[PlacedDie, ...] = ()


class Sequence:
    """A compiled script: the state of the table, hand and camera at any time.

    Raises ``ValueError`` naming the action when the script is impossible (lifting a piece
    that is not on the table, placing with an empty hand, ...).
    """

    def __init__(self, scene: Scene, camera: Camera, script: Iterable[Action]) -> None:
        self.initial_scene = scene
        self.initial_camera = camera
        self.script = tuple(script)
        self.segments: list[_Segment] = []
        self._ends: list[float] | None = None
        w = _World(scene=scene, camera=camera)
        for i, action in enumerate(self.script):
            try:
                self._compile(w, action)
            except (KeyError, ValueError) as exc:
                raise ValueError(f"script action {i} ({action!r}): {exc}") from exc
        self.final_scene = w.scene
        self.duration_s = w.t

    def state_at(self, t: float) -> SequenceState:
        """The state at ``t`` seconds from the start (clamped to the clip)."""
        seg = self._segment_at(t)
        if seg is None:
            return SequenceState(self.initial_scene, self.initial_camera, None, (), False)
        span = max(seg.t1 - seg.t0, 1e-9)
        u = _ease(min(max((t - seg.t0) / span, 0.0), 1.0))
        hand = _lerp_hand(seg.hand_from, seg.hand_to, u)
        moving = seg.camera_from != seg.camera_to
        camera = _lerp_camera(seg.camera_from, seg.camera_to, u) if moving else seg.camera_from
        return SequenceState(
            seg.scene, camera, hand, seg.off_table, moving and 0.0 < u < 1.0, seg.dice
        )

    def n_frames(self, fps: float) -> int:
        """Frames in the clip at ``fps`` frames per second."""
        return math.floor(self.duration_s * fps + 1e-9) + 1

    def _segment_at(self, t: float) -> _Segment | None:
        if not self.segments:
            return None
        if self._ends is None or len(self._ends) != len(self.segments):
            self._ends = [seg.t1 for seg in self.segments]
        i = bisect.bisect_right(self._ends, t)
        return self.segments[min(i, len(self.segments) - 1)]

    # -- compilation -------------------------------------------------------------------------

    def _push(self, w: _World, seconds: float, hand_to: HandPose | None, camera_to: Camera) -> None:
        seconds = max(float(seconds), 1e-3)
        self.segments.append(
            _Segment(
                w.t,
                w.t + seconds,
                w.scene,
                tuple(w.off_table.values()),
                w.hand,
                hand_to,
                w.camera,
                camera_to,
                w.dice,
            )
        )
        w.t += seconds
        w.hand = hand_to
        w.camera = camera_to

    def _move_hand(
        self, w: _World, x_in: float, y_in: float, height_mm: float, seconds: float | None
    ) -> None:
        holding = w.held is not None
        if w.hand is None:
            w.hand = _off_table(x_in, holding)
        target = HandPose(x_in, y_in, height_mm, 0.0, holding)
        self._push(w, seconds or _travel_s(w.hand, target), target, w.camera)

    def _compile(self, w: _World, action: Action) -> None:
        if isinstance(action, Wait):
            if action.seconds < 0:
                raise ValueError("a wait cannot be negative")
            self._push(w, action.seconds, w.hand, w.camera)
        elif isinstance(action, HandTo):
            self._move_hand(w, action.x_in, action.y_in, action.height_mm, action.seconds)
        elif isinstance(action, Hover):
            if w.held is not None:
                raise ValueError("hover with a piece in hand; use Carry")
            self._path(w, action.path_in, action.height_mm, action.seconds)
        elif isinstance(action, Carry):
            if w.held is None:
                raise ValueError("nothing in hand to carry")
            self._path(w, action.path_in, CARRY_HEIGHT_MM, action.seconds)
        elif isinstance(action, Lift):
            self._lift(w, action)
        elif isinstance(action, Fetch):
            if w.held is not None:
                raise ValueError(f"the hand already holds {w.held!r}")
            if any(p.name == action.piece.name for p in w.scene.pieces):
                raise ValueError(f"{action.piece.name!r} is on the table already")
            if w.hand is not None:
                raise ValueError("the hand is over the table; it fetches a piece from beside it")
            w.off_table[action.piece.name] = action.piece
            w.held = action.piece.name
            self._move_hand(w, action.x_in, action.y_in, CARRY_HEIGHT_MM, None)
        elif isinstance(action, Place):
            self._place(w, action)
        elif isinstance(action, HandLeave):
            if w.hand is not None:
                away = _off_table(w.hand.x_in, w.held is not None)
                self._push(w, action.seconds or _travel_s(w.hand, away), away, w.camera)
                w.hand = None
            if w.held is not None:
                w.held = None  # the piece left the table with the hand: stays off_table
        elif isinstance(action, Remove):
            piece = w.scene.piece(action.piece)
            w.scene = w.scene.without_piece(action.piece)
            w.off_table[piece.name] = piece
        elif isinstance(action, ShowDice):
            if w.scene.tray is None:
                raise ValueError("dice shown but the scene has no tray")
            w.dice = tuple(action.dice)
            self._push(w, action.seconds, w.hand, w.camera)
        elif isinstance(action, ClearDice):
            w.dice = ()
            self._push(w, action.seconds, w.hand, w.camera)
        elif isinstance(action, NudgeCamera):
            self._push(
                w,
                action.seconds,
                w.hand,
                w.camera.nudged(action.dx_mm, action.dy_mm, action.dyaw_deg),
            )
        else:  # pragma: no cover - the Action union is closed
            raise ValueError(f"unknown action {action!r}")

    def _path(
        self,
        w: _World,
        path_in: tuple[tuple[float, float], ...],
        height_mm: float,
        seconds: float | None,
    ) -> None:
        if not path_in:
            raise ValueError("an empty path")
        start = w.hand or _off_table(path_in[0][0], w.held is not None)
        points = [(start.x_in, start.y_in), *path_in]
        lengths = [math.dist(a, b) * MM_PER_INCH for a, b in itertools.pairwise(points)]
        total = sum(lengths) or 1.0
        budget = seconds if seconds is not None else None
        for (x, y), length in zip(path_in, lengths, strict=True):
            part = None if budget is None else budget * length / total
            self._move_hand(w, x, y, height_mm, part)

    def _grasp_height(self, piece: PlacedPiece) -> float:
        top = piece.base_height_mm + (piece.figure.height_mm if piece.figure else 0.0)
        return top + GRASP_CLEARANCE_MM

    def _lift(self, w: _World, action: Lift) -> None:
        if w.held is not None:
            raise ValueError(f"the hand already holds {w.held!r}")
        piece = w.scene.piece(action.piece)
        self._move_hand(w, piece.x_in, piece.y_in, CARRY_HEIGHT_MM, None)
        half = action.seconds / 2.0
        low = HandPose(piece.x_in, piece.y_in, self._grasp_height(piece), 0.0, False)
        self._push(w, half, low, w.camera)
        w.scene = w.scene.without_piece(piece.name)
        w.off_table[piece.name] = piece
        w.held = piece.name
        w.hand = replace(low, holding=True)
        up = replace(w.hand, height_mm=CARRY_HEIGHT_MM)
        self._push(w, half, up, w.camera)

    def _place(self, w: _World, action: Place) -> None:
        if w.held is None:
            raise ValueError("nothing in hand to place")
        piece = w.off_table[w.held]
        self._move_hand(w, action.x_in, action.y_in, CARRY_HEIGHT_MM, action.seconds)
        low = HandPose(action.x_in, action.y_in, self._grasp_height(piece), 0.0, True)
        self._push(w, 0.4, low, w.camera)
        placed = replace(piece, x_in=action.x_in, y_in=action.y_in, heading_deg=action.heading_deg)
        del w.off_table[piece.name]
        w.scene = replace(w.scene, pieces=(*w.scene.pieces, placed))
        w.held = None
        w.hand = replace(low, holding=False)
        self._push(w, 0.4, replace(w.hand, height_mm=CARRY_HEIGHT_MM), w.camera)


def render_sequence(
    scene: Scene,
    camera: Camera,
    script: Iterable[Action] | Sequence,
    fps: float = 30.0,
    *,
    effects: Effects | None = None,
    seed: int = 0,
    dictionary: str = "DICT_4X4_50",
    post: tuple[PostProcess, ...] | None = None,
    faults: CameraFaults | None = None,
) -> Iterator[tuple[Frame, FrameTruth]]:
    """Render a script frame by frame: yields (Frame, FrameTruth) at ``fps``, in memory.

    Frames are made by :class:`~vision.render.pipeline.FramePipeline`: the board is drawn
    once per board state, the hand per frame in the region it covers, and a frame that shows
    the same as the one before repeats its image (do not modify the images yielded). A scene
    with a ``tray`` has it drawn beside the table, with the dice the script shows in it
    (:class:`ShowDice`). ``post`` replaces the per-frame post-processing (default: the
    link's JPEG when ``effects`` asks for it); ``seed`` seeds the sensor noise. ``faults``
    adds webcam faults (:mod:`vision.render.faults`): a script given as a :class:`Sequence`
    must then be made with ``faults.camera(camera)``.
    """
    pictures = sequence_pictures(
        scene,
        camera,
        script,
        fps,
        effects=effects,
        seed=seed,
        dictionary=dictionary,
        post=post,
        faults=faults,
    )
    for index, t, picture, truth in pictures:
        yield Frame(index=index, t=t, image=picture.image()), truth


def sequence_pictures(
    scene: Scene,
    camera: Camera,
    script: Iterable[Action] | Sequence,
    fps: float = 30.0,
    *,
    effects: Effects | None = None,
    seed: int = 0,
    dictionary: str = "DICT_4X4_50",
    post: tuple[PostProcess, ...] | None = None,
    faults: CameraFaults | None = None,
) -> Iterator[tuple[int, float, Picture, FrameTruth]]:
    """Like :func:`render_sequence`, each frame as (index, t, picture, truth): the picture a
    layer's image and the region the frame drew over it (what a video writer that keeps a
    frame of its own pastes, :func:`vision.render.clip.write_pictures`)."""
    faults = NO_FAULTS if faults is None else faults
    if isinstance(script, Sequence):
        seq = script
        if faults.camera(seq.initial_camera) != seq.initial_camera:
            raise ValueError("a script with camera faults must be made with faults.camera(camera)")
    else:
        seq = Sequence(scene, faults.camera(camera), script)
    if faults:
        effects = faults.effects(Effects() if effects is None else effects)
        post = faults.post(effects, seed) if post is None else post
    tray = seq.initial_scene.tray
    pipeline = FramePipeline(
        seq.initial_scene.table,
        effects=effects,
        seed=seed,
        dictionary=dictionary,
        tray_painter=TrayPainter(tray) if tray is not None else None,
        post=post,
        shadow=faults.shadow(),
    )
    for i in range(seq.n_frames(fps)):
        t = i / fps
        st = seq.state_at(t)
        now = Instant(st.scene, st.camera, st.hand, st.off_table, st.dice, st.moving)
        picture, truth = pipeline.picture(now, i, t)
        yield i, t, picture, truth


def _off_table(x_in: float, holding: bool) -> HandPose:
    return HandPose(x_in, OFF_TABLE_Y_IN, 220.0, 0.0, holding)


def _travel_s(a: HandPose, b: HandPose) -> float:
    d = math.hypot((a.x_in - b.x_in) * MM_PER_INCH, (a.y_in - b.y_in) * MM_PER_INCH)
    d = math.hypot(d, a.height_mm - b.height_mm)
    return max(0.3, d / HAND_SPEED_MM_S)


def _ease(u: float) -> float:
    return u * u * (3.0 - 2.0 * u)


def _lerp_hand(a: HandPose | None, b: HandPose | None, u: float) -> HandPose | None:
    if a is None or b is None:
        return b if u >= 1.0 else a
    return HandPose(
        a.x_in + (b.x_in - a.x_in) * u,
        a.y_in + (b.y_in - a.y_in) * u,
        a.height_mm + (b.height_mm - a.height_mm) * u,
        a.heading_deg + (b.heading_deg - a.heading_deg) * u,
        b.holding if u >= 0.5 else a.holding,
    )


def _lerp_camera(a: Camera, b: Camera, u: float) -> Camera:
    pos = tuple(pa + (pb - pa) * u for pa, pb in zip(a.position_mm, b.position_mm, strict=True))
    return replace(
        a,
        position_mm=pos,  # type: ignore[arg-type]
        yaw_deg=a.yaw_deg + (b.yaw_deg - a.yaw_deg) * u,
    )
