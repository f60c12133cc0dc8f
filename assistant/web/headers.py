"""Headers every response of the table page carries.

The page may not be shown inside another site's frame (``X-Frame-Options: DENY`` and the
Content-Security-Policy ``frame-ancestors 'none'``: a site could otherwise lay its own buttons
over the page's and have the player press Undo or Pass unknowingly), a response is read only as
the type it declares (``X-Content-Type-Options: nosniff``), and no address of the page is told to
another site (``Referrer-Policy: same-origin``).
"""

from __future__ import annotations

from flask import Flask, Response

SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def init_app(app: Flask) -> None:
    """Add ``SECURITY_HEADERS`` to every response of ``app`` (refusals and errors included)."""

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response
