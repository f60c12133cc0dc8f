"""The engine benches' comparison at two commits (benchmarks/compare_commits.py) and the
options that make it fair: the same frames for the cell reader (dungeon_cells_bench
``--save-frames``/``--frames``) and the same script in both trees (``--same-script``).
Figures are read, never asserted against a time."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def bench_module(name: str) -> ModuleType:
    """A script of benchmarks/ loaded as a module."""
    spec = importlib.util.spec_from_file_location(
        f"_bench_{name}", ROOT / "benchmarks" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_main(module: ModuleType, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "argv", [module.__file__ or "bench", *argv])
    result: int = module.main()
    return result


def test_saved_frames_read_back_to_the_same_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Boards rendered with --save-frames and read with --frames give the same readings (the
    frames, not a new render, are read), and compare_commits reads their figure."""
    cells = bench_module("dungeon_cells_bench")
    compare = bench_module("compare_commits")
    folder = tmp_path / "frames"
    assert run_main(cells, ["--boards", "1", "--save-frames", str(folder)], monkeypatch) == 0
    rendered = capsys.readouterr().out
    assert (folder / "boards.npz").is_file() and (folder / "truth.json").is_file()
    assert run_main(cells, ["--frames", str(folder)], monkeypatch) == 0
    read = capsys.readouterr().out
    assert rendered.split("; ")[:-1] == read.split("; ")[:-1]  # all but the time
    assert read.startswith("1 rendered boards (720p)")
    figure = compare.figures(read)
    assert list(figure) == ["1 rendered boards (720p), 14 models read (0 unseen) ms per frame"]


def test_frames_from_a_folder_without_boards_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cells = bench_module("dungeon_cells_bench")
    assert run_main(cells, ["--frames", str(tmp_path)], monkeypatch) == 2
    assert capsys.readouterr().out.strip() == (
        f"{tmp_path} holds no boards.npz: render it with --save-frames first"
    )


def test_the_same_script_runs_this_trees_copy_in_the_other_tree(tmp_path: Path) -> None:
    """With same_script, the other tree runs this tree's copy of the bench (its own code):
    the dungeon bench's decision times come out to three digits there too."""
    compare = bench_module("compare_commits")
    tree = tmp_path / "tree"
    (tree / "benchmarks").mkdir(parents=True)
    for package in ("engine", "assistant", "vision", "calibration"):
        (tree / package).symlink_to(ROOT / package)
    found = compare.run_bench(tree, "dungeon", True, ("--games", "1"))
    copied = tree / "benchmarks" / "_compare_dungeon_bench.py"
    assert copied.read_text() == (ROOT / "benchmarks" / "dungeon_bench.py").read_text()
    assert set(found) == {
        "patrol-d8 (enemies) median ms",
        "dungeon-heroes (heroes) median ms",
        "dungeon-crawl games/s",
    }
    assert all(value > 0 for value in found.values())
    decision = compare.figures("patrol-d8 (enemies): 4 decisions, median 0.057 ms, 95th ...")
    assert decision == {"patrol-d8 (enemies) median ms": 0.057}


def test_decision_times_are_printed_to_a_microsecond() -> None:
    """A patrol roll takes tens of microseconds: two digits of a millisecond cannot tell 50
    from 59 us."""
    dungeon = bench_module("dungeon_bench")
    line = dungeon.summary("patrol-d8 (enemies)", [57.4e-6, 61.2e-6, 48.9e-6])
    assert "median 0.057 ms" in line and "max 0.061 ms" in line
