"""The live hub: view model round trips, subscribers, frames and commands between threads."""

from __future__ import annotations

import json
import threading

import pytest
from board_samples import dice_prompt, make_view, table_jpeg

from assistant.live_commands import Command, CommandError
from assistant.live_hub import LiveHub
from assistant.live_view import BoardView, UnitView, ViewError


@pytest.fixture
def view() -> BoardView:
    return make_view()


def test_view_json_round_trip(view: BoardView) -> None:
    data = json.loads(view.to_json())
    assert data["version"] == 1
    assert data["units"][0]["name"] == "Orc Captain"
    assert data["order"]["ghost"] == {"x_in": 9.0, "y_in": 14.5, "heading_deg": 300.0}
    assert BoardView.from_dict(data) == view
    with_prompt = make_view(prompt=dice_prompt(8))
    assert BoardView.from_dict(json.loads(with_prompt.to_json())) == with_prompt
    over = make_view(outcome="Orc warband win after 4 rounds: the Rangers fled.")
    assert BoardView.from_dict(json.loads(over.to_json())) == over
    assert "outcome" not in data or data["outcome"] is None
    with pytest.raises(ViewError, match="version 7"):
        BoardView.from_dict({**data, "version": 7})


def test_bad_views_name_the_field() -> None:
    with pytest.raises(ViewError, match="status 'asleep'"):
        UnitView("u", "U", "s", 1, 1, 0, 1.0, status="asleep")  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="table size"):
        BoardView(0, 24)
    unit = UnitView("u", "U", "s", 1, 1, 0, 1.0)
    with pytest.raises(ViewError, match=r"repeated.*u"):
        BoardView(24, 24, units=(unit, unit))


def test_subscriber_gets_every_version_in_order(view: BoardView) -> None:
    hub = LiveHub()
    with hub.subscribe() as subscription:
        assert subscription.get(timeout=0) is None
        versions = [hub.publish(make_view(round_=r)) for r in range(1, 11)]
        got = [subscription.get(timeout=30) for _ in versions]
    assert [e.version for e in got if e] == versions == list(range(1, 11))
    assert [json.loads(e.data)["round"] for e in got if e and e.data] == list(range(1, 11))
    assert hub.subscriber_count == 0


def test_new_subscriber_is_primed_with_the_current_view_and_frame(view: BoardView) -> None:
    hub = LiveHub()
    hub.publish(view)
    hub.publish_frame(table_jpeg())
    with hub.subscribe() as subscription:
        first, second = subscription.get(0), subscription.get(0)
    assert first is not None and first.kind == "view" and first.version == 1
    assert second is not None and second.kind == "frame" and second.version == 1


def test_slow_subscriber_never_blocks_the_publisher(view: BoardView) -> None:
    hub = LiveHub(subscriber_backlog=16)
    asleep = hub.subscribe()  # never reads
    reader = hub.subscribe()
    received: list[int] = []

    def read() -> None:
        while (event := reader.get(timeout=5)) is not None and event.kind != "closed":
            received.append(event.version)

    thread = threading.Thread(target=read)
    thread.start()
    publisher = threading.Thread(target=lambda: [hub.publish(view) for _ in range(500)])
    publisher.start()
    publisher.join(30)
    assert not publisher.is_alive()
    hub.close()
    thread.join(30)
    # The sleeping subscriber kept only the newest 16 and knows how many it lost.
    kept = []
    while (event := asleep.get(0)) is not None and event.kind == "view":
        kept.append(event.version)
    assert kept == list(range(485, 501))
    assert asleep.dropped == 484
    # The reading subscriber saw versions in order, ending with the newest.
    assert received == sorted(received) and received[-1] == 500
    assert len(received) + reader.dropped == 500


def test_frames_are_coalesced_to_the_latest() -> None:
    hub = LiveHub()
    jpeg = table_jpeg()
    with hub.subscribe() as subscription:
        for _ in range(5):
            hub.publish_frame(jpeg)
        event = subscription.get(0)
        assert event is not None and (event.kind, event.version) == ("frame", 5)
        assert event.data is not None and json.loads(event.data)["bounds_in"] is None
        assert subscription.get(0) is None
    assert hub.latest_frame() == (5, jpeg)
    with pytest.raises(ViewError, match="JPEG"):
        hub.publish_frame(b"\x89PNG....")
    with pytest.raises(ViewError, match="bounds_in"):
        hub.publish_frame(jpeg, bounds_in=(5, 0, 5, 24))


def test_commands_arrive_in_order_and_bad_ones_are_refused() -> None:
    hub = LiveHub()
    assert hub.next_command(0) is None
    hub.publish(make_view(prompt=dice_prompt(6)))
    sent = [
        Command.from_dict({"kind": "declare", "action": "shoot", "target": "orc-captain"}),
        Command.from_dict({"kind": "dice", "value": 6}),
        Command.from_dict({"kind": "undo"}),
    ]
    for command in sent:
        hub.send_command(command)
    assert [hub.next_command(1) for _ in sent] == sent
    assert sent[0].to_dict() == {"kind": "declare", "action": "shoot", "target": "orc-captain"}
    with pytest.raises(CommandError, match="d6 cannot show 7"):
        hub.send_command(Command.from_dict({"kind": "dice", "value": 7}))
    for bad, message in [
        ({"kind": "fly"}, "kind 'fly'"),
        ({"kind": "declare"}, "needs an action"),
        ({"kind": "dice", "value": "6"}, "whole number"),
        ({"kind": "dice", "value": True}, "whole number"),
        ({"kind": "undo", "value": 3}, "only a dice command"),
        (["undo"], "JSON object"),
    ]:
        with pytest.raises(CommandError, match=message):
            Command.from_dict(bad)
    assert hub.next_command(0) is None


def test_command_queue_is_bounded() -> None:
    hub = LiveHub(max_commands=2)
    hub.send_command(Command("undo"))
    hub.send_command(Command("redo"))
    with pytest.raises(CommandError, match="too many"):
        hub.send_command(Command("repeat"))


def test_close_ends_waiting_subscribers() -> None:
    hub = LiveHub()
    subscription = hub.subscribe()
    result: list[object] = []
    thread = threading.Thread(target=lambda: result.append(subscription.get(timeout=30)))
    thread.start()
    hub.close()
    thread.join(10)
    assert not thread.is_alive()
    assert result[0] is not None and result[0].kind == "closed"  # type: ignore[attr-defined]
    late = hub.subscribe()
    assert late.get(0).kind == "closed"  # type: ignore[union-attr]
