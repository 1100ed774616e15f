// Joining: the code form, then "Who are you?". A player's choice asks the table; the phone
// waits for a yes from a device already at the table, then opens its seat and remembers it.
import { api, el, page } from "./live.js";
import { forget, recall, remember, seatLink } from "./my-seat.js";

const POLL_MS = 1000;
const back = document.getElementById("back");
const who = document.getElementById("who");
const waiting = document.getElementById("waiting");
const message = document.getElementById("message");

// A phone that plays somewhere goes back to its seat while that game is on; once it is over (or
// the table is gone) the phone is free to join another.
async function backToSeat() {
  const seat = recall();
  if (!seat) return;
  const answer = await api(`/api/tables/${seat.table}`);
  if (answer.status === 404) {
    forget();
    return;
  }
  const onThisTable = !page.table || page.table === seat.table;
  if (answer.ok && !answer.data.over && onThisTable && !document.getElementById("error")) {
    location.replace(seatLink(seat));
    return;
  }
  back.replaceChildren(
    `You play as ${seat.name} at ${seat.game}. `,
    el("a", { class: "button", href: seatLink(seat) }, "Back to your seat"),
  );
  back.hidden = false;
}

function choosing(text) {
  waiting.hidden = true;
  who.hidden = false;
  message.textContent = text;
}

async function waitFor(request, name) {
  const answer = await api(`/api/join/requests/${request}`);
  if (!answer.ok) {
    choosing(`Your request to play as ${name} was lost: ask again.`);
    return;
  }
  const { status } = answer.data;
  if (status === "allowed") {
    remember({
      table: page.table,
      seat: answer.data.seat,
      name,
      game: page.game,
      token: answer.data.token,
    });
    location.replace(answer.data.links.seat);
  } else if (status === "refused") {
    choosing(`The table said no to you playing as ${name}. Ask them, then try again.`);
  } else if (status === "expired") {
    choosing(`Nobody answered in time: ask again to play as ${name}.`);
  } else {
    setTimeout(() => waitFor(request, name), POLL_MS);
  }
}

async function ask(button) {
  const name = button.dataset.name;
  message.textContent = "";
  const answer = await api(page.requests, {
    method: "POST",
    json: { code: page.code, seat: Number(button.dataset.seat) },
  });
  if (!answer.ok) {
    message.textContent = answer.data.error;
    return;
  }
  who.hidden = true;
  document.getElementById("waiting-text").textContent = `Asking to play as ${name}…`;
  waiting.hidden = false;
  setTimeout(() => waitFor(answer.data.request, name), POLL_MS);
}

if (who) {
  for (const button of who.querySelectorAll("button[data-seat]")) {
    button.addEventListener("click", () => ask(button));
  }
}
backToSeat();
