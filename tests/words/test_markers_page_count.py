"""``soloscope markers`` states the page count of the PDF it leaves (issue 22: it said 5 for a
9-page kit with a grid board, and 4 for 5 with the dice tray sheet)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.cli import main

pdfium = pytest.importorskip("pypdfium2")


def _pages(path: Path) -> int:
    document = pdfium.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


@pytest.mark.parametrize(
    "extra",
    [["--tray", "light"], ["--scenario", "dungeon-crawl", "--tray", "dark"]],
    ids=["tray", "grid-board-and-tray"],
)
def test_the_stated_page_count_is_the_pdfs(
    extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kit.pdf"
    assert main(["markers", "--out", str(out), *extra]) == 0
    said = capsys.readouterr().out
    stated = re.findall(rf"wrote {re.escape(str(out))}: (\d+) pages", said)
    assert stated == [str(_pages(out))], said
    assert "added the" in said and "dice tray sheet as the last page" in said
