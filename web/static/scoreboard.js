import { badge } from "./badge.js";
import { lineChart } from "./chart.js";
import { api, el, live, page } from "./live.js";

const players = document.getElementById("players");
const message = document.getElementById("message");
const toolCard = document.getElementById("tool-card");
const declines = document.querySelectorAll("#tools input[data-seat]");
let lastSummary = "";
let shownTools = null;
let latest = null;

// What decided a game, in the words a player would use, given the winners' total.
const DECIDED = {
  points: (n) => `With the most points: ${n}.`,
  "patch bonus": (n) => `Tied on ${n} points: the larger patch bonus breaks the tie.`,
  "unused inspiration tokens": (n) =>
    `Tied on ${n} points and on the patch bonus: more unused Inspiration tokens break the tie.`,
  "large pans pressed": (n) => `Tied on ${n} points: more large pans pressed break the tie.`,
  "inspiration tokens": (n) =>
    `Tied on ${n} points: more Inspiration tokens in hand break the tie.`,
  shared: (n) => `Tied on ${n} points and on every tie-break the table knows.`,
};

function render(scores) {
  latest = scores;
  const names = Object.fromEntries(scores.players.map((p) => [p.seat, p.name]));
  const rolled = scores.roll ? ` · roll ${scores.roll}` : "";
  document.getElementById("round").textContent = scores.finished
    ? "Game over"
    : `Round ${scores.round}${rolled}`;
  for (const face of document.querySelectorAll("button[data-roll]")) {
    face.setAttribute("aria-pressed", String(Number(face.dataset.roll) === scores.roll));
  }
  document.getElementById("turn").textContent =
    scores.finished || !(scores.turn in names) ? "" : `${names[scores.turn]}'s turn`;
  showWinner(scores, names);
  showTools(scores.tools);
  const ranked = rankOrder(scores);
  showPlayers(scores, ranked);
  showCategories(ranked);
  showChart(scores);
  if (ledStrip) showLed();
}

// Best first: by place, the winners first once the game is over (a tie-break may split a place),
// then by seat.
function rankOrder(scores) {
  const won = new Set(scores.over ? scores.winner : []);
  return [...scores.players].sort(
    (a, b) => a.place - b.place || won.has(b.seat) - won.has(a.seat) || a.seat - b.seat,
  );
}

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens > 10 && tens < 14 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

function showPlayers(scores, ranked) {
  const changed = new Set(scores.changed_seats);
  const token = page.token ? `?token=${encodeURIComponent(page.token)}` : "";
  const before = positions();
  const won = new Set(scores.over ? scores.winner : []);
  players.replaceChildren(
    ...ranked.map((p) => {
      const lines = p.penalty_lines.map((line) => el("li", { class: "penalty-line" }, line));
      return el(
        "article",
        {
          class: [
            "player",
            changed.has(p.seat) ? "changed" : "",
            won.has(p.seat) ? "won" : "",
            p.unsure ? "unsure" : "",
          ]
            .filter(Boolean)
            .join(" "),
          "data-seat": p.seat,
          style: `--colour: ${p.colour}`,
        },
        el("span", { class: "place", title: `place ${p.place}` }, ordinal(p.place)),
        el(
          "a",
          {
            class: "name",
            href: `/t/${page.table}/seat/${p.seat}${token}`,
            title: `${p.name}'s board`,
          },
          badge(p),
          el("span", {}, p.name),
        ),
        el("span", { class: "total", "data-total": p.total }, String(p.total)),
        el(
          "span",
          { class: "badges" },
          p.unsure
            ? el(
                "span",
                {
                  class: "badge unsure",
                  title: "Their board needs a look: this is the score kept from before",
                },
                "≈ earlier score kept",
              )
            : "",
          p.problems ? el("span", { class: "badge warn" }, "⚠ Board needs a look") : "",
          p.warnings
            ? el(
                "span",
                { class: "badge warn" },
                `⚠ ${p.warnings} rule warning${p.warnings === 1 ? "" : "s"}`,
              )
            : "",
          won.has(p.seat) ? el("span", { class: "badge good" }, "★ Winner") : "",
        ),
        lines.length
          ? el(
              "details",
              { class: "detail" },
              el("summary", {}, `${lines.length} note${lines.length === 1 ? "" : "s"}`),
              el("ul", {}, ...lines),
            )
          : "",
      );
    }),
  );
  flip(before);
}

function positions() {
  return new Map(
    [...players.querySelectorAll(".player")].map((card) => [
      card.dataset.seat,
      card.getBoundingClientRect(),
    ]),
  );
}

// FLIP: each card starts where it was and glides to its new place; no motion when the player
// asked for less.
const still = window.matchMedia("(prefers-reduced-motion: reduce)");
function flip(before) {
  if (still.matches) return;
  for (const card of players.querySelectorAll(".player")) {
    const was = before.get(card.dataset.seat);
    if (!was) continue;
    const now = card.getBoundingClientRect();
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    if (!dx && !dy) continue;
    card.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], {
      duration: 450,
      easing: "cubic-bezier(0.2, 0.8, 0.2, 1)",
    });
  }
}

// Rows are the game's categories, columns the players best first; each player lists the same
// categories in the same order (companion/table/categories.py).
function showCategories(ranked) {
  const table = document.getElementById("category-table");
  const rows = ranked[0] ? ranked[0].categories || [] : [];
  const head = el(
    "thead",
    {},
    el(
      "tr",
      {},
      el("th", { scope: "col" }, "Category"),
      ...ranked.map((p) =>
        el(
          "th",
          { scope: "col", "data-seat": p.seat },
          badge(p),
          el("span", { class: "col-name" }, p.name),
        ),
      ),
    ),
  );
  const cell = (p, i) => {
    const c = (p.categories || [])[i] || {};
    const missing = c.points === null || c.points === undefined;
    const shown = "count" in c ? c.count : missing ? "—" : c.points;
    return el(
      "td",
      { "data-seat": p.seat, "data-category": c.name || "" },
      el("span", { class: "value" }, String(shown)),
      // A number stays with its word ("1 pressed") when a narrow column wraps the note.
      c.note ? el("span", { class: "note" }, c.note.replace(/(\d) /g, "$1\u00a0")) : "",
    );
  };
  const scored = rows.map((row, i) => ({ row, i })).filter(({ row }) => !("count" in row));
  const ties = rows.map((row, i) => ({ row, i })).filter(({ row }) => "count" in row);
  const line = ({ row, i }, extra = "") =>
    el("tr", {}, el("th", { scope: "row" }, row.name, extra), ...ranked.map((p) => cell(p, i)));
  table.replaceChildren(
    head,
    el("tbody", {}, ...scored.map((r) => line(r))),
    el(
      "tfoot",
      {},
      el(
        "tr",
        { class: "sum" },
        el("th", { scope: "row" }, "Total"),
        ...ranked.map((p) =>
          el(
            "td",
            { "data-seat": p.seat, "data-category": "Total" },
            el("span", { class: "value" }, String(p.total)),
          ),
        ),
      ),
      ...ties.map((r) => line(r, el("span", { class: "note" }, "tie-break, not points"))),
    ),
  );
  const unsure = ranked.some((p) => p.problems || p.unsure);
  document.getElementById("categories-note").textContent = unsure
    ? "— : the board needs a look, so its points cannot be split yet."
    : "";
}

// Score by round: drawn only where rounds bank (Color Field); elsewhere a player's score is
// their board as it stands, with no round of its own to plot.
function showChart(scores) {
  const section = document.getElementById("chart");
  const rounds = Math.max(0, ...scores.players.map((p) => p.round_scores.length));
  section.hidden = rounds === 0;
  if (rounds === 0) return;
  const series = rankOrder(scores).map((p) => {
    let sum = 0;
    const values = p.round_scores.map((points) => (sum += points));
    const shape = scores.players.indexOf(p);
    return { key: p.seat, name: p.name, colour: p.colour, shape, values };
  });
  const steps = Array.from({ length: rounds }, (_, r) => `Round ${r + 1}`);
  document.getElementById("chart-plot").replaceChildren(lineChart(steps, series));
}

// After the end: who won, big, and the tie-break in words; no more rounds to end.
function showWinner(scores, names) {
  const line = document.getElementById("winner");
  const who = scores.winner.map((seat) => names[seat]).join(" and ");
  let text = "";
  if (scores.over && scores.decided_by === "shared") text = `${who} share the win`;
  else if (scores.over) text = `${who} wins`;
  line.textContent = text;
  line.hidden = !scores.over;
  document.getElementById("winner-screen").hidden = !scores.over;
  const best = scores.players.find((p) => scores.winner.includes(p.seat));
  const words = DECIDED[scores.decided_by] || (() => `Decided by ${scores.decided_by}.`);
  document.getElementById("decided").textContent = scores.over && best ? words(best.total) : "";
  for (const id of ["end-round", "end-game", "penalties", "roll", "tools"]) {
    const button = document.getElementById(id);
    if (button) button.hidden = scores.over;
  }
}

// The emulated LED displays: one per seat in seat order (the first four), as the table's
// LEDs show the table with the latest change.
const ledStrip = document.getElementById("led-displays");
let ledState = null;
function showLed() {
  if (!ledStrip || !ledState || !latest) return;
  ledStrip.replaceChildren(
    ...ledState.displays.map((text, i) => {
      const p = latest.players[i];
      const lit = ledState.highlight[i];
      const name = p ? p.name : `Display ${i + 1}`;
      return el(
        "figure",
        // Blinking: the display shows a total kept while that player's board needs a look.
        {
          class: `led-display${lit ? " lit" : ""}${ledState.blink?.[i] ? " blink" : ""}`,
          "data-seat": p ? p.seat : "",
        },
        el("figcaption", {}, name, lit ? el("span", { class: "lead" }, " · leads") : ""),
        el("output", { class: "digits", "aria-label": `${name}'s display` }, text),
      );
    }),
  );
}
async function pollLed() {
  try {
    const response = await fetch("/api/led");
    if (!response.ok) return;
    ledState = await response.json();
    showLed();
  } catch {
    // The next poll tries again; the digits keep their last value meanwhile.
  }
}

render(JSON.parse(document.getElementById("initial").textContent));
live((data) => {
  lastSummary = data.event.summary;
  document.getElementById("last").textContent = lastSummary;
  if (data.scores) render(data.scores);
});
if (ledStrip) {
  pollLed();
  setInterval(pollLed, 1000);
}

async function change(url) {
  const answer = await api(url, { method: "POST" });
  if (message) message.textContent = answer.ok ? "" : answer.data.error;
}
const undo = document.getElementById("undo");
if (undo) undo.addEventListener("click", () => change(`/api/tables/${page.table}/undo`));
const endRound = document.getElementById("end-round");
if (endRound) endRound.addEventListener("click", () => change(`/api/tables/${page.table}/rounds`));
const endGame = document.getElementById("end-game");
if (endGame) endGame.addEventListener("click", () => change(`/api/tables/${page.table}/end`));

// Pigment Lab: the Spill Line count and the diagnosis verdicts no camera sees, one tap each.
for (const form of document.querySelectorAll("form.penalty")) {
  const seat = Number(form.dataset.seat);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chips = Number(form.elements.chips.value);
    const answer = await api(`/api/tables/${page.table}/spills`, {
      method: "POST",
      json: { seat, chips },
    });
    if (message) message.textContent = answer.ok ? "" : answer.data.error;
  });
  for (const button of form.querySelectorAll("button[data-right]")) {
    button.addEventListener("click", async () => {
      const right = button.dataset.right === "true";
      const answer = await api(`/api/tables/${page.table}/diagnoses`, {
        method: "POST",
        json: { seat, right },
      });
      if (message) message.textContent = answer.ok ? "" : answer.data.error;
    });
  }
}

// Isle of Colors: the die as rolled, one tap; boards already scanned this round are judged again.
for (const face of document.querySelectorAll("button[data-roll]")) {
  face.addEventListener("click", async () => {
    const answer = await api(`/api/tables/${page.table}/rolls`, {
      method: "POST",
      json: { roll: Number(face.dataset.roll) },
    });
    if (message) message.textContent = answer.ok ? "" : answer.data.error;
  });
}

// Paintings: the tokens in hand, which break a tie on points and no camera sees.
for (const form of document.querySelectorAll("form.tokens")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await api(`/api/tables/${page.table}/tokens`, {
      method: "POST",
      json: { seat: Number(form.dataset.seat), tokens: Number(form.elements.tokens.value) },
    });
    if (message) message.textContent = answer.ok ? "" : answer.data.error;
  });
}

// Color Field with Community Tools: the round's card and each decline, as the table holds them.
function showTools(tools) {
  if (!toolCard || !tools) return;
  shownTools = tools;
  toolCard.value = tools.card || "";
  for (const box of declines) {
    box.checked = tools.declined.includes(Number(box.dataset.seat));
    box.disabled = !tools.card;
  }
}
async function enterTools(json) {
  const answer = await api(`/api/tables/${page.table}/tools`, { method: "POST", json });
  if (message) message.textContent = answer.ok ? "" : answer.data.error;
  // A refused tap leaves the controls as the table holds them.
  showTools(answer.ok ? answer.data.scores.tools : shownTools);
}
if (toolCard) {
  toolCard.addEventListener("change", () => enterTools({ card: toolCard.value || null }));
  for (const box of declines) {
    box.addEventListener("change", () =>
      enterTools({ seat: Number(box.dataset.seat), declined: box.checked }),
    );
  }
}

// A new join link: this page moves to it, every other phone keeps the old one, which no longer
// changes the table.
const newLink = document.getElementById("new-link");
if (newLink) {
  newLink.addEventListener("click", async () => {
    if (!confirm("Make a new join link? Phones that joined with the old one can only watch.")) return;
    const answer = await api(`/api/tables/${page.table}/token`, { method: "POST" });
    if (answer.ok) location.replace(answer.data.links.scoreboard);
    else if (message) message.textContent = answer.data.error;
  });
}
const deleteTable = document.getElementById("delete-table");
if (deleteTable) {
  deleteTable.addEventListener("click", async () => {
    if (!confirm("Delete this table, its history and its pictures for good?")) return;
    const answer = await api(`/api/tables/${page.table}`, { method: "DELETE" });
    if (answer.ok) location.replace("/");
    else if (message) message.textContent = answer.data.error;
  });
}

// A scoreboard opened to follow the live table moves on when the live source starts its next
// game on a table of its own.
const FOLLOW_MS = 2000;
if (page.follow) {
  setInterval(async () => {
    try {
      const answer = await api("/api/live");
      if (answer.ok && answer.data.table !== page.table) location.replace(page.follow);
    } catch {
      // The server is away for a moment: the next poll asks again.
    }
  }, FOLLOW_MS);
}
