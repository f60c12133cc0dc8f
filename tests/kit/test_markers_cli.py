"""``soloscope markers``: the command writes the kit, the scenario's tag list and PNG pages, and
refuses bad input with one line."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from assistant.cli import main
from assistant.commands.markers import scenario_roster
from assistant.scenarios import load_scenario
from calibration.kit_layout import PAPERS


def test_writes_a_pdf_with_the_scenarios_tag_list(tmp_path: Path) -> None:
    out = tmp_path / "kit.pdf"
    assert main(["markers", "--out", str(out), "--scenario", "crossroads-ambush"]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    listing = out.with_suffix(".tags.txt").read_text(encoding="utf-8")
    scenario = load_scenario("crossroads-ambush")
    for unit in scenario.units:
        for tag in unit.tags:
            assert f"tag {tag.id:>3}     {unit.name} ({unit.id})" in listing
    for piece in scenario.terrain:
        for tag in piece.tags:
            assert f"tag {tag.id:>3}     {piece.name} ({piece.id})" in listing


def test_roster_prints_the_scenarios_tags_at_their_sizes_and_places() -> None:
    scenario = load_scenario("crossroads-ambush")
    roster = scenario_roster(scenario)
    wanted = sorted(t.id for u in scenario.units for t in u.tags)
    assert list(roster.piece_ids) == wanted
    for unit in scenario.units:
        for tag in unit.tags:
            (base,) = [b for b in roster.bases if b.tag_id == tag.id]
            assert base.base_mm == pytest.approx(unit.base_diameter_in * 25.4)
            assert (base.tag_mm, base.offset_mm(), base.right_mm) == (
                tag.size_mm,
                tag.forward_mm,
                tag.right_mm,
            )


def test_roster_keeps_the_scenarios_terrain_tag_sizes() -> None:
    scenario = load_scenario("ford-at-dawn")
    roster = scenario_roster(scenario)
    sizes = dict(roster.terrain_tag_mm)
    for piece in scenario.terrain:
        for tag in piece.tags:
            assert sizes[tag.id] == tag.size_mm


def test_png_pages_at_600_dpi(tmp_path: Path) -> None:
    out = tmp_path / "kit.pdf"
    png = tmp_path / "png"
    args = ["markers", "--out", str(out), "--paper", "letter", "--pieces", "3", "--png", str(png)]
    assert main(args) == 0
    pages = sorted(png.glob("page_*.png"))
    assert len(pages) == 4
    h, w = cv2.imread(str(pages[0]), cv2.IMREAD_GRAYSCALE).shape
    assert abs(w - PAPERS["letter"].width_mm / 25.4 * 600) <= 1
    assert abs(h - PAPERS["letter"].height_mm / 25.4 * 600) <= 1


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--pieces", "99"], "--pieces must be 1 to 34"),
        (["--tag-mm", "30"], "does not fit on the base"),
        (["--scenario", "no-such-scenario"], "no scenario named"),
        (["--scenario", "crossroads-ambush", "--pieces", "3"], "cannot be used with --scenario"),
        (["--scenario", "crossroads-ambush", "--tag-mm", "16"], "does not fit on the 32 mm bases"),
        (["--camera", "4k", "--tag-mm", "12"], "cannot be used with --camera"),
        (["--camera", "4k", "--profile", "p.json"], "not both"),
        (["--profile", "missing.json"], "does not exist"),
        (["--scenario", "ford-at-dawn", "--camera", "1080p"], "No kit written"),
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], says: str
) -> None:
    assert main(["markers", "--out", str(tmp_path / "k.pdf"), *extra]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "k.pdf").exists()


def test_out_must_be_a_pdf_in_an_existing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["markers", "--out", str(tmp_path / "nowhere" / "k.pdf")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["markers", "--out", str(tmp_path / "k.txt")]) == 2
