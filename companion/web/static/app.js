// The page for phones: the board live (Server-Sent Events), the history, the settings.
// Every word comes from the table's catalog (/api/words), as on the OLED.
"use strict";

let words = {};
let singular = new Set([1]);
let settings = null;

const $ = (id) => document.getElementById(id);

function t(key, values = {}) {
  // The catalog's format: {name} and {n:one|other} (the language's singular counts).
  const message = words[key] ?? key;
  return message.replace(/\{(\w+)(?::([^}|]*)\|([^}]*))?\}/g, (_, name, one, other) => {
    const value = values[name];
    if (one === undefined) return value === undefined ? "" : String(value);
    return singular.has(Math.abs(value)) ? one : other;
  });
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "class") node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function getJSON(path) {
  const response = await fetch(path, { cache: "no-store" });
  return response.json();
}

// a refusal's words in the table's language; the English line when the catalog lacks them
function refusal(answer) {
  return answer.key && words[answer.key] ? t(answer.key, answer.values || {}) : answer.error;
}

async function postJSON(path, data) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data ?? {}),
  });
  return { ok: response.ok, data: await response.json() };
}

// --- the words --------------------------------------------------------------------------

async function loadWords(language) {
  words = await getJSON("/api/words");
  singular = new Set((words["grammar.singular"] || "1").split(/\s+/).map(Number));
  document.documentElement.lang = language || "en";
  $("title").textContent = t("web.title");
  for (const tab of ["board", "history", "settings"]) $("tab-" + tab).textContent = t("web.tab." + tab);
  $("wins-title").textContent = t("web.wins");
  $("vp-title").textContent = t("web.vp_per_game");
  $("pair-new").textContent = t("web.pair");
  $("pair-hint").textContent = t("web.pair_hint");
  $("pair-send").textContent = t("web.pair_send");
  $("paired").textContent = t("web.paired");
  $("rates-title").textContent = t("web.rates");
  $("rates-hint").textContent = t("web.rates_hint");
}

// --- the board --------------------------------------------------------------------------

let language = null;

async function showView(view) {
  if (view.language && view.language !== language) {
    if (language !== null) await loadWords(view.language);
    else document.documentElement.lang = view.language;  // the words came with the page
    language = view.language;
    if (settings) loadSettings();
  }
  const notice = $("notice");
  notice.hidden = !view.notice;
  notice.textContent = view.notice || "";
  showLines(view);
  $("fact").textContent = view.fact || "";  // the round; the hint is the device's buttons: not here
  drawRows(view.board);
  drawSeats(view.body, view.seats || [], view.counting);
  drawScores(view.body, view.seats || []);
  codeOnShow = Boolean(view.pairing);
  showPairing();
  document.body.dataset.phase = view.phase || "";
}

function showLines(view) {
  // What the OLED says: its title large, then its lines (the cursor's marked). Its board
  // rows, seat marks, scores and ranking are drawn below instead: the board, the seats
  // and the scores table.
  const lines = (view.lines || []).map((line, i) => el("div", { class: i === view.cursor ? "on" : "" }, line));
  if (view.title) lines.unshift(el("div", { class: "title" }, view.title));
  $("lines").replaceChildren(...lines);
}

function drawRows(board) {
  const rows = $("rows");
  if (!board) {
    rows.replaceChildren();
    return;
  }
  const moved = board.moved || [];
  rows.replaceChildren(
    ...["vp", "goods", "trader"].map((row) => {
      const at = board.rows[row];
      const cells = [];
      for (let space = 0; space < 16; space++) {
        const cls = space === at ? "at" : moved[0] === row && moved[1] === space ? "moved" : "";
        cells.push(el("span", { class: cls }, String(space)));
      }
      const name = el("div", { class: "name" }, el("span", {}, t("row." + row)));
      if (row === "trader") name.append(rateOf(board));
      return el("div", { class: "row", "data-row": row, "data-at": String(at) }, name,
        el("b", { class: "value" }, String(at)), el("div", { class: "track" }, ...cells));
    }),
    ...(board.rate && !board.verified ? [el("p", { class: "legend" }, `~ ${t("board.unverified")}`)] : []),
  );
}

function rateOf(board) {
  // The rate on the trader marker's space, marked "~" while the board's rates are
  // unverified, as on the OLED (what the mark means is said under the rows).
  const rate = el("span", { class: "rate" });
  if (board.rate && !board.verified) {
    rate.append(el("b", { class: "unverified", title: t("board.unverified") }, "~"));
  }
  rate.append(board.rate ? `${t("goods", { n: board.rate.goods })} → ${t("vp", { n: board.rate.vp })}` : "—");
  return rate;
}

function pips(n, need) {
  return el("span", { class: "pips" }, "●".repeat(Math.min(n, need)) + "○".repeat(Math.max(need - n, 0)));
}

function drawSeats(body, labels, counting) {
  // One mark per seat, named as the OLED names it (P1, B3, a pad's name). The reveal's
  // cards are in the lines above, at length: no short names here.
  const seats = $("seats");
  const marks = [];
  const mark = (seat, done, ...below) =>
    el("div", { class: done ? "seat done" : "seat" }, el("b", {}, labels[seat] ?? t("seat", { n: seat + 1 })), ...below);
  if (body.kind === "ChoosingView") {
    body.placed.forEach((n, seat) => {
      marks.push(mark(seat, n >= body.need, pips(n, body.need),
        el("small", {}, t("web.placed", { n, need: body.need }))));
    });
  } else if (body.kind === "JoinView") {
    body.joined.forEach((joined, pad) => marks.push(mark(pad, joined)));
  }
  seats.dataset.count = String(marks.length);  // 5 or 6 seats: two lines of 3 on a phone
  seats.style.setProperty("--seats", String(Math.max(marks.length, 1)));
  seats.replaceChildren(...marks);
  $("counting").hidden = !(counting && body.kind === "ChoosingView");
  $("counting").textContent = t("web.counting");
}

// The last scores the table showed stay under the board until the next game's setup:
// the table shows them between rounds only, a phone may look at any time.
let lastScores = null;

function drawScores(body, labels) {
  const table = $("scores");
  if (body.kind === "ScoresView") {
    lastScores = body.players.map((p, s) => ({ label: labels[s], vp: p.vp, goods: p.goods, cards: p.cards }));
  }
  if (body.kind === "OverView") {
    const end = body.outcome;
    let before = 0;  // tied seats share a place; the next place counts the seats above it
    lastScores = end.ranking.flatMap((seats) => {
      const place = before + 1;
      before += seats.length;
      return seats.map((s) =>
        ({ label: `${place}. ${labels[s]}`, vp: end.vp[s], goods: end.goods[s], cards: end.cards[s] }));
    });
  }
  if (["JoinView", "OptionsView", "ResumeView"].includes(body.kind)) lastScores = null;
  table.hidden = !lastScores;
  if (!lastScores) return;
  const head = ["web.col.seat", "web.col.vp", "web.col.goods", "web.col.cards"];
  table.replaceChildren(
    el("caption", {}, t("web.scores")),
    el("tr", {}, ...head.map((key) => el("th", {}, t(key)))),
    ...lastScores.map((s) => el("tr", {}, el("td", {}, s.label ?? ""),
      ...[s.vp, s.goods, s.cards].map((n) => el("td", { class: "n" }, String(n))))),
  );
}

function follow() {
  // EventSource reconnects by itself after a drop; the badge says which state we are in.
  const live = $("live");
  const source = new EventSource("/api/events");
  source.onopen = () => { live.textContent = t("web.live"); live.className = "status live"; };
  source.onerror = () => { live.textContent = t("web.offline"); live.className = "status"; };
  source.onmessage = (event) => showView(JSON.parse(event.data));
}

// --- the history ------------------------------------------------------------------------

function barChart(pairs, label) {
  // pairs: [name, value]; one horizontal bar each, as inline SVG.
  const ns = "http://www.w3.org/2000/svg";
  const height = 26 * pairs.length + 6;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 340 ${height}`);
  svg.setAttribute("role", "img");
  const top = Math.max(1, ...pairs.map((p) => p[1]));
  pairs.forEach(([name, value], i) => {
    const y = 4 + i * 26;
    const bar = document.createElementNS(ns, "rect");
    bar.setAttribute("x", "90"); bar.setAttribute("y", String(y));
    bar.setAttribute("width", String(Math.max(2, (value / top) * 200))); bar.setAttribute("height", "20");
    bar.setAttribute("fill", "#f2b632");
    const name_ = document.createElementNS(ns, "text");
    name_.setAttribute("x", "0"); name_.setAttribute("y", String(y + 15)); name_.textContent = name;
    const count = document.createElementNS(ns, "text");
    count.setAttribute("x", String(96 + (value / top) * 200)); count.setAttribute("y", String(y + 15));
    count.textContent = label(value);
    svg.append(bar, name_, count);
  });
  return svg;
}

function moment(iso) {
  // A moment as the table's language writes it ("28 Nov 20:15"), in the phone's time:
  // the day and month forms of the catalog, as the OLED says them.
  const at = new Date(iso);
  const month = (words["date.months"] || "").split(" ")[at.getMonth()] || String(at.getMonth() + 1);
  const two = (n) => String(n).padStart(2, "0");
  const date = t("date.day", { day: at.getDate(), month });
  return t("date.moment", { date, time: `${two(at.getHours())}:${two(at.getMinutes())}` });
}

async function loadHistory() {
  const [games, stats] = await Promise.all([getJSON("/api/history"), getJSON("/api/stats")]);
  const names = Object.entries(stats);
  // No game at all: that alone, once. Games, none by a name: the wins say so.
  $("wins-title").hidden = !games.length;
  $("wins-chart").replaceChildren(names.length
    ? barChart(names.map(([n, s]) => [n, s.wins]), (v) => String(v))
    : el("p", { class: "hint" }, t(games.length ? "web.no_names" : "web.no_games")));
  const finished = games.filter((g) => g.vp).slice(0, 12);
  $("vp-title").hidden = $("vp-chart").hidden = !finished.length;
  $("vp-chart").replaceChildren(...(finished.length
    ? [barChart(finished.map((g) => [moment(g.date), Math.max(...g.vp)]), (v) => t("vp", { n: v }))]
    : []));
  const heads = ["web.col.date", "web.col.players", "web.col.winners", "web.col.vp"];
  const head = el("tr", {}, ...heads.map((key) => el("th", { scope: "col" }, t(key))));
  const rows = games.map((g) =>
    el("tr", {}, el("td", {}, moment(g.date)),
      el("td", {}, g.names.join(", ")),
      el("td", {}, g.winners.map((s) => g.names[s]).join(", ") || t("history.abandoned")),
      el("td", {}, g.vp ? g.vp.join("–") : "")));
  $("games").replaceChildren(...(games.length ? [el("thead", {}, head), el("tbody", {}, ...rows)] : []));
}

// --- the settings -----------------------------------------------------------------------

// A message is shown next to the button that caused it (a phone shows a screenful of a
// long page), and scrolled into view.
let codeOnShow = false;  // the table shows a pairing code: the page keeps its field open
let asker = null;  // the form or the pairing box whose button was pressed last

function say(text) {
  const message = $("message");
  message.textContent = text;
  if (asker && message.previousElementSibling !== asker) asker.after(message);
  message.scrollIntoView({ block: "nearest" });
}

function showPairing() {
  if (codeOnShow) $("pair-form").hidden = false;
}

function field(name, label, input) {
  input.id = "set-" + name;
  input.name = name;
  return el("div", {}, el("label", { for: input.id }, label), input);
}

function choice(name, options, value) {
  const select = el("select");
  for (const [code, text] of options) {
    const option = el("option", { value: code }, text);
    if (code === value) option.selected = true;
    select.append(option);
  }
  return select;
}

function number(name, value, min, max, type = "number") {
  const input = el("input", { type, min: String(min), max: String(max), value: String(value) });
  return input;
}

async function loadSettings() {
  settings = await getJSON("/api/settings");
  const s = settings.settings;
  $("pairing").hidden = settings.paired;
  $("paired").hidden = !settings.paired;
  showPairing();
  const boards = settings.boards.map((b) => [b, words["board." + b] || b]);
  if (s.own_rates) boards.push(["own", t("screen.setting.rates")]);
  const onOff = (v) => t(v ? "screen.setting.on" : "screen.setting.off");
  $("prefs").replaceChildren(
    field("language", t("screen.setting.language", { value: settings.languages[s.language] }),
      choice("language", Object.entries(settings.languages), s.language)),
    field("board", t("screen.setting.board", { value: words["board." + s.board] || t("screen.setting.rates") }),
      choice("board", boards, s.board)),
    field("target", t("screen.setting.target", { value: s.target }), number("target", s.target, 1, 999)),
    field("sound", t("screen.setting.sound", { value: onOff(s.sound) }),
      choice("sound", [["true", onOff(true)], ["false", onOff(false)]], String(s.sound))),
    // a volume only where the buzzer has one (a passive buzzer), as on the device
    ...(settings.volume
      ? [field("volume", t("screen.setting.volume", { value: s.volume }), number("volume", s.volume, 1, 10, "range"))]
      : []),
    field("contrast", t("screen.setting.contrast", { value: s.contrast }), number("contrast", s.contrast, 1, 10, "range")),
    el("button", { type: "submit", id: "save" }, t("web.save")),
  );
  const rates = s.own_rates || settings.board_rates;  // as on the device: from the board in use
  const [goods, vp] = [t("web.rates_goods"), t("web.rates_vp")];
  const spaces = [el("div", { class: "space head" },
    el("span", {}, t("web.space")), el("span", {}, goods), el("span", {}, vp))];
  for (let space = 0; space < 16; space++) {
    const rate = rates[space];
    const named = `${t("web.space")} ${space}`;
    spaces.push(el("div", { class: "space" }, el("span", {}, String(space)),
      el("input", { type: "number", min: "1", max: "15", id: `goods-${space}`, "aria-label": `${named}: ${goods}`, value: rate ? String(rate[0]) : "" }),
      el("input", { type: "number", min: "1", max: "99", id: `vp-${space}`, "aria-label": `${named}: ${vp}`, value: rate ? String(rate[1]) : "" })));
  }
  $("rates").replaceChildren(...spaces, el("button", { type: "submit", id: "save-rates" }, t("web.save_rates")));
}

async function send(data) {
  const { ok, data: answer } = await postJSON("/api/settings", data);
  say(ok ? t("web.saved") : refusal(answer));
  if (ok) await loadSettings();
}

function readPrefs() {
  // the fields on the form: a setting the table does not offer is not sent
  const form = $("prefs");
  const read = { language: String, board: String, target: Number, sound: (v) => v === "true",
    volume: Number, contrast: Number };
  return Object.fromEntries(Object.entries(read)
    .filter(([name]) => form.elements[name])
    .map(([name, as]) => [name, as(form.elements[name].value)]));
}

function readRates() {
  const table = [];
  for (let space = 0; space < 16; space++) {
    const goods = $(`goods-${space}`).value, vp = $(`vp-${space}`).value;
    table.push(goods === "" && vp === "" ? null : [Number(goods), Number(vp)]);
  }
  return table;
}

function wire() {
  const ask = (event) => {
    const from = event.target.closest("button, form");
    if (from) asker = from.closest("#pairing") || from.closest("form") || from;
  };
  $("settings").addEventListener("click", ask, true);
  $("settings").addEventListener("submit", ask, true);
  for (const button of document.querySelectorAll("nav button")) {
    button.onclick = () => {
      for (const other of document.querySelectorAll("nav button")) other.classList.toggle("on", other === button);
      for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== button.dataset.tab;
      if (button.dataset.tab === "history") loadHistory();
      if (button.dataset.tab === "settings") loadSettings();
    };
  }
  $("pair-new").onclick = async () => {
    const { ok, data: answer } = await postJSON("/api/pair/new");
    if (!ok) say(refusal(answer));  // 429: a code is on the table already, or locked
    $("pair-form").hidden = false;
    $("pair-code").focus();
  };
  $("pair-form").onsubmit = async (event) => {
    event.preventDefault();
    const { ok, data: answer } = await postJSON("/api/pair", { code: $("pair-code").value });
    if (!ok) return say(refusal(answer));  // how many tries are left, or for how long locked
    $("message").textContent = "";  // "Paired" is said once: by #paired, shown from now on
    await loadSettings();
  };
  $("prefs").onsubmit = (event) => { event.preventDefault(); send(readPrefs()); };
  $("rates").onsubmit = (event) => { event.preventDefault(); send({ board: "own", own_rates: readRates() }); };
}

wire();
loadWords(null).then(follow);
