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

Hardened for a LAN (docs/web.md): the Host header must name this machine (its
hostname, hostname.local, localhost or an IP address: no DNS rebinding), every POST
is application/json (a page elsewhere cannot send it without asking first) from this
page's own Origin when one is given, bodies are small and whole, a request's line and
headers and then its body must each arrive within ``DEADLINE`` (an idle keep-alive
connection too), a body not read is never parsed as a request (the connection is
closed after the answer), connections are capped in all and per address, a new
connection takes the place of the one that waited longest without a request when full,
and a refusal is one line with a catalog key the page words in the table's language.
"""

from __future__ import annotations

import io
import ipaddress
import json
import math
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from email.message import Message
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..errors import Closing, CompanionError
from ..game.boards import offered_rates, profile_names
from ..game.settings import KEYS, DeviceSettings, SettingsError, board_of, changed
from ..table import View
from ..table.events import ChangeSettings, CodeUsed, Event, ShowCode
from ..ui.catalog import Catalog, catalog
from .pairing import LIFETIME, Locked, NoCode, NotPaired, Pairing, TooSoon, WrongCode, well_formed
from .tables import HistoryPages
from .viewjson import view_bytes

if TYPE_CHECKING:  # socketserver's: a stream's socket, or a datagram and its socket
    from socketserver import _RequestType as Request

COOKIE = "companion_pair"
BODY_MAX = 4096  # a settings change is a few hundred bytes
# bytes a request's line and headers may take (a phone's are under 2 KB): 40 connections
# of 100 headers of 64 KB each (http.server's own limits) would hold 250 MB on a Pi
HEAD_MAX = 16 * 1024
TIMEOUT = 30.0  # seconds a socket may stall writing an answer
DEADLINE = 5.0  # seconds for a request's line and headers (from the wait for it), then its body
CONNECTIONS = 32  # at once, followers included; past it a waiting one makes room, else 503
PER_ADDRESS = 24  # of them from one address: the rest stay for the others
BACKLOG = 128  # connections the kernel holds before accept: a burst is not dropped
DEAD_PEER = 60  # seconds unanswered before the kernel drops a following page's socket
KEEPALIVE = 25.0  # seconds between SSE comments while a page follows (proxies, dead peers)
FOLLOWERS = 16  # pages following at once; more get 503 (a Pi's threads are dear)
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/favicon.ico": ("favicon.ico", "image/x-icon"),  # drawn by scripts/make_icon.py
}
Headers = dict[str, str]
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
    volume: bool = True  # the buzzer has a volume to set (a passive one): the page offers it


class Refused(CompanionError):
    """A request the server says no to: an HTTP status, one line in English (logs, curl)
    and the catalog ``key`` with its ``values`` that the page words."""

    def __init__(self, status: HTTPStatus, message: str, word: str, /, **values: object):
        super().__init__(message)
        self.status, self.key, self.values = status, word, values

    def answer(self) -> dict[str, object]:
        return {"error": str(self), "key": self.key, "values": self.values}


def not_paired(why: NotPaired) -> Refused:
    """A code that did not pair, as the page words it (403)."""
    if isinstance(why, WrongCode):
        return Refused(HTTPStatus.FORBIDDEN, f"pairing: {why}", "web.pair_wrong", n=why.tries)
    if isinstance(why, Locked):
        return locked_out(HTTPStatus.FORBIDDEN, why.seconds)
    assert isinstance(why, NoCode)
    return Refused(HTTPStatus.FORBIDDEN, "pairing: no code on show", "web.pair_none")


def locked_out(status: HTTPStatus, seconds: float) -> Refused:
    """Pairing locked for ``seconds``: said in whole minutes, rounded up, from a minute
    on (the lock-outs are 1 to 60 minutes), else in seconds."""
    wait = max(1, math.ceil(seconds))
    if wait >= 60:
        minutes = math.ceil(wait / 60)
        return Refused(
            status, f"pairing: locked for {minutes} min", "web.pair_locked", n=minutes, seconds=wait
        )
    return Refused(
        status, f"pairing: locked for {wait} s", "web.pair_locked_seconds", n=wait, seconds=wait
    )


class WebServer(Closing):
    """Serves the page for ``table`` on ``address``:``port`` (0: any free port) from a
    thread of its own, from construction until ``close`` (or the end of a ``with``).
    ``timeout``: the seconds a socket may stall writing an answer; ``deadline``: the
    seconds a request's line and headers, then its body, may take to arrive."""

    def __init__(
        self,
        table: Table,
        address: str,
        port: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        pairing: Pairing | None = None,
        timeout: float = TIMEOUT,
        deadline: float = DEADLINE,
    ):
        self.table = table
        self.timeout = timeout
        self.deadline = deadline
        self.pairing = pairing or Pairing(clock)
        self._lock = threading.Lock()  # the pairing
        self._changed = threading.Condition()
        self._view = b'{"phase":null}'
        self._version = 0
        self._followers = 0
        self._closing = False
        self.hosts = _hosts(address)
        self.history = HistoryPages(table.state_dir)
        self._httpd = _Server((address, port), _handler(self))
        self._httpd.timeout = None  # block in accept: no polling while nobody looks
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)
        self._thread.start()

    @property
    def connections(self) -> int:
        """The connections open now, followers included (at most ``CONNECTIONS``)."""
        return self._httpd.connections

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
            try:
                code = self.pairing.new_code()
            except TooSoon as e:
                if e.locked:
                    raise locked_out(HTTPStatus.TOO_MANY_REQUESTS, e.seconds) from None
                seconds = max(1, round(e.seconds))
                raise Refused(
                    HTTPStatus.TOO_MANY_REQUESTS,
                    f"pairing: a code is on show, no new one for {seconds} s",
                    "web.error.too_soon",
                    seconds=seconds,
                ) from None
        self.table.put(ShowCode(code, LIFETIME))

    def pair(self, code: str) -> str:
        """A token for the code on show; else Refused, saying what is true: how many
        tries are left, for how long pairing is locked, or that no code is on show."""
        if not well_formed(code):  # before comparing: nothing odd reaches the bytes
            raise Refused(
                HTTPStatus.BAD_REQUEST, 'pairing: send {"code": "123456"}', "web.error.code"
            )
        with self._lock:
            try:
                token = self.pairing.pair(code)
            except NotPaired as e:
                raise not_paired(e) from None
        self.table.put(CodeUsed())  # the table stops showing it
        return token

    def paired(self, token: str | None) -> bool:
        with self._lock:
            return self.pairing.paired(token)

    def change_settings(self, data: object) -> DeviceSettings:
        """``data`` checked as the settings file is (SettingsError names the key and why),
        then put on the table's queue; the settings as they will be."""
        if isinstance(data, dict) and (unknown := sorted(set(data) - set(KEYS))):
            name = json.dumps(unknown[0])[:40]
            raise Refused(
                HTTPStatus.BAD_REQUEST,
                f"settings: unknown key {name}",
                "web.error.unknown_key",
                key=name,
            )
        current = self.table.prefs()
        new = DeviceSettings.from_dict(data, base=current, languages=self.table.languages)
        keys = changed(current, new)
        if keys:
            self.table.put(ChangeSettings(tuple((k, getattr(new, k)) for k in keys)))
        return new

    def settings_data(self, token: str | None) -> dict[str, object]:
        prefs = self.table.prefs()
        return {
            "settings": prefs.to_dict(),
            "languages": {code: catalog(code).t("language") for code in self.table.languages},
            "boards": profile_names(),
            "offered_rates": [list(r) for r in offered_rates()],
            "board_rates": board_of(prefs).to_rates(),  # where the rates editor starts
            "volume": self.table.volume,  # offered as on the device: a passive buzzer's
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


def _hosts(address: str) -> frozenset[str]:
    """The names a Host header may give besides an IP address: this machine's."""
    name = socket.gethostname().lower().rstrip(".")
    short = name.split(".")[0]
    return frozenset({"localhost", name, short, f"{short}.local", address.lower()})


def host_allowed(header: str | None, hosts: frozenset[str]) -> bool:
    """Whether a Host header names this machine: an IP address or one of ``hosts`` (a
    page on another name that resolves here, DNS rebinding, is refused)."""
    if not header:
        return False
    host = header.strip().lower()
    if host.startswith("["):  # [::1]:8080
        host = host[1 : host.find("]")] if "]" in host else ""
    elif host.count(":") == 1:
        host = host.split(":")[0]
    host = host.rstrip(".")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host in hosts
    return True


@dataclass
class _Open:
    """A connection being served: from ``host``; ``busy`` while a request is answered
    (or followed), else waiting for one ``since`` (a monotonic time)."""

    host: str
    since: float
    busy: bool = False


def make_room(
    opened: dict[object, _Open], host: str, total: int, per_address: int
) -> tuple[bool, object | None]:
    """Whether a new connection from ``host`` may be served, and the connection that
    gives up its place for it (None: no need). Past ``per_address`` from ``host`` it
    takes the place of that address's longest waiting one; past ``total``, of the
    longest waiting one of the address with the most. A connection answering (or
    following) is never taken: when none waits, the new one is refused."""
    mine = [key for key, o in opened.items() if o.host == host]
    if len(mine) >= per_address:
        among = mine
    elif len(opened) >= total:
        counts: dict[str, int] = {}
        for o in opened.values():
            counts[o.host] = counts.get(o.host, 0) + 1
        most = max(counts.values())
        among = [key for key, o in opened.items() if counts[o.host] == most]
        if not any(not opened[key].busy for key in among):
            among = list(opened)
    else:
        return True, None
    waiting = [key for key in among if not opened[key].busy]
    if not waiting:
        return False, None
    return True, min(waiting, key=lambda key: opened[key].since)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = BACKLOG

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self._count_lock = threading.Lock()
        self._open: dict[object, _Open] = {}
        super().__init__(address, handler)

    @property
    def connections(self) -> int:
        with self._count_lock:
            return len(self._open)

    def mark(self, request: object, busy: bool) -> None:
        """A connection's state: answering (``busy``), or waiting for a request from now."""
        with self._count_lock:
            if (o := self._open.get(request)) is not None:
                o.busy, o.since = busy, time.monotonic()

    def process_request(self, request: Request, client_address: object) -> None:
        host = str(client_address[0]) if isinstance(client_address, tuple) else ""
        with self._count_lock:
            room, victim = make_room(self._open, host, CONNECTIONS, PER_ADDRESS)
            full = not room
            if room:
                if victim is not None:  # it waited longest: its thread sees the end of input
                    del self._open[victim]
                    with suppress(OSError):
                        victim.shutdown(socket.SHUT_RDWR)  # type: ignore[attr-defined]
                self._open[request] = _Open(host, time.monotonic())
        if full:  # said at once from the accepting thread, a second at most
            sock = request[1] if isinstance(request, tuple) else request  # a stream's: itself
            with suppress(OSError):
                sock.settimeout(1.0)
                sock.sendall(_BUSY)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(request)
            raise

    def process_request_thread(self, request: Request, client_address: object) -> None:
        # ThreadingMixIn's, with the place given back before the socket is closed: once
        # a client sees the close, the count already says so.
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self._release(request)
            self.shutdown_request(request)

    def _release(self, request: object) -> None:
        with self._count_lock:
            self._open.pop(request, None)


def _busy_answer() -> bytes:
    body = json.dumps(
        {"error": "busy: too many connections", "key": "web.error.busy", "values": {}}
    ).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


_BUSY = _busy_answer()


def _handler(web: WebServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        server_version = "companion"
        sys_version = ""
        timeout = web.timeout  # a stalled write raises: no thread is held for ever

    Handler.web = web
    return Handler


def keepalive(sock: socket.socket) -> None:
    """A following page that vanished (a phone off the Wi-Fi) is dropped by the kernel
    within about ``DEAD_PEER`` seconds, where the platform has the options."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (
        ("TCP_KEEPIDLE", DEAD_PEER // 2),
        ("TCP_KEEPINTVL", DEAD_PEER // 6),
        ("TCP_KEEPCNT", 3),
        ("TCP_USER_TIMEOUT", DEAD_PEER * 1000),
    ):
        if hasattr(socket, name):
            with suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)


class _DeadlineReader(io.RawIOBase):
    """A socket's input that ends in TimeoutError at ``deadline`` (a monotonic time),
    however the bytes trickle in: a socket timeout alone restarts at every byte."""

    def __init__(self, sock: socket.socket, stall: float | None) -> None:
        self.sock, self.stall = sock, stall
        self.deadline = float("inf")
        self.budget = float("inf")  # bytes that may still be read (a request's head: HEAD_MAX)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took too long")
        if self.budget <= 0:
            raise HeadTooLarge(f"a request's line and headers are over {HEAD_MAX} bytes")
        if len(buffer) > self.budget:
            buffer = memoryview(buffer)[: int(self.budget)]
        self.sock.settimeout(left if self.stall is None else min(left, self.stall))
        try:
            got = self.sock.recv_into(buffer)
        finally:
            self.sock.settimeout(self.stall)  # writing an answer: the stall timeout alone
        self.budget -= got
        return got


class HeadTooLarge(ConnectionAbortedError):
    """A request's line and headers went past ``HEAD_MAX`` bytes: answered 431, closed."""


def _too_large_answer() -> bytes:
    body = json.dumps(
        {"error": f"headers: over {HEAD_MAX} bytes", "key": "web.error.body", "values": {}}
    ).encode()
    head = (
        "HTTP/1.1 431 Request Header Fields Too Large\r\n"
        "Content-Type: application/json; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


_TOO_LARGE = _too_large_answer()


class _Handler(BaseHTTPRequestHandler):
    web: WebServer
    protocol_version = "HTTP/1.1"
    timeout = TIMEOUT  # a stalled write raises: no thread is held for ever
    disable_nagle_algorithm = True  # an answer leaves at once, a keep-alive one too

    def log_message(self, format: str, *args: object) -> None:
        pass  # a request is not news; the journal keeps the table's own lines

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the socket's own file: ours reads within the deadlines
        self._input = _DeadlineReader(self.connection, self.timeout)
        self.rfile = io.BufferedReader(self._input)
        self._consumed = True

    def handle_one_request(self) -> None:
        """One request: its line and headers within ``deadline`` of the wait for them
        (so an idle keep-alive connection is closed then), its body within as much again."""
        self.server.mark(self.request, busy=False)  # type: ignore[attr-defined]
        self._input.deadline = time.monotonic() + self.web.deadline
        self._input.budget = HEAD_MAX
        self._consumed = True
        try:
            super().handle_one_request()
        except HeadTooLarge:  # where it ends is not known: said, and nothing read after
            self.close_connection = True
            with suppress(OSError):
                self.wfile.write(_TOO_LARGE)
        except OSError:  # the peer left, stalled, or its place was taken: nobody to answer
            self.close_connection = True

    def handle_expect_100(self) -> bool:
        """No "100 Continue" before the request is checked: a refusal (413, 415, 421,
        403) comes first, so no client is invited to send a body that is refused."""
        return True

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        self._consumed = not _has_body(self.headers)
        problem = framing_problem(self.headers)
        if problem is not None:  # where this request ends is not known: nothing follows it
            self._consumed = False
            self._error(Refused(HTTPStatus.BAD_REQUEST, f"headers: {problem}", "web.error.body"))
            return False
        return True

    def do_GET(self) -> None:
        self._answer(self._get)

    def do_POST(self) -> None:
        self._answer(self._post)

    def _busy(self) -> None:
        """The request is whole: its connection is not one to make room with."""
        self.server.mark(self.request, busy=True)  # type: ignore[attr-defined]

    def _answer(self, serve: Callable[[str], None]) -> None:
        """Every request gets an answer: a refusal in one line, and for a fault of ours
        a one-line 500 (the traceback goes to the journal, the server goes on). A body
        left unread closes the connection after the answer: it is never a request."""
        path = self.path.split("?", 1)[0]
        try:
            if not host_allowed(self.headers.get("Host"), self.web.hosts):
                raise Refused(
                    HTTPStatus.MISDIRECTED_REQUEST,
                    "Host: not this machine's name or address",
                    "web.error.host",
                )
            serve(path)
        except Refused as e:
            self._error(e)
        except SettingsError as e:
            key = str(e).split(":", 1)[0]
            key = key if key in KEYS else "settings"
            self._error(Refused(HTTPStatus.BAD_REQUEST, str(e), "web.error.setting", key=key))
        except CompanionError as e:  # a history that cannot be read: said, not a traceback
            self._error(Refused(HTTPStatus.SERVICE_UNAVAILABLE, str(e), "web.error.history"))
        except OSError:  # the peer stalled or left: nobody to answer
            self.close_connection = True
        except Exception:
            sys.stderr.write(f"companion web: {self.command} {path[:80]} failed\n")
            traceback.print_exc()
            fault = Refused(HTTPStatus.INTERNAL_SERVER_ERROR, "server fault", "web.error.fault")
            with suppress(OSError):
                self._error(fault)
            self.close_connection = True

    def _get(self, path: str) -> None:
        web = self.web
        self._busy()
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
            self._json(web.history.history(self._words()))
        elif path == "/api/stats":
            self._json(web.history.stats(self._words()))
        elif path == "/api/settings":
            self._json(web.settings_data(self._token()))
        else:
            raise _not_found(path)

    def _post(self, path: str) -> None:
        origin = self.headers.get("Origin")
        if origin is not None and not same_origin(origin, self.headers.get("Host", "")):
            raise Refused(HTTPStatus.FORBIDDEN, "Origin: not this page's", "web.error.origin")
        data = self._body()
        self._busy()
        if path == "/api/pair/new":
            self.web.show_code()
            self._json({"shown": True}, HTTPStatus.ACCEPTED)
        elif path == "/api/pair":
            self._pair(data)
        elif path == "/api/settings":
            if not self.web.paired(self._token()):
                raise Refused(
                    HTTPStatus.FORBIDDEN, "not paired: ask for a code first", "web.error.unpaired"
                )
            new = self.web.change_settings(data)
            self._json({"settings": new.to_dict()})
        else:
            raise _not_found(path)

    # --- the parts ----------------------------------------------------------------------

    def _pair(self, data: object) -> None:
        code = data.get("code") if isinstance(data, dict) else None
        if not isinstance(code, str):
            raise Refused(
                HTTPStatus.BAD_REQUEST, 'pairing: send {"code": "123456"}', "web.error.code"
            )
        token = self.web.pair(code)
        cookie = f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
        self._json({"paired": True}, extra={"Set-Cookie": cookie})

    def _events(self) -> None:
        """Server-Sent Events: the view now, then each new one; a comment now and then
        so a phone that left is noticed. Ends when the server closes."""
        web = self.web
        if not web.follow():
            raise Refused(
                HTTPStatus.SERVICE_UNAVAILABLE, "too many pages follow the table", "web.error.busy"
            )
        try:
            keepalive(self.connection)
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
        except OSError:  # the page went away, or stopped reading for TIMEOUT
            pass
        finally:
            self.close_connection = True
            web.unfollow()

    def _body(self) -> object:
        """The request's JSON: application/json always (an empty body too), whole,
        at most ``BODY_MAX`` bytes, no deeper than JSON of settings needs."""
        if "Transfer-Encoding" in self.headers:
            why = "give Content-Length, not Transfer-Encoding"
            raise _bad_body(HTTPStatus.LENGTH_REQUIRED, why)
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            # a form on another site cannot send this without asking first (CORS)
            raise _bad_body(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send application/json")
        lengths = self.headers.get_all("Content-Length")
        if not lengths:  # a body may follow all the same: its end is not known
            raise _bad_body(HTTPStatus.LENGTH_REQUIRED, "give Content-Length (0: no body)")
        given = lengths[0].strip()
        if len(lengths) > 1 or not (given.isascii() and given.isdigit()):
            raise _bad_body(HTTPStatus.BAD_REQUEST, "Content-Length is not one number")
        length = int(given)
        if length > BODY_MAX:
            raise _bad_body(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"over {BODY_MAX} bytes")
        if length == 0:
            return None
        self._input.deadline = time.monotonic() + self.web.deadline
        self._input.budget = float("inf")  # the body's own limit is its length
        raw = self.rfile.read(length)  # the deadline ends a body that never comes
        if len(raw) < length:
            raise _bad_body(HTTPStatus.BAD_REQUEST, "shorter than its Content-Length")
        self._consumed = True
        try:
            return json.loads(raw)
        except RecursionError:
            raise _bad_body(HTTPStatus.BAD_REQUEST, "nested too deep") from None
        except (ValueError, UnicodeDecodeError) as e:
            raise _bad_body(HTTPStatus.BAD_REQUEST, f"not JSON ({e})") from None

    def _token(self) -> str | None:
        try:
            cookie = SimpleCookie(self.headers.get("Cookie", ""))
        except CookieError:
            return None
        return cookie[COOKIE].value if COOKIE in cookie else None

    def _words(self) -> Catalog:
        return catalog(self.web.table.prefs().language)

    def _json(
        self, data: object, status: HTTPStatus = HTTPStatus.OK, extra: Headers | None = None
    ) -> None:
        body = json.dumps(data, ensure_ascii=True).encode()  # a lone surrogate is escaped
        self._send(status, body, "application/json; charset=utf-8", extra)

    def _json_bytes(self, body: bytes) -> None:
        self._send(HTTPStatus.OK, body, "application/json; charset=utf-8")

    def _error(self, refused: Refused) -> None:
        self._json(refused.answer(), refused.status)

    def _send(
        self, status: HTTPStatus, body: bytes, kind: str, extra: Headers | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in {**HEADERS, **(extra or {})}.items():
            self.send_header(name, value)
        if not self._consumed or status >= 400:  # what follows may be a body's rest,
            self.close_connection = True  # never a request: a refusal ends the connection
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)


def framing_problem(headers: Message) -> str | None:
    """Why a request's headers cannot be trusted to say where it ends (RFC 9112 5.1,
    5.2): a line that is no header (a space before the colon, no colon, a NUL), a header
    folded over lines, a name that is not a token. None: they can."""
    if headers.defects or headers.get_payload():
        return "a header line that is not NAME: VALUE"
    for name, value in headers.items():
        if not name or not set(name) <= TOKEN:
            return "a header name that is not a token"
        if "\r" in value or "\n" in value:
            return "a header folded over lines"
    return None


TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _has_body(headers: object) -> bool:
    """Whether a request's headers announce a body (any Content-Length but one "0")."""
    lengths = headers.get_all("Content-Length") or []  # type: ignore[attr-defined]
    chunked = headers.get("Transfer-Encoding") is not None  # type: ignore[attr-defined]
    return chunked or lengths not in ([], ["0"])


def same_origin(origin: str, host: str) -> bool:
    """Whether an Origin header names the page at ``host`` (its Host header), which is
    served over http only: a page on another site, or an opaque ``null`` one, may not
    post."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return False
    if parts.scheme != "http" or not parts.hostname:
        return False
    default = 80
    name = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    want = name if port in (None, default) else f"{name}:{port}"
    given = host.strip().lower()
    return given in (want, f"{want}:{default}" if port in (None, default) else want)


def _not_found(path: str) -> Refused:
    shown = json.dumps(path[:80])
    return Refused(HTTPStatus.NOT_FOUND, f"{shown}: no such page", "web.error.not_found")


def _bad_body(status: HTTPStatus, why: str) -> Refused:
    return Refused(status, f"body: {why}", "web.error.body")
