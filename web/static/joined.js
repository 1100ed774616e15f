// On a table's pages: say whether this page watches or plays (and as whom), take a phone that
// plays at this table back to its seat, and on a page that plays, let a player allow or refuse
// the phones asking to join.
import { api, el, page } from "./live.js";
import { forget, recall, remember, seatLink } from "./my-seat.js";

const ASKS_MS = 3000;
const bar = document.getElementById("who-bar");
const asks = document.getElementById("join-asks");
const seat = recall();
const mine = seat && seat.table === page.table ? seat : null;
const sent = new URLSearchParams(location.search).get("token");

const ownSeat = Number(bar.dataset.ownSeat || 0);

if (mine && !sent && (!ownSeat || ownSeat === mine.seat)) {
  // The table's scoreboard, or this phone's seat, opened without a token: its seat, playing.
  location.replace(seatLink(mine));
} else if (mine && sent === mine.token && !page.token) {
  // The table was given a new join link since: this phone only watches now.
  forget();
} else if (mine && page.token === mine.token) {
  showMine(mine);
} else if (page.token && ownSeat) {
  // A device that came with the join link itself (its QR code) says once which player it is.
  const me = {
    table: page.table,
    seat: ownSeat,
    name: bar.dataset.ownName,
    game: bar.dataset.game,
    token: page.token,
  };
  bar.append(
    el(
      "button",
      {
        type: "button",
        id: "this-is-me",
        onclick: () => {
          remember(me);
          showMine(me);
        },
      },
      `I am ${me.name}`,
    ),
  );
}

// The bar of a device that plays as ``me``: who it is, its seat, and a way to leave it.
function showMine(me) {
  const parts = [el("span", { id: "who-text" }, `You are ${me.name}`)];
  if (ownSeat !== me.seat) {
    parts.push(el("a", { class: "button", href: seatLink(me) }, "Your seat"));
  }
  parts.push(
    el(
      "button",
      {
        type: "button",
        id: "leave",
        onclick: () => {
          forget();
          location.assign("/join");
        },
      },
      "Leave",
    ),
  );
  bar.replaceChildren(...parts);
}

async function showAsks() {
  if (document.hidden) return;
  let answer;
  try {
    answer = await api(`/api/tables/${page.table}/join-requests`);
  } catch {
    return; // the server is away for a moment: the next poll asks again
  }
  if (!answer.ok) return;
  asks.replaceChildren(
    ...answer.data.requests.map((request) =>
      el(
        "p",
        { class: "join-ask", "data-seat": request.seat },
        el("span", {}, `A phone wants to join as ${request.name}`),
        el("button", { class: "big", onclick: () => reply(request, true) }, "Allow"),
        el("button", { class: "danger", onclick: () => reply(request, false) }, "Refuse"),
      ),
    ),
  );
}

async function reply(request, allow) {
  const answer = await api(`/api/tables/${page.table}/join-requests/${request.request}`, {
    method: "POST",
    json: { allow },
  });
  await showAsks();
  if (!answer.ok) asks.prepend(el("p", { class: "error" }, answer.data.error));
}

if (asks) {
  showAsks();
  setInterval(showAsks, ASKS_MS);
  document.addEventListener("visibilitychange", showAsks);
}
