// Past games: each finished game, newest first, opened to its scores by round or scan; then each
// player's record across them. The words (plurals, who won, what decided it) come from the server.

import { badge } from "./badge.js";
import { lineChart } from "./chart.js";
import { api, el } from "./live.js";

const archive = JSON.parse(document.getElementById("archive").textContent);
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
  "September", "October", "November", "December"];

// The day a game ended, as people say it: "Today", "Yesterday", "Saturday 2 March" (and the
// year when it is not this one).
function dayWords(seconds) {
  const day = new Date(seconds * 1000);
  const now = new Date();
  const midnight = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((midnight(now) - midnight(day)) / 86400000);
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  const year = day.getFullYear() === now.getFullYear() ? "" : ` ${day.getFullYear()}`;
  return `${DAYS[day.getDay()]} ${day.getDate()} ${MONTHS[day.getMonth()]}${year}`;
}

function scoreLine(players) {
  return el(
    "ul",
    { class: "past-scores" },
    ...players.map((p) =>
      el(
        "li",
        { class: p.winner ? "won" : "" },
        badge(p),
        el("span", { class: "past-name" }, p.name),
        el("span", { class: "past-total" }, String(p.total)),
      ),
    ),
  );
}

function gameCard(game) {
  const body = el("div", { class: "past-body" });
  const card = el(
    "details",
    { class: "past", id: `game-${game.table}`, "data-table": game.table },
    el(
      "summary",
      {},
      el(
        "span",
        { class: "past-head" },
        el("strong", { class: "past-title" }, game.title),
        el("span", { class: "past-day" }, dayWords(game.ended)),
      ),
      el("span", { class: "past-result" }, `★ ${game.result}`),
      scoreLine(game.players),
    ),
    body,
  );
  card.addEventListener("toggle", () => {
    if (card.open && !body.childElementCount) showGame(game, body);
  });
  return card;
}

// A game opened: what decided it, how long it was, and each player's total after every round
// (where rounds bank) or scan, as a chart and as a table.
async function showGame(game, body) {
  const answer = await api(`/api/archive/${encodeURIComponent(game.table)}`);
  if (!answer.ok) {
    body.replaceChildren(el("p", { class: "error" }, answer.data.error));
    return;
  }
  const full = answer.data;
  const parts = [
    el("p", { class: "past-decided" }, full.decided),
    el("p", { class: "small" }, full.length),
  ];
  if (full.steps.length) {
    const series = full.players.map((p, i) => ({
      key: i + 1,
      name: p.name,
      colour: p.colour,
      shape: i,
      values: p.history,
    }));
    const what = full.steps[0].startsWith("Round") ? "round" : "scan";
    parts.push(
      el("h3", {}, `Score by ${what}`),
      el("div", { class: "chart" }, lineChart(full.steps, series)),
      el(
        "div",
        { class: "scroll" },
        el(
          "table",
          { class: "past-steps" },
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              el("th", { scope: "col" }, what === "round" ? "Round" : "Scan"),
              ...full.players.map((p) => el("th", { scope: "col" }, badge(p), " ", p.name)),
            ),
          ),
          el(
            "tbody",
            {},
            ...full.steps.map((step, s) =>
              el(
                "tr",
                {},
                el("th", { scope: "row" }, step),
                ...full.players.map((p) => el("td", {}, String(p.history[s]))),
              ),
            ),
          ),
        ),
      ),
    );
  } else {
    parts.push(el("p", {}, "No board was scanned in this game."));
  }
  body.replaceChildren(...parts);
}

function statsCard(player) {
  return el(
    "article",
    { class: "stat" },
    el("h3", {}, badge(player), " ", player.name),
    el("p", { class: "stat-record" }, player.record),
    el("ul", {}, ...player.games.map((g) => el("li", {}, g.words))),
  );
}

const games = document.getElementById("games");
if (archive.games.length) {
  games.replaceChildren(...archive.games.map(gameCard));
} else {
  games.replaceChildren(
    el("p", { class: "empty" }, "No game has finished yet: a game shows here once it is over."),
  );
}
document.getElementById("stats-list").replaceChildren(
  ...(archive.players.length
    ? archive.players.map(statsCard)
    : [el("p", { class: "empty" }, "Players' records show here after their first finished game.")]),
);

// Opened from a game's winner screen: that game, open.
const asked = location.hash.slice(1);
const chosen = asked && document.getElementById(`game-${asked}`);
if (chosen) {
  chosen.open = true;
  chosen.scrollIntoView();
}
