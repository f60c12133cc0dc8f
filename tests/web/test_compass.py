"""A compass wherever facings are said by the compass (issue 23): on the printed grid board,
every page (north = the far edge, row 1), and beside the page's board for the systems whose
words name facings so (drawn by the page: ``tests/web/test_page_systems.py``)."""

from __future__ import annotations

import pypdfium2 as pdfium

from assistant.scenarios import load_scenario
from assistant.tables import find_adapter
from assistant.tables.dungeon_kit import grid_board_spec
from calibration.kit_grid import COMPASS_WORDS, board_pdf
from calibration.kit_layout import PAPERS


def test_every_page_of_the_printed_grid_board_has_its_compass() -> None:
    spec = grid_board_spec(load_scenario("dungeon-crawl"))
    assert spec is not None
    data, sheet = board_pdf(spec, PAPERS["a4"])
    pdf = pdfium.PdfDocument(data)
    try:
        assert len(pdf) == len(sheet.tiles) > 1
        for page in pdf:
            text = page.get_textpage().get_text_range()
            for words in COMPASS_WORDS:
                assert words in text
            tokens = text.split()
            assert all(letter in tokens for letter in "NESW")  # the rose's four letters
    finally:
        pdf.close()
    assert COMPASS_WORDS == ("North: the far edge", "South: your edge")


def test_the_systems_that_say_facings_by_the_compass_ask_the_page_for_one() -> None:
    says_compass = {name for name in ("narrative", "strike", "skirmish2d6", "firefight-lite",
                                      "d20", "dungeon") if find_adapter(name).compass_facings}  # fmt: skip
    assert says_compass == {"d20", "dungeon"}
