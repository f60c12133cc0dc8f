"""Tests of the seed-004 grid ruleset (dungeon), its AI and its generators."""
