import { api, el, live, page } from "./live.js";

const players = document.getElementById("players");
const message = document.getElementById("message");
const toolCard = document.getElementById("tool-card");
const declines = document.querySelectorAll("#tools input[data-seat]");
let lastSummary = "";
let shownTools = null;

function render(scores) {
  const names = Object.fromEntries(scores.players.map((p) => [p.seat, p.name]));
  const rolled = scores.roll ? ` · roll ${scores.roll}` : "";
  document.getElementById("round").textContent = scores.finished
    ? "Game over"
    : `Round ${scores.round}${rolled}`;
  for (const face of document.querySelectorAll("button[data-roll]")) {
    face.setAttribute("aria-pressed", String(Number(face.dataset.roll) === scores.roll));
  }
  document.getElementById("turn").textContent = scores.finished
    ? ""
    : ` · ${names[scores.turn]}'s turn`;
  showWinner(scores, names);
  showTools(scores.tools);
  const changed = new Set(scores.changed_seats);
  const token = page.token ? `?token=${encodeURIComponent(page.token)}` : "";
  players.replaceChildren(
    ...scores.players.map((p) =>
      el(
        "a",
        {
          class: `player${changed.has(p.seat) ? " changed" : ""}`,
          href: `/t/${page.table}/seat/${p.seat}${token}`,
          "data-seat": p.seat,
          style: `border-color: ${p.colour}`,
        },
        el("span", { class: "place" }, `${p.place}.`),
        el("span", { class: "name" }, p.name),
        // Unsure: a total kept from the last board that scored while this one needs a look.
        el(
          "span",
          { class: `total${p.unsure ? " unsure" : ""}`, "data-total": p.total },
          `${p.total}${p.unsure ? " ?" : ""}`,
        ),
        el(
          "span",
          { class: "detail" },
          p.round_scores.length ? `rounds ${p.round_scores.join(" + ")}` : "",
          p.problems ? el("span", { class: "warn" }, " needs a look") : "",
          p.warnings ? el("span", { class: "warn" }, ` ${p.warnings} rule warnings`) : "",
          ...p.penalties.map((line) => el("span", { class: "penalty-line" }, line.explanation)),
          ...(p.tool_points || []).map((line) =>
            el("span", { class: "penalty-line" }, `Round ${line.round} ${line.explanation}`),
          ),
        ),
      ),
    ),
  );
}

// After the end: who won, and the tie-break when one decided it; no more rounds to end.
function showWinner(scores, names) {
  const line = document.getElementById("winner");
  const who = scores.winner.map((seat) => names[seat]).join(" and ");
  let text = "";
  if (scores.over && scores.decided_by === "shared") text = `${who} share the win`;
  else if (scores.over && scores.decided_by === "points") text = `${who} wins`;
  else if (scores.over) text = `${who} wins on the tie-break: ${scores.decided_by}`;
  line.textContent = text;
  line.hidden = !scores.over;
  for (const id of ["end-round", "end-game", "penalties", "roll", "tools"]) {
    const button = document.getElementById(id);
    if (button) button.hidden = scores.over;
  }
}

render(JSON.parse(document.getElementById("initial").textContent));
live((data) => {
  lastSummary = data.event.summary;
  document.getElementById("last").textContent = lastSummary;
  if (data.scores) render(data.scores);
});

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

// The emulated LED displays, as virtual digits, when the server drives them.
const ledStrip = document.getElementById("led");
async function showLed() {
  try {
    const response = await fetch("/api/led");
    if (!response.ok) return;
    const state = await response.json();
    ledStrip.replaceChildren(
      ...state.displays.map((text, i) =>
        el(
          "span",
          { class: `digits${state.highlight[i] ? " lit" : ""}${state.blink[i] ? " blink" : ""}` },
          text,
        ),
      ),
    );
  } catch {
    // The next poll tries again; the digits keep their last value meanwhile.
  }
}
if (ledStrip) {
  showLed();
  setInterval(showLed, 1000);
}
