"""Floors of the piece-visibility study (one seeded scene per setting)."""

from __future__ import annotations

from vision.render.visibility import KITS, markdown_table, visibility_trial


def test_figures_hide_a_third_of_single_front_tags_on_25mm_bases_at_4k():
    kit = KITS["4k"][0]
    assert (kit.base_mm, kit.tag_mm, kit.layout) == (25.0, 10.0, "front")
    c = visibility_trial("4k", 800.0, kit, seed=0)
    assert c.false_ids == 0
    # DESIGN §1: about a third of such tags are hidden by their own leaning figures.
    assert 4 <= c.hidden <= 14
    assert c.invisible >= c.hidden - 2, "a covered tag must (nearly always) go unread"


def test_a_front_and_rear_pair_keeps_every_piece_in_sight_at_1080p():
    kit = KITS["1080p"][2]
    assert kit.layout == "front_rear"
    c = visibility_trial("1080p", 800.0, kit, seed=0)
    assert c.false_ids == 0
    assert c.invisible <= 1
    assert c.tags_read < c.tags, "some tag of a pair is always under its figure"
    table = markdown_table([c])
    assert "40 mm base, 14 mm front + rear" in table and "1080p" in table
