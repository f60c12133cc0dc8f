"""The live hub: what the session shows and what the page asks, passed between threads.

The session publishes a ``BoardView`` (a frozen view model of the table in inches and degrees) and
the latest rectified top-down frame as JPEG bytes; every subscriber (one per open page, through
server-sent events) receives every new view version without ever slowing the publisher: each
subscriber has a bounded backlog, and a subscriber that falls behind loses its oldest views (the
newest always arrives) while frames are coalesced to the latest. The page sends ``Command`` values
(declare, dice, undo, redo, repeat, confirm, pass, place) that the session reads with
``next_command``.

No global state: a session makes one ``LiveHub`` and hands it to the web app.
"""

from __future__ import annotations

import json
import queue
import threading
from collections import deque
from dataclasses import dataclass
from typing import Literal

from assistant.live_commands import Command, CommandError, check_place
from assistant.live_view import BoardView, ViewError


@dataclass(frozen=True)
class HubEvent:
    """Something a subscriber is told: a new view, a new frame, or that the hub closed."""

    kind: Literal["view", "frame", "closed"]
    version: int
    """The view's or the frame's version number (from 1)."""
    data: str | None = None
    """For a view: its JSON text. For a frame: ``{"version": N, "bounds_in": [x0, y0, x1, y1]}``
    (the table area the image covers, in inches; null bounds: exactly the table)."""


class Subscription:
    """One subscriber's inbox (e.g. one open page). Read it with ``get``; close it when done."""

    def __init__(self, hub: LiveHub, backlog: int) -> None:
        self._hub = hub
        self._cond = threading.Condition()
        self._views: deque[HubEvent] = deque(maxlen=backlog)
        self._frame_event: HubEvent | None = None
        self._closed = False
        self.dropped = 0
        """Views this subscriber lost because it fell more than ``backlog`` versions behind."""

    def _push_view(self, event: HubEvent) -> None:
        with self._cond:
            if len(self._views) == self._views.maxlen:
                self.dropped += 1
            self._views.append(event)
            self._cond.notify_all()

    def _push_frame(self, event: HubEvent) -> None:
        with self._cond:
            self._frame_event = event
            self._cond.notify_all()

    def _end(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def get(self, timeout: float | None = None) -> HubEvent | None:
        """The next event (views first, in order; then the latest frame), or None on timeout.

        After the hub or this subscription is closed, returns a ``closed`` event.
        """
        with self._cond:
            self._cond.wait_for(
                lambda: self._closed or self._views or self._frame_event is not None, timeout
            )
            if self._views:
                return self._views.popleft()
            if self._frame_event is not None:
                event, self._frame_event = self._frame_event, None
                return event
            if self._closed:
                return HubEvent("closed", 0)
            return None

    def close(self) -> None:
        """Stop receiving events."""
        self._hub._unsubscribe(self)
        self._end()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LiveHub:
    """Thread-safe publish/subscribe between the live session and the web page."""

    def __init__(self, *, max_commands: int = 256, subscriber_backlog: int = 64) -> None:
        self.commands: queue.Queue[Command] = queue.Queue(maxsize=max_commands)
        """Commands from the page, oldest first (``next_command`` reads them)."""
        self._backlog = subscriber_backlog
        self._lock = threading.Lock()
        self._subscribers: list[Subscription] = []
        self._view: BoardView | None = None
        self._view_json: str | None = None
        self._view_version = 0
        self._frame: bytes | None = None
        self._frame_version = 0
        self._frame_event: HubEvent | None = None
        self._closed = False

    # -- the session's side ------------------------------------------------------------------

    def publish(self, view: BoardView) -> int:
        """Make ``view`` the current view and tell every subscriber; returns its version."""
        text = view.to_json()
        with self._lock:  # pushing only appends to bounded inboxes: it never waits for a reader
            self._view_version += 1
            version = self._view_version
            self._view, self._view_json = view, text
            event = HubEvent("view", version, text)
            for subscriber in self._subscribers:
                subscriber._push_view(event)
        return version

    def publish_frame(
        self,
        jpeg_bytes: bytes,
        bounds_in: tuple[float, float, float, float] | None = None,
    ) -> int:
        """Make these JPEG bytes the latest frame; returns its version.

        The frame is the rectified top-down view of the table, the player's edge at the bottom
        and +x to the right. ``bounds_in`` = (x_min, y_min, x_max, y_max) is the table area the
        image covers, in inches (a margin shows as negative x_min/y_min or x_max/y_max beyond
        the table); None means the image covers exactly the table, (0, 0) to (width, depth).
        """
        if not jpeg_bytes.startswith(b"\xff\xd8"):
            raise ViewError(f"a frame must be JPEG bytes; these start with {jpeg_bytes[:4]!r}")
        if bounds_in is not None:
            x0, y0, x1, y1 = (float(v) for v in bounds_in)
            if not (x1 > x0 and y1 > y0):
                raise ViewError(
                    f"frame bounds_in {bounds_in} must have x_max > x_min, y_max > y_min"
                )
            bounds_in = (x0, y0, x1, y1)
        with self._lock:
            self._frame_version += 1
            version = self._frame_version
            self._frame = bytes(jpeg_bytes)
            data = json.dumps({"version": version, "bounds_in": bounds_in})
            self._frame_event = HubEvent("frame", version, data)
            for subscriber in self._subscribers:
                subscriber._push_frame(self._frame_event)
        return version

    def next_command(self, timeout: float | None = 0.0) -> Command | None:
        """The oldest command from the page, waiting up to ``timeout`` s (None: forever)."""
        try:
            if timeout is not None and timeout <= 0:
                return self.commands.get_nowait()
            return self.commands.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """End every subscription (open pages stop streaming)."""
        with self._lock:
            self._closed = True
            subscribers, self._subscribers = self._subscribers, []
        for subscriber in subscribers:
            subscriber._end()

    # -- the page's side ---------------------------------------------------------------------

    def current_view(self) -> tuple[int, BoardView | None]:
        """(version, view) of the latest view; (0, None) before the first publish."""
        with self._lock:
            return self._view_version, self._view

    def current_view_json(self) -> tuple[int, str | None]:
        """(version, JSON text) of the latest view; (0, None) before the first publish."""
        with self._lock:
            return self._view_version, self._view_json

    def latest_frame(self) -> tuple[int, bytes | None]:
        """(version, JPEG bytes) of the latest frame; (0, None) before the first one."""
        with self._lock:
            return self._frame_version, self._frame

    def send_command(self, command: Command) -> None:
        """Queue a command for the session; raises ``CommandError`` if it cannot be accepted.

        A dice result above the current dice prompt's number of sides, and a piece placed off
        the table or a unit the table does not have, are refused here so the player sees the
        mistake at once.
        """
        with self._lock:
            view = self._view
        prompt = view.prompt if view is not None else None
        if (
            command.kind == "dice"
            and prompt is not None
            and prompt.kind == "dice"
            and command.value is not None
            and command.value > prompt.sides
        ):
            raise CommandError(f"a d{prompt.sides} cannot show {command.value}")
        if command.kind == "place" and view is not None:
            check_place(command, view)
        try:
            self.commands.put_nowait(command)
        except queue.Full as exc:
            raise CommandError("too many commands are waiting; try again in a moment") from exc

    def subscribe(self) -> Subscription:
        """A new subscription, primed with the current view and frame (if any)."""
        subscription = Subscription(self, self._backlog)
        with self._lock:
            if self._closed:
                subscription._end()
                return subscription
            self._subscribers.append(subscription)
            if self._view_json is not None:
                subscription._push_view(HubEvent("view", self._view_version, self._view_json))
            if self._frame_event is not None:
                subscription._push_frame(self._frame_event)
        return subscription

    @property
    def subscriber_count(self) -> int:
        """How many subscriptions are open."""
        with self._lock:
            return len(self._subscribers)

    def _unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)
