import { api, el, page } from "./live.js";
import { boardName, componentList, loadContent, pick } from "./picker.js";

const status = document.getElementById("status");
const message = document.getElementById("message");
const readings = document.getElementById("readings");
const details = document.getElementById("details");
const dialog = document.getElementById("fix");
const content = loadContent(page.content);
let scan = null;
let boards = [];
let players = [];

// Players by name ("Ana's board"), from the table state the page is about.
async function loadPlayers() {
  const answer = await api(page.api);
  if (answer.ok) players = answer.data.players;
}

async function renderBoards() {
  const pieces = await content;
  readings.replaceChildren(
    ...boards.map((board) =>
      el(
        "article",
        { class: "reading", "data-seat": board.seat },
        el(
          "h2",
          {},
          `${boardName(players, board.seat)}: `,
          board.score ? el("span", { class: "total" }, `${board.score.total} points`) : "needs a look",
        ),
        el("ul", { class: "problems" }, board.problems.map((p) => el("li", {}, p))),
        el("ul", { class: "warnings" }, board.warnings.map((w) => el("li", {}, w.message))),
        componentList(board.game, board, pieces, (c) => edit(board, c)),
      ),
    ),
  );
}

// Tapping a component opens the picker: a person's reading replaces the camera's.
async function edit(board, component) {
  const value = await pick(dialog, {
    game: board.game,
    component,
    content: await content,
    title: `${boardName(players, board.seat)} · ${component.component}`,
  });
  if (value === undefined) return;
  const answer = await api(page.corrections, {
    method: "POST",
    json: { scan, seat: board.seat, component: component.component, value },
  });
  if (!answer.ok) {
    message.textContent = answer.data.error;
    return;
  }
  message.textContent = "";
  boards = boards.map((b) => (b.seat === board.seat ? answer.data.board : b));
  renderBoards();
}

const named = loadPlayers();
content.catch((error) => {
  message.textContent = error.message;
});

const photo = document.getElementById("photo");
photo.addEventListener("change", async (changeEvent) => {
  const file = changeEvent.target.files[0];
  if (!file) return;
  const form = new FormData();
  form.append("image", file);
  status.textContent = "Reading the photo…";
  message.textContent = "";
  details.hidden = true;
  const answer = await api(page.scans, { method: "POST", form });
  status.textContent = "";
  if (!answer.ok) {
    message.textContent = answer.data.error;
    return;
  }
  scan = answer.data.event;
  boards = answer.data.boards;
  status.textContent = boards.length
    ? "Scanned. Tap a piece the camera misread to correct it."
    : "No board of this table in the photo.";
  // How long the reading took matters to whoever tunes the camera, not to players: asked for.
  details.querySelector("span").textContent = `Read in ${Math.round(answer.data.timing_ms)} ms.`;
  details.hidden = false;
  await named;
  renderBoards();
});
// The page is served with the photo input off: a photo chosen before this script listened would
// be lost without a word on a slow phone.
photo.disabled = false;
