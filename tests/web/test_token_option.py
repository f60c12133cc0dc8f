"""The access token for --listen-all: an empty one is refused, a short one is warned about."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.cli import main
from assistant.errors import UserError
from assistant.live_hub import LiveHub
from assistant.web import serve
from assistant.web.auth import short_token_warning, token_banner

URL = "http://192.168.1.20:5000/"


@pytest.mark.parametrize("token", ["", "   "])
def test_play_refuses_an_empty_token_before_starting(
    token: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "run"
    argv = ["play", "--source", "0", "--scenario", "ford-at-dawn", "--listen-all"]
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--token", token, "--out", str(out)])
    assert exit_info.value.code != 0
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith(
        "argument --token: an empty token would lock everyone out of the table page: give one "
        "of at least 12 characters, or leave --token out for a random one"
    )
    assert list(tmp_path.iterdir()) == []  # nothing was started, nothing written


def test_serve_refuses_an_empty_token() -> None:
    with pytest.raises(UserError, match="empty token"):
        serve(LiveHub(), host="0.0.0.0", port=0, token="")


def test_a_short_token_is_warned_about_where_the_address_is_shown() -> None:
    banner = token_banner(URL, "tbl-7")
    assert "Warning: the access token has only 5 characters" in banner
    assert "at least 12 characters" in banner
    assert short_token_warning("tbl-7") is not None
    for fine in ("twelve-chars", "a-much-longer-random-token"):
        assert short_token_warning(fine) is None
        assert "Warning" not in token_banner(URL, fine)
    assert short_token_warning(None) is None
    # The random token soloscope makes is long enough.
    handle = serve(LiveHub(), host="0.0.0.0", port=0)
    try:
        assert handle.token is not None and short_token_warning(handle.token) is None
    finally:
        handle.stop()
