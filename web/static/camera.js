// The camera view: fetch the newest annotated frame again as soon as one has been shown, and
// move on with the live source when it starts its next game on a table of its own.
import { api, page } from "./live.js";

const frame = document.getElementById("camera-frame");
const PAUSE_MS = 300;

function next() {
  setTimeout(() => {
    frame.src = `${frame.dataset.src}&at=${Date.now()}`;
  }, PAUSE_MS);
}

frame.addEventListener("load", next);
frame.addEventListener("error", () => setTimeout(next, 2000));

const FOLLOW_MS = 2000;
setInterval(async () => {
  try {
    const answer = await api(page.live);
    if (answer.ok && answer.data.table !== page.table) location.replace(page.follow);
  } catch {
    // The server is away for a moment: the next poll asks again.
  }
}, FOLLOW_MS);
