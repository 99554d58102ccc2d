"""The phone page's server: the standard library's ``ThreadingHTTPServer``, one thread
to accept and one per connection, so a table nobody looks at costs a sleeping thread.

The loop tells ``publish`` each new public view; the server keeps its JSON and wakes
the pages that follow it (Server-Sent Events). Settings changed on a paired page go on
the loop's queue as ``ChangeSettings``, and the table applies them as its own.

    GET  /api/view       the public view (viewjson.py)      GET /api/events  the same, live
    GET  /api/words      the catalog of the table's language
    GET  /api/history    the games, newest first            GET /api/stats   per name
    GET  /api/settings   the settings and what they may be
    POST /api/pair/new   show a new code on the table       POST /api/pair   {"code": …}
    POST /api/settings   {key: value, …} (paired only): 400 and one line when refused
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path

from ..game.boards import offered_rates, profile_names
from ..game.settings import DeviceSettings, SettingsError, board_of, changed
from ..rules import CompanionError
from ..table import View
from ..table.events import ChangeSettings, CodeUsed, Event, ShowCode
from ..ui.catalog import catalog
from .pairing import LIFETIME, Pairing
from .tables import history_data, stats_data
from .viewjson import view_bytes

COOKIE = "companion_pair"
BODY_MAX = 16 * 1024  # a settings change is a few hundred bytes
KEEPALIVE = 25.0  # seconds between SSE comments while a page follows (proxies, dead peers)
FOLLOWERS = 16  # pages following at once; more get 503 (a Pi's threads are dear)
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True)
class Table:
    """What the server reads of the table, and how it speaks to it."""

    put: Callable[[Event], None]  # the loop's queue
    prefs: Callable[[], DeviceSettings]  # the settings in force
    languages: tuple[str, ...]
    state_dir: Path | None  # the history's folder; None: no history (a bare simulator)


class Refused(CompanionError):
    """A request the server says no to: an HTTP status and one line."""

    def __init__(self, status: HTTPStatus, message: str):
        super().__init__(message)
        self.status = status


class WebServer:
    """Serves the page for ``table`` on ``address``:``port`` (0: any free port) from a
    thread of its own, from construction until ``close``."""

    def __init__(
        self,
        table: Table,
        address: str,
        port: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        pairing: Pairing | None = None,
    ):
        self.table = table
        self.pairing = pairing or Pairing(clock)
        self._lock = threading.Lock()  # the pairing
        self._changed = threading.Condition()
        self._view = b'{"phase":null}'
        self._version = 0
        self._followers = 0
        self._closing = False
        self._httpd = _Server((address, port), _handler(self))
        self._httpd.timeout = None  # block in accept: no polling while nobody looks
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)
        self._thread.start()

    @property
    def address(self) -> tuple[str, int]:
        host, port = self._httpd.server_address[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        host, port = self.address
        shown = host if host not in ("0.0.0.0", "::") else socket.gethostname()
        return f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/"

    # --- the loop's side ----------------------------------------------------------------

    def publish(self, view: View) -> None:
        """A watcher of the loop: the new view's JSON, to every page that follows."""
        data = view_bytes(view, catalog(self.table.prefs().language))
        with self._changed:
            if data != self._view:
                self._view, self._version = data, self._version + 1
                self._changed.notify_all()

    def latest(self) -> tuple[int, bytes]:
        with self._changed:
            return self._version, self._view

    def wait_change(self, seen: int, timeout: float) -> tuple[int, bytes] | None:
        """The view after version ``seen`` once there is one; None at ``timeout`` or close."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != seen or self._closing, timeout)
            if self._closing or self._version == seen:
                return None
            return self._version, self._view

    @property
    def closing(self) -> bool:
        return self._closing

    def follow(self) -> bool:
        with self._changed:
            if self._followers >= FOLLOWERS or self._closing:
                return False
            self._followers += 1
            return True

    def unfollow(self) -> None:
        with self._changed:
            self._followers -= 1

    # --- pairing and settings -----------------------------------------------------------

    def show_code(self) -> None:
        with self._lock:
            code = self.pairing.new_code()
        self.table.put(ShowCode(code, LIFETIME))

    def pair(self, code: str) -> str | None:
        with self._lock:
            token = self.pairing.pair(code)
        if token is not None:
            self.table.put(CodeUsed())  # the table stops showing it
        return token

    def paired(self, token: str | None) -> bool:
        with self._lock:
            return self.pairing.paired(token)

    def change_settings(self, data: object) -> DeviceSettings:
        """``data`` checked as the settings file is (SettingsError names the key and why),
        then put on the table's queue; the settings as they will be."""
        current = self.table.prefs()
        new = DeviceSettings.from_dict(data, base=current, languages=self.table.languages)
        keys = changed(current, new)
        if keys:
            self.table.put(ChangeSettings(tuple((k, getattr(new, k)) for k in keys)))
        return new

    def settings_data(self, token: str | None) -> dict:
        prefs = self.table.prefs()
        return {
            "settings": prefs.to_dict(),
            "languages": {code: catalog(code).t("language") for code in self.table.languages},
            "boards": profile_names(),
            "offered_rates": [list(r) for r in offered_rates()],
            "board_rates": board_of(prefs).to_rates(),  # where the rates editor starts
            "paired": self.paired(token),
        }

    # --- running ------------------------------------------------------------------------

    def _serve(self) -> None:
        while not self._closing:
            self._httpd.handle_request()

    def close(self) -> None:
        """Stop serving: pages following are let go, the socket is closed. Idempotent."""
        with self._changed:
            if self._closing:
                return
            self._closing = True
            self._changed.notify_all()
        host, port = self.address
        wake = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
        with suppress(OSError):  # the accepting thread sleeps in accept: a connection wakes it
            socket.create_connection((wake, port), timeout=1.0).close()
        self._thread.join(timeout=5.0)
        self._httpd.server_close()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], handler) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)


def _handler(web: WebServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        server_version = "companion"
        sys_version = ""

    Handler.web = web
    return Handler


class _Handler(BaseHTTPRequestHandler):
    web: WebServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass  # a request is not news; the journal keeps the table's own lines

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        web = self.web
        try:
            if path in STATIC:
                name, kind = STATIC[path]
                page = resources.files("companion.web").joinpath("static", name).read_bytes()
                self._send(HTTPStatus.OK, page, kind)
            elif path == "/api/view":
                self._json_bytes(web.latest()[1])
            elif path == "/api/events":
                self._events()
            elif path == "/api/words":
                self._json(catalog(web.table.prefs().language).messages)
            elif path == "/api/history":
                self._json(history_data(web.table.state_dir, self._words()))
            elif path == "/api/stats":
                self._json(stats_data(web.table.state_dir, self._words()))
            elif path == "/api/settings":
                self._json(web.settings_data(self._token()))
            else:
                raise Refused(HTTPStatus.NOT_FOUND, f"{path[:80]}: no such page")
        except Refused as e:
            self._error(e.status, str(e))
        except CompanionError as e:  # a history that cannot be read: said, not a traceback
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, str(e))

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        try:
            data = self._body()
            if path == "/api/pair/new":
                self.web.show_code()
                self._json({"shown": True}, HTTPStatus.ACCEPTED)
            elif path == "/api/pair":
                self._pair(data)
            elif path == "/api/settings":
                if not self.web.paired(self._token()):
                    raise Refused(HTTPStatus.FORBIDDEN, "not paired: ask for a code first")
                new = self.web.change_settings(data)
                self._json({"settings": new.to_dict()})
            else:
                raise Refused(HTTPStatus.NOT_FOUND, f"{path[:80]}: no such page")
        except SettingsError as e:
            self._error(HTTPStatus.BAD_REQUEST, str(e))
        except Refused as e:
            self._error(e.status, str(e))

    # --- the parts ----------------------------------------------------------------------

    def _pair(self, data: object) -> None:
        code = data.get("code") if isinstance(data, dict) else None
        if not isinstance(code, str):
            raise Refused(HTTPStatus.BAD_REQUEST, 'pairing: send {"code": "1234"}')
        token = self.web.pair(code)
        if token is None:
            raise Refused(HTTPStatus.FORBIDDEN, "pairing: wrong or expired code")
        cookie = f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
        self._json({"paired": True}, extra={"Set-Cookie": cookie})

    def _events(self) -> None:
        """Server-Sent Events: the view now, then each new one; a comment now and then
        so a phone that left is noticed. Ends when the server closes."""
        web = self.web
        if not web.follow():
            raise Refused(HTTPStatus.SERVICE_UNAVAILABLE, "too many pages follow the table")
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            for name, value in HEADERS.items():
                self.send_header(name, value)
            self.end_headers()
            version, data = web.latest()
            while True:
                self.wfile.write(b"data: " + data + b"\n\n")
                self.wfile.flush()
                while (news := web.wait_change(version, KEEPALIVE)) is None:
                    if web.closing:
                        return
                    self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
                version, data = news
        except OSError:  # the page went away
            pass
        finally:
            self.close_connection = True
            web.unfollow()

    def _body(self) -> object:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise Refused(HTTPStatus.BAD_REQUEST, "Content-Length: not a number") from None
        if length > BODY_MAX or length < 0:
            raise Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"body: over {BODY_MAX} bytes")
        if length == 0:
            return None
        if not self.headers.get("Content-Type", "").startswith("application/json"):
            # a form on another site cannot send this without asking first (CORS)
            raise Refused(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "body: send application/json")
        raw = self.rfile.read(length)
        try:
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise Refused(HTTPStatus.BAD_REQUEST, f"body: not JSON ({e})") from None

    def _token(self) -> str | None:
        try:
            cookie = SimpleCookie(self.headers.get("Cookie", ""))
        except CookieError:
            return None
        return cookie[COOKIE].value if COOKIE in cookie else None

    def _words(self):
        return catalog(self.web.table.prefs().language)

    def _json(self, data: object, status=HTTPStatus.OK, extra: dict | None = None) -> None:
        body = json.dumps(data, ensure_ascii=False).encode()
        self._send(status, body, "application/json; charset=utf-8", extra)

    def _json_bytes(self, body: bytes) -> None:
        self._send(HTTPStatus.OK, body, "application/json; charset=utf-8")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._json({"error": message}, status)

    def _send(self, status, body: bytes, kind: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in {**HEADERS, **(extra or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
