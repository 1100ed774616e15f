// The organisers' leaderboard: every table's card and the standings per game, kept up to date
// from the hub's live stream (each message carries what changed since the one before).

import { badge } from "./badge.js";
import { el, page } from "./live.js";

const tables = new Map(); // "site/table": the table as the hub last sent it
const standings = new Map(); // game: its standings
const tablesView = document.getElementById("tables");
const standingsView = document.getElementById("standings");

const key = (site, table) => `${site}/${table}`;

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens > 10 && tens < 14 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

// When, in words: a leaderboard is read from across a hall.
function ago(seconds) {
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}

function tableCard(t) {
  const won = new Set(t.winners);
  const state = t.over ? "Game over" : `Round ${t.round}`;
  const sites = new Set([...tables.values()].map((x) => x.site));
  const where = sites.size > 1 ? ` · ${t.site}` : "";
  return el(
    "article",
    { class: `hub-table${t.online ? "" : " offline"}`, "data-key": key(t.site, t.table) },
    el(
      "header",
      { class: "hub-table-head" },
      el("h3", {}, t.label),
      el(
        "span",
        { class: `hub-online ${t.online ? "on" : "off"}` },
        t.online ? "● Online" : "○ Offline: last scores heard",
      ),
    ),
    el("p", { class: "small" }, `${t.title} · ${state} · computer ${t.server}${where}`),
    el(
      "ol",
      { class: "hub-players", "aria-label": "Players, best first" },
      ...t.players.map((p) =>
        el(
          "li",
          { class: won.has(p.name) ? "won" : "" },
          el("span", { class: "place" }, ordinal(p.place)),
          badge(p),
          el("span", { class: "hub-name" }, p.name),
          won.has(p.name) ? el("span", { class: "badge good" }, "★ Winner") : "",
          el("span", { class: "hub-total" }, String(p.total)),
        ),
      ),
    ),
    el(
      "p",
      { class: "small hub-last" },
      t.last ? `${t.last} · ` : "",
      el("span", { "data-at": String(t.received) }, `updated ${ago(Date.now() / 1000 - t.received)}`),
    ),
  );
}

const TOP = 10; // the rest of a game's players behind "all players"

function rankingTable(s, players) {
  const sites = new Set(s.players.map((p) => p.site));
  return el(
    "div",
    { class: "scroll" },
    el(
      "table",
      { class: "hub-ranking" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col" }, "Place"),
          el("th", { scope: "col" }, "Player"),
          el("th", { scope: "col" }, "Points"),
          el("th", { scope: "col" }, "Table"),
        ),
      ),
      el(
        "tbody",
        {},
        ...players.map((p) =>
          el(
            "tr",
            {},
            el("td", {}, ordinal(p.rank)),
            el("th", { scope: "row" }, badge(p), " ", p.name),
            el("td", { class: "hub-total" }, String(p.total)),
            el(
              "td",
              { class: "small" },
              p.label,
              sites.size > 1 ? ` · ${p.site}` : "",
              p.over ? " · game over" : "",
            ),
          ),
        ),
      ),
    ),
  );
}

function standingsBlock(s, open) {
  const rest = s.players.length - TOP;
  return el(
    "section",
    { class: "hub-game", "data-game": s.game },
    el("h2", {}, `${s.title}: standings`),
    rankingTable(s, s.players.slice(0, TOP)),
    rest > 0
      ? el(
          "details",
          open ? { open: "" } : {},
          el("summary", {}, `All ${s.players.length} players`),
          rankingTable(s, s.players.slice(TOP)),
        )
      : "",
  );
}

function render(connected) {
  const shown = [...tables.values()];
  const offline = shown.filter((t) => !t.online).length;
  document.getElementById("counts").textContent =
    `${shown.length} table${shown.length === 1 ? "" : "s"}` +
    (offline ? `, ${offline} offline` : "");
  document.getElementById("broker").hidden = connected;
  document.getElementById("empty").hidden = shown.length > 0;
  tablesView.replaceChildren(...shown.map(tableCard));
  // A list someone opened stays open through updates.
  const opened = new Set(
    [...standingsView.querySelectorAll(".hub-game")]
      .filter((g) => g.querySelector("details[open]"))
      .map((g) => g.dataset.game),
  );
  standingsView.replaceChildren(
    ...[...standings.values()]
      .filter((s) => s.players.length)
      .map((s) => standingsBlock(s, opened.has(s.game))),
  );
}

function take(message) {
  for (const t of message.tables) tables.set(key(t.site, t.table), t);
  const present = new Set(message.keys.map(([site, table]) => key(site, table)));
  for (const k of [...tables.keys()]) if (!present.has(k)) tables.delete(k);
  for (const s of message.standings) standings.set(s.game, s);
  // The server's order: by site, game and players.
  const order = message.keys.map(([site, table]) => key(site, table));
  const sorted = new Map(order.filter((k) => tables.has(k)).map((k) => [k, tables.get(k)]));
  tables.clear();
  for (const [k, t] of sorted) tables.set(k, t);
  const games = [...standings.keys()].sort();
  const byGame = new Map(games.map((g) => [g, standings.get(g)]));
  standings.clear();
  for (const [g, s] of byGame) standings.set(g, s);
  render(message.connected);
}

const dot = document.getElementById("live");
const source = new EventSource(page.live);
source.addEventListener("board", (message) => take(JSON.parse(message.data)));
source.addEventListener("open", () => dot.classList.add("on"));
source.addEventListener("error", () => dot.classList.remove("on"));
// A reconnected stream starts with everything again: forget what may have gone meanwhile.
source.addEventListener("open", () => {
  tables.clear();
  standings.clear();
});
setInterval(() => {
  for (const span of tablesView.querySelectorAll("[data-at]")) {
    span.textContent = `updated ${ago(Date.now() / 1000 - Number(span.dataset.at))}`;
  }
}, 15000);
