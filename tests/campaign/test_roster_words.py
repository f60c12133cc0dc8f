"""What the campaign roster says of a character who just fell (issue 22): never "fit", never
"every slot filled (0 wounds)" for a card without wound slots, and counts in plain English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.live_hub import LiveHub
from assistant.web import create_app
from tests.campaign.helpers import campaign_copy, cli, show

IVY_FALLS = 9
"""Seed of the first battle: won; Crossbow Ivy (a card with no wound slots) falls, Shieldman
Rook (one slot) ends with one wound."""


def _roster_line(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if line.strip().startswith(name))


@pytest.mark.parametrize("option", ["A", "B"])
def test_a_character_who_just_fell_is_not_called_fit(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "Crossbow Ivy (tag 17): fit" right after she fell, and "returns with every slot
    filled (0 wounds)"."""
    db = tmp_path / "c.sqlite"
    cli(capsys, "campaign", "new", str(campaign_copy(tmp_path, option)), "--db", str(db))
    played = cli(
        capsys, "campaign", "next", "--simulate", "--seed", str(IVY_FALLS), "--db", str(db)
    )
    assert "  Crossbow Ivy: fell, " in played
    assert "(s)" not in played

    before = cli(capsys, "campaign", "show", "--db", str(db))
    ivy = _roster_line(before, "Crossbow Ivy")
    assert "fell at the shrine (wounds not resolved yet)" in ivy, ivy
    assert "fit" not in ivy

    rolls = [] if option == "A" else ["--rolls", "5,6"]  # B: Ivy returns (5), Rook heals (6)
    said = cli(capsys, "campaign", "resolve", *rolls, "--speech", "off", "--db", str(db))
    resolved = _roster_line(said, "Crossbow Ivy")
    assert "returns" in resolved and "unhurt (its card has no wound slots to fill)" in resolved
    assert "every slot filled" not in said and "0 wounds" not in said

    after = cli(capsys, "campaign", "show", "--db", str(db))
    ivy = _roster_line(after, "Crossbow Ivy")
    assert "fell at the shrine, back unhurt (no wound slots to fill)" in ivy, ivy
    assert "fit" not in ivy
    assert "(s)" not in after
    assert ivy.endswith("; 1 battle, 1 kill")

    data = show(capsys, db)
    roster = {c["id"]: c for c in data["roster"]}
    assert roster["ivy"]["status"] == "fit"  # the contract's status: nothing carried over
    assert roster["ivy"]["fell_at"] == "the shrine"
    assert roster["ivy"]["condition"] == "fell at the shrine, back unhurt (no wound slots to fill)"
    assert roster["ash"]["condition"] == "fit" and roster["ash"]["fell_at"] is None

    html = (
        create_app(LiveHub(), {"TESTING": True, "CAMPAIGN_DB": str(db)})
        .test_client()
        .get("/campaign")
        .get_data(as_text=True)
    )
    card = html[html.index('data-id="ivy"') :]
    card = card[: card.index("</article>")]
    status = re.search(r'<span class="status">([^<]*)</span>', card)
    assert status is not None and status.group(1) == roster["ivy"]["condition"]
