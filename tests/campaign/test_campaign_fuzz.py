"""Campaign files mutated at random (hypothesis): each is read or refused in one line naming
the file, never with a traceback."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from assistant.campaign.files import bundled_dir, load_campaign
from assistant.campaign.seating import toml_text
from tests.fuzz import FUZZ, judge, mutated

BASE = tomllib.loads((bundled_dir() / "wardens-road.toml").read_text(encoding="utf-8"))


@FUZZ
@given(data=st.data())
def test_a_mutated_campaign_loads_or_is_refused_in_one_line(
    tmp_path: Path, data: st.DataObject
) -> None:
    campaign = data.draw(mutated(BASE))
    path = tmp_path / "fuzzed.toml"
    path.write_text(toml_text(campaign), encoding="utf-8")
    judge(path, lambda p: load_campaign(str(p)))
