"""The page for phones' server: secrecy, pairing, settings, the history, closing.

Real servers on free ports of 127.0.0.1, spoken to over HTTP with urllib; the table is
stood in for by its public views and a list that takes the events it would queue.
"""

from __future__ import annotations

import json
import random
import socket
import sqlite3
import threading
import urllib.error
import urllib.request

import pytest
from helpers import BOARDS
from hypothesis import given, settings
from hypothesis import strategies as st
from test_secrecy import WORDS, moves, twin_of

from companion.game.randgame import random_game
from companion.game.record import GameRecord
from companion.game.settings import DeviceSettings
from companion.storage.history import MIGRATIONS, History, Kept
from companion.table import Timing, new_flow, public_view, settle, start, step
from companion.table.events import ChangeSettings, CodeUsed, PadDown, ShowCode
from companion.table.flow import step as table_step
from companion.table.state import Choosing, Phase
from companion.ui.catalog import languages
from companion.web import server as server_module
from companion.web.pairing import LIFETIME, TRIES, Locked, NoCode, Pairing, TooSoon, WrongCode
from companion.web.server import Table, WebServer
from companion.web.tables import LAST, HistoryPages
from companion.web.viewjson import view_bytes

TIMING = Timing(supply=1, countdown=3, reveal=1, step=1, scores=1, message=1)
ENDPOINTS = ("/api/view", "/api/words", "/api/history", "/api/stats", "/api/settings", "/")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Served:
    """A server on a free port for a stand-in table: its events land in ``events``."""

    def __init__(self, tmp_path, prefs: DeviceSettings | None = None, codes=("123456",), **options):
        self.events: list = []
        self.prefs = prefs or DeviceSettings()
        self.clock = Clock()
        made = iter(codes)
        table = Table(self.events.append, lambda: self.prefs, tuple(languages()), tmp_path)
        pairing = Pairing(self.clock, lambda: next(made))
        self.server = WebServer(table, "127.0.0.1", 0, clock=self.clock, pairing=pairing, **options)
        self.base = f"http://127.0.0.1:{self.server.address[1]}"
        self.cookie: str | None = None

    def get(self, path: str) -> tuple[int, bytes]:
        return self.request("GET", path)

    def post(self, path: str, data: object = None, kind: str = "application/json"):
        body = None if data is None else json.dumps(data).encode()
        status, answer = self.request("POST", path, body, kind)
        return status, json.loads(answer)

    def request(self, method: str, path: str, body: bytes | None = None, kind: str = ""):
        request = urllib.request.Request(self.base + path, data=body, method=method)
        if kind:
            request.add_header("Content-Type", kind)
        if self.cookie:
            request.add_header("Cookie", self.cookie)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                if "Set-Cookie" in response.headers:
                    self.cookie = response.headers["Set-Cookie"].split(";")[0]
                return response.status, response.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def first_event(self) -> bytes:
        """The first Server-Sent Event's data: the view as the page gets it live."""
        with urllib.request.urlopen(self.base + "/api/events", timeout=5) as response:
            assert response.headers["Content-Type"].startswith("text/event-stream")
            line = response.readline()
        assert line.startswith(b"data: ")
        return line[len(b"data: ") :].rstrip(b"\n")

    def pair(self) -> None:
        assert self.post("/api/pair/new")[0] == 202
        code = self.events[-1].code
        assert self.post("/api/pair", {"code": code}) == (200, {"paired": True})


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.server.close()


def locked(choose) -> tuple:
    """Three seats that have each placed two cards (``choose`` picks them from a hand):
    the countdown to the reveal is running."""
    now = 0.0
    flow, _ = start(new_flow(BOARDS, TIMING), 3, BOARDS[0], 30, now)
    now += 5  # the supply phase is over
    flow, _ = settle(flow, now)
    for seat in range(3):
        for card in choose(sorted(flow.game.state.hands[seat])):
            flow, _ = step(flow, PadDown(seat, int(card)), now)
    assert isinstance(flow.mode, Choosing) and flow.phase is Phase.COUNTDOWN
    return flow, now + 0.5


def test_locked_seats_look_the_same_on_every_endpoint_whatever_they_chose(tmp_path):
    seen = []
    for choose in (lambda hand: hand[:2], lambda hand: hand[-2:]):
        flow, now = locked(choose)
        s = Served(tmp_path)
        try:
            s.server.publish(public_view(flow, now))
            answers = {path: s.get(path) for path in ENDPOINTS}
            answers["events"] = (200, s.first_event())
        finally:
            s.server.close()
        seen.append((flow.mode.chosen, answers))
    (chosen_a, a), (chosen_b, b) = seen
    assert chosen_a != chosen_b
    assert a == b  # byte for byte
    view = json.loads(a["/api/view"][1])
    assert a["events"][1] == a["/api/view"][1]
    assert view["phase"] == "countdown" and view["counting"] is True
    assert view["body"] == {"kind": "ChoosingView", "need": 2, "placed": [2, 2, 2], "round": 1}


def test_the_view_holds_no_clock_value(served):
    flow, now = locked(lambda hand: hand[:2])
    served.server.publish(public_view(flow, now))
    early = served.get("/api/view")
    served.server.publish(public_view(flow, now + 1.6))  # another second on the countdown
    assert served.get("/api/view") == early


def test_the_pairing_code_is_on_the_table_never_on_the_page(served):
    flow, now = locked(lambda hand: hand[:2])
    assert served.post("/api/pair/new") == (202, {"shown": True})
    (shown,) = served.events
    assert shown == ShowCode("123456", 60.0)
    flow, _ = table_step(flow, shown, now)
    assert flow.notice.key == "notice.pair_code"
    assert dict(flow.notice.values) == {"code": "123456"}
    served.server.publish(public_view(flow, now))
    view = json.loads(served.get("/api/view")[1])
    assert view["notice"] == "Pairing code shown on the table"
    for path in ENDPOINTS:
        assert b"123456" not in served.get(path)[1], path
    assert served.post("/api/pair", {"code": "123456"})[0] == 200
    assert served.events[-1] == CodeUsed()
    flow, _ = table_step(flow, served.events[-1], now + 1)
    assert flow.notice is None  # used: the table shows it no longer


def test_a_change_needs_pairing_and_then_reaches_the_queue(served):
    assert served.post("/api/settings", {"target": 45}) == (
        403,
        {"error": "not paired: ask for a code first", "key": "web.error.unpaired", "values": {}},
    )
    assert served.events == []
    served.pair()
    status, answer = served.post("/api/settings", {"target": 45, "sound": False})
    assert status == 200 and answer["settings"]["target"] == 45
    assert served.events[-1] == ChangeSettings((("target", 45), ("sound", False)))
    assert json.loads(served.get("/api/settings")[1])["paired"] is True


def test_wrong_codes_lock_pairing_and_a_new_code_does_not_give_more_tries(tmp_path):
    s = Served(tmp_path, codes=("123456", "567890", "432109"))
    try:
        assert s.post("/api/pair/new")[0] == 202
        for _ in range(TRIES):
            assert s.post("/api/pair", {"code": "000000"})[0] == 403
        assert s.post("/api/pair", {"code": "123456"})[0] == 403  # gone after the wrong tries
        status, answer = s.post("/api/pair/new")  # and no new code while locked out
        assert status == 429 and answer["key"] == "web.pair_locked"
        assert answer["values"] == {"n": 1, "seconds": 60} and len(s.events) == 1
        s.clock.now += 60
        assert s.post("/api/pair/new")[0] == 202
        s.clock.now += 60  # a code lasts a minute
        assert s.post("/api/pair", {"code": "567890"})[0] == 403
        assert s.post("/api/pair/new")[0] == 202
        assert s.post("/api/pair", {"code": "432109"}) == (200, {"paired": True})
    finally:
        s.server.close()


def test_a_wrong_code_says_the_tries_left_and_the_same_code_still_pairs(served):
    assert served.post("/api/pair/new")[0] == 202
    answers = [served.post("/api/pair", {"code": "000000"}) for _ in range(TRIES - 1)]
    assert [status for status, _ in answers] == [403] * (TRIES - 1)
    assert [a["key"] for _, a in answers] == ["web.pair_wrong"] * (TRIES - 1)
    assert [a["values"]["n"] for _, a in answers] == list(range(TRIES - 1, 0, -1))
    assert answers[0][1]["error"] == f"pairing: wrong code, {TRIES - 1} tries left"
    code = served.events[-1].code  # still the one on show: no new one was asked for
    assert served.post("/api/pair", {"code": code}) == (200, {"paired": True})


def test_the_wrong_code_that_locks_pairing_says_for_how_long_and_so_does_every_try_then(served):
    assert served.post("/api/pair/new")[0] == 202
    for _ in range(TRIES - 1):
        served.post("/api/pair", {"code": "000000"})
    status, answer = served.post("/api/pair", {"code": "000000"})
    assert status == 403 and answer["key"] == "web.pair_locked"
    assert answer["values"] == {"n": 1, "seconds": 60}
    served.clock.now += 30
    status, answer = served.post("/api/pair", {"code": "000000"})
    assert status == 403 and answer["key"] == "web.pair_locked_seconds"
    assert answer["values"] == {"n": 30, "seconds": 30}
    status, answer = served.post("/api/pair/new")
    assert status == 429 and answer["values"] == {"n": 30, "seconds": 30}


def test_a_code_once_expired_or_used_says_to_ask_for_a_new_one(served):
    status, answer = served.post("/api/pair", {"code": "123456"})  # none asked for yet
    assert status == 403 and answer["key"] == "web.pair_none"
    assert served.post("/api/pair/new")[0] == 202
    served.clock.now += LIFETIME
    assert served.post("/api/pair", {"code": "123456"})[1]["key"] == "web.pair_none"


def test_pairing_says_why_not_to_its_caller():
    clock = Clock()
    pairing = Pairing(clock, lambda: "123456")
    with pytest.raises(NoCode):
        pairing.pair("123456")
    pairing.new_code()
    with pytest.raises(WrongCode) as wrong:
        pairing.pair("654321")
    assert wrong.value.tries == TRIES - 1
    with pytest.raises(TooSoon) as soon:
        pairing.new_code()
    assert not soon.value.locked and soon.value.seconds == LIFETIME
    for _ in range(TRIES - 2):
        with pytest.raises(WrongCode):
            pairing.pair("654321")
    with pytest.raises(Locked) as locked:
        pairing.pair("654321")
    assert locked.value.seconds == LIFETIME
    clock.now += 1
    with pytest.raises(TooSoon) as soon:
        pairing.new_code()
    assert soon.value.locked and soon.value.seconds == LIFETIME - 1


def test_one_new_code_a_minute(served):
    assert served.post("/api/pair/new")[0] == 202
    served.clock.now += 59
    status, answer = served.post("/api/pair/new")
    assert status == 429 and answer["values"] == {"seconds": 1}
    assert len(served.events) == 1  # the table was not asked twice


def test_a_hundred_new_codes_and_guesses_never_pair(tmp_path):
    """The attack that paired in 40 s: ask for a code, guess, ask again, guessing every
    number in turn. Every code is 000099, so guess 100 would be right."""
    s = Served(tmp_path, codes=["000099"] * 100)
    try:
        statuses = []
        for guess in range(100):
            statuses.append(s.post("/api/pair/new")[0])
            statuses.append(s.post("/api/pair", {"code": f"{guess:06d}"})[0])
            s.clock.now += 1.0
        assert s.cookie is None and 200 not in statuses
        # at 0 s a code, 5 wrong guesses lock a minute; at 64 s one more code, 5 more
        assert statuses.count(202) == 2 and statuses.count(429) == 98
    finally:
        s.server.close()


def test_each_lock_out_is_longer_until_a_phone_pairs():
    clock = Clock()
    pairing = Pairing(clock, lambda: "123456")
    waits = []
    for _ in range(8):
        pairing.new_code()
        for _ in range(TRIES - 1):
            with pytest.raises(WrongCode):
                pairing.pair("000000")
        with pytest.raises(Locked):
            pairing.pair("000000")
        with pytest.raises(TooSoon) as e:
            pairing.new_code()
        waits.append(e.value.seconds)
        clock.now += e.value.seconds
    assert waits == [60, 120, 240, 480, 960, 1920, 3600, 3600]
    pairing.new_code()
    assert pairing.pair("123456") is not None
    clock.now += LIFETIME
    pairing.new_code()
    for _ in range(TRIES):
        with pytest.raises((WrongCode, Locked)):
            pairing.pair("000000")
    with pytest.raises(TooSoon) as e:
        pairing.new_code()
    assert e.value.seconds == 60  # pairing starts the count again


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"target": 0}, "target"),
        ({"language": "xx"}, "language"),
        ({"volume": "loud"}, "volume"),
        ([1, 2], "settings are a JSON object"),
        ({"board": "own", "own_rates": [[1, 5]] + [[2, 1]] * 15}, "own_rates"),
    ],
)
def test_a_bad_settings_change_is_400_and_one_line_and_changes_nothing(served, data, error):
    served.pair()
    before = list(served.events)
    status, answer = served.post("/api/settings", data)
    assert status == 400
    assert error in answer["error"] and "\n" not in answer["error"]
    assert served.events == before


def test_malformed_bodies_are_refused_in_one_line(served):
    served.pair()
    before = list(served.events)
    status, body = served.request("POST", "/api/settings", b"{nope", "application/json")
    assert status == 400 and json.loads(body)["error"].startswith("body: not JSON")
    status, body = served.request("POST", "/api/settings", b'{"target": 5}', "text/plain")
    assert status == 415
    assert served.get("/etc/passwd")[0] == 404
    assert served.events == before


def test_a_settings_change_from_the_page_is_applied_and_said_by_the_table():
    flow = new_flow(BOARDS, TIMING)
    flow, effects = table_step(flow, ChangeSettings((("target", 45), ("board", "winter"))), 0.0)
    assert flow.prefs.target == 45 and flow.choice.target == 45
    assert flow.board == BOARDS[1]
    assert [type(e).__name__ for e in effects] == ["SettingsChanged"]
    same, again = table_step(flow, ChangeSettings((("target", 45),)), 0.0)
    assert same == flow and again == ()


def test_the_history_and_stats_come_from_the_state_folder(tmp_path):
    history = History(tmp_path)
    record = random_game(random.Random(4), 3)
    history.put(record, names=("Ana", None, "Bo"))
    history.close()
    s = Served(tmp_path)
    try:
        (game,) = json.loads(s.get("/api/history")[1])
        stats = json.loads(s.get("/api/stats")[1])
    finally:
        s.server.close()
    assert game["names"] == ["Ana", "P2", "Bo"] and game["rounds"] == len(record.rounds)
    assert set(stats) == {"Ana", "Bo"}  # wins per name: the unnamed P2 is nobody known
    named = [s for s in game["winners"] if game["names"][s] != "P2"]
    assert sum(s["wins"] for s in stats.values()) == len(named)
    assert all(s["games"] == 1 and s["abandoned"] == 0 for s in stats.values())


def test_the_page_shows_an_abandoned_game_and_counts_no_win_for_it(tmp_path):
    history = History(tmp_path)
    played = random_game(random.Random(4), 3).to_dict()
    short = {**played, "rounds": played["rounds"][:2]}
    ended = GameRecord.from_dict({**short, "ended": True})  # ended from the menu: ranked
    unfinished = GameRecord.from_dict(short)  # set aside
    history.put(unfinished, names=("Ana", "Bo", "Cy"))
    history.put(ended, names=("Ana", "Bo", "Cy"))
    history.close()
    pages = HistoryPages(tmp_path)
    listed = pages.history(WORDS)
    assert [g["finished"] for g in listed] == [False, False]
    assert all(g["winners"] == [] for g in listed)  # the page says "abandoned"
    stats = pages.stats(WORDS)
    assert all(s["wins"] == 0 and s["abandoned"] == 2 for s in stats.values())


def test_a_page_following_gets_each_new_view_and_is_let_go_on_close(served):
    flow, now = locked(lambda hand: hand[:2])
    served.server.publish(public_view(flow, now))
    got: list[bytes] = []
    arrived = threading.Semaphore(0)
    done = threading.Event()

    def follow() -> None:
        with urllib.request.urlopen(served.base + "/api/events", timeout=5) as response:
            for line in response:
                if line.startswith(b"data: "):
                    got.append(line)
                    arrived.release()
        done.set()  # the stream ended: the server let it go

    threading.Thread(target=follow, daemon=True).start()
    assert arrived.acquire(timeout=5)
    served.server.publish(public_view(flow, now))  # the same view: nothing sent
    served.server.publish(public_view(new_flow(BOARDS, TIMING), now))  # the table moved on
    assert arrived.acquire(timeout=5)
    served.server.close()
    assert done.wait(5)
    assert len(got) == 2 and b'"phase":"join"' in got[1]


def test_a_taken_port_is_an_oserror(served):
    with pytest.raises(OSError):
        WebServer(served.server.table, "127.0.0.1", served.server.address[1])
    with socket.create_connection(("127.0.0.1", served.server.address[1]), timeout=2):
        pass  # the first one still answers


def test_your_own_rates_from_the_page_become_the_board(served):
    served.pair()
    table = [None] + [[3, 1]] * 7 + [[2, 1]] * 8  # paying more per good further up
    status, answer = served.post("/api/settings", {"board": "own", "own_rates": table})
    assert status == 200 and answer["settings"]["own_rates"] == table
    (change,) = [e for e in served.events if isinstance(e, ChangeSettings)]
    values = dict(change.values)
    assert values["board"] == "own" and len(values["own_rates"]) == 16
    flow, _ = table_step(new_flow(BOARDS, TIMING), change, 0.0)
    assert flow.board.to_rates() == table


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 6), moves=moves, seed=st.integers(0, 2**16))
def test_the_page_json_never_depends_on_hidden_choices(players, moves, seed):
    """As tests/test_secrecy.py does for the frames: at any moment before the reveal, a
    twin table with other cards chosen gives the page the same bytes."""
    rng, now = random.Random(seed), 0.0
    flow, _ = start(new_flow(BOARDS, TIMING), players, BOARDS[0], 30, now)
    for event, wait in moves:
        now += wait
        flow, _ = settle(step(flow, event, now)[0], now)
        if isinstance(flow.mode, Choosing):
            twin = twin_of(flow, rng)
            assert view_bytes(public_view(flow, now), WORDS) == view_bytes(
                public_view(twin, now), WORDS
            )


def raw(served: Served, request: bytes) -> tuple[int, dict]:
    """``request`` sent as bytes over a socket of its own: the status and the JSON."""
    with socket.create_connection(("127.0.0.1", served.server.address[1]), timeout=5) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(4096)
        head, body = answer.split(b"\r\n\r\n", 1)
        length = int(
            next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(
                b":"
            )[1]
        )
        while len(body) < length:
            body += sock.recv(4096)
    return int(head.split()[1]), json.loads(body)


def post_bytes(body: bytes, host: bytes = b"127.0.0.1", extra: bytes = b"") -> bytes:
    return (
        b"POST /api/pair/new HTTP/1.1\r\nHost: "
        + host
        + b"\r\n"
        + extra
        + b"Content-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )


@pytest.mark.parametrize(
    ("host", "status"),
    [
        (b"127.0.0.1:8080", 202),
        (b"[::1]:8080", 202),
        (b"localhost", 202),
        (socket.gethostname().split(".")[0].encode() + b".local:8080", 202),
        (b"attacker.example:8080", 421),  # DNS rebinding: a name that is not ours
        (b"", 421),
    ],
)
def test_the_host_must_be_this_machine(served, host, status):
    json_kind = b"Content-Type: application/json\r\n"
    got, answer = raw(served, post_bytes(b"{}", host, json_kind))
    assert got == status
    if status == 421:
        assert answer["key"] == "web.error.host" and served.events == []


@pytest.mark.parametrize(
    ("extra", "body", "status"),
    [
        (b"", b"", 415),  # an empty body from another site's form or fetch: not JSON
        (b"Content-Type: text/plain\r\n", b"{}", 415),
        (b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n", b"", 411),
        (b"Content-Type: application/json\r\n", b"[" * 5000, 413),
    ],
)
def test_every_post_is_small_whole_json(served, extra, body, status):
    got, answer = raw(served, post_bytes(body, extra=extra))
    assert got == status and answer["key"] == "web.error.body"
    assert served.events == []


@pytest.mark.parametrize(
    ("path", "body", "says"),
    [
        ("/api/settings", b"[" * 4000, "body: nested too deep"),
        ("/api/pair", json.dumps({"code": "\ud800"}).encode(), 'pairing: send {"code": "123456"}'),
        ("/api/pair", json.dumps({"code": "١٢٣٤٥٦"}).encode(), 'pairing: send {"code": "123456"}'),
        ("/api/settings", b'{"nope": 1}', 'settings: unknown key "nope"'),
        ("/api/settings", b'{"targt": 45, "target": 40}', 'settings: unknown key "targt"'),
    ],
)
def test_bad_input_is_400_in_one_line_and_changes_nothing(served, path, body, says):
    served.pair()
    before = list(served.events)
    status, answer = served.request("POST", path, body, "application/json")
    assert status == 400 and json.loads(answer)["error"] == says
    assert served.events == before
    assert served.get("/api/view")[0] == 200  # and the server goes on


def test_a_fault_of_ours_is_a_one_line_500_and_the_server_goes_on(served, capsys):
    def broken(token):
        raise ValueError("a bug")

    served.server.settings_data = broken
    status, answer = served.get("/api/settings")
    assert status == 500
    assert json.loads(answer) == {"error": "server fault", "key": "web.error.fault", "values": {}}
    assert "ValueError: a bug" in capsys.readouterr().err  # the traceback, in the journal
    assert served.get("/api/view")[0] == 200


def test_a_body_that_never_comes_frees_its_thread(tmp_path):
    served = Served(tmp_path, timeout=0.2)
    try:
        port = served.server.address[1]
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            head = b"Content-Type: application/json\r\n"
            sock.sendall(post_bytes(b"{" + b" " * 99, extra=head)[:-99])  # 1 byte of 100
            assert sock.recv(100) == b""  # closed by the server, with no answer to give
        assert served.server.connections == 0
        assert served.events == []
    finally:
        served.server.close()


def test_connections_past_the_cap_get_503_when_none_waits(served, monkeypatch):
    monkeypatch.setattr(server_module, "CONNECTIONS", 2)
    followers = [urllib.request.urlopen(served.base + "/api/events", timeout=5) for _ in range(2)]
    try:
        for page in followers:
            assert page.readline().startswith(b"data: ")  # both answered: busy, not waiting
        status, answer = raw(served, b"GET /api/view HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert status == 503 and answer["key"] == "web.error.busy"
    finally:
        for page in followers:
            page.close()


def test_a_following_page_is_dropped_by_the_kernel_when_it_vanishes():
    with socket.socket() as sock:
        server_module.keepalive(sock)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 60_000


def test_the_code_is_not_in_the_events_repr():
    assert "123456" not in repr(ShowCode("123456", 60.0))


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, None),  # no history yet: none is made
        (b"not a database at all" * 100, "file is not a database"),
        ("old", "has schema version 1, not 2"),
    ],
)
def test_the_page_never_changes_the_history_file(tmp_path, content, reason):
    path = tmp_path / "history.sqlite"
    if content == "old":
        db = sqlite3.connect(path)
        db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
        db.close()
    elif content is not None:
        path.write_bytes(content)
    before = path.read_bytes() if path.exists() else None
    said: list[str] = []
    pages = HistoryPages(tmp_path, said.append)
    for _ in range(2):
        assert pages.history(WORDS) == [] and pages.stats(WORDS) == {}
    assert (path.read_bytes() if path.exists() else None) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if before is None else [path.name])
    if reason is None:
        assert said == []
    else:  # said once, in one line
        assert len(said) == 1 and reason in said[0] and "\n" not in said[0]


def test_the_page_lists_the_last_games_and_reads_again_only_when_the_file_changes(
    tmp_path, monkeypatch
):
    history = History(tmp_path)
    history.add_all((random_game(random.Random(n), 3), Kept()) for n in range(LAST + 2))
    opened = []
    real = History.read_only.__func__

    def counting(cls, folder, name="history.sqlite"):
        opened.append(folder)
        return real(cls, folder, name)

    monkeypatch.setattr(History, "read_only", classmethod(counting))
    pages = HistoryPages(tmp_path)
    assert len(pages.history(WORDS)) == LAST
    games = sum(s["games"] for s in pages.stats(WORDS).values())
    pages.history(WORDS), pages.stats(WORDS)
    assert len(opened) == 2  # once each, then from the cache
    history.put(random_game(random.Random(99), 3), names=("Zoë", None, None))
    history.close()
    assert "Zoë" in pages.stats(WORDS) and len(opened) == 3
    assert sum(s["games"] for s in pages.stats(WORDS).values()) == games + 1  # Zoë


def test_a_server_in_a_with_block_is_closed_at_its_end_and_closing_twice_is_harmless(tmp_path):
    table = Table([].append, DeviceSettings, tuple(languages()), tmp_path)
    with WebServer(table, "127.0.0.1", 0) as server:
        port = server.address[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/view", timeout=5) as answer:
            assert json.loads(answer.read()) == {"phase": None}
    assert server.closing
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    server.close()  # again: nothing to do
