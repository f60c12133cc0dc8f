"""Access control for the table page: a token when it listens beyond this computer.

With a token set, a request must carry it as ``?token=`` (the page then keeps it in a cookie,
and a browser opening an address with it is sent on to the same address without it), as the
``X-Soloscope-Token`` header, or as ``Authorization: Bearer``; anything else gets a plain 403. Without a token the page only answers requests addressed to this computer by name (Host
``localhost``/``127.0.0.1``/``[::1]``), which keeps other web sites from reaching it through DNS
rebinding.

A request that changes something (any method but GET, HEAD, OPTIONS: the commands) must also
come from the page itself. A browser says where a request comes from, and the first of these it
sends decides: ``Origin`` must be this page's own scheme://host:port (``null`` is refused);
else ``Sec-Fetch-Site`` must be ``same-origin`` (or ``none``: typed by the user); else
``Referer`` must be on this page's origin. Anything else gets a plain 403. A request with none of
the three is not from a browser (curl, a script): it is accepted, since a web site cannot send
it, and it still needs the token whenever one is set (with ``--listen-all``; without a token
only this computer can reach the page at all).
"""

from __future__ import annotations

import argparse
import hmac
import io
from urllib.parse import urlencode, urlsplit, urlunsplit

import segno
from flask import Flask, Response, g, redirect, request

MIN_TOKEN_CHARS = 12
"""A token shorter than this is accepted with a warning (someone on the network could guess it)."""
COOKIE_NAME = "soloscope_token"
HEADER_NAME = "X-Soloscope-Token"
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})

MISSING_TOKEN = (
    "Forbidden: this soloscope page needs its access token. Open the address shown in the "
    "terminal (it ends with ?token=...) or scan its QR code.\n"
)
WRONG_TOKEN = (
    "Forbidden: the access token is wrong. Open the address shown in the terminal where "
    "soloscope is running, or scan its QR code.\n"
)
FOREIGN_ORIGIN = (
    "Forbidden: soloscope takes commands only from its own page, and this one came from {where}. "
    "Open the table page at the address shown in the terminal.\n"
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
WRONG_HOST = (
    "Forbidden: this soloscope page only answers on this computer (http://127.0.0.1). To use it "
    "from another device, start soloscope with --listen-all.\n"
)


def _forbidden(message: str) -> Response:
    return Response(message, status=403, mimetype="text/plain")


def _given_token() -> tuple[str | None, bool]:
    """The token the request carries and whether it came in the query string."""
    if "token" in request.args:
        return request.args.get("token", ""), True
    header = request.headers.get(HEADER_NAME)
    if header is not None:
        return header, False
    authorization = request.headers.get("Authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip(), False
    return request.cookies.get(COOKIE_NAME), False


def _check_request(token: str | None) -> Response | None:
    if token is None:
        host = urlsplit(f"//{request.host}").hostname or ""
        if host.lower() not in LOOPBACK_HOSTS:
            return _forbidden(WRONG_HOST)
        return None
    given, from_query = _given_token()
    if not given:
        return _forbidden(MISSING_TOKEN)
    if not hmac.compare_digest(given.encode(), token.encode()):
        return _forbidden(WRONG_TOKEN)
    if from_query:
        g.soloscope_set_cookie = True
        if request.method == "GET" and _opens_a_page():
            # Keep the token out of the address bar, the history and screenshots: the cookie
            # carries it from now on.
            return redirect(_address_without_token(), code=303)  # type: ignore[return-value]
    return None


def _opens_a_page() -> bool:
    """True for a browser opening an address (the table page, the campaign page, a battle's
    record), not for a script fetching data (those keep ``?token=`` working without a
    cookie)."""
    mode = request.headers.get("Sec-Fetch-Mode")
    if mode is not None:
        return mode.lower() == "navigate"
    named = {mimetype for mimetype, _ in request.accept_mimetypes}  # "*/*" names nothing
    return request.path == "/" or "text/html" in named


def _address_without_token() -> str:
    """This request's path and query, ``token`` left out."""
    rest = [(k, v) for k, v in request.args.items(multi=True) if k != "token"]
    return request.path + (f"?{urlencode(rest)}" if rest else "")


def _origin_of(url: str) -> tuple[str, str] | None:
    """(scheme, host[:port]) of an absolute URL, lower case, default ports dropped."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    scheme = parts.scheme.lower()
    netloc = parts.netloc.rsplit("@", 1)[-1].lower()
    default = {"http": ":80", "https": ":443"}.get(scheme)
    if default and netloc.endswith(default):
        netloc = netloc[: -len(default)]
    return scheme, netloc


def _check_origin() -> Response | None:
    """403 for a state-changing request that a browser sent from another origin."""
    if request.method in SAFE_METHODS:
        return None
    own = _origin_of(request.host_url)
    origin = request.headers.get("Origin")
    if origin is not None:
        if _origin_of(origin) != own:
            return _forbidden(FOREIGN_ORIGIN.format(where=origin[:100] or "an unnamed origin"))
        return None
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        if site.lower() not in ("same-origin", "none"):
            return _forbidden(FOREIGN_ORIGIN.format(where=f"a {site[:40]} page"))
        return None
    referer = request.headers.get("Referer")
    if referer is not None and _origin_of(referer) != own:
        return _forbidden(FOREIGN_ORIGIN.format(where=referer[:100]))
    return None


def init_app(app: Flask) -> None:
    """Install the token (or host) check and the same-origin check on every request of ``app``."""

    @app.before_request
    def require_token() -> Response | None:
        refused = _check_request(app.config.get("TOKEN"))
        return refused if refused is not None else _check_origin()

    @app.after_request
    def remember_token(response: Response) -> Response:
        token = app.config.get("TOKEN")
        if token and g.get("soloscope_set_cookie"):
            response.set_cookie(COOKIE_NAME, token, httponly=True, samesite="Strict")
        return response


def login_url(url: str, token: str | None) -> str:
    """``url`` with ``?token=`` added when there is a token."""
    if not token:
        return url
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode({"token": token})) if q)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, ""))


EMPTY_TOKEN = (
    "an empty token would lock everyone out of the table page: give one of at least "
    f"{MIN_TOKEN_CHARS} characters, or leave --token out for a random one"
)


def access_token(text: str) -> str:
    """``--token``'s value, checked (an argparse ``type``): an empty token is refused."""
    if not text.strip():
        raise argparse.ArgumentTypeError(EMPTY_TOKEN)
    return text


def short_token_warning(token: str | None) -> str | None:
    """A warning when ``token`` is short enough to guess, else None."""
    if token is None or len(token) >= MIN_TOKEN_CHARS:
        return None
    return (
        f"Warning: the access token has only {len(token)} characters; someone on your network "
        f"could guess it. Use --token with at least {MIN_TOKEN_CHARS} characters, or leave "
        "--token out for a random one."
    )


def token_banner(url: str, token: str | None) -> str:
    """What the terminal shows: where to open the page, and (with a token) a QR code of it."""
    address = login_url(url, token)
    if not token:
        return f"The table page: {address}\n(open it in a browser on this computer)\n"
    qr = io.StringIO()
    segno.make(address, error="m").terminal(out=qr, compact=True)
    warning = short_token_warning(token)
    return (
        f"The table page: {address}\n"
        "Open it on a phone or tablet on the same network, or scan this code:\n"
        f"{qr.getvalue()}"
        "Anyone with this address can control the game: keep it to yourself.\n"
        + (f"{warning}\n" if warning else "")
    )
