"""The page's server under attack, over raw sockets on 127.0.0.1: no request is ever
read out of another's body, slow clients are shed by their deadlines and by fresh ones,
posts come from the page itself, and keep-alive connections are answered.

Every wait is bounded by a socket timeout or a count; where a deadline is under test the
server's is short and the test asserts what happens, not how fast.
"""

from __future__ import annotations

import contextlib
import http.client
import select
import socket

import pytest
from test_web import Served, raw

from companion.web import server as server_module
from companion.web.server import _Open, make_room, same_origin

HIDDEN = (
    b"POST /api/pair/new HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/json\r\nContent-Length: 0\r\n\r\n"
)


def head(first: bytes, *headers: bytes, body: bytes = HIDDEN, length: bool = True) -> bytes:
    lines = [first, b"Host: 127.0.0.1", *headers]
    if length:
        lines.append(b"Content-Length: " + str(len(body)).encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def everything(port: int, request: bytes) -> bytes:
    """All the server says to ``request`` until it closes the connection (a few s at most)."""
    with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
        # closed while we sent: what it said (if anything) is still to read
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(request)
        said = b""
        try:
            while chunk := sock.recv(65536):
                said += chunk
        except ConnectionResetError:
            pass
        except TimeoutError:
            pytest.fail(f"the connection was kept open after {said[:60]!r}")
    return said


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path, deadline=2.0)
    yield s
    s.server.close()


PLAIN = b"Content-Type: text/plain"
JSON = b"Content-Type: application/json"


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (head(b"POST /api/pair HTTP/1.1", PLAIN), b"415"),  # a cross-site form's kind
        (head(b"POST /api/pair HTTP/1.1"), b"415"),  # no kind at all
        (
            head(b"POST /api/pair HTTP/1.1", b"Content-Type: application/x-www-form-urlencoded"),
            b"415",
        ),
        (head(b"POST /api/pair HTTP/1.1", JSON, b"Origin: http://evil.example"), b"403"),
        (head(b"POST /api/pair HTTP/1.1", JSON, b"Origin: null"), b"403"),
        (
            head(
                b"POST /api/pair HTTP/1.1",
                JSON,
                b"Transfer-Encoding: chunked",
                length=False,
                body=hex(len(HIDDEN))[2:].encode() + b"\r\n" + HIDDEN + b"\r\n0\r\n\r\n",
            ),
            b"411",
        ),
        (head(b"POST /api/pair HTTP/1.1", JSON, b"Content-Length: 0"), b"400"),  # two lengths
        (head(b"POST /api/pair HTTP/1.1", JSON, b"Content-Length: 9000", length=False), b"413"),
        (
            head(
                b"POST /api/nowhere HTTP/1.1",
                JSON,
                b"Content-Length: +" + str(len(HIDDEN)).encode(),
                length=False,
            ),
            b"400",
        ),
        (head(b"POST /api/pair HTTP/1.1", JSON, length=False), b"411"),  # where does it end?
        (head(b"POST /api/pair HTTP/1.1", PLAIN, b"Expect: 100-continue"), b"415"),  # no 100
        (  # a space before the colon: not the length to the server, one to a proxy
            head(b"POST /api/pair HTTP/1.1", JSON, b"Content-Length : 105", length=False),
            b"400",
        ),
        (head(b"POST /api/pair HTTP/1.1", JSON, b"Content-Length 105", length=False), b"400"),
        (head(b"POST /api/pair HTTP/1.1", JSON, b"Con\x00tent-Length: 105", length=False), b"400"),
        (
            head(
                b"POST /api/pair HTTP/1.1", JSON, b"X-A: b", b"\tContent-Length: 105", length=False
            ),
            b"400",
        ),  # folded into the header before it
        (head(b"GET /api/view HTTP/1.1"), b"200"),  # a GET with a body
        (head(b"GET /api/view HTTP/1.1").replace(b"127.0.0.1", b"evil.example", 1), b"421"),
        (head(b"HEAD /api/view HTTP/1.1"), b"501"),
        (head(b"PUT /api/settings HTTP/1.1", JSON), b"501"),
    ],
)
def test_no_request_is_read_out_of_another_ones_body(served, request_bytes, status):
    said = everything(served.server.address[1], request_bytes)
    assert said.startswith(b"HTTP/1.1 " + status)
    assert said.count(b"HTTP/1.") == 1  # one answer, then the connection is closed
    assert served.events == []  # no code flashed on the table


def test_a_refusal_then_the_hidden_request_on_a_new_connection_is_still_one_code(served):
    everything(served.server.address[1], head(b"POST /api/pair/new HTTP/1.1", PLAIN))
    status, _ = raw(served, HIDDEN)  # said openly, it works
    assert status == 202 and len(served.events) == 1


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://127.0.0.1:8080", "127.0.0.1:8080", True),
        ("http://santo.local", "santo.local:80", True),
        ("http://Santo.Local:8080", "santo.local:8080", True),
        ("http://[::1]:8080", "[::1]:8080", True),
        ("http://127.0.0.1:8081", "127.0.0.1:8080", False),
        ("https://evil.example", "127.0.0.1:8080", False),
        ("https://127.0.0.1:8080", "127.0.0.1:8080", False),  # the page is http only
        ("null", "127.0.0.1", False),
        ("http://127.0.0.1:99999", "127.0.0.1:99999", False),
        ("file://", "127.0.0.1", False),
    ],
)
def test_an_origin_must_be_the_pages_own(origin, host, same):
    assert same_origin(origin, host) is same


def test_the_page_posting_with_its_own_origin_pairs(served):
    port = served.server.address[1]
    origin = f"Origin: http://127.0.0.1:{port}".encode()
    request = head(b"POST /api/pair/new HTTP/1.1", JSON, origin, body=b"")
    request = request.replace(b"Host: 127.0.0.1", f"Host: 127.0.0.1:{port}".encode())
    assert (
        everything(
            port, request + HIDDEN.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n")
        ).count(b"HTTP/1.1 202")
        == 1
    )  # the first pairs; the second, a minute early, is 429
    assert len(served.events) == 1


def closed_while_trickling(sock: socket.socket, start: bytes, drip: bytes, most: int) -> bool:
    """Sends ``start`` then ``drip`` a byte at a time, each after waiting 50 ms for the
    server to close; whether it did within ``most`` bytes."""
    sock.sendall(start)
    for n in range(most):
        readable, _, _ = select.select([sock], [], [], 0.05)
        if readable:
            try:
                return sock.recv(4096) == b""
            except ConnectionResetError:
                return True
        try:
            sock.send(drip[n % len(drip) : n % len(drip) + 1])
        except (BrokenPipeError, ConnectionResetError):
            return True
    return False


def test_headers_trickled_a_byte_at_a_time_are_cut_at_the_deadline(tmp_path):
    served = Served(tmp_path, deadline=0.3)  # each byte well inside the stall timeout
    try:
        with socket.create_connection(("127.0.0.1", served.server.address[1]), timeout=5) as s:
            start = b"GET /api/view HTTP/1.1\r\nHost: localhost\r\n"
            assert closed_while_trickling(s, start, b"X-Slow: aaaa\r\n", 200)
    finally:
        served.server.close()


def test_a_body_trickled_a_byte_at_a_time_is_cut_at_the_deadline(tmp_path):
    served = Served(tmp_path, deadline=0.3)
    try:
        with socket.create_connection(("127.0.0.1", served.server.address[1]), timeout=5) as s:
            start = head(b"POST /api/pair HTTP/1.1", JSON, body=b"")
            start = start.replace(b"Content-Length: 0", b"Content-Length: 4000")
            assert closed_while_trickling(s, start, b" ", 200)
        assert served.events == []
    finally:
        served.server.close()


def test_an_idle_keep_alive_connection_is_closed_at_the_deadline(tmp_path):
    served = Served(tmp_path, deadline=0.3)
    try:
        with socket.create_connection(("127.0.0.1", served.server.address[1]), timeout=5) as s:
            s.sendall(b"GET /api/view HTTP/1.1\r\nHost: localhost\r\n\r\n")
            said = b""
            while chunk := s.recv(4096):  # the answer, then the close (timeout: 5 s)
                said += chunk
            assert said.startswith(b"HTTP/1.1 200") and said.count(b"HTTP/1.1") == 1
    finally:
        served.server.close()


def test_two_requests_on_one_keep_alive_connection_both_answer(served):
    connection = http.client.HTTPConnection("127.0.0.1", served.server.address[1], timeout=5)
    try:
        connection.request("GET", "/api/view")
        first = connection.getresponse()
        assert first.status == 200 and first.read() == b'{"phase":null}'
        sock = connection.sock
        connection.request("POST", "/api/pair/new", b"", {"Content-Type": "application/json"})
        second = connection.getresponse()
        assert second.status == 202 and second.read() == b'{"shown": true}'
        assert connection.sock is sock  # the same connection, kept alive
    finally:
        connection.close()


def test_a_fresh_client_is_served_while_64_slow_ones_hold_connections(tmp_path):
    served = Served(tmp_path, deadline=60.0)  # no help from the deadlines: room is made
    port = served.server.address[1]
    slow: list[socket.socket] = []
    try:
        for n in range(64):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            if n % 2:  # half of them started a request and trickle it; half say nothing
                sock.sendall(b"GET /api/vi")
            slow.append(sock)
        with socket.create_connection(("127.0.0.1", port), timeout=1.0) as fresh:
            fresh.sendall(b"GET /api/view HTTP/1.1\r\nHost: localhost\r\n\r\n")
            said = fresh.recv(4096)
        assert said.startswith(b"HTTP/1.1 200")
        assert served.server.connections <= server_module.CONNECTIONS
    finally:
        for sock in slow:
            sock.close()
        served.server.close()


def test_room_is_made_from_the_longest_waiting_of_the_busiest_address():
    def opened(*rows: tuple[str, float, bool]) -> dict[object, _Open]:
        return {n: _Open(host, since, busy) for n, (host, since, busy) in enumerate(rows)}

    # room for all: no one leaves
    assert make_room(opened(("a", 1, False)), "a", 3, 2) == (True, None)
    # an address at its share gives up its own longest waiting connection
    assert make_room(opened(("a", 2, False), ("a", 1, False), ("b", 0, False)), "a", 9, 2) == (
        True,
        1,
    )
    # full: the address with the most gives up one, not the quiet one
    conns = opened(("b", 0, False), ("a", 2, False), ("a", 1, True), ("a", 3, False))
    assert make_room(conns, "c", 4, 9) == (True, 1)
    # all of the busiest are answering: another waiting one
    assert make_room(opened(("a", 1, True), ("a", 2, True), ("b", 5, False)), "c", 3, 9) == (
        True,
        2,
    )
    # nobody waits: refused
    assert make_room(opened(("a", 1, True), ("b", 2, True)), "c", 2, 9) == (False, None)
    assert make_room(opened(("a", 1, True), ("a", 2, True)), "a", 9, 2) == (False, None)


def test_a_request_head_larger_than_its_limit_is_answered_431_and_closed(served):
    """Headers are read up to HEAD_MAX bytes: 40 connections of 100 headers of 64 KB each
    (http.server's own limits) would hold hundreds of MB on a Pi Zero."""
    big = b"X-Filler: " + b"a" * 60_000
    said = everything(served.server.address[1], head(b"GET /api/view HTTP/1.1", big))
    assert said.startswith(b"HTTP/1.1 431 ") and said.count(b"HTTP/1.") == 1  # then closed
    long_line = b"GET /" + b"a" * 17_000 + b" HTTP/1.1"
    said = everything(served.server.address[1], head(long_line, length=False, body=b""))
    assert said.startswith(b"HTTP/1.1 431 ") and said.count(b"HTTP/1.") == 1
    fits = b"X-Filler: " + b"a" * 10_000  # a large head that fits is served
    assert everything(served.server.address[1], head(b"GET /api/view HTTP/1.1", fits)).startswith(
        b"HTTP/1.1 200"
    )
