"""The page for phones in a real headless browser: Debian's Chromium driven by Playwright,
on a phone-sized screen, against the simulated table's server (``simulate --web``'s).

It shows the rows, follows a round as the table plays it, and a settings change made on
it (after pairing with the code the OLED shows) reaches the table and is saved. The
table runs on a clock of the test's own: a pause ends only when the test moves the
clock on, which it does once the page shows the phase before, so every phase is seen
however slow the machine. Where Chromium is missing this skips, saying why; under CI
(``CI=true``, where .ci/run installs Chromium) it fails instead. Playwright is one of
the dev dependencies: without it this fails everywhere.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest

from companion.app.script import parse_script
from companion.app.simulator import Simulator
from companion.game.randgame import random_game
from companion.storage import StateDir
from companion.storage.history import History
from companion.table import public_view
from companion.table.events import Tick
from companion.ui.screens import Track, screen
from companion.web.serve import serve_table

CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"width": 360, "height": 740}
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROUND = """\
press P1 1
press P1 7
press P2 5
press P2 2
press P3 4
press P3 2
press OK
"""


class Clock:
    """The table's time, moved on by the test alone."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def next_phase(sim, web, clock: Clock) -> str:
    """Move the clock to the table's next deadline and wake it: the phase it shows then."""
    version = web.latest()[0]
    assert sim.flow.deadline is not None, "the table waits for people, not for time"
    clock.now = max(clock.now, sim.flow.deadline)
    sim.app.put(Tick())
    news = web.wait_change(version, 10.0)
    assert news is not None, "the table did not move on"
    return json.loads(news[1])["phase"]


def phases_until(page, sim, web, clock: Clock, last: str | None = None) -> list[str]:
    """Each phase the page shows, in order, from the one now: the clock is moved on only
    once the page shows it, until ``last`` or until the table waits for people."""
    sim.settle(0)
    phase = json.loads(web.latest()[1])["phase"]
    phases: list[str] = []
    while True:
        page.wait_for_function(f"document.body.dataset.phase === {json.dumps(phase)}")
        if not phases or phases[-1] != phase:
            phases.append(phase)
        if (phase == last and len(phases) > 1) or sim.flow.deadline is None:
            return phases
        phase = next_phase(sim, web, clock)


OUTER_MS = 180_000  # the limit of one wait for the page


@pytest.fixture
def browser_page(tmp_path):
    if not CHROMIUM.exists():
        why = f"no {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser test: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright  # a dev dependency: missing is a failure

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),  # a fresh user-data-dir
            executable_path=str(CHROMIUM),
            headless=True,
            args=ARGS,
            viewport=PHONE,
            bypass_csp=True,  # the test's own waits evaluate strings; the page never does
        )
        # Every wait is for what the page shows (a selector, a condition); this is only
        # the outer limit, generous for a loaded machine (Playwright's own is 30 s).
        context.set_default_timeout(OUTER_MS)
        try:
            yield context.new_page()
        finally:
            context.close()


class Page:
    """The page for phones as a watcher of the table (the composition's seam), on any free
    loopback port; ``server`` once the table is built."""

    def __init__(self, state, clock=time.monotonic, volume=True):
        self.state, self.clock, self.volume = state, clock, volume
        self.server = None

    def __call__(self, stack, put, prefs, report):
        self.server, watcher = serve_table(
            put, "127.0.0.1", 0, self.state, prefs, clock=self.clock, volume=self.volume
        )
        stack.callback(self.server.close)
        return watcher


@pytest.fixture
def table(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    clock = Clock()
    page = Page(state, clock)
    sim = Simulator(players=3, store=StateDir(state), clock=clock, watchers=(page,))
    try:
        yield sim, page.server, state, clock
    finally:
        sim.close()


@pytest.mark.slow
def test_the_page_shows_the_rows_follows_a_round_and_changes_a_setting(browser_page, table):
    sim, web, state, clock = table
    page = browser_page
    page.goto(web.url)
    page.wait_for_selector("#live.live")
    page.wait_for_function("document.body.dataset.phase === 'supply'")  # the first view
    assert phases_until(page, sim, web, clock, "select") == ["supply", "select"]
    assert page.locator(".row").count() == 3
    assert page.locator(".row .name span").first.inner_text() == "VP row"
    assert page.locator("#fact").text_content() == "round 1"
    assert page.locator(".seat").count() == 3

    *cards, ok = parse_script(ROUND, "round")  # a round, as people press it
    for line in cards:
        sim.act(line)
    phases = phases_until(page, sim, web, clock)  # the steps, up to the trader's choice
    sim.act(ok)  # the trade accepted
    phases += phases_until(page, sim, web, clock, "select")[1:]  # to the next round's
    assert phases == ["countdown", "reveal", "step", "trade", "scores", "supply", "select"]
    page.wait_for_function("document.querySelector('#fact').textContent === 'round 2'")
    players = sim.flow.game.state.players
    assert page.locator("#scores caption").text_content() == "Scores"
    cells = [
        [c.text_content() for c in row.locator("td, th").all()]
        for row in page.locator("#scores tr").all()
    ]
    assert cells == [
        ["Seat", "VP", "Goods", "Cards in hand"],
        *(
            [f"P{seat + 1}", str(p.vp), str(p.goods), str(len(p.hand))]
            for seat, p in enumerate(players)
        ),
    ]
    sim.app.wait_ready()  # the next round's rows have moved up: the table waits for cards
    shown = public_view(sim.flow, clock()).board.rows
    page.wait_for_function(f"document.querySelector('.row[data-row=vp]').dataset.at == {shown.vp}")
    for row in ("goods", "trader"):
        assert page.locator(f".row[data-row={row}]").get_attribute("data-at") == str(
            getattr(shown, row)
        )

    sim.run(parse_script("press P1 3\npress P1 5\npress P2 4\n", "marks"))
    page.wait_for_function("document.querySelector('.seat small').textContent === '2/2 placed'")
    assert [m.text_content() for m in page.locator(".seat small").all()] == [
        "2/2 placed",
        "1/2 placed",
        "0/2 placed",
    ]
    page.click("#tab-settings")
    page.click("#pair-new")
    page.wait_for_selector("#pair-form:not([hidden])")
    sim.settle(0)
    oled = screen(public_view(sim.flow, clock()), sim.app.words).notice
    code = dict(sim.flow.notice.values)["code"]
    assert oled == f"Phone code: {code}"  # what the OLED draws
    page.fill("#pair-code", code)
    page.click("#pair-send")
    page.wait_for_selector("#paired:not([hidden])")
    # said once: the line that stays, not a message too
    assert page.locator("#settings").inner_text().count("Paired") == 1
    page.fill("#set-target", "45")
    page.click("#save")
    page.wait_for_function("document.querySelector('#message').innerText === 'Saved on the table'")
    sim.settle(0)  # the change is on the queue: handled once the table is idle
    assert sim.flow.prefs.target == 45
    assert json.loads((state / "settings.json").read_text())["target"] == 45


@pytest.mark.slow
@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (lambda code: f"{(int(code) + 1) % 10**6:06d}", "Wrong code: try again, 4 tries left"),
        (lambda code: "x" + code[1:], "Type the six digits shown on the table"),
    ],
)
def test_a_wrong_code_is_refused_on_the_page_in_its_words(browser_page, table, typed, said):
    sim, web, _, _ = table
    page = browser_page
    page.goto(web.url)
    page.click("#tab-settings")
    page.click("#pair-new")
    page.wait_for_selector("#pair-form:not([hidden])")
    sim.settle(0)
    code = dict(sim.flow.notice.values)["code"]
    page.fill("#pair-code", typed(code))
    page.click("#pair-send")
    page.wait_for_function(
        f"document.querySelector('#message').innerText.startsWith({json.dumps(said)})"
    )
    assert page.locator("#paired").is_hidden()


@pytest.fixture
def bots_table(tmp_path):
    """One person at pad 1, named ANNA, and two bots: the table's seats P1, B2, B3."""
    state = tmp_path / "state"
    state.mkdir()
    names = {"names": ["ANNA", None, None, None, None, None]}
    (state / "names.json").write_text(json.dumps(names), "utf-8")
    page = Page(state)
    sim = Simulator(
        players=1, bots=("normal", "strong"), speed=3.0, store=StateDir(state), watchers=(page,)
    )
    try:
        yield sim, page.server
    finally:
        sim.close()


@pytest.mark.slow
def test_the_page_names_seats_as_the_oled_and_marks_an_unverified_rate(browser_page, bots_table):
    sim, web = bots_table
    page = browser_page
    page.goto(web.url)
    page.wait_for_function("document.body.dataset.phase === 'select'")
    named = ["ANNA", "B2", "B3"]  # the page has room for a name on every screen
    assert [m.text_content() for m in page.locator(".seat b").all()] == named
    shown = page.evaluate("fetch('/api/view').then((answer) => answer.json())")
    assert shown["seats"] == named and not shown["board"]["verified"]
    assert page.locator(".row[data-row=trader] .rate .unverified").text_content() == "~"
    legend = page.locator("#rows .legend").text_content()
    assert legend == "~ trader rates unverified"  # what the mark means, said
    assert page.locator(".row[data-row=vp] .rate").count() == 0  # the rate is the trader's

    hand = sorted(sim.flow.game.state.hands[0] - {7})[:2]  # no Trader: nothing to decide
    sim.run(parse_script(f"press P1 {hand[0]}\n", "one card"))
    page.wait_for_function("document.querySelector('.seat small').textContent === '1/2 placed'")
    shot = os.environ.get("WEB_SCREENSHOT")  # docs/web.png: see docs/web.md
    if shot:
        page.screenshot(path=shot)
    sim.run(parse_script(f"press P1 {hand[1]}\npress OK\n", "the other"))
    # The scores stay under the board once shown: named as the table's scores name them.
    page.wait_for_function("document.querySelectorAll('#scores td').length === 12")
    players = sim.flow.game.state.players
    cells = [
        [c.text_content() for c in row.locator("td").all()]
        for row in page.locator("#scores tr").all()[1:]
    ]
    assert cells == [
        [label, str(p.vp), str(p.goods), str(len(p.hand))]
        for label, p in zip(("ANNA", "B2", "B3"), players, strict=True)
    ]


@pytest.mark.slow
def test_the_code_field_stays_after_a_reload_and_messages_show_by_their_button(browser_page, table):
    web = table[1]
    page = browser_page
    page.goto(web.url)
    page.click("#tab-settings")
    page.click("#pair-new")
    page.wait_for_selector("#pair-form:not([hidden])")
    page.reload()  # the code is still on the table: its field is there without a new one
    page.click("#tab-settings")
    page.wait_for_selector("#pair-form:not([hidden])")
    page.fill("#pair-code", "abcd")
    page.click("#pair-send")
    page.wait_for_function("document.querySelector('#message').innerText !== ''")
    assert page.evaluate("document.querySelector('#pairing + #message') !== null")
    assert page.locator("#message").is_visible()


@pytest.mark.slow
def test_the_page_draws_the_trader_where_several_traders_trade(browser_page, table):
    """Three Traders at 11: the marker goes back to 7 for the trades, on the OLED and on
    the page alike, at the rate there (3:2), not the one of 11."""
    sim, web, _, clock = table
    page = browser_page
    page.goto(web.url)
    phases_until(page, sim, web, clock, "select")
    quiet = "press P1 1\npress P1 4\npress P2 5\npress P2 6\npress P3 4\npress P3 5\n"
    for line in parse_script(quiet, "no Trader"):
        sim.act(line)
    phases_until(page, sim, web, clock, "select")
    page.wait_for_function("document.querySelector('.row[data-row=trader]').dataset.at === '11'")
    traders = "press P1 7\npress P1 2\npress P2 7\npress P2 3\npress P3 7\npress P3 8\n"
    for line in parse_script(traders, "three Traders"):
        sim.act(line)
    assert phases_until(page, sim, web, clock)[-1] == "trade"
    drawn = screen(public_view(sim.flow, clock()), sim.app.words)
    oled = [item.value for item in drawn.items if isinstance(item, Track)]
    assert oled == [7]
    trader = page.locator(".row[data-row=trader]")
    assert trader.get_attribute("data-at") == "7"
    assert trader.locator(".track .at").text_content() == "7"
    assert trader.locator(".rate").text_content() == "~3 goods → 2 VP"


# Whatever in a seat's tile, the trader's rate or the page itself is wider than its box,
# or reaches past the screen's right edge.
OVERFLOWS = """() => [...document.querySelectorAll(
    '.seat, .seat *, #counting, .row .name, .row .name *, #lines div, #fact')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1
    || e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((e) => e.className + ': ' + e.textContent)
  .concat(document.documentElement.scrollWidth > window.innerWidth ? ['scrolls sideways'] : [])"""


@pytest.fixture
def six_seats(tmp_path, request):
    """Six people at a table in ``request.param``'s language; its buzzer has no volume."""
    state = tmp_path / "state"
    state.mkdir()
    clock = Clock()
    page = Page(state, clock, volume=False)
    sim = Simulator(
        players=6, lang=request.param, store=StateDir(state), clock=clock, watchers=(page,)
    )
    try:
        yield sim, page.server, clock
    finally:
        sim.close()


@pytest.mark.slow
@pytest.mark.parametrize("six_seats", ["fr", "nl", "en"], indirect=True)
def test_six_seats_fit_a_phone_in_every_language_with_no_device_hints(browser_page, six_seats):
    sim, web, clock = six_seats
    page = browser_page
    page.goto(web.url)
    phases_until(page, sim, web, clock, "select")
    hands = sim.flow.game.state.hands
    for seat in range(5):  # five have placed their card, one has not
        sim.act(parse_script(f"press P{seat + 1} {min(hands[seat])}\n", "a card")[0])
    page.wait_for_function("document.querySelectorAll('.seat.done').length === 5")
    assert page.locator(".seat").count() == 6
    assert page.evaluate(OVERFLOWS) == []
    tiles = [page.locator(".seat").nth(i).bounding_box() for i in range(6)]
    assert all(box["x"] + box["width"] <= PHONE["width"] for box in tiles)
    hint = sim.app.words.t("hint.choose")  # "hold OK: menu": the device's buttons
    assert hint not in page.locator("body").inner_text()
    sim.act(parse_script(f"press P6 {min(hands[5])}\n", "the last")[0])
    page.wait_for_function("document.body.dataset.phase === 'countdown'")
    assert page.locator("#counting").is_visible()
    assert page.evaluate(OVERFLOWS) == []
    page.click("#tab-settings")
    page.wait_for_selector("#set-contrast")
    assert page.locator("#set-volume").count() == 0  # the table's buzzer has none


@pytest.mark.slow
def test_the_history_of_no_games_says_so_once_with_no_heading(browser_page, table):
    web = table[1]
    page = browser_page
    page.goto(web.url)
    page.click("#tab-history")
    page.wait_for_selector("#wins-chart p.hint")
    assert page.locator("#wins-chart p.hint").inner_text() == "No games yet"
    assert not page.locator("#wins-title").is_visible()  # no heading over nothing
    assert not page.locator("#vp-title").is_visible()
    assert not page.locator("#vp-chart").is_visible()
    assert page.locator("#games th").count() == 0


@pytest.fixture
def unnamed_history(tmp_path):
    """A table whose history holds two finished games of unnamed seats, one of 28 Nov."""
    state = tmp_path / "state"
    state.mkdir()
    history = History(state)
    rng = random.Random(4)
    for day in (27, 28):
        history.put(random_game(rng, 3), date=f"2026-11-{day}T20:15:00+00:00")
    history.close()
    page = Page(state)
    sim = Simulator(players=3, store=StateDir(state), watchers=(page,))
    try:
        yield page.server
    finally:
        sim.close()


@pytest.mark.slow
def test_games_of_no_names_are_listed_under_headings_and_no_wins_by_name_said(
    browser_page, unnamed_history
):
    """It said "No games yet" above a list of games, whose table had no headings."""
    page = browser_page
    page.goto(unnamed_history.url)
    page.click("#tab-history")
    page.wait_for_selector("#games th")
    assert page.locator("#games th").all_inner_texts() == ["Date", "Players", "Winners", "VP"]
    assert page.locator("#games tbody tr").count() == 2
    assert page.locator("#wins-chart p.hint").inner_text().startswith("No wins by name yet")
    first = page.locator("#games tbody tr td").first.inner_text()
    assert "Nov" in first and "/" not in first and "-" not in first  # as the OLED says a day


@pytest.mark.slow
def test_the_rate_editor_names_its_columns_and_every_field(browser_page, table):
    web = table[1]
    page = browser_page
    page.goto(web.url)
    page.click("#tab-settings")
    page.wait_for_selector("#rates .head")
    assert page.locator("#rates .head span").all_inner_texts() == ["Space", "Goods", "VP"]
    assert page.get_by_label("Space 3: Goods").count() == 1
    assert page.get_by_label("Space 3: VP").get_attribute("id") == "vp-3"
    assert page.evaluate(OVERFLOWS) == []
