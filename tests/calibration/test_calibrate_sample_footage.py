"""``soloscope calibrate`` on the bundled footage at its true tag size (14 mm tags, about 20 px
wide): the profile is saved with a warning and the detection margin, not refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.cli import main
from calibration.profile import load_profile

FOOTAGE = Path(__file__).resolve().parents[2] / "sample_footage" / "crossroads-seed3.mp4"


def test_the_bundled_footage_calibrates_at_its_true_tag_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not FOOTAGE.is_file():
        pytest.skip(f"no sample footage at {FOOTAGE}")
    out = tmp_path / "t.json"
    code = main(["calibrate", "--source", str(FOOTAGE), "--save", str(out), "--tag-mm", "14"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert load_profile(out).fit.corner_ids == (0, 1, 2, 3)
    report = captured.out
    assert (
        "detection margin: 14 mm tags span 20 px at the far edge; reliable from 24 px; "
        "margin -4 px" in report
    )
    assert "warning: 14 mm tags are 20 px wide" in report and "at least 16.9 mm" in report
    assert f"saved {out}" in report
