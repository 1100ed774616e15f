import { api, el, live, page } from "./live.js";

const list = document.getElementById("history");

async function refresh() {
  const answer = await api(page.history);
  if (!answer.ok) return;
  list.replaceChildren(
    ...answer.data.history.map((entry) =>
      el(
        "li",
        { class: entry.undone ? "undone" : "", "data-event": entry.id },
        el("time", {}, new Date(entry.at * 1000).toLocaleTimeString()),
        " ",
        entry.summary,
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
