"""A golden playthrough of the card AI on firefight-lite: ``soloscope simulate bosworth-street
--json --seed 5`` (every roll, draw and shuffle, every order with its card, every event) must
not change unless the rules or the AI are changed on purpose.

Regenerate after a deliberate change with::

    SOLOSCOPE_REGEN_GOLDEN=1 .venv/bin/pytest tests/cards/test_cards_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from assistant.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "bosworth-street-seed5.jsonl"


def test_golden_playthrough(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "bosworth-street", "--json", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    if os.environ.get("SOLOSCOPE_REGEN_GOLDEN") == "1":
        GOLDEN.write_text(out, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    got = out.splitlines()
    first = next((i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b), None)
    assert first is None and len(got) == len(expected), (
        f"simulate output differs from {GOLDEN.name} at line "
        f"{(first if first is not None else min(len(got), len(expected))) + 1}; regenerate with "
        "SOLOSCOPE_REGEN_GOLDEN=1 if the change is deliberate"
    )
    lines = [json.loads(line) for line in expected]
    assert lines[0]["type"] == "setup" and lines[-1]["type"] == "end"
    kinds = {ln["type"] for ln in lines}
    assert {"draw", "shuffle", "reaction", "order", "random_event", "selection"} <= kinds
