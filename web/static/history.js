import { api, el, live, page } from "./live.js";

const list = document.getElementById("history");
// When it happened, to the minute: seconds are noise at a table.
const CLOCK = { hour: "numeric", minute: "2-digit" };

async function refresh() {
  const answer = await api(page.history);
  if (!answer.ok) return;
  list.replaceChildren(
    ...answer.data.history.map((entry) =>
      el(
        "li",
        { class: entry.undone ? "undone" : "", "data-event": entry.id },
        el("time", {}, new Date(entry.at * 1000).toLocaleTimeString([], CLOCK)),
        " ",
        entry.summary,
        // Struck through is not the only sign that a change was taken back.
        entry.undone ? el("span", { class: "small" }, " (taken back)") : null,
      ),
    ),
  );
}

refresh();
live(() => refresh());
const undo = document.getElementById("undo");
if (undo) {
  undo.addEventListener("click", async () => {
    const answer = await api(page.undo, { method: "POST" });
    document.getElementById("message").textContent = answer.ok ? "" : answer.data.error;
  });
}
