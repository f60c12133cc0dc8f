"""Campaign files mutated at random (hypothesis): each is read or refused in one line naming
the file, never with a traceback."""

from __future__ import annotations

import copy
import os
import tomllib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.campaign.files import bundled_dir, load_campaign
from assistant.campaign.seating import toml_text
from tests.fuzz import check_refusal, mutated

BASE = tomllib.loads((bundled_dir() / "wardens-road.toml").read_text(encoding="utf-8"))
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@FUZZ
@given(data=st.data())
def test_a_mutated_campaign_loads_or_is_refused_in_one_line(
    tmp_path: Path, data: st.DataObject
) -> None:
    campaign = data.draw(mutated(BASE, lambda: copy.deepcopy(BASE)))
    path = tmp_path / "fuzzed.toml"
    path.write_text(toml_text(campaign), encoding="utf-8")
    try:
        load_campaign(str(path))
    except Exception as exc:  # judged: only one-line refusals pass
        check_refusal(exc)
        assert str(path) in str(exc), exc
