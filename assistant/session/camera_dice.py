"""Dice rolled into the tray and read by the camera (``soloscope play --dice camera``).

When the game needs a roll it says what to roll ("Roll one die into the tray for the attack").
Every frame, :class:`CameraDice` watches the tray: once it has settled (no change for a moment)
it reads the dice. The right number of readable dice: it says the values ("a four"; "two sixes
and a one"), shows them on the page over the tray picture and waits for the done (or confirm)
button tag; the player can instead type the right value on the page. A wrong count or a die it
cannot read is said plainly ("I see 2 dice; roll just 1."; "I see 1 die, but it is cocked near
the top wall: re-roll it.") and it waits for the tray to change. Confirmed values enter the game
through the physical dice path (:class:`assistant.session.dice.QueuedDice`), logged like any roll.

Only six-sided dice are read; any other die is asked for on the page as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from assistant.live_commands import Command
from assistant.session.dice import NeedRoll
from assistant.session.game import LiveGame, Stage
from assistant.session.observation import Observation
from calibration.errors import CalibrationError
from calibration.profile import TableProfile
from vision.dice import DiceRead, DiceView, DieUnread, Unreadable, find_tray, read_dice, tray_view
from vision.types import Frame

Image = npt.NDArray[np.uint8]

SETTLE_S = 0.6
"""The tray must not change for this long (seconds of the source) before the dice are read."""
SETTLE_FRAMES = 3
"""...and for at least this many frames."""
CHANGE_LEVEL = 6.0
"""A pixel of the small tray picture changed when its grey level moved by more than this."""
CHANGE_SHARE = 0.004
"""The tray changed when more than this share of its small picture's pixels did."""
WALL_MM = 30.0
"""A die this close to a side of the tray is "near" that wall."""
CONFIRM_BUTTONS = ("done", "confirm")

_NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_PLURAL = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}
_COUNT = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def values_words(values: list[int] | tuple[int, ...]) -> str:
    """The values as a player says them: "a four"; "four sixes, two fives and a one"."""
    parts = []
    for value in sorted(set(values), reverse=True):
        n = sum(1 for v in values if v == value)
        if n == 1:
            parts.append(f"a {_NUMBER[value]}" if value != 1 else "a one")
        else:
            parts.append(f"{_COUNT.get(n, str(n))} {_PLURAL[value]}")
    if not parts:
        return "no dice"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def dice_words(n: int) -> str:
    """ "1 die", "3 dice"."""
    return f"{n} die" if n == 1 else f"{n} dice"


def where_in_tray(die: DieUnread, tray_mm: tuple[float, float] | None) -> str:
    """Where a die lies in the tray, in the player's words ("near the top wall")."""
    if die.tray_mm is None or tray_mm is None:
        return "in the tray"
    x, y = die.tray_mm
    w, d = tray_mm
    side = []
    if y > d - WALL_MM:
        side.append("top")
    elif y < WALL_MM:
        side.append("bottom")
    if x < WALL_MM:
        side.append("left")
    elif x > w - WALL_MM:
        side.append("right")
    if len(side) == 2:
        return f"in the {side[0]}-{side[1]} corner"
    if side:
        return f"near the {side[0]} wall"
    return "in the middle of the tray"


_REASON = {
    Unreadable.COCKED: "is cocked",
    Unreadable.TOUCHING: "is pressed against another die",
    Unreadable.BLURRED: "is too blurred to count",
    Unreadable.UNCLEAR: "shows pips I cannot make out",
    Unreadable.EDGE: "is half off the tray",
    Unreadable.UNSURE: "shows a face I cannot read for sure",
}


def problem_words(reading: DiceRead, wanted: int) -> str | None:
    """What is wrong with a reading for a roll of ``wanted`` dice, or None when it will do."""
    seen = reading.count
    if reading.unreadable:
        first = reading.unreadable[0]
        what = _REASON.get(first.reason, "cannot be read")
        where = where_in_tray(first, reading.tray_mm)
        one = "one" if seen > 1 else "it"
        more = len(reading.unreadable) - 1
        extra = f" ({more} more cannot be read either)" if more else ""
        return (
            f"I see {dice_words(seen)}, but {one} {what} {where}: re-roll it.{extra}"
            if seen > 0
            else None
        )
    if seen == wanted:
        return None
    if seen == 0:
        return None
    if seen > wanted:
        return f"I see {dice_words(seen)}; roll just {dice_words(wanted)}."
    return f"I see {dice_words(seen)}; roll {dice_words(wanted)}."


class CameraDice:
    """Reads the rolls the game asks for from the tray (see the module docstring).

    ``view_for(image)`` gives the tray's view for a camera image, or raises ValueError when the
    tray cannot be found. ``read`` reads the dice (the real reader by default).
    """

    def __init__(
        self,
        game: LiveGame,
        view_for: Callable[[Image], DiceView],
        *,
        read: Callable[[Image, DiceView], DiceRead] = read_dice,
    ) -> None:
        self.game = game
        self.view_for = view_for
        self.read = read
        self.view: DiceView | None = None
        self.no_tray: str | None = None
        """Why the tray could not be found (then rolls are typed on the page)."""
        self.request: NeedRoll | None = None
        self.reading: DiceRead | None = None
        """A reading waiting for the player's confirmation."""
        self.last_reading: DiceRead | None = None
        self.last_image: Image | None = None
        self._small: Image | None = None
        self._still_since: float | None = None
        self._still_frames = 0
        self._need_change = False
        self._said: str | None = None
        self.reads = 0
        """How many times the tray was read (for tests and diagnosis)."""
        game.roll_prompt = self.prompt

    @property
    def wanted(self) -> int:
        """Dice the current request asks for."""
        return 1

    def prompt(self, need: NeedRoll) -> str:
        """What the game says when it needs a roll (the game's ``roll_prompt``)."""
        self.request = need
        self.reading = None
        self._said = None
        if need.sides != 6:
            return f"Roll a {need.sides}-sided die for {need.purpose}, and enter the result on the page."
        if self.no_tray is not None:
            return (
                f"Roll a die for {need.purpose}, and enter the result on the page ({self.no_tray})."
            )
        return f"Roll {dice_words(self.wanted)} into the tray for {need.purpose}."

    def _waiting(self) -> bool:
        need = self.request
        return (
            self.game.stage is Stage.DICE
            and need is not None
            and need.sides == 6
            and self.no_tray is None
        )

    def look(self, t: float, image: Image, buttons: tuple[str, ...]) -> tuple[str, ...]:
        """Watch one frame (``t`` seconds of the source); returns the button presses it did not
        use (a done press confirming a reading is used)."""
        if not self._waiting():
            self.reading = None
            return buttons
        if self.view is None:
            try:
                self.view = self.view_for(image)
            except ValueError as exc:
                self.no_tray = str(exc)
                self.game.announce(
                    f"I can't find the dice tray ({exc}). Enter the result on the page."
                )
                self.game.flush()
                return buttons
        changed = self._changed(t, image)
        if self.reading is not None:
            if changed:
                self.reading = None  # picked up again: read the new roll when it settles
            elif any(b in CONFIRM_BUTTONS for b in buttons):
                self._enter(self.reading)
                return tuple(b for b in buttons if b not in CONFIRM_BUTTONS)
            return buttons
        if self._need_change or not self._settled(t):
            return buttons
        reading = self.read(image, self.view)
        self.reads += 1
        self.last_reading, self.last_image = reading, image
        self._need_change = True  # read this roll once; the next read waits for a change
        problem = problem_words(reading, self.wanted)
        if problem is not None:
            self._say(problem)
            return buttons
        if reading.count != self.wanted:
            return buttons  # nothing rolled yet
        self.reading = reading
        self._say(
            f"I read {values_words(reading.values)}. Press done to use "
            f"{'it' if self.wanted == 1 else 'them'}, or enter the right value on the page."
        )
        return buttons

    def _say(self, text: str) -> None:
        if text != self._said:
            self._said = text
            self.game.announce(text)
            self.game.flush()

    def _enter(self, reading: DiceRead) -> None:
        values = list(reading.values)
        self.reading = None
        self.request = None
        self._said = None
        self.game.announce(f"Rolled {values_words(values)}.")
        for value in values:
            self.game.command(Command(kind="dice", value=value))

    def _changed(self, t: float, image: Image) -> bool:
        """Whether the tray changed since the last frame (dice moving, a hand)."""
        assert self.view is not None
        top = self.view.render(image)
        grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY) if top.ndim == 3 else top
        small = cv2.resize(grey, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
        prev, self._small = self._small, small
        if prev is None or prev.shape != small.shape:
            self._still_since, self._still_frames = t, 1
            return True
        moved = np.abs(small.astype(np.int16) - prev.astype(np.int16)) > CHANGE_LEVEL
        if float(moved.mean()) > CHANGE_SHARE:
            self._still_since, self._still_frames = t, 1
            self._need_change = False
            return True
        self._still_frames += 1
        return False

    def _settled(self, t: float) -> bool:
        since = self._still_since
        return since is not None and t - since >= SETTLE_S and self._still_frames >= SETTLE_FRAMES

    def picture(self) -> Image | None:
        """The tray as last read, with each value (or a cross for a die not read) drawn on it,
        for the page; None when nothing is being read."""
        if not self._waiting() or self.last_reading is None or self.last_image is None:
            return None
        image = self.last_image.copy()
        for d in self.last_reading.dice:
            at = (round(d.x_px), round(d.y_px))
            size = max(0.6, d.side_px / 30.0)
            cv2.putText(image, str(d.value), at, cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0), 4)
            cv2.putText(image, str(d.value), at, cv2.FONT_HERSHEY_SIMPLEX, size, (0, 220, 255), 2)
        for u in self.last_reading.unreadable:
            at = (round(u.x_px), round(u.y_px))
            cv2.drawMarker(image, at, (0, 0, 255), cv2.MARKER_TILTED_CROSS, 24, 3)
        return image


class CameraDiceReader:
    """The live loop's reader with the dice tray watched too: it passes the table on as the
    wrapped reader sees it, minus the done presses used to confirm a roll, and shows the tray
    with the values read over the table picture while a roll is being read."""

    def __init__(self, inner: object, dice: CameraDice) -> None:
        self.inner = inner
        self.dice = dice

    def read(self, frame: Frame) -> Observation:
        """The table as this frame shows it (see the class docstring)."""
        obs: Observation = self.inner.read(frame)  # type: ignore[attr-defined]
        left = self.dice.look(frame.t, frame.image, obs.buttons)
        return obs if left == obs.buttons else replace(obs, buttons=left)

    def topdown_jpeg(self, frame: Frame) -> bytes | None:
        """The wrapped reader's table picture, with the tray and its values inset while a roll
        is being read."""
        base: bytes | None = self.inner.topdown_jpeg(frame)  # type: ignore[attr-defined]
        tray = self.dice.picture()
        if base is None or tray is None or self.dice.view is None:
            return base
        table = cv2.imdecode(np.frombuffer(base, np.uint8), cv2.IMREAD_COLOR)
        if table is None:
            return base
        inset = self.dice.view.render(tray)
        h, w = table.shape[:2]
        scale = min(0.45 * w / inset.shape[1], 0.45 * h / inset.shape[0])
        inset = cv2.resize(inset, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ih, iw = inset.shape[:2]
        table[8 : 8 + ih, w - 8 - iw : w - 8] = inset
        cv2.rectangle(table, (w - 9 - iw, 7), (w - 8, 8 + ih), (255, 255, 255), 2)
        ok, buf = cv2.imencode(".jpg", table, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return bytes(buf) if ok else base


def tray_finder(profile: TableProfile) -> Callable[[Image], DiceView]:
    """The tray's view for a camera image: the profile's tray, or the tray its two tags name in
    the image (through the profile's mapping). ValueError says why there is none."""

    def view_for(image: Image) -> DiceView:
        size = (int(image.shape[1]), int(image.shape[0]))
        tray = profile.tray
        if tray is None:
            try:
                tray = find_tray(image, profile.mapping(), profile.width_in, profile.depth_in)
            except CalibrationError as exc:
                raise ValueError(str(exc)) from None
        return tray_view(profile.mapping(), tray, size)

    return view_for


def camera_dice_reader(inner: object, game: LiveGame, profile: TableProfile) -> CameraDiceReader:
    """``inner`` (the table reader) with the camera reading the rolls ``game`` asks for."""
    return CameraDiceReader(inner, CameraDice(game, tray_finder(profile)))
