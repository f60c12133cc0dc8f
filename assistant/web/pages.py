"""The page itself: one HTML document; the board is drawn by static/app.js from the view model."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static")


@bp.get("/")
def index() -> str:
    """The table page."""
    return render_template("index.html")
