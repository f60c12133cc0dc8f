"""Scenario and warband files mutated at random (hypothesis): each is read or refused in one
line naming the file, never with a traceback (a NaN heading crashed the dungeon, a deep nesting
overflowed the parser)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from assistant.campaign.seating import toml_text
from assistant.scenarios import load_game
from engine.rulesets.skirmish2d6.roster import TEMPLATE, check_warband
from tests.fuzz import FUZZ, check_refusal, judge, mutated

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"
BASES = {
    name: tomllib.loads((SCENARIOS / f"{name}.toml").read_text(encoding="utf-8"))
    for name in ("crossroads-ambush", "dungeon-crawl", "bosworth-street", "d20-grid-skirmish")
}


def _load(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    judge(path, lambda p: load_game(str(p)))


@FUZZ
@given(data=st.data(), name=st.sampled_from(sorted(BASES)))
def test_a_mutated_scenario_loads_or_is_refused_in_one_line(
    tmp_path: Path, data: st.DataObject, name: str
) -> None:
    base = BASES[name]
    scenario = data.draw(mutated(base))
    _load(tmp_path / "fuzzed.toml", toml_text(scenario))


@FUZZ
@given(cut=st.integers(min_value=0, max_value=10_000), junk=st.text(max_size=8))
def test_a_cut_or_garbled_scenario_text_is_refused_in_one_line(
    tmp_path: Path, cut: int, junk: str
) -> None:
    text = (SCENARIOS / "crossroads-ambush.toml").read_text(encoding="utf-8")
    at = cut % len(text)
    _load(tmp_path / "garbled.toml", text[:at] + junk + text[at + len(junk) :])


@FUZZ
@given(data=st.data())
def test_a_mutated_warband_is_checked_fighter_by_fighter(data: st.DataObject) -> None:
    base = tomllib.loads(TEMPLATE.format(name="Fuzzers"))
    warband = data.draw(mutated(base))
    check = check_warband(toml_text(warband), "warband.toml")
    for problem in (*check.problems, *(p for f in check.fighters for p in f.problems)):
        assert "\n" not in problem and "Traceback" not in problem, problem


def test_what_the_fuzz_found_is_one_line_naming_the_file(tmp_path: Path) -> None:
    """Found by the tests above: deployment cells that are not a list (a TypeError before),
    and a rule option of the wrong kind, refused by the ruleset without naming the file."""
    dungeon = (SCENARIOS / "dungeon-crawl.toml").read_text(encoding="utf-8")
    cases = [
        ('deployment_cells = ["G7", "G8", "H7", "H8"]', "deployment_cells = 3"),
        ("[options]\n", '[options]\ndetection_arc = ""\n'),
    ]
    for old, new in cases:
        assert dungeon.count(old) == 1, old
        path = tmp_path / "dungeon.toml"
        path.write_text(dungeon.replace(old, new), encoding="utf-8")
        try:
            load_game(str(path))
        except Exception as exc:
            check_refusal(exc)
            assert str(exc).startswith(f"{path}: "), exc
        else:
            raise AssertionError(f"{new!r} was accepted")
