import { api, el, page } from "./live.js";

const status = document.getElementById("status");
const message = document.getElementById("message");
const readings = document.getElementById("readings");
const dialog = document.getElementById("fix");
let scan = null;
let boards = [];

function valueText(value) {
  if (value === null || value === undefined) return "empty";
  if (typeof value === "object") return `${value.tile} ↻${value.rotation}`;
  return String(value);
}

function renderBoards() {
  readings.replaceChildren(
    ...boards.map((board) =>
      el(
        "article",
        { class: "reading", "data-seat": board.seat },
        el(
          "h2",
          {},
          `Seat ${board.seat}: `,
          board.score ? el("span", { class: "total" }, `${board.score.total} points`) : "needs a look",
        ),
        el("ul", { class: "problems" }, board.problems.map((p) => el("li", {}, p))),
        el("ul", { class: "warnings" }, board.warnings.map((w) => el("li", {}, w.message))),
        el(
          "div",
          { class: "components" },
          board.components.map((c) =>
            el(
              "button",
              {
                type: "button",
                class: `component${c.problem ? " bad" : ""}${c.corrected ? " fixed" : ""}`,
                "data-component": c.component,
                onclick: () => edit(board, c),
              },
              el("span", { class: "small" }, c.component),
              el("span", {}, valueText(c.value)),
            ),
          ),
        ),
      ),
    ),
  );
}

// Tapping a component opens a small editor: a person's reading replaces the camera's.
function edit(board, component) {
  document.getElementById("fix-title").textContent = `Seat ${board.seat}: ${component.component}`;
  const field = document.getElementById("fix-field");
  const value = component.value;
  const tile = board.game === "colorfield";
  const input = el("input", {
    id: "fix-value",
    value: value === null ? "" : tile ? value.tile : String(value),
    placeholder: "empty",
    autocomplete: "off",
  });
  const rotation = el(
    "select",
    { id: "fix-rotation" },
    [0, 1, 2, 3].map((r) => el("option", { value: r }, `${r} quarter turns`)),
  );
  if (tile && value) rotation.value = String(value.rotation);
  field.replaceChildren("Value ", input, tile ? rotation : "");
  dialog.onclose = async () => {
    if (dialog.returnValue !== "save") return;
    const text = input.value.trim();
    let newValue = text === "" ? null : text;
    if (tile && newValue !== null) newValue = { tile: text, rotation: Number(rotation.value) };
    const answer = await api(page.corrections, {
      method: "POST",
      json: { scan, seat: board.seat, component: component.component, value: newValue },
    });
    if (!answer.ok) {
      message.textContent = answer.data.error;
      return;
    }
    message.textContent = "";
    boards = boards.map((b) => (b.seat === board.seat ? answer.data.board : b));
    renderBoards();
  };
  dialog.showModal();
}

document.getElementById("photo").addEventListener("change", async (changeEvent) => {
  const file = changeEvent.target.files[0];
  if (!file) return;
  const form = new FormData();
  form.append("image", file);
  status.textContent = "Reading the photo…";
  message.textContent = "";
  const answer = await api(page.scans, { method: "POST", form });
  status.textContent = "";
  if (!answer.ok) {
    message.textContent = answer.data.error;
    return;
  }
  scan = answer.data.event;
  boards = answer.data.boards;
  status.textContent = `Read in ${answer.data.timing_ms} ms. Tap a component to correct it.`;
  renderBoards();
});
