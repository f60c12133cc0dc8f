"""A profile names its kit (version 3); profiles saved by earlier versions keep loading, with
no kit, and a kit named but gone is said in one line."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.cli import main
from assistant.errors import UserError
from assistant.kit_files import kit_in_use
from assistant.pieces import kit_for
from assistant.scenarios import load_scenario
from calibration.errors import CalibrationError
from calibration.kit_file import save_kit
from calibration.profile import (
    PROFILE_VERSION,
    TableProfile,
    build_profile,
    load_profile,
    profile_kit_path,
    save_profile,
)
from tests.calibration.test_cal_profile_io import _corners


def _profile() -> TableProfile:
    corners, _ = _corners()
    return build_profile(corners, (1920, 1080))


def test_a_profile_names_its_kit_relative_to_its_folder(tmp_path: Path) -> None:
    kits = tmp_path / "kits"
    kits.mkdir()
    kit = kits / "k.kit.json"
    save_kit(kit_for(load_scenario("strike-causeway"), "4k"), kit)
    path = tmp_path / "tables" / "t.json"
    path.parent.mkdir()
    save_profile(_profile().with_kit(kit, path), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == PROFILE_VERSION == 3
    assert data["kit"] == str(Path("..") / "kits" / "k.kit.json")
    loaded = load_profile(path)
    assert profile_kit_path(loaded, path).resolve() == kit.resolve()
    used = kit_in_use(None, path)
    assert used is not None and used.kit.scenario == "strike-causeway"


@pytest.mark.parametrize("version", [1, 2])
def test_profiles_of_earlier_versions_load_with_no_kit(tmp_path: Path, version: int) -> None:
    data = _profile().to_dict()
    del data["kit"]
    if version == 1:
        del data["tray"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data | {"version": version}), encoding="utf-8")
    old = load_profile(path)
    assert old.kit == "" and profile_kit_path(old, path) is None
    assert old.fit == _profile().fit
    assert kit_in_use(None, path) is None


def test_a_kit_named_but_gone_is_said_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.json"
    save_profile(_profile().with_kit(tmp_path / "gone.kit.json", path), path)
    with pytest.raises(
        UserError, match=r"names the kit file .*gone\.kit\.json, which does not exist"
    ):
        kit_in_use(None, path)
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "f.png"), np.full((1080, 1920), 128, np.uint8))
    assert main(["track", str(frames), "--profile", str(path), "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert "which does not exist: give --kit FILE" in err and len(err.splitlines()) == 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_profile().to_dict() | {"kit": 7}), encoding="utf-8")
    with pytest.raises(CalibrationError, match="'kit' must be a file name or null"):
        load_profile(bad)
